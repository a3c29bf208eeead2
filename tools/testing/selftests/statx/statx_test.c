// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) fields against independent sources of truth, for every file
 * type on every filesystem the suite makes: the basic fields must equal
 * what fstatat(2) returns, the file type and device number what mknod(2)
 * was given, the size what was written, the inode number what readdir
 * returns, and the timestamps of a new file must lie between the clock
 * before and after it was made.  The birth time is reported exactly where
 * the filesystem stores one, the attributes stay inside the attribute
 * mask, and the three AT_STATX_SYNC_* modes give the same answer.
 */
#include "statx_helpers.h"

#include <dirent.h>

#include "../kselftest_harness.h"

#define WANT (STATX_BASIC_STATS | STATX_BTIME)

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
	/* A timestamp the filesystem lacks still equals what stat() shows. */
	EXPECT_EQ(st->st_atim.tv_sec, stx->stx_atime.tv_sec);
	EXPECT_EQ(st->st_atim.tv_nsec, stx->stx_atime.tv_nsec);
	EXPECT_EQ(st->st_mtim.tv_sec, stx->stx_mtime.tv_sec);
	EXPECT_EQ(st->st_mtim.tv_nsec, stx->stx_mtime.tv_nsec);
	EXPECT_EQ(st->st_ctim.tv_sec, stx->stx_ctime.tv_sec);
	EXPECT_EQ(st->st_ctim.tv_nsec, stx->stx_ctime.tv_nsec);
}

/* Every timestamp is normalised and its reserved word is zero. */
static void expect_timestamps_sane(struct __test_metadata *_metadata,
				   const struct statx *stx)
{
	const struct statx_timestamp *ts[] = {
		&stx->stx_atime, &stx->stx_btime, &stx->stx_ctime,
		&stx->stx_mtime,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ts); i++) {
		EXPECT_GT(1000000000U, ts[i]->tv_nsec);
		EXPECT_EQ(0, ts[i]->__reserved);
	}
}

/* stx_attributes only has flags stx_attributes_mask says it supports. */
static void expect_attributes_sane(struct __test_metadata *_metadata,
				   const struct statx *stx)
{
	EXPECT_EQ(0, stx->stx_attributes & ~stx->stx_attributes_mask);
	EXPECT_EQ(0, stx->stx_attributes_mask & ~statx_known_attrs());
	/* The VFS sets these on every file of every filesystem. */
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
		  stx->stx_attributes_mask & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(STATX_ATTR_AUTOMOUNT,
		  stx->stx_attributes_mask & STATX_ATTR_AUTOMOUNT);
}

/* The inode number readdir() gives for @name in @dir. */
static __u64 readdir_ino(const char *dir, const char *name)
{
	struct dirent *de;
	__u64 ino = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strcmp(de->d_name, name))
			ino = de->d_ino;
	closedir(d);
	return ino;
}

/* What a test on one filesystem works with */
struct fs_ctx {
	const struct statx_fs *fs;
	char root[64];
	char dir[128];
	char path[256];		/* the object under test */
	bool btime;		/* the filesystem stores a birth time */
	long mtime_gran;
	long btime_gran;
	struct statx_timestamp before;
	char why[160];		/* why a helper said STATX_CANNOT */
};

FIXTURE(fs) {
	struct fs_ctx c;
};

FIXTURE_VARIANT(fs) {
	const struct statx_fs *fs;
};

FIXTURE_VARIANT_ADD(fs, tmpfs) { .fs = STATX_FS(TMPFS) };
FIXTURE_VARIANT_ADD(fs, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(fs, ext4_lbs4k) { .fs = STATX_FS(EXT4_LBS4K) };
FIXTURE_VARIANT_ADD(fs, xfs) { .fs = STATX_FS(XFS) };
FIXTURE_VARIANT_ADD(fs, btrfs) { .fs = STATX_FS(BTRFS) };
FIXTURE_VARIANT_ADD(fs, vfat) { .fs = STATX_FS(VFAT) };
FIXTURE_VARIANT_ADD(fs, msdos) { .fs = STATX_FS(MSDOS) };
FIXTURE_VARIANT_ADD(fs, exfat) { .fs = STATX_FS(EXFAT) };
FIXTURE_VARIANT_ADD(fs, ntfs3) { .fs = STATX_FS(NTFS3) };

FIXTURE_SETUP(fs)
{
	struct fs_ctx *c = &self->c;
	const struct statx_fs *fs = variant->fs;
	enum statx_verdict v;

	c->fs = fs;
	statx_fs_root(fs, c->root, sizeof(c->root));
	v = statx_fs_mkdtemp(fs, "fields", c->dir, sizeof(c->dir), c->why,
			     sizeof(c->why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", c->why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", c->why);
	snprintf(c->path, sizeof(c->path), "%s/obj", c->dir);
	c->btime = fs->btime;
	c->mtime_gran = fs->mtime_gran;
	c->btime_gran = fs->btime_gran;
	if (!strcmp(fs->fstype, "ext4")) {
		struct stat st;

		ASSERT_EQ(0, stat(c->root, &st));
		ASSERT_TRUE(statx_ext4_sb(major(st.st_dev), minor(st.st_dev),
					  &c->btime, &c->mtime_gran));
		c->btime_gran = c->mtime_gran;
	}
	/* The kernel stamps files with the coarse clock. */
	c->before = statx_now(CLOCK_REALTIME_COARSE);
}

FIXTURE_TEARDOWN(fs)
{
	statx_rmtree(self->c.dir);
}

/*
 * Check the object at c->path, just made: with and without
 * AT_SYMLINK_NOFOLLOW (@flags), statx() must agree with fstatat(), have
 * type @type, and the timestamps must be those of a new file.  Returns
 * STATX_CANNOT when everything but the birth time passed and the
 * filesystem does not report that of a symlink (c->why says so).
 */
static enum statx_verdict check_new(struct __test_metadata *_metadata,
				    struct fs_ctx *c, unsigned int flags,
				    mode_t type, struct statx *stx)
{
	struct statx_timestamp after = statx_now(CLOCK_REALTIME);
	struct statx_timestamp lo;
	bool no_btime;
	struct stat st;

	ASSERT_EQ(0, fstatat(AT_FDCWD, c->path, &st, flags));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, c->path, flags, WANT, stx));
	/* Decided before anything is checked, so that it hides no failure */
	no_btime = c->btime && type == S_IFLNK && c->fs->symlink_no_btime &&
		   !(stx->stx_mask & STATX_BTIME);
	EXPECT_EQ(type, stx->stx_mode & S_IFMT);
	expect_basic_equal(_metadata, stx, &st, c->fs->lacks);
	expect_timestamps_sane(_metadata, stx);
	expect_attributes_sane(_metadata, stx);
	EXPECT_EQ(0, stx->stx_attributes & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(geteuid(), stx->stx_uid);
	EXPECT_EQ(getegid(), stx->stx_gid);
	EXPECT_EQ(STATX_MNT_ID, stx->stx_mask & STATX_MNT_ID);

	if (flags & AT_SYMLINK_NOFOLLOW)
		EXPECT_EQ(readdir_ino(c->dir, "obj"), stx->stx_ino);

	/* mtime and ctime were set when the object was made. */
	lo = statx_ts_floor(c->before, c->mtime_gran);
	EXPECT_LE(0, statx_ts_cmp(&stx->stx_mtime, &lo));
	EXPECT_GE(0, statx_ts_cmp(&stx->stx_mtime, &after));
	EXPECT_LE(0, statx_ts_cmp(&stx->stx_ctime, &lo));
	EXPECT_GE(0, statx_ts_cmp(&stx->stx_ctime, &after));

	if (no_btime) {
		if (STATX_CASE_FAILED())
			return STATX_FAILED;
		snprintf(c->why, sizeof(c->why),
			 "%s does not report the birth time of symlinks",
			 c->fs->fstype);
		return STATX_CANNOT;
	}
	if (!c->btime) {
		EXPECT_EQ(0, stx->stx_mask & STATX_BTIME);
		EXPECT_EQ(0, stx->stx_btime.tv_sec);
		EXPECT_EQ(0, stx->stx_btime.tv_nsec);
		return STATX_GO_ON;
	}
	ASSERT_EQ(STATX_BTIME, stx->stx_mask & STATX_BTIME);
	lo = statx_ts_floor(c->before, c->btime_gran);
	EXPECT_LE(0, statx_ts_cmp(&stx->stx_btime, &lo));
	EXPECT_GE(0, statx_ts_cmp(&stx->stx_btime, &after));
	/* Born no later than modified, at the granularity of mtime. */
	lo = statx_ts_floor(stx->stx_btime, c->mtime_gran);
	EXPECT_GE(0, statx_ts_cmp(&lo, &stx->stx_mtime));
	EXPECT_GE(0, statx_ts_cmp(&lo, &stx->stx_ctime));
	return STATX_GO_ON;
}

TEST_F(fs, regular_file)
{
	struct statx stx;
	int fd;

	fd = open(self->c.path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "data\n", 5));
	ASSERT_EQ(0, close(fd));
	check_new(_metadata, &self->c, AT_SYMLINK_NOFOLLOW, S_IFREG, &stx);
	EXPECT_EQ(5, stx.stx_size);
	EXPECT_EQ(1, stx.stx_nlink);
	EXPECT_EQ(0, stx.stx_rdev_major);
	EXPECT_EQ(0, stx.stx_rdev_minor);
}

TEST_F(fs, empty_file)
{
	struct statx stx;

	ASSERT_EQ(0, mknod(self->c.path, S_IFREG | 0600, 0));
	check_new(_metadata, &self->c, 0, S_IFREG, &stx);
	EXPECT_EQ(0, stx.stx_size);
	EXPECT_EQ(0, stx.stx_blocks);
}

TEST_F(fs, directory)
{
	struct statx stx;

	ASSERT_EQ(0, mkdir(self->c.path, 0755));
	check_new(_metadata, &self->c, AT_SYMLINK_NOFOLLOW, S_IFDIR, &stx);
	EXPECT_EQ(0, stx.stx_rdev_major);
	EXPECT_EQ(0, stx.stx_rdev_minor);
}

#define TARGET "a-target-of-some-length"

/*
 * Make c->path a symlink to a new file TARGET.  STATX_CANNOT if the
 * filesystem cannot hold symlinks and refuses with its errno; a refusal
 * with another errno is a failure.
 */
static enum statx_verdict make_symlink(struct __test_metadata *_metadata,
				       struct fs_ctx *c)
{
	char target[256];
	int fd, ret, err;

	snprintf(target, sizeof(target), "%s/" TARGET, c->dir);
	fd = open(target, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(7, write(fd, "target\n", 7));
	ASSERT_EQ(0, close(fd));
	ret = symlink(TARGET, c->path);
	err = ret ? errno : 0;
	if (!c->fs->symlink_errno) {
		ASSERT_EQ(0, ret) {
			TH_LOG("symlink: %s", strerror(err));
		}
		return STATX_GO_ON;
	}
	if (ret == -1 && err == c->fs->symlink_errno) {
		snprintf(c->why, sizeof(c->why),
			 "%s cannot store symlinks: symlink() gives %s",
			 c->fs->fstype, strerror(err));
		return STATX_CANNOT;
	}
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(c->fs->symlink_errno, err);
	return STATX_FAILED;
}

TEST_F(fs, symlink_nofollow)
{
	enum statx_verdict v;
	struct statx stx;

	v = make_symlink(_metadata, &self->c);
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", self->c.why);
	if (v == STATX_FAILED)
		return;
	v = check_new(_metadata, &self->c, AT_SYMLINK_NOFOLLOW, S_IFLNK, &stx);
	/* POSIX: the size of a symlink is the length of its target. */
	EXPECT_EQ(strlen(TARGET), stx.stx_size);
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", self->c.why);
}

TEST_F(fs, symlink_follow)
{
	char target[256];
	struct statx stx, tgt;
	enum statx_verdict v;

	v = make_symlink(_metadata, &self->c);
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", self->c.why);
	if (v == STATX_FAILED)
		return;
	check_new(_metadata, &self->c, 0, S_IFREG, &stx);
	snprintf(target, sizeof(target), "%s/" TARGET, self->c.dir);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, target, AT_SYMLINK_NOFOLLOW, WANT,
			       &tgt));
	EXPECT_EQ(tgt.stx_ino, stx.stx_ino);
	EXPECT_EQ(7, stx.stx_size);
	EXPECT_EQ(readdir_ino(self->c.dir, TARGET), stx.stx_ino);
}

/*
 * Make c->path a special file of type @type and device @dev.  STATX_CANNOT
 * if the filesystem cannot hold one and refuses with its errno; a refusal
 * with another errno is a failure.
 */
static enum statx_verdict make_special(struct __test_metadata *_metadata,
				       struct fs_ctx *c, mode_t type,
				       dev_t dev)
{
	const char *what = type == S_IFIFO ? "fifos" :
			   type == S_IFSOCK ? "sockets" : "devices";
	int ret = mknod(c->path, type | 0644, dev);
	int err = ret ? errno : 0;

	if (!c->fs->special_errno) {
		ASSERT_EQ(0, ret) {
			TH_LOG("mknod: %s", strerror(err));
		}
		return STATX_GO_ON;
	}
	if (ret == -1 && err == c->fs->special_errno) {
		snprintf(c->why, sizeof(c->why),
			 "%s cannot store %s: mknod() gives %s",
			 c->fs->fstype, what, strerror(err));
		return STATX_CANNOT;
	}
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(c->fs->special_errno, err);
	return STATX_FAILED;
}

TEST_F(fs, fifo)
{
	enum statx_verdict v;
	struct statx stx;

	v = make_special(_metadata, &self->c, S_IFIFO, 0);
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", self->c.why);
	if (v == STATX_FAILED)
		return;
	check_new(_metadata, &self->c, 0, S_IFIFO, &stx);
	EXPECT_EQ(0, stx.stx_size);
	EXPECT_EQ(0, stx.stx_rdev_major);
	EXPECT_EQ(0, stx.stx_rdev_minor);
}

TEST_F(fs, socket)
{
	enum statx_verdict v;
	struct statx stx;

	v = make_special(_metadata, &self->c, S_IFSOCK, 0);
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", self->c.why);
	if (v == STATX_FAILED)
		return;
	check_new(_metadata, &self->c, 0, S_IFSOCK, &stx);
	EXPECT_EQ(0, stx.stx_size);
	EXPECT_EQ(0, stx.stx_rdev_major);
	EXPECT_EQ(0, stx.stx_rdev_minor);
}

TEST_F(fs, char_device)
{
	enum statx_verdict v;
	struct statx stx;

	if (geteuid())
		STATX_SKIP(return, "mknod of a device needs CAP_MKNOD");
	/*
	 * 1:3 is /dev/null; 300:70000 needs more than 16 bits, within what
	 * every filesystem here can store (xfs: 9-bit major, 18-bit minor).
	 */
	v = make_special(_metadata, &self->c, S_IFCHR, makedev(1, 3));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", self->c.why);
	if (v == STATX_FAILED)
		return;
	check_new(_metadata, &self->c, 0, S_IFCHR, &stx);
	EXPECT_EQ(1, stx.stx_rdev_major);
	EXPECT_EQ(3, stx.stx_rdev_minor);
	ASSERT_EQ(0, unlink(self->c.path));
	ASSERT_EQ(0, mknod(self->c.path, S_IFCHR | 0600, makedev(300, 70000)));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->c.path, 0, WANT, &stx));
	EXPECT_EQ(300, stx.stx_rdev_major);
	EXPECT_EQ(70000, stx.stx_rdev_minor);
}

TEST_F(fs, block_device)
{
	enum statx_verdict v;
	struct statx stx;

	if (geteuid())
		STATX_SKIP(return, "mknod of a device needs CAP_MKNOD");
	v = make_special(_metadata, &self->c, S_IFBLK, makedev(7, 42));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", self->c.why);
	if (v == STATX_FAILED)
		return;
	check_new(_metadata, &self->c, 0, S_IFBLK, &stx);
	EXPECT_EQ(7, stx.stx_rdev_major);
	EXPECT_EQ(42, stx.stx_rdev_minor);
}

/* The root of the filesystem: a mount root, older than anything in it. */
TEST_F(fs, mount_root)
{
	struct statx stx, obj;
	struct stat st;

	ASSERT_EQ(0, stat(self->c.root, &st));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->c.root, 0, WANT, &stx));
	EXPECT_EQ(S_IFDIR, stx.stx_mode & S_IFMT);
	expect_basic_equal(_metadata, &stx, &st, variant->fs->lacks);
	expect_timestamps_sane(_metadata, &stx);
	expect_attributes_sane(_metadata, &stx);
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
		  stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(self->c.btime ? STATX_BTIME : 0, stx.stx_mask & STATX_BTIME);

	/* The scratch directory is on the same device. */
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->c.dir, 0, WANT, &obj));
	EXPECT_EQ(stx.stx_dev_major, obj.stx_dev_major);
	EXPECT_EQ(stx.stx_dev_minor, obj.stx_dev_minor);
	EXPECT_EQ(0, obj.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

/* A hard link shares the inode: same number, and nlink counts both. */
TEST_F(fs, hard_link)
{
	char other[256];
	struct statx a, b;
	struct stat st;

	ASSERT_EQ(0, mknod(self->c.path, S_IFREG | 0644, 0));
	snprintf(other, sizeof(other), "%s/link", self->c.dir);
	if (variant->fs->link_errno) {
		ASSERT_EQ(-1, link(self->c.path, other));
		ASSERT_EQ(variant->fs->link_errno, errno);
		STATX_SKIP(return, "%s has no hard links: link() gives %s",
			   variant->fs->fstype,
			   strerror(variant->fs->link_errno));
	}
	ASSERT_EQ(0, link(self->c.path, other));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->c.path, 0, WANT, &a));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, other, 0, WANT, &b));
	ASSERT_EQ(0, stat(other, &st));
	EXPECT_EQ(2, a.stx_nlink);
	EXPECT_EQ(a.stx_ino, b.stx_ino);
	expect_basic_equal(_metadata, &b, &st, variant->fs->lacks);
}

/*
 * The three sync modes are accepted and, on a local filesystem, give the
 * same answer to the byte.
 */
TEST_F(fs, sync_modes)
{
	const unsigned int mask = statx_known_mask();
	struct statx as_stat, force, dont;
	int fd;

	fd = open(self->c.path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "data\n", 5));
	ASSERT_EQ(0, close(fd));
	memset(&as_stat, STATX_POISON, sizeof(as_stat));
	memset(&force, STATX_POISON, sizeof(force));
	memset(&dont, STATX_POISON, sizeof(dont));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->c.path, AT_STATX_SYNC_AS_STAT,
			       mask, &as_stat));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->c.path, AT_STATX_FORCE_SYNC,
			       mask, &force));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->c.path, AT_STATX_DONT_SYNC,
			       mask, &dont));
	EXPECT_EQ(0, memcmp(&as_stat, &force, sizeof(force)));
	EXPECT_EQ(0, memcmp(&as_stat, &dont, sizeof(dont)));
	EXPECT_EQ(5, dont.stx_size);
}

/*
 * An unprivileged caller with search permission sees exactly what root
 * sees.
 */
TEST_F(fs, unprivileged)
{
	struct statx root, nobody;
	int fd, ret;

	fd = open(self->c.path, O_CREAT | O_WRONLY | O_EXCL, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	memset(&root, 0, sizeof(root));
	memset(&nobody, 0, sizeof(nobody));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->c.path, 0, WANT, &root));
	ret = statx_as_nobody(AT_FDCWD, self->c.path, 0, WANT, &nobody);
	if (ret < 0)
		STATX_SKIP(return, "cannot switch to uid 65534 (not root)");
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0, memcmp(&root, &nobody, sizeof(root)));
}

TEST(root_directory)
{
	struct statx stx;
	struct stat st;

	ASSERT_EQ(0, fstatat(AT_FDCWD, "/", &st, 0));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, &stx));
	EXPECT_TRUE(S_ISDIR(stx.stx_mode));
	expect_basic_equal(_metadata, &stx, &st, 0);
	expect_attributes_sane(_metadata, &stx);
}

int main(int argc, char **argv)
{
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
