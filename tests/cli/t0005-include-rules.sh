# The layering rules check themselves: tests/check-rules.py finds no forbidden #include, no
# as_<module> link outside tests/include-rules.txt and no exit or print in library code; and on a
# small tree with one of each it fails, naming file:line and the edge.
. "$(dirname "$0")/lib.sh"
check="$ROOT/tests/check-rules.py"
test_expect_success 'the source tree keeps its layering rules' '
	python3 "$check" --root "$ROOT" >"$TMP/out" 2>&1 || { cat "$TMP/out" >&2; fail "the tree breaks its layering rules"; }
'

# A tree that breaks every rule once.
f="$TMP/tree"
mkdir -p "$f/src/common" "$f/src/topo" "$f/src/probe" "$f/src/model" "$f/src/cli" "$f/src/extra"
printf '#include "common/x.h"\n' >"$f/src/topo/t.h"
printf '/* a probe */\n#include "topo/t.h"\n#include "model/m.h"\n#include "probe.h"\n' >"$f/src/probe/p.c"
printf '// #include "model/m.h" in a comment is fine\n' >"$f/src/probe/probe.h"
printf 'int m(void);\n' >"$f/src/model/m.h"
printf 'void c(void)\n{\n\tprintf("x");\n\tfputs("exit(1)", stderr);\n}\n' >"$f/src/common/x.c"
printf '#include "model/m.h"\n#include "probe/probe.h"\nint main(void) { puts("ok"); return 0; }\n' >"$f/src/cli/main.c"
printf 'int e(void);\n' >"$f/src/extra/e.c"
cat >"$f/CMakeLists.txt" <<'EOF'
add_library(as_common STATIC x)
add_library(as_probe STATIC x)
target_link_libraries(as_probe PUBLIC as_topo as_model as_common)
set(AS_MODULES as_common)
EOF
printf 'src/common/x.c abort  gone\n' >"$TMP/calls"
test_expect_success 'a tree that breaks every rule once: each violation named, nothing allowed flagged' '
	run 1 python3 "$check" --root "$f" --calls "$TMP/calls"
	contains "$TMP/out" "^src/probe/p.c:3: probe -> model is not allowed (probe may include: analysis common machine report topo)"
	contains "$TMP/out" "^src/extra/: module extra has no line"
	contains "$TMP/out" "^CMakeLists.txt:3: as_probe links as_model: probe -> model is not allowed"
	contains "$TMP/out" "^CMakeLists.txt:2: as_probe is missing from AS_MODULES"
	contains "$TMP/out" "^src/common/x.c:3: library code uses printf()"
	contains "$TMP/out" "^src/common/x.c:4: library code uses stderr"
	contains "$TMP/out" "calls:1: src/common/x.c no longer uses abort"
	grep -q "exit\|cli/main.c\|p.c:2\|p.c:4\|probe.h" "$TMP/out" && fail "flagged an allowed include or a string: $(cat "$TMP/out")"
	tail -n 1 "$TMP/out" | grep -qx "7 rule violations" || fail "expected 7 violations: $(cat "$TMP/out")"
'
test_done
