#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make $TREE a git repository whose first commit (tag statx-base) is the
# unmodified Debian linux-source-6.12 tree.  Done once; cheap afterwards.
. "$(dirname "$0")/lib.sh"

if tgit rev-parse -q --verify "$BASE_TAG^{commit}" >/dev/null 2>&1; then
	exit 0
fi

"$HARNESS/deps.sh"
ver=$(dpkg-query -W -f='${Version}' "$BASE_PKG")
[ "$ver" = "$BASE_TESTED" ] ||
	say "warning: $BASE_PKG $ver installed; the series was tested on $BASE_TESTED"

rm -rf "$TREE" "$TREE.tmp"
mkdir -p "$TREE.tmp"
step "extract $BASE_TARBALL ($ver)" \
	tar -C "$TREE.tmp" --strip-components=1 -xf "$BASE_TARBALL"

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
