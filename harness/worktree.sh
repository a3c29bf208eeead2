#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# worktree.sh base|scratch|apply: make sure the extra checkout exists and
# print its path.  'base' stays at the unpatched base (for base kernels);
# 'scratch' is where each commit is built (make bisect); 'apply' is where
# exported patches are git-am'ed and kernel-doc compares commits, so that a
# make check never rewrites the tree a make bisect is building.
. "$(dirname "$0")/lib.sh"

case "$1" in
base) wt=$BASE_WT ;;
scratch) wt=$STATX_CACHE/scratch-tree ;;
apply) wt=$STATX_CACHE/apply-tree ;;
*) die "usage: worktree.sh base|scratch|apply" ;;
esac
if [ ! -e "$wt/.git" ]; then
	tgit worktree prune
	step "check out $1 worktree" tgit worktree add -q --detach "$wt" "$BASE_TAG" >&2
fi
echo "$wt"
