# SPDX-License-Identifier: GPL-2.0
# Common settings for the statx series harness.  Sourced, never run.
#
# Everything the harness makes lives outside the repository in $STATX_CACHE
# (the base tree, the assembled tree, build directories, ccache) or in the
# repository's out/ directory (logs, images, initramfs), which git ignores.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HARNESS=$REPO/harness
STATX_CACHE=${STATX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statx-series}
OUT=${STATX_OUT:-$REPO/out}

# The base: Linux 7.3 as Debian's linux-source-7.3 binary package carries it
# (mainline 7.3-rc7 with Debian's patches; the source package itself cannot be
# downloaded).  Debian 12 does not have it: apt reads unstable and experimental
# through a private sources list under $STATX_CACHE/apt, so nothing under
# /etc/apt changes.  The version tested is pinned here; a newer upload is used
# (with a warning) when this one is gone, and if a patch then does not apply,
# series.py stops with the versions and what to do.
BASE_PKG=linux-source-7.3
BASE_TESTED=7.3~rc7-1~exp1
BASE_SUITES="sid experimental"

TREE=$STATX_CACHE/tree			# git: tag statx-base, branch series
BASE_WT=$STATX_CACHE/base-tree		# worktree at statx-base (unpatched)
BUILD=$STATX_CACHE/build		# O= directories, one per kernel
BASE_TAG=statx-base
SERIES_BRANCH=series
ASSEMBLED_REF=refs/statx/assembled	# what the last assemble produced

# Fixed identity and dates make the base commit, and so every series
# commit, the same on every machine.
BASE_IDENT_NAME="Debian linux-source-7.3"
BASE_IDENT_EMAIL="debian-kernel@lists.debian.org"
BASE_DATE="2026-01-01T00:00:00Z"

export CCACHE_DIR=${CCACHE_DIR:-$STATX_CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=$STATX_CACHE
# Depend mode: on a miss ccache takes the headers from the compiler's own
# dependency file (kbuild passes -MMD) instead of running the preprocessor
# first.  fs/xfs with an empty cache built in 240 s in the default mode,
# 140 s in depend mode and 132-136 s without ccache; built again from the
# cache, 13 s, every object a hit.  (A header edit that moves lines is a
# miss for its includers in either mode: the preprocessor's output carries
# line numbers.)  CCACHE_NODEPEND=1 in the environment chooses the
# default mode.
[ -n "${CCACHE_NODEPEND:-}" ] || export CCACHE_DEPEND=1
export KBUILD_BUILD_TIMESTAMP="$BASE_DATE" KBUILD_BUILD_USER=statx KBUILD_BUILD_HOST=harness

JOBS=${JOBS:-$(nproc)}

mkdir -p "$STATX_CACHE" "$OUT"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# step "what" cmd args...: run a long step, say what and how long.
step() {
	local what=$1 t0 rc=0
	shift
	t0=$(date +%s)
	say "$what ..."
	"$@" || rc=$?
	say "$what: $([ $rc -eq 0 ] && echo done || echo "FAILED ($rc)") in $(( $(date +%s) - t0 ))s"
	return $rc
}

# apt_private args...: apt-get with Debian unstable and experimental as its
# only sources, its lists and downloads under $STATX_CACHE/apt.
# The Debian packages whose files make the root filesystem of the fstests
# guest (fstests.sh), as the host has them installed (deps.sh).
FSTESTS_GUEST_PKGS=(bash coreutils util-linux util-linux-extra mount findutils
	grep sed gawk mawk diffutils perl-base bc psmisc procps hostname kmod
	attr acl xfsprogs e2fsprogs btrfs-progs dosfstools exfatprogs ntfs-3g
	libc-bin bsdutils gzip tar xz-utils sysvinit-utils ncurses-bin
	debianutils fio libc6 mtools python3-minimal dash)
APT_DIR=$STATX_CACHE/apt
apt_private() {
	local cmd=$1
	shift
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
	local s
	for s in $BASE_SUITES; do
		printf 'deb http://deb.debian.org/debian %s main\n' "$s"
	done > "$APT_DIR/sources.list"
	"$cmd" -o Dir::Etc::SourceList="$APT_DIR/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT_DIR/lists" \
		-o Dir::Cache="$APT_DIR/cache" "$@"
}

# git in the assembled tree, never touching the user's global state.
tgit() { git -C "$TREE" -c gc.auto=0 -c advice.detachedHead=false "$@"; }
