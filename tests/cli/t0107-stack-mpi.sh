# stack on `mpirun -np {T}` of an MPI program on this node (issue 36 item 1): the launcher and
# every rank are followed, the ranks' waits in MPI calls (busy polling on one node) are spinning
# ("mpi") at the call site in the program's source, MPI_Init/Finalize and the runtime's helper
# threads (asleep in poll) are waiting for others, not delimiters, and the components sum to N.
# examples/stack/mpi/phases.c splits each of its 20 phases 1:2 over 2 ranks: the first rank waits
# a third of the time in MPI_Allreduce.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
require MPIRUN
mpicc -O2 -g -o "$TMP/phases" "$ROOT/examples/stack/mpi/phases.c" || fail "mpicc does not build phases.c"
ROOTOPT=
[ "$(id -u)" -eq 0 ] && ROOTOPT=--allow-run-as-root
run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- mpirun $ROOTOPT --oversubscribe -np "{T}" "$TMP/phases" 6000
"$PY" - "$TMP/out" <<'PY' || fail "mpirun: wrong stack (JSON in $TMP/out)"
import json, sys
r = json.load(open(sys.argv[1]))["results"]["runs"][0]
c, b, n = r["components"], r["by_primitive"], r["threads"]
print("processes", r["processes"], "at once", r["threads_max"], {k: round(v, 3) for k, v in c.items()},
      {k: round(v, 3) for k, v in b.items() if v}, r["waiting_for_others_s"], r["sites"][:2], r["notes"])
assert abs(sum(c.values()) - n) < 1e-6, c
assert r["processes"] >= 3, r["processes"]          # mpirun and two ranks
assert not any("started no threads" in x or "ignores {T}" in x for x in r["notes"]), r["notes"]
assert b["mpi"] > 0.02, b                           # the first rank's waits in MPI_Allreduce
assert c["spinning"] >= b["mpi"] - 1e-9, c
w = r["waiting_for_others_s"]
assert w["mpi_init"] > 0 and w["poll"] > 0, w        # start-up, and the runtime's threads asleep
# the helper threads' sleep is not a delimiter: no more yielding than the ranks' own short waits
assert c["yielding"] < 0.25 * n, c
# where the dominant delimiter is spinning, its site is the Allreduce in phases.c
if r["dominant"] == "spinning":
    assert r["sites"] and r["sites"][0]["primitive"] == "mpi" and r["sites"][0]["where"].startswith("phases.c:"), r["sites"]
PY
exit 0
