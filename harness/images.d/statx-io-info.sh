# SPDX-License-Identifier: GPL-2.0
# Sourced by images.sh: the disks of the statx I/O parameter tests
# (tools/testing/selftests/statx/statx_io_info.c), which find each by its
# serial and mount it in their own mount namespace.  The images other
# tools write (compressed squashfs, erofs and ntfs3, DOS attributes) are
# made by the selftests' own mkimages.sh when they are built.
#
# Each "-io" disk gets its own virtio-blk topology, so that a value read
# from the wrong device cannot pass.  The filesystem block sizes are given
# explicitly: the test expects max(fs block, device values), and every
# device minimum here is at least the fs block.  The "-geom" images record
# a RAID geometry that is larger than the device's, so the filesystem's
# must win.  Keep the numbers in step with the test's variants.

io_disk() {	# io_disk NAME SIZE PBS MIN OPT GRAN
	img "$1" "$2"
	local props="physical_block_size=$3,min_io_size=$4,discard_granularity=$6"
	[ "$5" != 0 ] && props="$props,opt_io_size=$5"
	IO_PROPS=$props
}

io_disk ext4-io 64M 4096 8192 65536 16384
mkfs.ext4 -q -F -b 4096 "$dir/ext4-io.img"
disk ext4-io "$IO_PROPS"

io_disk xfs-io 320M 4096 16384 131072 32768
mkfs.xfs -q -f -b size=4096 "$dir/xfs-io.img"
disk xfs-io "$IO_PROPS"

io_disk btrfs-io 128M 4096 8192 262144 65536
mkfs.btrfs -q -f -s 4096 "$dir/btrfs-io.img" >/dev/null
disk btrfs-io "$IO_PROPS"

io_disk vfat-io 32M 2048 4096 32768 8192
mkfs.vfat -S 512 -n STATXVFIO "$dir/vfat-io.img" >/dev/null
disk vfat-io "$IO_PROPS"

# No optimal size: the test expects stx_io_opt == 0.
io_disk exfat-io 32M 4096 4096 0 4096
mkfs.exfat -L statxio "$dir/exfat-io.img" >/dev/null
disk exfat-io "$IO_PROPS"

io_disk ntfs3-io 32M 4096 8192 131072 16384
mkntfs -q -F -f -s 512 -c 4096 -L statxio "$dir/ntfs3-io.img" >/dev/null 2>&1 ||
	die "mkntfs failed"
disk ntfs3-io "$IO_PROPS"

# RAID geometry recorded by mkfs: stripe unit 32 KiB, width 128 KiB, on a
# device whose own minimum (8 KiB) and optimal size (64 KiB) are smaller.
io_disk ext4-geom 64M 4096 8192 65536 16384
mkfs.ext4 -q -F -b 4096 -E stride=8,stripe_width=32 "$dir/ext4-geom.img"
disk ext4-geom "$IO_PROPS"

io_disk xfs-geom 320M 4096 8192 65536 16384
mkfs.xfs -q -f -b size=4096 -d su=32k,sw=4,agcount=4 "$dir/xfs-geom.img" 2>/dev/null
disk xfs-geom "$IO_PROPS"
