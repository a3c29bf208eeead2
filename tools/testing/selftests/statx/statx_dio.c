// SPDX-License-Identifier: GPL-2.0
/*
 * STATX_DIOALIGN: ext4 and xfs report the direct I/O alignment of a
 * regular file from the disk under them, so it must equal the disk's
 * logical block size and DMA alignment in sysfs; direct I/O must work at
 * that alignment and fail with EINVAL at half the offset alignment.  A
 * block device node reports its own device's values.  Filesystems that do
 * not do it return neither the bit nor values.
 */
#include "statx_helpers.h"
#include "../kselftest_harness.h"

/* Does @fs report STATX_DIOALIGN for regular files (of those here, ext4 and xfs)? */
static bool fs_has_dioalign(const struct statx_fs *fs)
{
	return !strcmp(fs->fstype, "ext4") || !strcmp(fs->fstype, "xfs");
}

FIXTURE(dio) {
	char dir[128];
	char file[256];
};

FIXTURE_VARIANT(dio) {
	const struct statx_fs *fs;
};

FIXTURE_VARIANT_ADD(dio, tmpfs) { .fs = STATX_FS(TMPFS) };
FIXTURE_VARIANT_ADD(dio, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(dio, ext4_lbs4k) { .fs = STATX_FS(EXT4_LBS4K) };
FIXTURE_VARIANT_ADD(dio, xfs) { .fs = STATX_FS(XFS) };
FIXTURE_VARIANT_ADD(dio, btrfs) { .fs = STATX_FS(BTRFS) };
FIXTURE_VARIANT_ADD(dio, vfat) { .fs = STATX_FS(VFAT) };
FIXTURE_VARIANT_ADD(dio, msdos) { .fs = STATX_FS(MSDOS) };
FIXTURE_VARIANT_ADD(dio, exfat) { .fs = STATX_FS(EXFAT) };
FIXTURE_VARIANT_ADD(dio, ntfs3) { .fs = STATX_FS(NTFS3) };

FIXTURE_SETUP(dio)
{
	static char data[16384];
	enum statx_verdict v;
	char why[160];
	int fd;

	v = statx_fs_mkdtemp(variant->fs, "dio", self->dir, sizeof(self->dir),
			     why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	fd = open(self->file, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	memset(data, 'x', sizeof(data));
	ASSERT_EQ(sizeof(data), write(fd, data, sizeof(data)));
	ASSERT_EQ(0, fsync(fd));
	ASSERT_EQ(0, close(fd));
}

FIXTURE_TEARDOWN(dio)
{
	statx_rmtree(self->dir);
}

/* The disk's logical block size and DMA alignment from sysfs. */
static void disk_alignment(struct __test_metadata *_metadata,
			   const struct statx *stx, unsigned long *lbs,
			   unsigned long *dma)
{
	ASSERT_TRUE(statx_sysfs_block(stx->stx_dev_major, stx->stx_dev_minor,
				      "queue/logical_block_size", lbs));
	ASSERT_TRUE(statx_sysfs_block(stx->stx_dev_major, stx->stx_dev_minor,
				      "queue/dma_alignment", dma));
}

TEST_F(dio, regular_file)
{
	unsigned long lbs, dma;
	struct statx stx;
	char *buf;
	int fd;

	/* Not asked: not given. */
	memset(&stx, STATX_POISON, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
			       &stx));
	EXPECT_EQ(0, stx.stx_mask & STATX_DIOALIGN);
	EXPECT_EQ(0, stx.stx_dio_mem_align);
	EXPECT_EQ(0, stx.stx_dio_offset_align);

	memset(&stx, STATX_POISON, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, STATX_DIOALIGN, &stx));
	if (!fs_has_dioalign(variant->fs)) {
		EXPECT_EQ(0, stx.stx_mask & STATX_DIOALIGN);
		EXPECT_EQ(0, stx.stx_dio_mem_align);
		EXPECT_EQ(0, stx.stx_dio_offset_align);
		return;
	}
	ASSERT_EQ(STATX_DIOALIGN, stx.stx_mask & STATX_DIOALIGN);
	disk_alignment(_metadata, &stx, &lbs, &dma);
	EXPECT_EQ(lbs, stx.stx_dio_offset_align);
	EXPECT_EQ(dma + 1, stx.stx_dio_mem_align);
	/* The ext4-lbs4k disk has 4096-byte sectors: not a default 512 */
	if (!strcmp(variant->fs->name, "ext4-lbs4k"))
		EXPECT_EQ(4096, stx.stx_dio_offset_align);

	/* Direct I/O works at that alignment ... */
	fd = open(self->file, O_RDONLY | O_DIRECT);
	ASSERT_LE(0, fd);
	buf = aligned_alloc(stx.stx_dio_mem_align,
			    2 * stx.stx_dio_offset_align);
	ASSERT_TRUE(!!buf);
	EXPECT_EQ(stx.stx_dio_offset_align,
		  pread(fd, buf, stx.stx_dio_offset_align,
			stx.stx_dio_offset_align)) {
		TH_LOG("aligned O_DIRECT read: %s", strerror(errno));
	}
	EXPECT_EQ('x', buf[0]);
	/* ... and not at half of it. */
	if (stx.stx_dio_offset_align > 1) {
		errno = 0;
		EXPECT_EQ(-1, pread(fd, buf, stx.stx_dio_offset_align,
				    stx.stx_dio_offset_align / 2));
		EXPECT_EQ(EINVAL, errno);
	}
	free(buf);
	close(fd);
}

/* Only regular files have a direct I/O alignment. */
TEST_F(dio, directory)
{
	struct statx stx;

	memset(&stx, STATX_POISON, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->dir, 0, STATX_DIOALIGN, &stx));
	EXPECT_EQ(0, stx.stx_mask & STATX_DIOALIGN);
	EXPECT_EQ(0, stx.stx_dio_mem_align);
	EXPECT_EQ(0, stx.stx_dio_offset_align);
}

/*
 * The block device node of the filesystem's disk: the VFS answers with
 * the device's own alignment, whatever filesystem holds the node.
 */
TEST_F(dio, block_device_node)
{
	unsigned long lbs, dma;
	struct statx stx, node;
	char path[300];

	if (!variant->fs->bdev)
		STATX_SKIP(return, "%s is not on a disk of its own",
			   variant->fs->fstype);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, 0, &stx));
	ASSERT_TRUE(statx_block_node(stx.stx_dev_major, stx.stx_dev_minor,
				     path, sizeof(path)));
	disk_alignment(_metadata, &stx, &lbs, &dma);

	memset(&node, STATX_POISON, sizeof(node));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &node));
	EXPECT_EQ(S_IFBLK, node.stx_mode & S_IFMT);
	EXPECT_EQ(stx.stx_dev_major, node.stx_rdev_major);
	EXPECT_EQ(stx.stx_dev_minor, node.stx_rdev_minor);
	ASSERT_EQ(STATX_DIOALIGN, node.stx_mask & STATX_DIOALIGN);
	EXPECT_EQ(lbs, node.stx_dio_offset_align);
	EXPECT_EQ(dma + 1, node.stx_dio_mem_align);

	/* Not asked: not given. */
	memset(&node, STATX_POISON, sizeof(node));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &node));
	EXPECT_EQ(0, node.stx_mask & STATX_DIOALIGN);
	EXPECT_EQ(0, node.stx_dio_offset_align);
}

int main(int argc, char **argv)
{
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
