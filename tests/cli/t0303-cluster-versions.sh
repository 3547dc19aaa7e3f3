# archscope cluster refuses ranks that run another archscope: node1 of two namespace nodes sees,
# through a bind mount in its own mount namespace, an archscope-cluster whose version string is
# changed, then one that is another build of the same version. Exit 2, naming the node and both.
. "$(dirname "$0")/lib.sh"
require MPI NETNS
. "$ROOT/tests/cli/mpi.sh"
netns_up 2 || skip "needs NETNS ($NETNS_WHY)"
exe="$(dirname "$ARCHSCOPE")/archscope-cluster"
version=$("$ARCHSCOPE" version | awk '{print $2}')
[ -n "$version" ] || fail "no version from '$ARCHSCOPE version'"

# another version: the same executable with its version string replaced (same length)
python3 - "$exe" "$TMP/other-version" "$version" <<'PY' || fail "cannot make an executable of another version"
import sys
data, v = open(sys.argv[1], "rb").read(), sys.argv[3].encode()
w = b"9" * len(v) if v != b"9" * len(v) else b"8" * len(v)
old, new = b"\0" + v + b"\0", b"\0" + w + b"\0"
assert data.count(old) >= 1, "version string not found"
open(sys.argv[2], "wb").write(data.replace(old, new))
PY
chmod +x "$TMP/other-version"
# the same version, another build: one byte more
cp "$exe" "$TMP/other-build" && printf '\n' >>"$TMP/other-build" && chmod +x "$TMP/other-build"
test_expect_success 'node1 runs another version: exit 2, naming the node and both versions' '
	netns_hook 1 "mount --bind $TMP/other-version $exe"
	run 2 netns_mpirun 1 "$ARCHSCOPE" cluster --skip nodes
	contains "$TMP/err" "archscope: error: cluster: rank 1 on node1 runs archscope 9*8*, rank 0 on node0 runs $version (1 rank differs): install one version on every node"
	[ ! -s "$TMP/out" ] || fail "results printed"
'
test_expect_success 'node1 runs another build of the same version: exit 2, naming the digest' '
	netns_hook 1 "mount --bind $TMP/other-build $exe"
	run 2 netns_mpirun 1 "$ARCHSCOPE" cluster --skip nodes
	contains "$TMP/err" "rank 1 on node1 runs another build of archscope $version than rank 0 on node0 (executable digest"
'
test_done
