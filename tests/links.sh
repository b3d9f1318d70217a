#!/bin/sh
# links.sh: every relative link and image of the committed Markdown files ([text](target),
# ![alt](target)) names a file or folder that exists, and every #anchor a heading of its page
# (GitHub's rule: lower case, punctuation but - and _ dropped, spaces to -). Web addresses are
# not checked: this runs offline. Then the README's generated blocks (its table and "In short"
# lines) against the committed reference run they name (scripts/readme.sh --check, which needs
# build/ecsbench-compare: make it first), so that a new reference run lands with its README.
# make test runs it (tests/run.sh); alone, from the top:
#   tests/links.sh
# Ends with "N passed, N failed", one failure line per broken link.

cd "$(dirname "$0")/.." || exit 2
anchors() {
	sed -n 's/^#\{1,6\} \(.*\)$/\1/p' "$1" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}
passed=0 failed=0
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
git ls-files '*.md' | while IFS= read -r page; do
	dir=$(dirname "$page")
	grep -o '](\([^)]*\))' "$page" | sed 's/^](//; s/)$//' | while IFS= read -r link; do
		case $link in http://* | https://* | mailto:*) continue ;; esac
		path=${link%%#*}
		fragment=
		case $link in *'#'*) fragment=${link#*#} ;; esac
		if [ -z "$path" ]; then target=$page; else target=$dir/$path; fi
		if [ ! -e "$target" ]; then
			echo "FAIL $page: $link (no such file)"
		elif [ -n "$fragment" ] && [ -f "$target" ] && ! anchors "$target" | grep -qx -- "$fragment"; then
			echo "FAIL $page: $link (no such heading)"
		else
			echo ok
		fi
	done
done >"$tmp"
if out=$(scripts/readme.sh --check 2>&1); then echo ok >>"$tmp"; else echo "FAIL README.md: $out" >>"$tmp"; fi
passed=$(grep -c '^ok$' "$tmp")
failed=$(grep -c '^FAIL' "$tmp")
grep '^FAIL' "$tmp"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
