#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# worktree.sh base|scratch: make sure the extra checkout exists and print
# its path.  'base' stays at the unpatched base (for base kernels); 'scratch'
# is where exported patches are git-am'ed and each commit is built.
. "$(dirname "$0")/lib.sh"

case "$1" in
base) wt=$BASE_WT ;;
scratch) wt=$STATX_CACHE/scratch-tree ;;
*) die "usage: worktree.sh base|scratch" ;;
esac
if [ ! -e "$wt/.git" ]; then
	tgit worktree prune
	step "check out $1 worktree" tgit worktree add -q --detach "$wt" "$BASE_TAG" >&2
fi
echo "$wt"
