# archscope cluster's files: --raw (placement, node figures, every matrix, layers, LogGP,
# contention, point to point, collectives, and the whole result as JSON), --plot heatmaps, --machine-files (one per node, with
# the nodes alike named); a directory that cannot be written is refused before anything is measured.
. "$(dirname "$0")/lib.sh"
require MPI
. "$ROOT/tests/cli/mpi.sh"

run 0 mpi_local 2 "$ARCHSCOPE" cluster --probes clock,caches --node-memory 4MiB --size 64KiB --window 8 --reps 50 \
	--pair-sizes 8,4KiB --sizes 8,4KiB --coll-sizes 8 --raw "$TMP/raw" --plot "$TMP/plot" --machine-files "$TMP/m"
cp "$TMP/err" "$TMP/run.err"
yaml="$TMP/m/$(hostname).yaml"
test_expect_success '--raw: placement, node figures, every matrix, layers, LogGP, contention and the JSON' '
	for f in ranks.csv nodes.csv latency-us.csv latency-p99-us.csv bandwidth-gbs.csv bandwidth-shift-gbs.csv \
		 latency-8B-us.csv latency-4096B-us.csv layers.csv loggp.csv contention.csv point-to-point.csv \
		 collectives.csv cluster.json; do
		[ -s "$TMP/raw/$f" ] || fail "--raw has no $f: $(ls "$TMP/raw")"
	done
	python3 - "$TMP/raw" <<-\PY || fail "--raw contents (above)"
	import csv, json, math, os, sys
	d = sys.argv[1]
	j = json.load(open(os.path.join(d, "cluster.json")))
	assert j["command"] == "cluster" and "layers" in j["results"] and "nodes" in j["results"]
	lat = list(csv.reader(open(os.path.join(d, "latency-us.csv"))))
	assert lat[0] == ["from", "0", "1"] and float(lat[1][2]) > 0 and math.isnan(float(lat[1][1]))
	# the saved matrix is the printed one
	assert abs(float(lat[1][2]) - j["results"]["latency_us"][0][1]) <= 1e-5 * float(lat[1][2])
	nodes = list(csv.DictReader(open(os.path.join(d, "nodes.csv"))))
	figs = {r["figure"] for r in nodes}
	assert {"cpus", "clock", "L1 size", "L1 latency"} <= figs, figs
	layers = list(csv.DictReader(open(os.path.join(d, "layers.csv"))))
	assert {r["rank"] for r in layers} == {"0", "1"}
	p2p = list(csv.DictReader(open(os.path.join(d, "point-to-point.csv"))))
	assert [(r["a"], r["b"], r["bytes"]) for r in p2p] == [("0", "1", "8"), ("0", "1", "4096")], p2p
	assert all(float(r["latency_us"]) > 0 and float(r["bandwidth_gbs"]) > 0 for r in p2p), p2p
	coll = list(csv.DictReader(open(os.path.join(d, "collectives.csv"))))
	assert {r["operation"] for r in coll} == {"barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall"}, coll
	assert all(r["communicator"] == "world" and r["ranks"] == "2" for r in coll), coll
	PY
'
test_expect_success '--plot: the heatmaps' '
	command -v gnuplot >/dev/null || skip "no gnuplot in PATH"
	for p in cluster-latency cluster-bandwidth cluster-bandwidth-shift; do
		[ -s "$TMP/plot/$p.svg" ] && [ -s "$TMP/plot/$p.png" ] || fail "no heatmap $p: $(ls "$TMP/plot")"
	done
'
test_expect_success '--machine-files: one per node, the nodes alike named, the keys not measured said' '
	contains "$TMP/run.err" "machine files alike within the run'\''s noise: $(hostname)"
	[ -s "$yaml" ] || fail "no machine file: $(ls "$TMP/m")"
	contains "$yaml" "^clock: [0-9.]* GHz"
	contains "$yaml" "cluster --machine-files"
	# the quick probes leave keys out (FLOPs per cycle, upstream throughput): said, not hidden
	contains "$TMP/run.err" "machine file $yaml: [0-9]* keys* the quick probes do not measure"
'

# output directories that cannot be written: refused at once, nothing measured
test_expect_success 'an output directory that cannot be written: refused before anything is measured' '
	touch "$TMP/file"
	run 1 mpi_local 2 "$ARCHSCOPE" cluster --raw "$TMP/file/raw"
	contains "$TMP/err" "archscope: error: .*$TMP/file"
	! grep -q "progress" "$TMP/err" || fail "measured before refusing the directory"
	[ ! -s "$TMP/out" ] || fail "results printed"
'
test_done
