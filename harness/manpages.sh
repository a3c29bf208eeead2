#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# manpages.sh: apply man-pages/*.patch (patches to the man-pages project)
# with git am to man/man2/statx.2 as man-pages' own tree has it, lint every
# page they add or change with groff and mandoc, and compile the program of
# each page's EXAMPLES against the series' uapi headers.
#
# The base is statx.2 of Debian unstable's manpages-dev (MANPAGES_TESTED, or
# the newest upload, with a warning, once the archive has dropped it),
# fetched with apt-get download through the private sources list (lib.sh:
# apt_private) and kept in $APT_DIR.  A released page has the .TH line that
# man-pages' release step filled in ('.TH statx 2 2026-02-08 "Linux
# man-pages 6.20"'); the tree has '.TH statx 2 (date) "Linux man-pages
# (unreleased)"', which is put back, so that the patches are what man-pages'
# tree would show, with its layout (man/man2/).
. "$(dirname "$0")/lib.sh"

MANPAGES_PKG=manpages-dev
MANPAGES_TESTED=6.20-2
# The series' uapi headers, for the EXAMPLES programs (build.sh installs
# them when it builds the series kernel: make run, make check).
hdr=${STATX_MAN_HDR:-$BUILD/series/usr/include}

"$HARNESS/deps.sh"

# The package: the tested version if it is here or in the archive, else the
# newest the archive has.
deb_of() { echo "$APT_DIR/${MANPAGES_PKG}_${1//:/%3a}_all.deb"; }
ver=$MANPAGES_TESTED
if [ ! -s "$(deb_of "$ver")" ]; then
	mkdir -p "$APT_DIR"
	avail=$(apt_private apt-cache madison "$MANPAGES_PKG" 2>/dev/null |
		awk -F' *[|] *' '{ print $2 }' || true)
	if ! grep -qxF "$ver" <<<"$avail"; then
		apt_private apt-get -qq update 2>&1 | grep -v 'unsandboxed' >&2 || true
		avail=$(apt_private apt-cache madison "$MANPAGES_PKG" |
			awk -F' *[|] *' '{ print $2 }' || true)
	fi
	[ -n "$avail" ] || die "$MANPAGES_PKG is in none of: $BASE_SUITES"
	if ! grep -qxF "$ver" <<<"$avail"; then
		ver=$(head -1 <<<"$avail")
		say "warning: $MANPAGES_PKG $MANPAGES_TESTED is gone from Debian's archive; using $ver." \
			"If the man-pages patches do not apply to its statx.2, redo them and set MANPAGES_TESTED in harness/manpages.sh"
	fi
	if [ ! -s "$(deb_of "$ver")" ]; then
		(cd "$APT_DIR" && apt_private apt-get -qq download "$MANPAGES_PKG=$ver") 2>&1 |
			grep -v 'unsandboxed' >&2 || true
	fi
	[ -s "$(deb_of "$ver")" ] || die "apt-get download $MANPAGES_PKG=$ver failed"
fi

wt=$(mktemp -d)
trap 'rm -rf "$wt"' EXIT
mkdir -p "$wt/man/man2"
dpkg-deb --fsys-tarfile "$(deb_of "$ver")" |
	tar -xO ./usr/share/man/man2/statx.2.gz | zcat > "$wt/man/man2/statx.2" ||
	die "no usr/share/man/man2/statx.2.gz in $MANPAGES_PKG $ver"
th='.TH statx 2 (date) "Linux man-pages (unreleased)"'
sed -i -E '/^\.TH /s/^(\.TH [^ ]+ [^ ]+) [0-9]{4}-[0-9]{2}-[0-9]{2} "Linux man-pages [^"]+"$/\1 (date) "Linux man-pages (unreleased)"/' \
	"$wt/man/man2/statx.2"
grep -qxF "$th" "$wt/man/man2/statx.2" ||
	die "statx.2 of $MANPAGES_PKG $ver: no .TH line of the release's form to turn back into '$th'"

g() {
	git -C "$wt" -c user.name=man-pages -c user.email=man-pages@localhost \
		-c commit.gpgsign=false "$@"
}
g init -q
g add man
GIT_AUTHOR_DATE=$BASE_DATE GIT_COMMITTER_DATE=$BASE_DATE \
	g commit -q -m "man/man2/statx.2 of $MANPAGES_PKG $ver, .TH as in man-pages' tree"
g tag base
patches=("$REPO"/man-pages/*.patch)
g am -q "${patches[@]}" ||
	die "the man-pages patches do not apply to statx.2 of $MANPAGES_PKG $ver"
pages=$(g diff --name-only base HEAD)

# Stock mandoc has a few messages for every page of man-pages' tree (the
# lower-case title and the "(date)" placeholder of .TH, which man-pages'
# own lint filters out as well): those the unmodified statx.2 gives too
# are filtered, compared as "LEVEL: message: macro" (file, line and the
# rest of the context left out).  Every other message fails.
mandoc_norm() {
	sed -E 's/^mandoc: [^:]*:[0-9]+:[0-9]+: //; s/^([A-Z]+: [^:]*: [^ ]+).*/\1/'
}
base_msgs=$wt/mandoc-base
g show base:man/man2/statx.2 > "$wt/statx.2.base"
mandoc -Tlint "$wt/statx.2.base" 2>&1 | mandoc_norm | sort -u > "$base_msgs" || true

fail=0
compiled=()
for p in $pages; do
	f=$wt/$p
	# groff with tbl (-t), as man(1) formats a page that asks for it with
	# its first line; tbl leaves other pages as they are.
	out=$(LC_ALL=C.UTF-8 groff -t -man -ww -z "$f" 2>&1 || echo "(groff failed: $?)")
	[ -z "$out" ] || { say "groff -t -man -ww -z $p:"; echo "$out" >&2; fail=1; }
	out=$({ mandoc -Tlint "$f" 2>&1 || true; } | while IFS= read -r l; do
		grep -qxF "$(mandoc_norm <<<"$l")" "$base_msgs" || echo "$l"
	done)
	[ -z "$out" ] || { say "mandoc -Tlint $p:"; echo "$out" >&2; fail=1; }
	# man-pages' tree: .TH placeholders, .P, and no version to fill in later.
	case $(g log --diff-filter=A --format=%h base..HEAD -- "$p") in
	'') ;;
	*) grep -qE '^\.TH [^ ]+ [^ ]+ \(date\) "Linux man-pages \(unreleased\)"$' "$f" ||
		{ say "$p: its .TH is not '.TH name section (date) \"Linux man-pages (unreleased)\"'"; fail=1; } ;;
	esac
	diff=$(g diff base HEAD -- "$p")
	if grep -qxE '\+\.(PP|LP)' <<<"$diff"; then
		say "$p: .PP or .LP added (man-pages' tree uses .P)"
		fail=1
	fi
	if grep -nE 'X\.Y|\(since \?\)' "$f" >&2; then
		say "$p: a version placeholder"
		fail=1
	fi

	# EXAMPLES: the program between '.\" SRC BEGIN (name.c)' and
	# '.\" SRC END', with the escapes it may use (\-, \[aq], \[rs], and
	# \& on an empty line) turned back into C, compiled with every warning
	# an error.
	grep -q '^\.\\" SRC BEGIN' "$f" || continue
	src=$wt/$(basename "$p").c
	awk '/^\.\\" SRC BEGIN/ { on = 1; next } /^\.\\" SRC END/ { on = 0 } on' "$f" |
		grep -vxE '\.(EX|EE)' > "$src.roff"
	if sed -E 's/\\-|\\\[aq\]|\\\[rs\]|^\\&$//g' "$src.roff" | grep -n '\\' >&2; then
		say "$p: EXAMPLES uses an escape the extraction does not know"
		fail=1
		continue
	fi
	sed -e 's/^\\&$//' -e 's/\\-/-/g' -e "s/\\\\\\[aq\\]/'/g" -e 's/\\\[rs\]/\\/g' \
		"$src.roff" > "$src"
	if [ ! -f "$hdr/linux/stat.h" ] || ! grep -q 'struct statx_dirent' "$hdr/linux/stat.h"; then
		say "$p: EXAMPLES not compiled: no series uapi headers in $hdr" \
			"(make run or make check installs them; STATX_MAN_HDR names others)"
		continue
	fi
	if ! gcc -Wall -Wextra -Werror -O2 -isystem "$hdr" -o "$src.out" "$src" >&2; then
		say "$p: EXAMPLES does not compile against $hdr"
		fail=1
		continue
	fi
	compiled+=("$p")
done
[ $fail = 0 ] || die "man-pages: the pages above are not clean"
echo "man-pages: ${#patches[@]} patches apply to man/man2/statx.2 of $MANPAGES_PKG $ver;" \
	"groff -t -man -ww -z and mandoc -Tlint clean:" $pages"; EXAMPLES compiled:" \
	"${compiled[@]:-none}"
