#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh [series|base]: build and boot the kernel and print what
# samples/vfs/test-statx says about a sample file and the root of each
# mounted filesystem.
. "$(dirname "$0")/lib.sh"

which=${1:-series}
"$HARNESS/deps.sh"
"$HARNESS/base.sh"
"$HARNESS/series.py" assemble
kdir=$TREE
[ "$which" = base ] && kdir=$("$HARNESS/worktree.sh" base)
STATX_CONFIG_LENIENT=$([ "$which" = base ] && echo 1) "$HARNESS/build.sh" "$which" "$kdir"
[ "$which" = series ] || "$HARNESS/build.sh" series "$TREE" >/dev/null
res=$OUT/run-$which
mkdir -p "$res"
step "build the initramfs" "$HARNESS/initramfs.sh" "$TREE" "$BUILD/series/usr/include" \
	"$res/initramfs.cpio" >/dev/null
rc=0
"$HARNESS/boot.sh" "$BUILD/$which/arch/x86/boot/bzImage" "$res/initramfs.cpio" run \
	"$res/guest" || rc=$?
sed -n '/^STATX-BEGIN run/,/^STATX-END run/p' "$res/guest/results.log" | sed '1d;$d'
exit $rc
