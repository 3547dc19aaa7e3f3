#!/usr/bin/env bash
# Sets up, then runs every test: unit tests and CLI tests on the normal build, the same suite once
# more under AddressSanitizer + UndefinedBehaviorSanitizer, and a warning-free clang build.
# A test skips when the machine lacks what it needs (tests/cli/lib.sh `require`, the unit harness's
# SKIP); the prerequisites that were missing are listed before the last line, which is
# "N passed, N failed, N skipped" (a CLI script counts once). Scripts that report cases
# (test_expect_success, test_done: "# N cases, N failed") also add to a line of case counts.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

bash scripts/setup.sh || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }

pass=0 fail=0 skip=0
cases=0 cases_failed=0 cases_skipped=0 case_scripts=0
failed_names=()
declare -A missing=() missing_n=() # prerequisite -> why, how many skips

# note_skip LINE: counts a skip; "needs NAME (why)" in LINE names a missing prerequisite.
note_skip() {
	skip=$((skip + 1))
	note_missing "$1"
}
# note_missing LINE: "needs NAME (why)" in LINE names a missing prerequisite (a skipped case counts
# there, not as a skipped test)
note_missing() {
	local re='needs ([A-Z_0-9]+) \((.*)\)$'
	if [[ $1 =~ $re ]]; then
		missing[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
		missing_n[${BASH_REMATCH[1]}]=$((${missing_n[${BASH_REMATCH[1]}]:-0} + 1))
	fi
}

run_unit() { # $1 build dir, $2 label
	local bin out rc
	for bin in "$1"/u-*; do
		[ -x "$bin" ] || continue
		out=$("$bin" 2>&1); rc=$?
		local p f line
		p=$(grep -c '^ok ' <<<"$out"); f=$(grep -c '^not ok ' <<<"$out")
		while IFS= read -r line; do
			p=$((p - 1)); note_skip "$line"; echo "skip - [$2] $(basename "$bin") ${line#ok - }"
		done < <(grep '^ok .* # skip ' <<<"$out")
		pass=$((pass + p)); fail=$((fail + f))
		if [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; then
			grep -E '^not ok |^# ' <<<"$out" | sed "s|^|  [$2] |"
			if [ "$f" -eq 0 ]; then
				fail=$((fail + 1))
				echo "  [$2] $(basename "$bin") exited with $rc:"; tail -n 20 <<<"$out" | sed 's/^/    /'
			fi
			failed_names+=("$2 $(basename "$bin")")
		fi
	done
}

run_cli() { # $1 build dir, $2 label
	local t rc out line count re='^# ([0-9]+) cases, ([0-9]+) failed(, ([0-9]+) skipped)?'
	for t in tests/cli/t[0-9]*.sh; do
		out=$(ARCHSCOPE="$root/$1/archscope" ROOT="$root" bash "$t" 2>&1); rc=$?
		count= # a script with cases: its count
		line=$(grep -E "$re" <<<"$out" | tail -n 1)
		if [[ $line =~ $re ]]; then
			count=" (${BASH_REMATCH[1]} cases, ${BASH_REMATCH[2]} failed, ${BASH_REMATCH[4]:-0} skipped)"
			case_scripts=$((case_scripts + 1)); cases=$((cases + BASH_REMATCH[1]))
			cases_failed=$((cases_failed + BASH_REMATCH[2])); cases_skipped=$((cases_skipped + ${BASH_REMATCH[4]:-0}))
		fi
		case $rc in
		0) pass=$((pass + 1)); echo "ok - [$2] $(basename "$t")$count" ;;
		77) line=$(grep '^skip: ' <<<"$out" | tail -n 1); line=${line:-$(tail -n 1 <<<"$out")}
		    note_skip "$line"; echo "skip - [$2] $(basename "$t"): ${line#skip: }" ;;
		*) fail=$((fail + 1)); failed_names+=("$2 $(basename "$t")")
		   echo "not ok - [$2] $(basename "$t") (exit $rc)$count"
		   if [ -n "$count" ]; then # each failed case with what it printed
			awk '/^not ok [0-9]+ - / && !/# TODO/ {p=1; print; next} /^    / && p {print; next} {p=0}' <<<"$out" |
				head -n 80 | sed 's/^/    /'
		   else
			tail -n 15 <<<"$out" | sed 's/^/    /'
		   fi ;;
		esac
		# the cases it skipped, and the prerequisites they missed (a script that skipped whole is one skip)
		[ "$rc" -eq 77 ] || while IFS= read -r line; do
			note_missing "$line"; echo "  skip - [$2] $(basename "$t") ${line#ok }"
		done < <(grep -E '^ok [0-9]+ - .* # skip ' <<<"$out")
	done
}

echo "== unit tests (build)"
run_unit build normal
echo "== cli tests (build)"
run_cli build normal

echo "== ASan + UBSan build"
if cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DARCHSCOPE_SANITIZE=ON >/dev/null &&
   ninja -C build-asan >/dev/null; then
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	run_unit build-asan asan
	ARCHSCOPE_SANITIZED=1 run_cli build-asan asan
else
	fail=$((fail + 1)); failed_names+=("asan build")
	echo "not ok - sanitizer build failed"
fi

echo "== clang build, -Wall -Wextra -Werror"
if CC=clang cmake -S . -B build-clang -G Ninja -DARCHSCOPE_WERROR=ON >/dev/null && ninja -C build-clang >/dev/null 2>build-clang.log; then
	pass=$((pass + 1)); echo "ok - clang build without warnings"
else
	fail=$((fail + 1)); failed_names+=("clang build"); echo "not ok - clang build"; tail -n 20 build-clang.log
fi
rm -f build-clang.log

if [ "${#missing[@]}" -gt 0 ]; then
	echo "missing prerequisites (tests/cli/lib.sh):"
	for p in $(printf '%s\n' "${!missing[@]}" | sort); do
		echo "  $p: ${missing[$p]} (${missing_n[$p]} skipped)"
	done
fi
echo "cli cases: $cases in $case_scripts runs of scripts that report cases, $cases_failed failed, $cases_skipped skipped"
[ "${#failed_names[@]}" -gt 0 ] && printf 'failed: %s\n' "${failed_names[@]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
