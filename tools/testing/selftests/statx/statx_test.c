// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) basic fields: what statx() returns for STATX_BASIC_STATS must
 * equal what fstatat(2) returns for the same file, on every filesystem the
 * harness mounts.
 */
#include "statx_helpers.h"
#include "../kselftest_harness.h"

/*
 * Compare the basic fields of @stx with @st.  @lacks are the STATX_* bits
 * of STATX_BASIC_STATS the filesystem cannot store (msdos keeps no access
 * time): they must be absent from stx_mask, and the rest present.
 */
static void expect_basic_equal(struct __test_metadata *_metadata,
			       const struct statx *stx, const struct stat *st,
			       unsigned int lacks)
{
	ASSERT_EQ(STATX_BASIC_STATS & ~lacks,
		  stx->stx_mask & STATX_BASIC_STATS);
	EXPECT_EQ(st->st_mode, stx->stx_mode);
	EXPECT_EQ(st->st_nlink, stx->stx_nlink);
	EXPECT_EQ(st->st_uid, stx->stx_uid);
	EXPECT_EQ(st->st_gid, stx->stx_gid);
	EXPECT_EQ(st->st_ino, stx->stx_ino);
	EXPECT_EQ(st->st_size, stx->stx_size);
	EXPECT_EQ(st->st_blocks, stx->stx_blocks);
	EXPECT_EQ(st->st_blksize, stx->stx_blksize);
	EXPECT_EQ(major(st->st_dev), stx->stx_dev_major);
	EXPECT_EQ(minor(st->st_dev), stx->stx_dev_minor);
	EXPECT_EQ(major(st->st_rdev), stx->stx_rdev_major);
	EXPECT_EQ(minor(st->st_rdev), stx->stx_rdev_minor);
	if (stx->stx_mask & STATX_ATIME) {
		EXPECT_EQ(st->st_atim.tv_sec, stx->stx_atime.tv_sec);
		EXPECT_EQ(st->st_atim.tv_nsec, stx->stx_atime.tv_nsec);
	}
	EXPECT_EQ(st->st_mtim.tv_sec, stx->stx_mtime.tv_sec);
	EXPECT_EQ(st->st_mtim.tv_nsec, stx->stx_mtime.tv_nsec);
	EXPECT_EQ(st->st_ctim.tv_sec, stx->stx_ctime.tv_sec);
	EXPECT_EQ(st->st_ctim.tv_nsec, stx->stx_ctime.tv_nsec);
}

TEST(root_directory)
{
	struct statx stx;
	struct stat st;

	ASSERT_EQ(0, fstatat(AT_FDCWD, "/", &st, 0));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, &stx));
	EXPECT_TRUE(S_ISDIR(stx.stx_mode));
	expect_basic_equal(_metadata, &stx, &st, 0);
}

FIXTURE(fs) {
	char dir[256];
	char file[PATH_MAX];
};

FIXTURE_VARIANT(fs) {
	const char *fstype;
	const char *mnt;
	unsigned int lacks;	/* basic fields the filesystem cannot store */
};

FIXTURE_VARIANT_ADD(fs, tmpfs) {
	.fstype = "tmpfs",
	.mnt = STATX_TEST_ROOT "/tmpfs",
};

FIXTURE_VARIANT_ADD(fs, ext4) {
	.fstype = "ext4",
	.mnt = STATX_TEST_ROOT "/ext4",
};

FIXTURE_VARIANT_ADD(fs, xfs) {
	.fstype = "xfs",
	.mnt = STATX_TEST_ROOT "/xfs",
};

FIXTURE_VARIANT_ADD(fs, btrfs) {
	.fstype = "btrfs",
	.mnt = STATX_TEST_ROOT "/btrfs",
};

FIXTURE_VARIANT_ADD(fs, vfat) {
	.fstype = "vfat",
	.mnt = STATX_TEST_ROOT "/vfat",
};

FIXTURE_VARIANT_ADD(fs, msdos) {
	.fstype = "msdos",
	.mnt = STATX_TEST_ROOT "/msdos",
	.lacks = STATX_ATIME,
};

FIXTURE_VARIANT_ADD(fs, exfat) {
	.fstype = "exfat",
	.mnt = STATX_TEST_ROOT "/exfat",
};

FIXTURE_VARIANT_ADD(fs, ntfs3) {
	.fstype = "ntfs3",
	.mnt = STATX_TEST_ROOT "/ntfs3",
};

FIXTURE_SETUP(fs)
{
	int fd;

	if (!statx_fs_mounted(variant->mnt, variant->fstype))
		SKIP(return, "%s is not mounted at %s", variant->fstype,
		     variant->mnt);
	snprintf(self->dir, sizeof(self->dir), "%s/basic.XXXXXX", variant->mnt);
	ASSERT_TRUE(!!mkdtemp(self->dir));
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	fd = open(self->file, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "data\n", 5));
	ASSERT_EQ(0, close(fd));
}

FIXTURE_TEARDOWN(fs)
{
	if (!self->dir[0])
		return;
	unlink(self->file);
	rmdir(self->dir);
}

TEST_F(fs, regular_file)
{
	struct statx stx;
	struct stat st;

	ASSERT_EQ(0, fstatat(AT_FDCWD, self->file, &st, 0));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
			       &stx));
	EXPECT_TRUE(S_ISREG(stx.stx_mode));
	EXPECT_EQ(5, stx.stx_size);
	expect_basic_equal(_metadata, &stx, &st, variant->lacks);
}

TEST_F(fs, directory)
{
	struct statx stx;
	struct stat st;

	ASSERT_EQ(0, fstatat(AT_FDCWD, self->dir, &st, 0));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->dir, 0, STATX_BASIC_STATS,
			       &stx));
	EXPECT_TRUE(S_ISDIR(stx.stx_mode));
	expect_basic_equal(_metadata, &stx, &st, variant->lacks);
}

TEST_HARNESS_MAIN
