#!/bin/sh
# gbench.sh: build/ecsbench --format json, google benchmark's JSON beside the CSV, on two small
# runs in a scratch folder: the fields of google benchmark's format (the context block, an
# iteration entry per timed sample, a median aggregate per row, its counters) checked against
# the CSV and its samples file; google benchmark's own compare.py (Debian's libbenchmark-tools,
# /usr/share/benchmark) reads the two files unchanged; a path with quotes, a backslash, a
# control character and a byte that is not UTF-8 still gives valid JSON; a previous JSON goes
# to previous/ with its CSV; bad input is refused. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
bin=build/ecsbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   gbench/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL gbench/$1: $2"; failed=$((failed + 1)); }
# Debian's python3, whose packages (python3-scipy) compare.py needs; another python3 first on
# the PATH (pyenv, a virtualenv) may not have them.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
compare=/usr/share/benchmark/compare.py

run() { # run NAME: a small run with --format json into $tmp/NAME.csv
	"$bin" --profile A --backends sparse,archetype --workloads create,iterate,varkor-add \
		--entities 1024,2048 --components 2 --processes 2 --reps 2 --scale 0.001 --no-pin \
		--format json --output "$tmp/$1.csv" >"$tmp/$1.log" 2>&1
}

if run a && run b; then
	ok runs
else
	fail runs "$(tail -n 3 "$tmp/a.log" "$tmp/b.log")"
fi

# The format's fields, and the figures against the CSV and its samples
cat >"$tmp/check.py" <<'EOF'
import csv, json, math, re, sys
base = sys.argv[1]
doc = json.load(open(base + ".json", encoding="utf-8"))
ctx, runs = doc["context"], doc["benchmarks"]
problems = []
def need(cond, what):
    if not cond:
        problems.append(what)
for key, kind in [("date", str), ("host_name", str), ("executable", str), ("num_cpus", int),
                  ("mhz_per_cpu", int), ("cpu_scaling_enabled", bool), ("caches", list),
                  ("load_avg", list), ("library_build_type", str), ("ecsbench_commit", str),
                  ("ecsbench_cflags", str), ("ecsbench_compiler", str)]:
    need(isinstance(ctx.get(key), kind), "context." + key + " missing or not " + kind.__name__)
need(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$", ctx.get("date", "")), "context.date not ISO 8601")
for c in ctx.get("caches", []):
    need(set(c) == {"type", "level", "size", "num_sharing"} and c["size"] > 0, "a cache: %r" % c)
rows = [r for r in csv.DictReader(l for l in open(base + ".csv") if not l.startswith("#"))]
samples = [r for r in csv.DictReader(l for l in open(base + "-samples.csv") if not l.startswith("#"))]
iters = [b for b in runs if b.get("run_type") == "iteration"]
aggs = [b for b in runs if b.get("run_type") == "aggregate"]
need(len(iters) == len(samples), "%d iteration entries, %d samples" % (len(iters), len(samples)))
need(len(aggs) == len(rows), "%d aggregates, %d rows" % (len(aggs), len(rows)))
common = ["name", "family_index", "per_family_instance_index", "run_name", "run_type",
          "repetitions", "threads", "iterations", "real_time", "cpu_time", "time_unit"]
for b in runs:
    missing = [k for k in common if k not in b]
    need(not missing, b.get("name", "?") + " lacks " + ",".join(missing))
    need(b.get("time_unit") == "ns" and b.get("real_time", 0) > 0, b.get("name", "?") + ": time")
    need(re.match(r"^[a-z]+/[a-z-]+/A/N:\d+/k:\d+(_median)?$", b.get("name", "")), "name " + b.get("name", ""))
for b in iters:
    need("repetition_index" in b and b["iterations"] >= 1, b["name"] + ": repetition_index, iterations")
    need(all(k in b for k in ("ns_per_entity", "bytes_per_entity", "allocations")), b["name"] + ": counters")
by_name = {}
for r in rows:
    by_name["%s/%s/%s/N:%s/k:%s" % (r["backend"], r["workload"], r["profile"], r["entities"], r["components"])] = r
for b in aggs:
    r = by_name.get(b["run_name"])
    need(r is not None, "no CSV row for " + b["run_name"])
    if r is None:
        continue
    need(b["name"] == b["run_name"] + "_median" and b["aggregate_name"] == "median"
         and b["aggregate_unit"] == "time", b["name"] + ": aggregate fields")
    need(math.isclose(b["real_time"], float(r["median_ns"]), rel_tol=1e-3), b["name"] + ": median")
    need(math.isclose(b["ns_per_entity"], float(r["ns_per_entity"]), rel_tol=1e-3), b["name"] + ": ns_per_entity")
    need(math.isclose(b["bytes_per_entity"], float(r["live_bytes_per_entity"]), rel_tol=1e-2, abs_tol=0.1), b["name"] + ": bytes")
    need(b["allocations"] == int(r["allocations"]), b["name"] + ": allocations")
    for k, col in (("ci_low_ns", "ci_low_ns"), ("ci_high_ns", "ci_high_ns"), ("ratio_to_floor", "ratio_to_floor")):
        if r[col]:
            # the CSV prints ns to one decimal, a ratio to three: an interval's end of a few ns
            # (two noisy processes) is further than 1% from its printed self
            need(math.isclose(b.get(k, -1), float(r[col]), rel_tol=1e-2,
                              abs_tol=0.051 if col.endswith("_ns") else 0.00051), b["name"] + ": " + k)
        else:
            need(k not in b, b["name"] + ": " + k + " where the CSV has none")
    reps = [i for i in iters if i["run_name"] == b["run_name"]]
    need(len(reps) == b["repetitions"] and sorted(i["repetition_index"] for i in reps) == list(range(len(reps))),
         b["name"] + ": repetitions")
fam = {}
for b in runs:
    fam.setdefault(b["family_index"], set()).add(b["run_name"].split("/N:")[0])
need(all(len(v) == 1 for v in fam.values()), "a family_index over several benchmarks")
print("\n".join(problems) if problems else "ok")
sys.exit(1 if problems else 0)
EOF
if out=$("$py" "$tmp/check.py" "$tmp/a" 2>&1); then
	ok fields
else
	fail fields "$(echo "$out" | head -n 10)"
fi

if [ -r "$compare" ] && "$py" -c 'import scipy' 2>/dev/null; then
	if "$py" "$compare" --no-color benchmarks "$tmp/a.json" "$tmp/b.json" >"$tmp/cmp.txt" 2>&1 &&
		[ "$(grep -c '_median ' "$tmp/cmp.txt")" -eq "$(grep -c '"run_type": "aggregate"' "$tmp/a.json")" ] &&
		grep -q '^archetype/iterate/A/N:2048/k:2_pvalue ' "$tmp/cmp.txt" && grep -q '^OVERALL_GEOMEAN' "$tmp/cmp.txt"; then
		ok compare.py
	else
		fail compare.py "$(head -c 1500 "$tmp/cmp.txt")"
	fi
else
	fail compare.py "no $compare or no scipy for $py: scripts/deps.sh gbench installs them"
fi

# A path no JSON string can hold as it is
odd=$(printf '%s/we"ird\\ \001 \377 .csv' "$tmp")
if "$bin" --profile A --backends sparse --workloads iterate --entities 1024 --components 1 \
	--processes 1 --reps 1 --no-pin --format json --output "$odd" >"$tmp/odd.log" 2>&1 &&
	"$py" -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); assert "we\"ird\\ \x01 \ufffd" in d["context"]["ecsbench_command"]' \
		"$(printf '%s/we"ird\\ \001 \377 .json' "$tmp")" 2>"$tmp/odd.err"; then
	ok escaping
else
	fail escaping "$(tail -n 3 "$tmp/odd.log" "$tmp/odd.err")"
fi

# A run without --format json over a CSV that had one: the old JSON goes with the old CSV.
cp "$tmp/a.json" "$tmp/a.json.was"
if "$bin" --profile A --backends sparse --workloads iterate --entities 1024 --components 1 \
	--processes 1 --reps 1 --no-pin --output "$tmp/a.csv" >"$tmp/again.log" 2>&1 &&
	[ ! -e "$tmp/a.json" ] && cmp -s "$tmp/a.json.was" "$(ls -d "$tmp"/previous/*-a/a.json | head -n 1)"; then
	ok previous
else
	fail previous "$(ls -R "$tmp/previous" 2>&1 | head -n 10; tail -n 2 "$tmp/again.log")"
fi

bad() { # bad NAME TEXT ARGS...: exit 2, TEXT on stderr, nothing written
	name=$1 text=$2
	shift 2
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF -- "$text" "$tmp/err" && [ ! -e "$tmp/bad.json" ]; then
		ok "$name"
	else
		fail "$name" "exit status $rc: $(head -c 300 "$tmp/err")"
	fi
}
bad unknown-format "unknown format 'xml' (valid: csv, json)" --format xml --output "$tmp/bad.csv"
bad json-to-stdout "--format json writes a file beside the CSV" --format json --output -
bad json-scenario "--format json is for the workloads" --scenario scenarios/shooter.ini \
	--format json --output "$tmp/bad.csv"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
