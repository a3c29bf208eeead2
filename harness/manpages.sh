#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# manpages.sh: apply man-pages/*.patch (patches to the man-pages project)
# with git am onto statx.2 as Debian's manpages-dev ships it, and lint
# every page they add or change with groff -man -ww -z: any warning fails.
. "$(dirname "$0")/lib.sh"

src=${STATX_MAN_SRC:-/usr/share/man/man2/statx.2.gz}
wt=$(mktemp -d)
trap 'rm -rf "$wt"' EXIT
mkdir -p "$wt/man2"
if [ ! -e "$src" ]; then
	# A minimal image may drop /usr/share/man on install: take the page
	# from the package itself.
	(cd "$wt" && apt-get download -q manpages-dev >/dev/null 2>&1) ||
		die "$src is missing and apt-get download manpages-dev failed"
	dpkg-deb --fsys-tarfile "$wt"/manpages-dev_*.deb |
		tar -xO ./usr/share/man/man2/statx.2.gz > "$wt/statx.2.gz" ||
		die "no statx.2 in manpages-dev"
	rm -f "$wt"/manpages-dev_*.deb
	src=$wt/statx.2.gz
fi
zcat "$src" > "$wt/man2/statx.2"
g() { git -C "$wt" -c user.name=man -c user.email=man@localhost "$@"; }
g init -q
g add man2
g commit -q -m "man2/statx.2 of manpages-dev $(dpkg-query -W -f='${Version}' manpages-dev)"
g am -q "$REPO"/man-pages/*.patch || die "the man-pages patches do not apply"
pages=$(g diff --name-only HEAD~"$(ls "$REPO"/man-pages/*.patch | wc -l)" HEAD)
for p in $pages; do
	out=$(LC_ALL=C.UTF-8 groff -man -ww -z "$wt/$p" 2>&1)
	[ -z "$out" ] || die "groff -man -ww: $p: $out"
	grep -q '(since ?)' "$wt/$p" && die "$p: a version placeholder without its meaning"
done
echo "man-pages: $(ls "$REPO"/man-pages/*.patch | wc -l) patches apply to statx.2;" \
	"groff -man -ww clean:" $pages
