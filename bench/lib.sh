# Shared by the bench scripts: run LABEL CMD... runs CMD with its JSON into $tmp/out.json and calls
# the script's summary JSON SECONDS LABEL, or prints why it failed.
run() {
	local label=$1; shift
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >"$tmp/out.json" 2>"$tmp/err" || { echo "$label: failed: $(tail -1 "$tmp/err")"; return; }
	t1=$(date +%s.%N)
	summary "$tmp/out.json" "$(python3 -c "print($t1 - $t0)")" "$label"
}
