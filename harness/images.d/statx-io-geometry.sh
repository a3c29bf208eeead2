# SPDX-License-Identifier: GPL-2.0
# Sourced by images.sh: more disks for statx_io_info.c, whose expected
# values come from the geometry given here.  Nothing here depends on the
# other hooks (they are sourced in name order).
#
# ext4-bigalloc: ext4 allocating in 64 KiB clusters on a 4 KiB disk that
# discards in 4 KiB units; the allocation unit must show in stx_io_min and
# stx_erase_size.
img ext4-bigalloc 64M
mkfs.ext4 -q -F -b 4096 -O bigalloc -C 65536 "$dir/ext4-bigalloc.img"
disk ext4-bigalloc "physical_block_size=4096,min_io_size=4096,discard_granularity=4096"

# parts: an MBR disk with 4 KiB physical blocks and two ext4 partitions,
# the first starting at sector 2048 (aligned), the second at sector 18433
# (512 bytes past a 4 KiB boundary).  The test mounts each itself; no
# filesystem is at the start of the disk, so init's mount of it fails.
img parts 64M
python3 - "$dir/parts.img" <<'PY'
import struct, sys
mbr = bytearray(512)
for i, (start, count) in enumerate(((2048, 16384), (18433, 16384))):
    mbr[446 + 16 * i:462 + 16 * i] = struct.pack('<B3sB3sII', 0, b'\xfe\xff\xff',
                                                  0x83, b'\xfe\xff\xff', start, count)
mbr[510:512] = b'\x55\xaa'
with open(sys.argv[1], 'r+b') as f:
    f.write(mbr)
PY
mkfs.ext4 -q -F -b 4096 -E offset=$((2048 * 512)) "$dir/parts.img" 2048
mkfs.ext4 -q -F -b 4096 -E offset=$((18433 * 512)) "$dir/parts.img" 2048
disk parts "physical_block_size=4096,min_io_size=4096,opt_io_size=65536,discard_granularity=4096"

# btrfs-slow: btrfs on a disk whose writes QEMU throttles to 4 per second
# (a "drive." property goes to -drive), so that a transaction commit spends
# hundreds of milliseconds writing its superblocks.
img btrfs-slow 128M
mkfs.btrfs -q -f -s 4096 "$dir/btrfs-slow.img" >/dev/null
disk btrfs-slow "drive.throttling.iops-write=4"
