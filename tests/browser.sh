#!/bin/sh
# browser.sh: make report's page in a real browser (what `make test-browser` runs; .ci/run runs
# it after make test). Two small real runs into a temporary folder, their figures, their
# comparison and the page (make plots, make compare, make report, as a user would), then
# headless Chromium, offline:
#   dom          after the page's load event, its inline script counted the images and marked
#                those the browser could not load: every image loaded (data-images-broken 0) and
#                the count is the page's
#   detects      the same page with one image renamed to a file that does not exist: Chromium
#                reports it broken (so that "0 broken" above means something)
#   screenshot   build/test-browser/report.png, the top of the page at 1400 x 3000, to look at
# Chromium runs with a new empty profile each time and without background networking, component
# updates or sync: this machine's network refuses their connections. Costs: two runs of
# build/ecsbench of about 0.3 s, a few seconds of gnuplot, three starts of Chromium (~2 s each).
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
bin=build/ecsbench
shots=build/test-browser
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   browser/$1"; passed=$((passed + 1)); }
fail() { echo "FAIL browser/$1: $2"; failed=$((failed + 1)); }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

command -v chromium >/dev/null 2>&1 || { fail chromium "no chromium (scripts/deps.sh browser installs it)"; finish; }
# chrome ARGS... URL: headless, offline, a new profile; 120 s at most.
chrome() {
	profile=$(mktemp -d "$tmp/chromium.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --virtual-time-budget=10000 "$@" 2>>"$tmp/chromium.log"
}
# body_attr DOM NAME -> the value of the body's data-NAME attribute
body_attr() { grep -o '<body[^>]*>' "$1" | head -n 1 | sed -n "s/.* data-$2=\"\\([0-9]*\\)\".*/\\1/p"; }

mkdir -p "$tmp/runs" "$shots"
for r in old new; do
	if ! "$bin" --profile A --workloads iterate,create,varkor-create --entities 1024,2048 --components 1,2 \
		--processes 2 --reps 2 --inner 1 --scale 0.01 --output "$tmp/runs/$r.csv" >"$tmp/run.log" 2>&1; then
		fail small-runs "build/ecsbench failed: $(tail -n 3 "$tmp/run.log")"
		finish
	fi
done
if ! make -s --no-print-directory plots PROFILE=A OUTPUT="$tmp/runs/new.csv" >"$tmp/make.log" 2>&1 ||
	! make -s --no-print-directory compare OLD="$tmp/runs/old.csv" NEW="$tmp/runs/new.csv" >>"$tmp/make.log" 2>&1 ||
	! make -s --no-print-directory report PROFILE=A OUTPUT="$tmp/runs/new.csv" >>"$tmp/make.log" 2>&1; then
	fail page "make plots, compare or report failed: $(tail -n 3 "$tmp/make.log")"
	finish
fi
page=$tmp/runs/new-report.html
images=$(grep -c '<img ' "$page")

chrome --dump-dom "file://$page" >"$tmp/dom.html"
total=$(body_attr "$tmp/dom.html" images)
broken=$(body_attr "$tmp/dom.html" images-broken)
if [ -z "$total" ]; then
	fail dom "Chromium gave no DOM with the page's marks: $(tail -n 3 "$tmp/chromium.log")"
elif [ "$total" -ne "$images" ] || [ "$broken" -ne 0 ]; then
	fail dom "$broken of $total images did not load (the page has $images): $(grep -o '<img[^>]*data-broken[^>]*>' "$tmp/dom.html" | head -n 3)"
else
	ok dom
fi

# The control: one image renamed to a file that does not exist, in the same folder.
first=$(grep -o '<img src="[^"]*"' "$page" | head -n 1 | sed 's/<img src="//; s/"$//')
sed "s#src=\"$first\"#src=\"$first.missing.png\"#" "$page" >"$tmp/runs/control.html"
chrome --dump-dom "file://$tmp/runs/control.html" >"$tmp/control-dom.html"
broken=$(body_attr "$tmp/control-dom.html" images-broken)
if [ "${broken:-x}" = 1 ]; then ok detects; else fail detects "an image that cannot load was counted ${broken:-nowhere} broken, not 1"; fi

rm -f "$shots/report.png"
chrome --hide-scrollbars --window-size=1400,3000 --screenshot="$shots/report.png" "file://$page" >/dev/null
if [ -s "$shots/report.png" ] && [ "$(head -c 4 "$shots/report.png" | od -An -c | tr -d ' ')" = "211PNG" ]; then
	ok "screenshot ($shots/report.png)"
else
	fail screenshot "no PNG at $shots/report.png: $(tail -n 3 "$tmp/chromium.log")"
fi
finish
