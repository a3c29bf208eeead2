#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make $TREE a git repository whose first commit (tag statx-base) is the
# unmodified tree of Debian's linux-source-7.3 binary package, fetched with
# apt-get download through a private sources list (lib.sh: apt_private).
# Done once; cheap afterwards.
. "$(dirname "$0")/lib.sh"

if tgit rev-parse -q --verify "$BASE_TAG^{commit}" >/dev/null 2>&1; then
	exit 0
fi

"$HARNESS/deps.sh"
step "apt-get update (private lists: $BASE_SUITES)" \
	apt_private apt-get -qq update 2>&1 | grep -v 'unsandboxed' >&2 || true
# The tested version if the archive still has it, else the newest.
avail=$(apt_private apt-cache madison "$BASE_PKG" | awk -F' *[|] *' '{ print $2 }')
[ -n "$avail" ] || die "$BASE_PKG is in none of: $BASE_SUITES (Debian's archive moved on; set BASE_PKG in harness/lib.sh)"
if grep -qxF "$BASE_TESTED" <<<"$avail"; then
	ver=$BASE_TESTED
else
	ver=$(head -1 <<<"$avail")
	say "warning: $BASE_PKG $BASE_TESTED is gone from Debian's archive; using $ver." \
		"If the series does not apply to it, rebase the series and set BASE_TESTED in harness/lib.sh"
fi

deb=$APT_DIR/${BASE_PKG}_${ver//:/%3a}_all.deb
if [ ! -s "$deb" ]; then
	(cd "$APT_DIR" && apt_private apt-get -qq download "$BASE_PKG=$ver") 2>&1 |
		grep -v 'unsandboxed' >&2 || true
fi
[ -s "$deb" ] || die "apt-get download $BASE_PKG=$ver failed"

rm -rf "$TREE" "$TREE.tmp" "$APT_DIR/x"
mkdir -p "$TREE.tmp" "$APT_DIR/x"
step "unpack $(basename "$deb")" dpkg-deb -x "$deb" "$APT_DIR/x"
tarball=$(ls "$APT_DIR"/x/usr/src/linux-source-*.tar.xz)
step "extract $tarball ($ver)" \
	tar -C "$TREE.tmp" --strip-components=1 -xf "$tarball"
rm -rf "$APT_DIR/x"

cd "$TREE.tmp"
git init -q -b "$SERIES_BRANCH"
git config gc.auto 0
git config core.abbrev 12
# Debian's top-level .gitignore ignores everything ('/*'), and the kernel's
# own rules hide dotfiles such as .kunitconfig: add with -f, so the base
# commit holds the tarball exactly and nothing in it is edited.
step "commit the base tree" git add -A -f .
GIT_AUTHOR_NAME=$BASE_IDENT_NAME GIT_AUTHOR_EMAIL=$BASE_IDENT_EMAIL \
GIT_COMMITTER_NAME=$BASE_IDENT_NAME GIT_COMMITTER_EMAIL=$BASE_IDENT_EMAIL \
GIT_AUTHOR_DATE=$BASE_DATE GIT_COMMITTER_DATE=$BASE_DATE \
	git commit -q -m "Linux $(make -s kernelversion) from Debian $BASE_PKG $ver"
git tag "$BASE_TAG"
printf '%s %s %s\n' "$BASE_PKG" "$ver" "$(git rev-parse HEAD)" > .git/statx-base-version
cd /
mv "$TREE.tmp" "$TREE"
say "base: $(cat "$TREE/.git/statx-base-version")"
