// SPDX-License-Identifier: GPL-2.0
/*
 * The promises include/uapi/linux/stat.h makes for STATX_CHANGE_COOKIE and
 * STATX_GEN, each checked on filesystems the test makes for itself in a
 * private mount namespace (statx_scratch.h):
 *
 *  - the cookie is returned by the filesystems that keep it by the header's
 *    rules (tmpfs, ext4, btrfs), and by no other, whatever the mount
 *    options (MS_I_VERSION on vfat, exfat, ntfs3, ramfs; xfs, which counts
 *    access time updates; overlayfs, whose inodes can move to another
 *    counter on copy-up); STATX_ATTR_CHANGE_MONOTONIC is known exactly when
 *    the cookie is returned;
 *  - every change the header lists gives a new cookie, reads and access
 *    time updates do not;
 *  - a cookie returned while another process's write is in progress is
 *    not returned again once that write is complete;
 *  - the ext4 generation is returned only where its owner cannot rewrite it
 *    (metadata_csum).
 */
#include "statx_cookie.h"
#include "statx_scratch.h"

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "../kselftest_harness.h"

#define NOBODY		65534
#define MASK		(STATX_BASIC_STATS | STATX_BTIME | STATX_CHANGE_COOKIE | \
			 STATX_GEN)
#define MIB		(1024 * 1024)

#ifndef FS_IOC_SETVERSION
#define FS_IOC_SETVERSION	_IOW('v', 2, long)
#endif

static const char *const mkfs_ext4[] = {
	"mkfs.ext4", "-q", "-F", "-O", "metadata_csum", NULL
};

static const char *const mkfs_ext4_nocsum[] = {
	"mkfs.ext4", "-q", "-F", "-O", "^metadata_csum", NULL
};

static const char *const mkfs_btrfs[] = { "mkfs.btrfs", "-q", "-f", NULL };
static const char *const mkfs_xfs[] = { "mkfs.xfs", "-q", "-f", NULL };
static const char *const mkfs_vfat[] = { "mkfs.vfat", NULL };
static const char *const mkfs_exfat[] = { "mkfs.exfat", NULL };
static const char *const mkfs_ntfs[] = { "mkntfs", "-q", "-F", "-Q", NULL };

static int put_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, data, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/*
 * Filesystems that must not return the cookie: they keep no change counter
 * of their own, or one that counts what the cookie must not, or (overlayfs)
 * one an inode can leave for another.  Mounted with MS_I_VERSION where that
 * is what would switch a counter on.
 */
FIXTURE(lacks) {
	struct statx_scratch s;
	char over[96];
	char file[128];
};

FIXTURE_VARIANT(lacks) {
	const char *fstype;
	const char *const *mkfs;
	off_t size;
	unsigned long flags;
	bool overlay;
};

FIXTURE_VARIANT_ADD(lacks, ramfs_iversion) {
	.fstype = "ramfs", .flags = MS_I_VERSION,
};

FIXTURE_VARIANT_ADD(lacks, vfat_iversion) {
	.fstype = "vfat", .mkfs = mkfs_vfat, .size = 64 * MIB,
	.flags = MS_I_VERSION,
};

FIXTURE_VARIANT_ADD(lacks, exfat_iversion) {
	.fstype = "exfat", .mkfs = mkfs_exfat, .size = 64 * MIB,
	.flags = MS_I_VERSION,
};

FIXTURE_VARIANT_ADD(lacks, ntfs3_iversion) {
	.fstype = "ntfs3", .mkfs = mkfs_ntfs, .size = 64 * MIB,
	.flags = MS_I_VERSION,
};

FIXTURE_VARIANT_ADD(lacks, xfs) {
	.fstype = "xfs", .mkfs = mkfs_xfs, .size = 320 * MIB,
};

FIXTURE_VARIANT_ADD(lacks, overlay_on_tmpfs) {
	.fstype = "tmpfs", .overlay = true,
};

FIXTURE_SETUP(lacks)
{
	enum statx_scratch_rc rc;
	char opts[512];
	const char *m;
	int ret;

	rc = statx_scratch_make(&self->s, variant->fstype, variant->mkfs,
				variant->size, variant->flags, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->s.why);
	m = self->s.mnt;
	if (variant->overlay) {
		/* lower, upper and work directories on one tmpfs */
		snprintf(opts, sizeof(opts), "%s/lower", m);
		ASSERT_EQ(0, mkdir(opts, 0755));
		snprintf(opts, sizeof(opts), "%s/upper", m);
		ASSERT_EQ(0, mkdir(opts, 0755));
		snprintf(opts, sizeof(opts), "%s/work", m);
		ASSERT_EQ(0, mkdir(opts, 0755));
		snprintf(opts, sizeof(opts), "%s/over", m);
		ASSERT_EQ(0, mkdir(opts, 0755));
		snprintf(self->file, sizeof(self->file), "%s/lower/file", m);
		ASSERT_EQ(0, put_file(self->file, "lower\n", 6));
		snprintf(opts, sizeof(opts),
			 "lowerdir=%s/lower,upperdir=%s/upper,workdir=%s/work",
			 m, m, m);
		snprintf(self->over, sizeof(self->over), "%s/over", m);
		ret = mount("overlay", self->over, "overlay", 0, opts) ?
		      errno : 0;
		if (ret == ENODEV)
			STATX_SKIP(return, "the kernel has no overlayfs");
		ASSERT_EQ(0, ret) TH_LOG("mount overlay: %s", strerror(ret));
		m = self->over;
	}
	snprintf(self->file, sizeof(self->file), "%s/file", m);
	if (!variant->overlay)
		ASSERT_EQ(0, put_file(self->file, "hello\n", 6));
}

FIXTURE_TEARDOWN(lacks)
{
	if (self->over[0])
		umount2(self->over, MNT_DETACH);
	statx_scratch_umount(&self->s);
}

/* No cookie, zero in its place, and no word on its monotonicity. */
static void check_no_cookie(struct __test_metadata *_metadata,
			    const char *path)
{
	unsigned int masks[] = { STATX_BASIC_STATS, MASK };
	struct statx stx;
	int j;

	for (j = 0; j < 2; j++) {
		memset(&stx, 0xa5, sizeof(stx));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, masks[j], &stx));
		EXPECT_FALSE(stx.stx_mask & STATX_CHANGE_COOKIE)
			TH_LOG("%s: cookie %llu", path,
			       (unsigned long long)cookie_of(&stx));
		EXPECT_EQ(0, cookie_of(&stx));
		EXPECT_FALSE(stx.stx_attributes & STATX_ATTR_CHANGE_MONOTONIC);
		EXPECT_FALSE(stx.stx_attributes_mask &
			     STATX_ATTR_CHANGE_MONOTONIC);
	}
}

/*
 * For a file and its directory, asked for or not.  On overlayfs, also
 * after a write has copied the file up to the upper layer's inode, whose
 * counter started elsewhere: a cookie that claimed monotonicity would have
 * gone back, and equal values could come again.
 */
TEST_F(lacks, no_cookie)
{
	struct statx before, after;
	char dir[128];
	int fd;

	snprintf(dir, sizeof(dir), "%s", self->file);
	*strrchr(dir, '/') = '\0';
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &before));
	check_no_cookie(_metadata, self->file);
	check_no_cookie(_metadata, dir);
	if (!variant->overlay)
		return;
	fd = open(self->file, O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "more\n", 5));
	close(fd);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &after));
	EXPECT_EQ(before.stx_ino, after.stx_ino);
	check_no_cookie(_metadata, self->file);
}

/* Filesystems that return the cookie, each on a fresh filesystem. */
FIXTURE(keeps) {
	struct statx_scratch s;
	char file[128];
	char other[128];
	char dir[96];
};

/* The operations that change the file, and so the cookie. */
enum op {
	OP_WRITE, OP_REWRITE, OP_PWRITEV, OP_APPEND, OP_DIRECT, OP_URING,
	OP_COPY, OP_CLONE, OP_DEDUPE, OP_TRUNCATE, OP_EXTEND, OP_SAME_SIZE,
	OP_FALLOCATE, OP_PREALLOC, OP_PUNCH, OP_ZERO, OP_COLLAPSE, OP_INSERT,
	OP_CHMOD, OP_CHOWN, OP_UTIMENS, OP_TOUCH, OP_LINK, OP_UNLINK,
	OP_RENAME, OP_EXCHANGE, OP_SETXATTR, OP_REPLACEXATTR, OP_REMOVEXATTR,
	OP_MODE_ACL, OP_SETACL, OP_TRUNC_EMPTY, OP_NR
};

static const char *const op_names[OP_NR] = {
	"write", "rewrite of the same bytes", "pwritev", "append",
	"O_DIRECT write", "io_uring write", "copy_file_range", "FICLONE",
	"FIDEDUPERANGE", "truncate", "extend", "ftruncate to the same size",
	"fallocate",
	"fallocate(KEEP_SIZE)", "fallocate(PUNCH_HOLE)",
	"fallocate(ZERO_RANGE)", "fallocate(COLLAPSE_RANGE)",
	"fallocate(INSERT_RANGE)", "chmod", "chown", "utimensat",
	"utimensat(UTIME_NOW)", "link", "unlink of a link", "rename",
	"rename(RENAME_EXCHANGE)", "setxattr", "setxattr(XATTR_REPLACE)",
	"removexattr", "an ACL a mode can express", "set a POSIX ACL",
	"open(O_TRUNC) of an empty file",
};

/*
 * "monotonic": the cookie only grows; "reflink": FICLONE and
 * FIDEDUPERANGE; "unsupported": the fallocate modes the filesystem
 * refuses (with EOPNOTSUPP).
 */
FIXTURE_VARIANT(keeps) {
	const char *fstype;
	const char *const *mkfs;
	off_t size;
	bool monotonic;
	bool reflink;
	bool unsupported[OP_NR];
	enum handle_layout handle;
};

FIXTURE_VARIANT_ADD(keeps, tmpfs) {
	.fstype = "tmpfs", .monotonic = true,
	.unsupported = {
		[OP_ZERO] = true, [OP_COLLAPSE] = true, [OP_INSERT] = true,
	},
	.handle = HANDLE_SHMEM,
};

FIXTURE_VARIANT_ADD(keeps, ext4) {
	.fstype = "ext4", .mkfs = mkfs_ext4, .size = 64 * MIB,
	.handle = HANDLE_INO32,
};

FIXTURE_VARIANT_ADD(keeps, btrfs) {
	.fstype = "btrfs", .mkfs = mkfs_btrfs, .size = 256 * MIB,
	.reflink = true,
	.unsupported = { [OP_COLLAPSE] = true, [OP_INSERT] = true },
	.handle = HANDLE_BTRFS,
};

FIXTURE_SETUP(keeps)
{
	enum statx_scratch_rc rc;
	char *buf;

	if (!kernel_returns(STATX_CHANGE_COOKIE))
		STATX_SKIP(return, "the kernel does not return STATX_CHANGE_COOKIE");
	/* strictatime: every read updates the access time */
	rc = statx_scratch_make(&self->s, variant->fstype, variant->mkfs,
				variant->size, MS_STRICTATIME, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->s.why);
	snprintf(self->dir, sizeof(self->dir), "%s/dir", self->s.mnt);
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	snprintf(self->other, sizeof(self->other), "%s/other", self->dir);
	/* 64 KiB, so that every fallocate mode has whole blocks to move */
	buf = malloc(65536);
	ASSERT_TRUE(!!buf);
	memset(buf, 'a', 65536);
	ASSERT_EQ(0, put_file(self->file, buf, 65536));
	free(buf);
}

FIXTURE_TEARDOWN(keeps)
{
	statx_scratch_umount(&self->s);
}

static int fallocate_at(const char *path, int mode, off_t off, off_t len)
{
	int fd = open(path, O_RDWR), ret;

	if (fd < 0)
		return -1;
	ret = fallocate(fd, mode, off, len);
	close(fd);
	return ret;
}

/* A POSIX ACL giving nobody read access, in the xattr's format. */
static int set_acl(const char *path)
{
	struct {
		__u32 version;
		struct { __u16 tag, perm; __u32 id; } e[5];
	} acl = {
		.version = 2,
		.e = {
			{ 0x01, 6, ~0u },	/* ACL_USER_OBJ rw */
			{ 0x02, 4, NOBODY },	/* ACL_USER nobody r */
			{ 0x04, 4, ~0u },	/* ACL_GROUP_OBJ r */
			{ 0x10, 4, ~0u },	/* ACL_MASK r */
			{ 0x20, 4, ~0u },	/* ACL_OTHER r */
		},
	};

	return setxattr(path, "system.posix_acl_access", &acl, sizeof(acl), 0);
}

/*
 * An access ACL of the three entries a mode has: the filesystem stores no
 * ACL, only the mode 0750 it stands for, and the ctime moves.
 */
static int set_mode_acl(const char *path)
{
	struct {
		__u32 version;
		struct { __u16 tag, perm; __u32 id; } e[3];
	} acl = {
		.version = 2,
		.e = {
			{ 0x01, 7, ~0u },	/* ACL_USER_OBJ rwx */
			{ 0x04, 5, ~0u },	/* ACL_GROUP_OBJ r-x */
			{ 0x20, 0, ~0u },	/* ACL_OTHER --- */
		},
	};

	return setxattr(path, "system.posix_acl_access", &acl, sizeof(acl), 0);
}

/*
 * What an operation needs before the cookie it must change is taken: a
 * second file to clone, dedupe or exchange with (for a dedupe, with the same
 * first block as the file), a mode other than the one the ACL stands for,
 * an empty file to truncate.  Not an operation to test.
 */
static int prep_op(const char *file, const char *other, enum op op)
{
	char block[4096];
	int fd, ret;

	if (op == OP_MODE_ACL)
		return chmod(file, 0644);
	if (op == OP_TRUNC_EMPTY)
		return truncate(file, 0);
	if (op != OP_CLONE && op != OP_DEDUPE && op != OP_EXCHANGE)
		return 0;
	memset(block, 'c', sizeof(block));
	if (put_file(other, block, sizeof(block)))
		return -1;
	if (op != OP_DEDUPE)
		return 0;
	fd = open(file, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = pwrite(fd, block, sizeof(block), 0) == sizeof(block) ? 0 : -1;
	close(fd);
	return ret;
}

static int do_op(const char *file, const char *other, enum op op)
{
	struct file_dedupe_range_info *info;
	struct file_dedupe_range *dr;
	struct io_uring_sqe sqe;
	struct iovec iov[2];
	struct stat st;
	loff_t in = 0, out = 100;
	int fd, fd2, ret = -1;
	void *p;

	switch (op) {
	case OP_WRITE:
	case OP_REWRITE:
		fd = open(file, O_WRONLY);
		if (fd < 0)
			return -1;
		/* the second time, the same bytes again */
		ret = pwrite(fd, "HELLO", 5, 0) == 5 ? 0 : -1;
		close(fd);
		return ret;
	case OP_PWRITEV:
		fd = open(file, O_WRONLY);
		if (fd < 0)
			return -1;
		iov[0].iov_base = "pw";
		iov[0].iov_len = 2;
		iov[1].iov_base = "ritev";
		iov[1].iov_len = 5;
		ret = pwritev(fd, iov, 2, 10) == 7 ? 0 : -1;
		close(fd);
		return ret;
	case OP_APPEND:
		fd = open(file, O_WRONLY | O_APPEND);
		if (fd < 0)
			return -1;
		ret = write(fd, "more\n", 5) == 5 ? 0 : -1;
		close(fd);
		return ret;
	case OP_DIRECT:
		fd = open(file, O_WRONLY | O_DIRECT);
		if (fd < 0)
			return -1;
		if (!posix_memalign(&p, 4096, 4096)) {
			memset(p, 'd', 4096);
			ret = pwrite(fd, p, 4096, 4096) == 4096 ? 0 : -1;
			free(p);
		}
		close(fd);
		return ret;
	case OP_URING:
		fd = open(file, O_WRONLY);
		if (fd < 0)
			return -1;
		memset(&sqe, 0, sizeof(sqe));
		sqe.opcode = IORING_OP_WRITE;
		sqe.fd = fd;
		sqe.addr = (unsigned long)"uring";
		sqe.len = 5;
		sqe.off = 20;
		ret = uring_one(&sqe);
		close(fd);
		return ret == 5 ? 0 : -1;
	case OP_COPY:
		fd = open(file, O_RDWR);
		if (fd < 0)
			return -1;
		ret = copy_file_range(fd, &in, fd, &out, 2, 0) == 2 ? 0 : -1;
		close(fd);
		return ret;
	case OP_CLONE:
	case OP_DEDUPE:
		/* prep_op() made both first blocks the same */
		fd = open(file, O_RDWR);
		fd2 = open(other, O_RDWR);
		if (fd >= 0 && fd2 >= 0 && op == OP_CLONE) {
			struct file_clone_range cr = {
				.src_fd = fd2, .src_length = 4096,
			};

			ret = ioctl(fd, FICLONERANGE, &cr);
		} else if (fd >= 0 && fd2 >= 0) {
			dr = calloc(1, sizeof(*dr) + sizeof(*info));
			if (dr) {
				dr->src_length = 4096;
				dr->dest_count = 1;
				info = &dr->info[0];
				info->dest_fd = fd;
				ret = ioctl(fd2, FIDEDUPERANGE, dr);
				if (!ret && info->status !=
					    FILE_DEDUPE_RANGE_SAME) {
					ret = -1;
					errno = info->status < 0 ?
						-info->status : EIO;
				}
				free(dr);
			}
		}
		if (fd >= 0)
			close(fd);
		if (fd2 >= 0)
			close(fd2);
		return ret;
	case OP_TRUNCATE:
		return truncate(file, 60000);
	case OP_EXTEND:
		return truncate(file, 65536);
	case OP_SAME_SIZE:
		fd = open(file, O_WRONLY);
		if (fd < 0)
			return -1;
		ret = fstat(fd, &st) ? -1 : ftruncate(fd, st.st_size);
		close(fd);
		return ret;
	case OP_FALLOCATE:
		return fallocate_at(file, 0, 65536, 16384);
	case OP_PREALLOC:
		return fallocate_at(file, FALLOC_FL_KEEP_SIZE, 81920, 16384);
	case OP_PUNCH:
		return fallocate_at(file, FALLOC_FL_PUNCH_HOLE |
				    FALLOC_FL_KEEP_SIZE, 8192, 4096);
	case OP_ZERO:
		return fallocate_at(file, FALLOC_FL_ZERO_RANGE, 12288, 4096);
	case OP_COLLAPSE:
		return fallocate_at(file, FALLOC_FL_COLLAPSE_RANGE, 16384,
				    4096);
	case OP_INSERT:
		return fallocate_at(file, FALLOC_FL_INSERT_RANGE, 16384, 4096);
	case OP_CHMOD:
		return chmod(file, 0640);
	case OP_CHOWN:
		return chown(file, NOBODY, NOBODY);
	case OP_UTIMENS:
		return set_times(file, 1000000000, 0, 1000000000, 0);
	case OP_TOUCH:
		return set_times(file, 0, UTIME_NOW, 0, UTIME_NOW);
	case OP_LINK:
		return link(file, other);
	case OP_UNLINK:
		return unlink(other);
	case OP_RENAME:
		/* there and back: the file keeps its name for the next ops */
		if (rename(file, other))
			return -1;
		return rename(other, file);
	case OP_EXCHANGE:
		ret = renameat2(AT_FDCWD, file, AT_FDCWD, other,
				RENAME_EXCHANGE) ||
		      renameat2(AT_FDCWD, file, AT_FDCWD, other,
				RENAME_EXCHANGE) ? -1 : 0;
		unlink(other);
		return ret;
	case OP_SETXATTR:
		return setxattr(file, "user.statx", "1", 1, XATTR_CREATE);
	case OP_REPLACEXATTR:
		return setxattr(file, "user.statx", "22", 2, XATTR_REPLACE);
	case OP_REMOVEXATTR:
		return removexattr(file, "user.statx");
	case OP_MODE_ACL:
		return set_mode_acl(file);
	case OP_SETACL:
		return set_acl(file);
	case OP_TRUNC_EMPTY:
		fd = open(file, O_WRONLY | O_TRUNC);
		if (fd < 0)
			return -1;
		close(fd);
		return 0;
	default:
		return -1;
	}
}

/* Is @op one the filesystem may refuse, and did it? */
static bool refused(const struct _fixture_variant_keeps *v, enum op op,
		    int err)
{
	if (err != EOPNOTSUPP && err != EINVAL)
		return false;
	if ((op == OP_CLONE || op == OP_DEDUPE) && !v->reflink)
		return true;
	return v->unsupported[op];
}

/*
 * Every change the header lists gives a cookie not seen before in the test,
 * and a larger one where the filesystem says the cookie is monotonic.  A
 * preallocation beyond the end of the file, a dedupe (the data stays what
 * it was) and an exchange of names change neither data nor attributes
 * statx reports on every filesystem: there the cookie must change where
 * the ctime does.
 */
TEST_F(keeps, every_change)
{
	__u64 seen[OP_NR + 1], now;
	struct statx before, after;
	int op, i, n = 0, ret;
	bool may_stay;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &before));
	ASSERT_TRUE(before.stx_mask & STATX_CHANGE_COOKIE);
	seen[n++] = cookie_of(&before);
	for (op = 0; op < OP_NR; op++) {
		may_stay = op == OP_PREALLOC || op == OP_DEDUPE ||
			   op == OP_EXCHANGE;
		ASSERT_EQ(0, prep_op(self->file, self->other, op))
			TH_LOG("before %s: %s", op_names[op], strerror(errno));
		if (may_stay)
			next_tick();	/* so that a new ctime shows */
		ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK,
				       &before));
		ret = do_op(self->file, self->other, op) ? errno : 0;
		if (op == OP_CLONE || op == OP_DEDUPE || op == OP_EXCHANGE)
			unlink(self->other);
		if (ret && refused(variant, op, ret)) {
			TH_LOG("%s refuses %s", variant->fstype, op_names[op]);
			continue;
		}
		ASSERT_EQ(0, ret)
			TH_LOG("%s: %s", op_names[op], strerror(ret));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &after));
		ASSERT_TRUE(after.stx_mask & STATX_CHANGE_COOKIE);
		now = cookie_of(&after);
		/* the change happened: the mode the ACL stands for, no data */
		if (op == OP_MODE_ACL)
			EXPECT_EQ(0750, after.stx_mode & 07777);
		if (op == OP_SAME_SIZE)
			EXPECT_EQ(before.stx_size, after.stx_size);
		if (op == OP_TRUNC_EMPTY)
			EXPECT_EQ(0, after.stx_size);
		if (may_stay && !statx_ts_cmp(&before.stx_ctime,
					      &after.stx_ctime)) {
			TH_LOG("%s left the ctime alone on %s",
			       op_names[op], variant->fstype);
			continue;
		}
		/* a preparation may have changed it since the last op */
		EXPECT_NE(cookie_of(&before), now)
			TH_LOG("%s left the cookie at %llu", op_names[op],
			       (unsigned long long)now);
		for (i = 0; i < n; i++)
			EXPECT_NE(seen[i], now)
				TH_LOG("after %s the cookie %llu is one seen before",
				       op_names[op], (unsigned long long)now);
		if (variant->monotonic)
			EXPECT_LT(seen[n - 1], now)
				TH_LOG("after %s the cookie went from %llu to %llu",
				       op_names[op],
				       (unsigned long long)seen[n - 1],
				       (unsigned long long)now);
		seen[n++] = now;
	}
}

/* A directory's cookie changes when its entries do. */
TEST_F(keeps, directory)
{
	char sub[128];
	__u64 c[5];
	struct statx stx;
	int i;

	snprintf(sub, sizeof(sub), "%s/sub", self->dir);
	for (i = 0; i < 5; i++) {
		switch (i) {
		case 1:
			ASSERT_EQ(0, put_file(self->other, "o", 1));
			break;
		case 2:
			ASSERT_EQ(0, rename(self->other, sub));
			break;
		case 3:
			ASSERT_EQ(0, unlink(sub));
			break;
		case 4:
			ASSERT_EQ(0, mkdir(sub, 0755));
			ASSERT_EQ(0, rmdir(sub));
			break;
		}
		ASSERT_EQ(0, sys_statx(AT_FDCWD, self->dir, 0, MASK, &stx));
		ASSERT_TRUE(stx.stx_mask & STATX_CHANGE_COOKIE);
		c[i] = cookie_of(&stx);
		if (i) {
			EXPECT_NE(c[i - 1], c[i]);
			if (variant->monotonic)
				EXPECT_LT(c[i - 1], c[i]);
		}
	}
}

/*
 * Reading the file, asking about it in every way, and the access time
 * updates that reads make on a strictatime mount leave the cookie alone.
 */
TEST_F(keeps, reads_keep)
{
	struct statx before, after;
	char buf[64], list[256];
	__u32 hgen;
	__u64 hino;
	int fd, v;
	char *p;

	ASSERT_EQ(0, set_times(self->file, 1000, 0, 0, UTIME_OMIT));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &before));
	ASSERT_TRUE(before.stx_mask & STATX_CHANGE_COOKIE);

	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
	EXPECT_EQ(3, pread(fd, buf, 3, 1));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	EXPECT_EQ('a', p[0]);
	munmap(p, 4096);
	EXPECT_EQ(0, fsync(fd));
	if (variant->handle != HANDLE_SHMEM)
		EXPECT_EQ(0, ioctl(fd, FS_IOC_GETVERSION, &v));
	close(fd);
	EXPECT_LE(0, listxattr(self->file, list, sizeof(list)));
	EXPECT_GE(0, getxattr(self->file, "user.none", buf, sizeof(buf)));
	EXPECT_TRUE(handle_ino_gen(self->file, variant->handle, &hino, &hgen));
	v = uring_statx(AT_FDCWD, self->file, 0, MASK, &after);
	if (v != NO_URING)
		EXPECT_EQ(0, v);

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &after));
	/* strictatime: the reads moved the access time, as the kernel must */
	ASSERT_NE(before.stx_atime.tv_sec, after.stx_atime.tv_sec);
	EXPECT_EQ(cookie_of(&before), cookie_of(&after))
		TH_LOG("reads changed the cookie from %llu to %llu",
		       (unsigned long long)cookie_of(&before),
		       (unsigned long long)cookie_of(&after));
}

/*
 * The write-in-progress test: how long at least, and at most while fewer
 * than INFLIGHT_CHECKS writes were seen in progress and checked after they
 * ended (on an emulated CPU, a kernel with KASAN and lockdep took 8 s for
 * one btrfs write), and how much one write rewrites (enough for a write to
 * outlast a time slice, so that the reader runs while one is in progress
 * also on a single CPU).
 */
#define INFLIGHT_SECONDS	2
#define INFLIGHT_MAX_SECONDS	120
#define INFLIGHT_CHECKS		3
#define INFLIGHT_SIZE		(8 * 1024 * 1024)
#define INFLIGHT_TAIL		4096	/* what the test reads: the last page */

/*
 * What the writer process reports, in memory shared with the test: how
 * many writes it began and how many are complete.
 */
struct inflight_writer {
	unsigned long started;
	unsigned long done;
	int err;
};

/*
 * Rewrite the whole file, again and again, each time with another byte,
 * with a pause after each write in which no write is in progress.
 */
static void inflight_write(const char *path, struct inflight_writer *w)
{
	unsigned char v = 0;
	char *buf;
	int fd;

	buf = malloc(INFLIGHT_SIZE);
	fd = open(path, O_WRONLY);
	if (!buf || fd < 0) {
		w->err = errno;
		_exit(1);
	}
	for (;;) {
		memset(buf, ++v, INFLIGHT_SIZE);
		__atomic_add_fetch(&w->started, 1, __ATOMIC_SEQ_CST);
		if (pwrite(fd, buf, INFLIGHT_SIZE, 0) != INFLIGHT_SIZE) {
			w->err = errno;
			_exit(1);
		}
		__atomic_add_fetch(&w->done, 1, __ATOMIC_SEQ_CST);
		usleep(500);
	}
}

/*
 * While another process rewrites the file, statx(cookie) and read the file's
 * last page, again and again.  Where that page holds bytes of a write older
 * than the last one begun before the statx() call, that write was still in
 * progress when the page was read, so also when the cookie was: no call
 * that begins after that write is complete may return that cookie (the
 * write moves it again at its end when it was read meanwhile).  Without
 * that second move the cookie read during the write stays until the next
 * write, and what was read with it passes for current.
 */
TEST_F_TIMEOUT(keeps, inflight_cookie_moves_on, 180)
{
	unsigned long calls = 0, inflight = 0, checked = 0, stale = 0;
	unsigned long s0, d0, pend_write = 0;
	__u64 pend_cookie = 0;
	struct inflight_writer *w;
	struct timespec t0, t;
	struct statx stx = { 0 };
	unsigned char *buf;
	int fd, i, status;
	pid_t pid;

	buf = calloc(1, INFLIGHT_SIZE);
	ASSERT_TRUE(!!buf);
	ASSERT_EQ(0, put_file(self->file, (char *)buf, INFLIGHT_SIZE));
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	w = mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(w != MAP_FAILED);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		inflight_write(self->file, w);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= INFLIGHT_SECONDS &&
		    (checked >= INFLIGHT_CHECKS ||
		     t.tv_sec - t0.tv_sec >= INFLIGHT_MAX_SECONDS))
			break;
		s0 = __atomic_load_n(&w->started, __ATOMIC_SEQ_CST);
		d0 = __atomic_load_n(&w->done, __ATOMIC_SEQ_CST);
		if (sys_statx(fd, "", AT_EMPTY_PATH, STATX_CHANGE_COOKIE, &stx) ||
		    !(stx.stx_mask & STATX_CHANGE_COOKIE) ||
		    pread(fd, buf, INFLIGHT_TAIL, INFLIGHT_SIZE - INFLIGHT_TAIL) !=
		    INFLIGHT_TAIL)
			break;
		calls++;
		if (pend_write && d0 >= pend_write) {
			/* that write was complete before this call began */
			checked++;
			if (cookie_of(&stx) == pend_cookie && stale++ < 3)
				TH_LOG("cookie %llu, read during write %lu, again after it",
				       (unsigned long long)pend_cookie, pend_write);
			pend_write = 0;
		}
		/*
		 * Write s0 writes byte s0 from the start of the file to its
		 * end: an older byte in the last page means it was not done.
		 */
		for (i = 0; i < INFLIGHT_TAIL; i++)
			if ((unsigned char)((s0 & 0xff) - buf[i]) - 1U < 127)
				break;
		if (s0 > d0 && i < INFLIGHT_TAIL && !pend_write) {
			inflight++;
			pend_write = s0;
			pend_cookie = cookie_of(&stx);
		}
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(fd);
	free(buf);
	TH_LOG("%s: %lu writes, %lu calls, %lu during a write, %lu checked after, %lu stale, %lds",
	       variant->fstype, w->done, calls, inflight, checked, stale,
	       (long)(t.tv_sec - t0.tv_sec));
	ASSERT_EQ(0, w->err);
	ASSERT_TRUE(stx.stx_mask & STATX_CHANGE_COOKIE);
	/* a test that checked no cookie after a write proves nothing */
	ASSERT_LT(0, checked);
	EXPECT_EQ(0, stale);
}

/*
 * ext4 returns the generation only where the owner of a file cannot
 * rewrite it: with metadata_csum, EXT4_IOC_SETVERSION is refused and the
 * generation is returned; without it, the owner can set any generation,
 * so (inode, generation) names nothing and it is not returned.
 */
FIXTURE(ext4_gen) {
	struct statx_scratch s;
	char file[128];
};

FIXTURE_VARIANT(ext4_gen) {
	const char *const *mkfs;
	bool csum;
};

FIXTURE_VARIANT_ADD(ext4_gen, metadata_csum) {
	.mkfs = mkfs_ext4, .csum = true,
};

FIXTURE_VARIANT_ADD(ext4_gen, no_metadata_csum) {
	.mkfs = mkfs_ext4_nocsum,
};

FIXTURE_SETUP(ext4_gen)
{
	enum statx_scratch_rc rc;

	if (!kernel_returns(STATX_GEN))
		STATX_SKIP(return, "the kernel does not return STATX_GEN");
	rc = statx_scratch_make(&self->s, "ext4", variant->mkfs, 64 * MIB, 0, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->s.why);
	snprintf(self->file, sizeof(self->file), "%s/file", self->s.mnt);
	ASSERT_EQ(0, put_file(self->file, "gen\n", 4));
}

FIXTURE_TEARDOWN(ext4_gen)
{
	statx_scratch_umount(&self->s);
}

TEST_F(ext4_gen, settable_means_not_returned)
{
	struct statx stx;
	int fd, v, ret;

	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETVERSION, &v));
	v ^= 0x5a5a;
	ret = ioctl(fd, FS_IOC_SETVERSION, &v) ? errno : 0;
	close(fd);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &stx));
	if (variant->csum) {
		EXPECT_EQ(ENOTTY, ret);
		EXPECT_TRUE(stx.stx_mask & STATX_GEN);
		EXPECT_NE((__u32)v, gen_of(&stx));
	} else {
		EXPECT_EQ(0, ret);
		EXPECT_FALSE(stx.stx_mask & STATX_GEN)
			TH_LOG("generation %llu, which the owner just set",
			       (unsigned long long)gen_of(&stx));
		EXPECT_EQ(0, gen_of(&stx));
	}
}

TEST_HARNESS_MAIN
