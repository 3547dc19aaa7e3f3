# report --from saved results (tests/fixtures/report/, recorded on a 2-CPU KVM guest): one page under
# 5 MB with no script and no reference outside itself; every figure an <svg> that parses as XML;
# the inputs embedded as JSON equal to the files; the measured values and the warnings on it; a
# hostile string in an input stays data; bad inputs are named (exit 2).
. "$(dirname "$0")/lib.sh"
F=$ROOT/tests/fixtures/report
inputs=("$F/topology.json" "$F/probe.json" "$F/bench-scaling.json" "$F/model-jacobi.json" "$F/model-triad.json" "$F/numa-matrix.json")
run 0 "$ARCHSCOPE" report -o "$TMP/r.html" --from "${inputs[@]}"
contains "$TMP/out" "figures"
run 0 "$ARCHSCOPE" report -o "$TMP/r2.html" --json --from "${inputs[@]}"
cp "$TMP/out" "$TMP/summary.json"
check_page() {
python3 - "$TMP/r.html" "$TMP/summary.json" "${inputs[@]}" <<'PY'
import html.parser, json, re, sys, xml.etree.ElementTree as ET
page_path, summary_path, *inputs = sys.argv[1:]
raw = open(page_path, "rb").read()
assert len(raw) < 5_000_000, len(raw)
page = raw.decode("utf-8")
assert page.startswith("<!DOCTYPE html>")
assert "default-src 'none'" in page  # the browser may load nothing

class Scan(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.scripts, self.figs, self.ids = [], [], [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href", "xlink:href", "action", "srcset", "poster", "data", "background"):
            if a.get(k) and not a[k].startswith("#"):
                self.refs.append((tag, k, a[k]))
        if tag == "script":
            self.scripts.append(a)
        if tag == "figure":
            self.figs.append([a.get("id"), 0])
            self.ids.append(a.get("id"))
        if tag == "svg" and self.figs:
            self.figs[-1][1] += 1
        if tag in ("iframe", "object", "embed", "link", "img", "video", "audio"):
            self.refs.append((tag, "", ""))
s = Scan()
s.feed(page)
assert not s.refs, s.refs
css = page[page.index("<style>"):page.index("</style>")]
assert "url(" not in css and "@import" not in css
assert [x.get("type") for x in s.scripts] == ["application/json"], s.scripts  # data, no code
assert len(s.figs) >= 15 and all(n == 1 for _, n in s.figs), s.figs
svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
assert len(svgs) == len(s.figs)
for x in svgs:
    ET.fromstring(x)  # well-formed XML
for fig in ("topology", "latency", "bandwidth", "c2c-bandwidth", "c2c-latency", "numa-latency",
            "numa-bandwidth", "roofline", "line", "tlb"):
    assert f"fig-{fig}" in s.ids, (fig, s.ids)
# the inputs, embedded as given
m = re.search(r'<script type="application/json" id="archscope-data">(.*?)</script>', page, re.S)
data = json.loads(m.group(1))
assert [x["name"] for x in data["sources"]] == inputs
for x, path in zip(data["sources"], inputs):
    assert x["document"] == json.load(open(path)), path
# measured values from the inputs, formatted for people
probe = json.load(open(inputs[1]))["results"]
l1 = probe["caches"]["levels"][0]["size"]["value"]
assert l1 == 49152 and "measured 48 KiB" in page
assert f'{probe["clock"]["value"]:.3f} GHz measured' in page
ops = probe["instr"]["ops"]
assert page.count("<tr><td>add</td>") >= 2 and len(ops) >= 20
# the recorded machine has no PMU: a warning, in the page and in the summary
mach = json.load(open(inputs[1]))["machine"]
assert mach["pmu"] is False and "No PMU" in page
summ = json.load(open(summary_path))
r = summ["results"]
assert summ["command"] == "report" and r["figures"] == len(s.figs) and r["answers"] >= 20
assert any(w.startswith("No PMU") for w in r["warnings"]), r["warnings"]
assert r["inputs"] == inputs and 0 < r["bytes"] < 5_000_000
PY
}
test_expect_success 'the page: self-contained, every figure an <svg>, the inputs embedded, the values and warnings on it' '
	check_page || fail "the page"
'

# the page on standard output is the same page
# (but for when it was made: "page made" and the data's "generated", which may be a second later)
undate() { sed -e 's/page made<\/dt><dd>[^<]*//' -e 's/"generated":"[^"]*"//' "$1"; }
test_expect_success '"-o -" writes the same page on standard output' '
	run 0 "$ARCHSCOPE" report -o - --from "${inputs[@]}"
	cmp -s <(undate "$TMP/out") <(undate "$TMP/r.html") || fail "'\''-o -'\'' writes another page"
'

# a name is data: a hostile host name and method end no element and run nothing
python3 - "$F/probe.json" "$TMP/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["machine"]["hostname"] = "</script><script>alert(1)</script><b>"
d["results"]["clock"]["method"] = "<img src=x onerror=alert(2)> & </textarea>"
json.dump(d, open(sys.argv[2], "w"))
PY
test_expect_success 'a hostile host name and method stay data' '
	run 0 "$ARCHSCOPE" report -o "$TMP/evil.html" --from "$TMP/evil.json"
	! grep -q "<script>alert" "$TMP/evil.html" || fail "a host name became a script element"
	! grep -q "<img src=x" "$TMP/evil.html" || fail "a method became an img element"
	[ "$(grep -o "<script" "$TMP/evil.html" | wc -l)" -eq 1 ] || fail "more than the one data script"
'

# bad inputs: named, exit 2
printf '{"archscope": "0.1.0", "command": "stat", "machine": {}, "results": {}}\n' >"$TMP/stat.json"
printf '{"archscope": "0.1.0", "command": "probe", ' >"$TMP/cut.json"
printf '[1, 2]\n' >"$TMP/array.json"
mkfifo "$TMP/fifo"
# bad ARGS | what the message says: exit 2, and no page written
bad="
--from $TMP/stat.json|stat.json' is a result of 'stat'
--from $TMP/cut.json|cut.json': not JSON: line 1, column
--from $TMP/array.json|not an archscope result
--from $TMP/nonexistent.json|nonexistent.json
--from $F/probe.json $F/probe.json|two probe results
--from|--from needs
$F/probe.json|with --from
--save $TMP/s --from $F/probe.json|not with --from
"
while IFS='|' read -r args msg; do
	[ -n "$args" ] || continue
	desc=${args//$TMP\//}
	test_expect_success "report ${desc//$F\//}: $msg" '
		# shellcheck disable=SC2086
		run 2 "$ARCHSCOPE" report -o "$TMP/x.html" $args
		contains "$TMP/err" "$msg"
		[ ! -e "$TMP/x.html" ] || fail "a failed run wrote its page"
	'
done <<<"$bad"
test_expect_success 'report without --output' '
	run 2 "$ARCHSCOPE" report --from "$F/probe.json"
	contains "$TMP/err" "--output is required"
'
test_expect_success 'report -o - --json' '
	run 2 "$ARCHSCOPE" report -o - --json --from "$F/probe.json"
	contains "$TMP/err" "json"
'
test_expect_success 'report -o FIFO' '
	run 2 "$ARCHSCOPE" report -o "$TMP/fifo" --from "$F/probe.json"
	contains "$TMP/err" "FIFO"
'
test_done
