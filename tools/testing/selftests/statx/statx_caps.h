/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a kernel with the fields and flags below must report, per filesystem: one
 * table, taken from Documentation/filesystems/statx*.rst, that the tests
 * hold the kernel to.  A filesystem listed here that reports less, or
 * more, than its row fails; a test skips only for what the running kernel
 * or machine lacks (a filesystem type not built in, a missing mkfs), never
 * because a filesystem "does not report" something its row says it must.
 *
 * The row is for a regular file on a filesystem made by its mkfs with the
 * defaults (ext4: with metadata_csum, which Debian's mkfs.ext4 sets) and
 * mounted without options; STATX_CHANGE_COOKIE and CHANGE_MONOTONIC are
 * for a caller that asks for the cookie.
 */
#ifndef STATX_CAPS_H
#define STATX_CAPS_H

#include "statx_helpers.h"

/* Building against uapi headers older than the kernel under test. */
#ifndef STATX_GEN
#define STATX_GEN			0x00100000U
#define STATX_CHANGE_COOKIE		0x00080000U
#define STATX_ATTR_CHANGE_MONOTONIC	0x8000000000000000ULL
#endif
#ifndef STATX_IO_PARAMS
#define STATX_IO_PARAMS			0x00040000U
#endif
#ifndef STATX_ATTR_HIDDEN
#define STATX_ATTR_HIDDEN		0x00800000ULL
#define STATX_ATTR_SYSTEM		0x01000000ULL
#define STATX_ATTR_ARCHIVE		0x02000000ULL
#define STATX_ATTR_DOS_READONLY		0x04000000ULL
#define STATX_ATTR_FOREIGN_OWNER	0x08000000ULL
#endif
#ifndef STATX_ATTR_KERNEL_FILE
#define STATX_ATTR_KERNEL_FILE		0x10000000ULL
#endif
#ifndef STATX_ATTR_SPARSE
#define STATX_ATTR_SPARSE		0x20000000ULL
#endif
#ifndef STATX_ATTR_STORED_COMPRESSED
#define STATX_ATTR_STORED_COMPRESSED	0x40000000ULL
#endif

/* The fields whose presence the table decides. */
#define CAPS_MASK	(STATX_BTIME | STATX_DIOALIGN | STATX_IO_PARAMS | \
			 STATX_GEN | STATX_CHANGE_COOKIE)

/* The flags whose bit in stx_attributes_mask the table decides. */
#define CAPS_DOS	(STATX_ATTR_DOS_READONLY | STATX_ATTR_HIDDEN | \
			 STATX_ATTR_SYSTEM | STATX_ATTR_ARCHIVE)
#define CAPS_INODE	(STATX_ATTR_COMPRESSED | STATX_ATTR_IMMUTABLE | \
			 STATX_ATTR_APPEND | STATX_ATTR_NODUMP)
#define CAPS_ATTRS	(CAPS_DOS | CAPS_INODE | STATX_ATTR_ENCRYPTED | \
			 STATX_ATTR_VERITY | \
			 STATX_ATTR_FOREIGN_OWNER | \
			 STATX_ATTR_KERNEL_FILE | STATX_ATTR_SPARSE | \
			 STATX_ATTR_STORED_COMPRESSED | \
			 STATX_ATTR_CHANGE_MONOTONIC)

/*
 * The flags the VFS advertises for every file of every filesystem.  In
 * 7.3 STATX_ATTR_VERITY is the filesystem's to advertise (ext4, f2fs).
 */
#define CAPS_VFS	(STATX_ATTR_MOUNT_ROOT | STATX_ATTR_AUTOMOUNT | \
			 STATX_ATTR_DAX)

struct statx_caps {
	const char *fstype;
	__u32 mask;		/* CAPS_MASK bits in stx_mask */
	__u64 attrs;		/* CAPS_ATTRS bits in stx_attributes_mask */
};

static const struct statx_caps statx_caps_table[] = {
	{ "ext4",
	  STATX_BTIME | STATX_DIOALIGN | STATX_IO_PARAMS | STATX_GEN |
	  STATX_CHANGE_COOKIE,
	  CAPS_INODE | STATX_ATTR_ENCRYPTED | STATX_ATTR_VERITY |
	  STATX_ATTR_KERNEL_FILE | STATX_ATTR_CHANGE_MONOTONIC },
	{ "xfs",
	  STATX_BTIME | STATX_DIOALIGN | STATX_IO_PARAMS | STATX_GEN,
	  STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND | STATX_ATTR_NODUMP |
	  STATX_ATTR_KERNEL_FILE },
	/*
	 * btrfs sets STATX_ATTR_VERITY on a verity file but, as of 7.3, does
	 * not advertise it in stx_attributes_mask.
	 */
	{ "btrfs",
	  STATX_BTIME | STATX_IO_PARAMS | STATX_GEN | STATX_CHANGE_COOKIE,
	  CAPS_INODE | STATX_ATTR_KERNEL_FILE | STATX_ATTR_CHANGE_MONOTONIC },
	{ "tmpfs",
	  STATX_BTIME | STATX_IO_PARAMS | STATX_GEN | STATX_CHANGE_COOKIE,
	  STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND | STATX_ATTR_NODUMP |
	  STATX_ATTR_KERNEL_FILE | STATX_ATTR_CHANGE_MONOTONIC },
	{ "ramfs", 0, STATX_ATTR_KERNEL_FILE },
	{ "vfat",
	  STATX_BTIME | STATX_IO_PARAMS,
	  CAPS_DOS | STATX_ATTR_FOREIGN_OWNER | STATX_ATTR_KERNEL_FILE |
	  STATX_ATTR_SPARSE },
	{ "msdos",
	  STATX_IO_PARAMS,
	  CAPS_DOS | STATX_ATTR_FOREIGN_OWNER | STATX_ATTR_KERNEL_FILE |
	  STATX_ATTR_SPARSE },
	{ "exfat",
	  STATX_BTIME | STATX_IO_PARAMS,
	  CAPS_DOS | STATX_ATTR_FOREIGN_OWNER | STATX_ATTR_KERNEL_FILE |
	  STATX_ATTR_SPARSE },
	{ "ntfs3",
	  STATX_BTIME | STATX_IO_PARAMS | STATX_GEN,
	  CAPS_DOS | STATX_ATTR_FOREIGN_OWNER | STATX_ATTR_KERNEL_FILE |
	  STATX_ATTR_SPARSE | STATX_ATTR_STORED_COMPRESSED |
	  STATX_ATTR_COMPRESSED | STATX_ATTR_ENCRYPTED |
	  STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND },
	{ "proc", 0, STATX_ATTR_KERNEL_FILE },
	{ "sysfs", 0, STATX_ATTR_KERNEL_FILE },
};

/* The row for @fstype, or NULL for a filesystem the table does not know. */
static inline const struct statx_caps *statx_caps_of(const char *fstype)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(statx_caps_table); i++)
		if (!strcmp(statx_caps_table[i].fstype, fstype))
			return &statx_caps_table[i];
	return NULL;
}

/* Must a kernel with this table report @bit (a CAPS_MASK bit) on @fstype? */
static inline bool statx_caps_field(const char *fstype, __u32 bit)
{
	const struct statx_caps *c = statx_caps_of(fstype);

	return c && (c->mask & bit);
}

/* Must it advertise @attr (a CAPS_ATTRS bit) in stx_attributes_mask? */
static inline bool statx_caps_attr(const char *fstype, __u64 attr)
{
	const struct statx_caps *c = statx_caps_of(fstype);

	return c && (c->attrs & attr);
}

/*
 * Does the running kernel know this table?  Its procfs files advertise
 * STATX_ATTR_KERNEL_FILE; a kernel that predates the flags advertises none
 * of them, and the tests that hold it to the table skip.
 */
static inline bool statx_caps_kernel(void)
{
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	if (sys_statx(AT_FDCWD, "/proc/self/status", 0, STATX_BASIC_STATS,
		      &stx))
		return false;
	return stx.stx_attributes_mask & STATX_ATTR_KERNEL_FILE;
}

#endif /* STATX_CAPS_H */
