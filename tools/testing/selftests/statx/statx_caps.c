// SPDX-License-Identifier: GPL-2.0
/*
 * Each filesystem the suite knows reports exactly what statx_caps.h says a
 * kernel that defines STATX_ATTR_KERNEL_FILE must report for it: the fields in stx_mask
 * and the flags in stx_attributes_mask, on a regular file of a filesystem
 * the test makes itself (statx_scratch.h) or mounts itself (procfs, sysfs)
 * in a private mount namespace.  A field or flag missing from its row's
 * answer fails, as does one the row does not have: the other tests skip
 * the checks of a field that a filesystem's row lacks, so the row must not
 * lack what the filesystem has.
 */
#include "statx_caps.h"
#include "statx_scratch.h"

#include "../kselftest_harness.h"

#define REQUEST		(STATX_BASIC_STATS | CAPS_MASK)

static const struct {
	__u64 bit;
	const char *name;
} bit_names[] = {
	{ STATX_BTIME, "STATX_BTIME" },
	{ STATX_DIOALIGN, "STATX_DIOALIGN" },
	{ STATX_IO_PARAMS, "STATX_IO_PARAMS" },
	{ STATX_GEN, "STATX_GEN" },
	{ STATX_CHANGE_COOKIE, "STATX_CHANGE_COOKIE" },
};

static const struct {
	__u64 bit;
	const char *name;
} attr_names[] = {
	{ STATX_ATTR_COMPRESSED, "COMPRESSED" },
	{ STATX_ATTR_IMMUTABLE, "IMMUTABLE" },
	{ STATX_ATTR_APPEND, "APPEND" },
	{ STATX_ATTR_NODUMP, "NODUMP" },
	{ STATX_ATTR_ENCRYPTED, "ENCRYPTED" },
	{ STATX_ATTR_VERITY, "VERITY" },
	{ STATX_ATTR_DOS_READONLY, "DOS_READONLY" },
	{ STATX_ATTR_HIDDEN, "HIDDEN" },
	{ STATX_ATTR_SYSTEM, "SYSTEM" },
	{ STATX_ATTR_ARCHIVE, "ARCHIVE" },
	{ STATX_ATTR_FOREIGN_OWNER, "FOREIGN_OWNER" },
	{ STATX_ATTR_KERNEL_FILE, "KERNEL_FILE" },
	{ STATX_ATTR_SPARSE, "SPARSE" },
	{ STATX_ATTR_STORED_COMPRESSED, "STORED_COMPRESSED" },
	{ STATX_ATTR_CHANGE_MONOTONIC, "CHANGE_MONOTONIC" },
};

FIXTURE(caps) {
	struct statx_scratch s;
	char file[160];
};

FIXTURE_VARIANT(caps) {
	const char *fstype;
	const char *file;	/* a regular file the kernel makes, or NULL */
};

FIXTURE_VARIANT_ADD(caps, ext4) {
	.fstype = "ext4",
};

FIXTURE_VARIANT_ADD(caps, xfs) {
	.fstype = "xfs",
};

FIXTURE_VARIANT_ADD(caps, btrfs) {
	.fstype = "btrfs",
};

FIXTURE_VARIANT_ADD(caps, tmpfs) {
	.fstype = "tmpfs",
};

FIXTURE_VARIANT_ADD(caps, ramfs) {
	.fstype = "ramfs",
};

FIXTURE_VARIANT_ADD(caps, vfat) {
	.fstype = "vfat",
};

FIXTURE_VARIANT_ADD(caps, msdos) {
	.fstype = "msdos",
};

FIXTURE_VARIANT_ADD(caps, exfat) {
	.fstype = "exfat",
};

FIXTURE_VARIANT_ADD(caps, ntfs3) {
	.fstype = "ntfs3",
};

FIXTURE_VARIANT_ADD(caps, proc) {
	.fstype = "proc", .file = "self/status",
};

FIXTURE_VARIANT_ADD(caps, sysfs) {
	.fstype = "sysfs", .file = "kernel/uevent_seqnum",
};

FIXTURE_SETUP(caps)
{
	enum statx_scratch_rc rc;
	int fd;

	memset(&self->s, 0, sizeof(self->s));
	if (geteuid() != 0)
		STATX_SKIP(return, "making filesystems needs root");
	if (!statx_caps_kernel())
		STATX_SKIP(return, "procfs is not KERNEL_FILE: the kernel predates statx_caps.h");
	rc = statx_scratch_new(&self->s, variant->fstype, 0, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->s.why);

	if (variant->file) {
		snprintf(self->file, sizeof(self->file), "%s/%s", self->s.mnt,
			 variant->file);
		return;
	}
	snprintf(self->file, sizeof(self->file), "%s/file", self->s.mnt);
	fd = open(self->file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	ASSERT_LE(0, fd) TH_LOG("create %s: %s", self->file, strerror(errno));
	ASSERT_EQ(6, write(fd, "hello\n", 6));
	ASSERT_EQ(0, fsync(fd));
	ASSERT_EQ(0, close(fd));
}

FIXTURE_TEARDOWN(caps)
{
	statx_scratch_umount(&self->s);
}

/* Log each bit of @mask that @got has and @want lacks, or the reverse. */
static void log_diff(struct __test_metadata *_metadata, const char *fstype,
		     __u64 want, __u64 got, bool attrs)
{
	size_t i, n = attrs ? ARRAY_SIZE(attr_names) : ARRAY_SIZE(bit_names);

	for (i = 0; i < n; i++) {
		__u64 bit = attrs ? attr_names[i].bit : bit_names[i].bit;
		const char *name = attrs ? attr_names[i].name :
				   bit_names[i].name;

		if ((want & bit) && !(got & bit))
			TH_LOG("%s: %s must be reported and is not", fstype,
			       name);
		else if (!(want & bit) && (got & bit))
			TH_LOG("%s: %s is reported, and the table says it is not",
			       fstype, name);
	}
}

TEST_F(caps, regular_file)
{
	const struct statx_caps *row = statx_caps_of(variant->fstype);
	struct statx stx;

	ASSERT_TRUE(!!row)
		TH_LOG("%s is not in statx_caps.h", variant->fstype);
	memset(&stx, 0xa5, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, AT_SYMLINK_NOFOLLOW,
			       REQUEST, &stx))
		TH_LOG("statx %s: %s", self->file, strerror(errno));
	ASSERT_TRUE(S_ISREG(stx.stx_mode));

	EXPECT_EQ(row->mask, stx.stx_mask & CAPS_MASK)
		log_diff(_metadata, row->fstype, row->mask,
			 stx.stx_mask & CAPS_MASK, false);
	EXPECT_EQ(row->attrs, stx.stx_attributes_mask & CAPS_ATTRS)
		log_diff(_metadata, row->fstype, row->attrs,
			 stx.stx_attributes_mask & CAPS_ATTRS, true);
	EXPECT_EQ(CAPS_VFS, stx.stx_attributes_mask & CAPS_VFS);
	/* A flag is set only where its bit in the mask is. */
	EXPECT_EQ(0, stx.stx_attributes & ~stx.stx_attributes_mask);
}

TEST_HARNESS_MAIN
