// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) STATX_CHANGE_COOKIE and STATX_GEN on every filesystem the
 * harness mounts.
 *
 * The change cookie must change after every operation that changes the
 * file, stay the same across operations that do not, only grow where the
 * filesystem says so (STATX_ATTR_CHANGE_MONOTONIC), and survive an unmount
 * where the filesystem stores it.  The generation must equal what the
 * filesystem hands out through FS_IOC_GETVERSION and inside its file
 * handles, survive an unmount, differ when an inode number comes back, and
 * reach only callers who may read the file.  A caller that asks for
 * neither must get the answer it got before they existed.
 *
 * On a kernel that does not return the bits (checked on a memfd, a tmpfs
 * file every kernel with the feature answers for), the tests that need
 * them are skipped.
 */
#include "statx_helpers.h"

#include <assert.h>
#include <grp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <linux/io_uring.h>
#include "statx_remount.h"

#include "../kselftest_harness.h"

/* Building against uapi headers older than the kernel under test. */
#ifndef STATX_GEN
#define STATX_GEN		0x20000000U
#define STATX_CHANGE_COOKIE	0x40000000U
#define STATX_ATTR_CHANGE_MONOTONIC 0x8000000000000000ULL
#define STX_COOKIE_OFF		0xc0
#define STX_GEN_OFF		0xc8
#else
#define STX_COOKIE_OFF		offsetof(struct statx, stx_change_cookie)
#define STX_GEN_OFF		offsetof(struct statx, stx_gen)
static_assert(offsetof(struct statx, stx_change_cookie) == 0xc0,
	      "stx_change_cookie is at 0xc0");
static_assert(offsetof(struct statx, stx_gen) == 0xc8, "stx_gen is at 0xc8");
static_assert(sizeof(struct statx) == 0x100, "struct statx is 256 bytes");
#endif

#ifndef FS_IOC_GETVERSION
#define FS_IOC_GETVERSION	_IOR('v', 1, long)
#endif

#define NOBODY		65534
#define NEW_BITS	(STATX_CHANGE_COOKIE | STATX_GEN)
#define ALL_MASK	(STATX_BASIC_STATS | STATX_BTIME | NEW_BITS)

static __u64 stx_u64(const struct statx *stx, size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)stx + off, sizeof(v));
	return v;
}

static __u64 cookie_of(const struct statx *stx)
{
	return stx_u64(stx, STX_COOKIE_OFF);
}

static __u64 gen_of(const struct statx *stx)
{
	return stx_u64(stx, STX_GEN_OFF);
}

/* Clear what the feature adds, to compare the rest of two answers. */
static void strip_new(struct statx *stx)
{
	stx->stx_mask &= ~NEW_BITS;
	stx->stx_attributes &= ~STATX_ATTR_CHANGE_MONOTONIC;
	stx->stx_attributes_mask &= ~STATX_ATTR_CHANGE_MONOTONIC;
	memset((char *)stx + STX_COOKIE_OFF, 0, 16);
}

/*
 * Does the running kernel return @bit to userspace?  A memfd lives on the
 * kernel's internal tmpfs mount, which keeps both a change counter and a
 * generation whenever the kernel has the feature.
 */
static bool kernel_returns(unsigned int bit)
{
	struct statx stx;
	int fd, ret;

	fd = memfd_create("statx_cookie_gen", 0);
	if (fd < 0)
		return false;
	ret = sys_statx(fd, "", AT_EMPTY_PATH, bit, &stx);
	close(fd);
	return ret == 0 && (stx.stx_mask & bit);
}

/*
 * utimensat() with 64-bit times: a 32-bit glibc calls the old 32-bit-time
 * system call when the times fit, which a kernel without
 * CONFIG_COMPAT_32BIT_TIME does not have.
 */
struct ts64 {
	long long tv_sec;
	long long tv_nsec;
};

/* Set the access and modification times; UTIME_NOW or UTIME_OMIT as nsec. */
static int set_times(const char *path, long long asec, long ansec,
		     long long msec, long mnsec)
{
	struct ts64 ts[2] = {
		{ .tv_sec = asec, .tv_nsec = ansec },
		{ .tv_sec = msec, .tv_nsec = mnsec },
	};

#ifdef __NR_utimensat_time64
	return syscall(__NR_utimensat_time64, AT_FDCWD, path, ts, 0);
#else
	return syscall(__NR_utimensat, AT_FDCWD, path, ts, 0);
#endif
}

/* Wait for the coarse clock, which timestamps come from, to move on. */
static void next_tick(void)
{
	struct timespec t0, t;
	int i;

	clock_gettime(CLOCK_REALTIME_COARSE, &t0);
	for (i = 0; i < 100000000; i++) {
		clock_gettime(CLOCK_REALTIME_COARSE, &t);
		if (t.tv_sec != t0.tv_sec || t.tv_nsec != t0.tv_nsec)
			return;
	}
}

/* What uring_statx() returns when io_uring cannot be set up (errno says why). */
#define NO_URING	INT_MIN

/*
 * IORING_OP_STATX through the raw system calls: one SQE, one CQE.  Returns
 * the result of the operation (0 or a negative errno), or NO_URING.
 */
static int uring_statx(int dfd, const char *path, int flags,
		       unsigned int mask, struct statx *stx)
{
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	size_t sq_sz, cq_sz;
	void *sq, *cq;
	unsigned int *tail, head;
	int fd, ret;

	fd = syscall(__NR_io_uring_setup, 1, &p);
	if (fd < 0)
		return NO_URING;
	sq_sz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (cq_sz > sq_sz)
			sq_sz = cq_sz;
		cq_sz = sq_sz;
	}
	sq = mmap(NULL, sq_sz, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
	cq = (p.features & IORING_FEAT_SINGLE_MMAP) ? sq :
		mmap(NULL, cq_sz, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		close(fd);
		return -ENOMEM;
	}

	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_STATX;
	sqes[0].fd = dfd;
	sqes[0].addr = (unsigned long)path;
	sqes[0].len = mask;
	sqes[0].addr2 = (unsigned long)stx;
	sqes[0].statx_flags = flags;
	((unsigned int *)((char *)sq + p.sq_off.array))[0] = 0;
	tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);

	ret = syscall(__NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	if (ret < 0) {
		ret = -errno;
	} else {
		head = __atomic_load_n((unsigned int *)((char *)cq +
					p.cq_off.head), __ATOMIC_ACQUIRE);
		cqe = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes) +
		      (head & *(unsigned int *)((char *)cq +
						 p.cq_off.ring_mask));
		ret = cqe->res;
	}
	munmap(sqes, p.sq_entries * sizeof(*sqes));
	if (cq != sq)
		munmap(cq, cq_sz);
	munmap(sq, sq_sz);
	close(fd);
	return ret;
}

/* Where a filesystem puts the inode number and generation in its handles. */
enum handle_layout {
	HANDLE_NONE,
	HANDLE_INO32,	/* FILEID_INO32_GEN: u32 ino, u32 gen */
	HANDLE_XFS,	/* as INO32, or 0x81: u64 ino, u32 gen */
	HANDLE_BTRFS,	/* 0x4d: u64 objectid, u64 root, u32 gen */
	HANDLE_SHMEM,	/* 1: u32 gen, u32 ino low, u32 ino high */
};

/* Decode the handle of @path; false if its type is not the expected one. */
static bool handle_ino_gen(const char *path, enum handle_layout layout,
			   __u64 *ino, __u32 *gen)
{
	struct {
		struct file_handle fh;
		unsigned char buf[MAX_HANDLE_SZ];
	} h;
	const unsigned char *f = h.fh.f_handle;
	__u32 u32s[3];
	int mnt_id;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt_id, 0))
		return false;
	memcpy(u32s, f, sizeof(u32s));
	if (layout == HANDLE_XFS && h.fh.handle_type == 0x81) {
		memcpy(ino, f, 8);
		memcpy(gen, f + 8, 4);
		return true;
	}
	switch (layout) {
	case HANDLE_XFS:
	case HANDLE_INO32:
		if (h.fh.handle_type != 1 || h.fh.handle_bytes < 8)
			return false;
		*ino = u32s[0];
		*gen = u32s[1];
		return true;
	case HANDLE_BTRFS:
		if (h.fh.handle_type != 0x4d)
			return false;
		memcpy(ino, f, 8);
		memcpy(gen, f + 16, 4);
		return true;
	case HANDLE_SHMEM:
		if (h.fh.handle_type != 1 || h.fh.handle_bytes != 12)
			return false;
		*gen = u32s[0];
		*ino = u32s[1] | (__u64)u32s[2] << 32;
		return true;
	default:
		return false;
	}
}

/* The source (a device, or a name), and mount flags, of the mount at @dir. */
static bool mount_source(const char *dir, char *dev, size_t len,
			 unsigned long *flags)
{
	struct statx_mount m;

	if (!statx_mountinfo(dir, &m))
		return false;
	snprintf(dev, len, "%s", m.source);
	*flags = statx_mount_flags(dir);
	return true;
}

/*
 * Unmount @mnt and mount it again, so that every inode on it is read back
 * from the disk.  Returns 0, or a reason not to go on.
 */
static const char *remount(const char *mnt, const char *fstype)
{
	char dev[PATH_MAX];
	unsigned long flags;
	int i;

	if (geteuid() != 0)
		return "remounting needs root";
	if (!mount_source(mnt, dev, sizeof(dev), &flags) || dev[0] != '/')
		return "no block device under the mount";
	if (chdir("/"))
		return "cannot leave the mount";
	sync();
	for (i = 0; umount(mnt); i++) {
		if (errno != EBUSY || i == 20)
			return "the filesystem cannot be unmounted (busy)";
		usleep(100000);
	}
	if (mount(dev, mnt, fstype, flags, NULL)) {
		ksft_print_msg("mount %s on %s: %s\n", dev, mnt,
			       strerror(errno));
		abort();	/* fails the test: the mount is gone */
	}
	return NULL;
}

FIXTURE(fs) {
	char dir[256];
	char file[PATH_MAX];
	char link[PATH_MAX];
	bool has_cookie;
	bool has_gen;
};

/*
 * What each filesystem stores.  "cookie": it keeps a change counter (an
 * i_version); "monotonic": it says the counter only grows; "atime": an
 * access time update is counted as a change; "remount": the test may
 * unmount it (a block device) and the cookie and generation are on disk;
 * "gen": it keeps a generation that, with the inode number, names one
 * inode for the life of the filesystem; "ioctl": FS_IOC_GETVERSION.
 */
FIXTURE_VARIANT(fs) {
	const char *fstype;
	const char *mnt;
	bool cookie;
	bool monotonic;
	bool atime;
	bool remount;
	bool gen;
	bool ioctl;
	enum handle_layout handle;
	bool mmap;	/* a store through a shared mapping is counted */
	bool xattr;
};

FIXTURE_VARIANT_ADD(fs, tmpfs) {
	.fstype = "tmpfs", .mnt = STATX_TEST_ROOT "/tmpfs",
	.cookie = true, .monotonic = true, .gen = true,
	.handle = HANDLE_SHMEM, .xattr = true,
};

FIXTURE_VARIANT_ADD(fs, ext4) {
	.fstype = "ext4", .mnt = STATX_TEST_ROOT "/ext4",
	.cookie = true, .remount = true, .gen = true, .ioctl = true,
	.handle = HANDLE_INO32, .mmap = true, .xattr = true,
};

FIXTURE_VARIANT_ADD(fs, xfs) {
	.fstype = "xfs", .mnt = STATX_TEST_ROOT "/xfs",
	.cookie = true, .atime = true, .remount = true, .gen = true,
	.ioctl = true, .handle = HANDLE_XFS, .mmap = true, .xattr = true,
};

FIXTURE_VARIANT_ADD(fs, btrfs) {
	.fstype = "btrfs", .mnt = STATX_TEST_ROOT "/btrfs",
	.cookie = true, .remount = true, .gen = true, .ioctl = true,
	.handle = HANDLE_BTRFS, .mmap = true, .xattr = true,
};

FIXTURE_VARIANT_ADD(fs, ntfs3) {
	.fstype = "ntfs3", .mnt = STATX_TEST_ROOT "/ntfs3",
	.remount = true, .gen = true, .handle = HANDLE_INO32,
};

FIXTURE_VARIANT_ADD(fs, vfat) {
	.fstype = "vfat", .mnt = STATX_TEST_ROOT "/vfat",
};

FIXTURE_VARIANT_ADD(fs, msdos) {
	.fstype = "msdos", .mnt = STATX_TEST_ROOT "/msdos",
};

FIXTURE_VARIANT_ADD(fs, exfat) {
	.fstype = "exfat", .mnt = STATX_TEST_ROOT "/exfat",
};

FIXTURE_SETUP(fs)
{
	int fd;

	if (!statx_fs_mounted(variant->mnt, variant->fstype))
		SKIP(return, "%s is not mounted at %s", variant->fstype,
		     variant->mnt);
	self->has_cookie = kernel_returns(STATX_CHANGE_COOKIE);
	self->has_gen = kernel_returns(STATX_GEN);
	snprintf(self->dir, sizeof(self->dir), "%s/cg.XXXXXX", variant->mnt);
	ASSERT_TRUE(!!mkdtemp(self->dir));
	ASSERT_EQ(0, chmod(self->dir, 0755));
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	snprintf(self->link, sizeof(self->link), "%s/link", self->dir);
	fd = open(self->file, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(6, write(fd, "hello\n", 6));
	ASSERT_EQ(0, fsync(fd));
	ASSERT_EQ(0, close(fd));
}

FIXTURE_TEARDOWN(fs)
{
	if (!self->dir[0])
		return;
	unlink(self->link);
	unlink(self->file);
	rmdir(self->dir);
}

static __u64 get_cookie(struct __test_metadata *_metadata, const char *path)
{
	struct statx stx;

	if (sys_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, ALL_MASK, &stx)) {
		TH_LOG("statx(%s): %s", path, strerror(errno));
		_metadata->exit_code = KSFT_FAIL;
		return 0;
	}
	if (!(stx.stx_mask & STATX_CHANGE_COOKIE)) {
		TH_LOG("statx(%s) returned no change cookie", path);
		_metadata->exit_code = KSFT_FAIL;
	}
	return cookie_of(&stx);
}

/*
 * A caller that asks for neither bit gets neither, and the rest of its
 * answer is what a caller asking for both gets.
 */
TEST_F(fs, not_asked)
{
	struct statx old, all;
	int i;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0,
			       STATX_BASIC_STATS | STATX_BTIME, &old));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &all));
	EXPECT_EQ(0, old.stx_mask & NEW_BITS);
	EXPECT_EQ(0, old.stx_attributes & STATX_ATTR_CHANGE_MONOTONIC);
	EXPECT_EQ(0, cookie_of(&old));
	EXPECT_EQ(0, gen_of(&old));
	strip_new(&old);
	strip_new(&all);
	for (i = 0; i < (int)sizeof(old); i++)
		EXPECT_EQ(((unsigned char *)&old)[i],
			  ((unsigned char *)&all)[i])
			TH_LOG("byte 0x%x differs", i);
}

/* The bits are there exactly where the filesystem keeps the data. */
TEST_F(fs, presence)
{
	const char * const paths[] = { self->file, self->dir };
	struct statx stx;
	int i;

	if (!self->has_cookie && !self->has_gen)
		SKIP(return, "the kernel returns neither STATX_CHANGE_COOKIE nor STATX_GEN");
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, sys_statx(AT_FDCWD, paths[i], 0, ALL_MASK, &stx));
		if (self->has_cookie) {
			EXPECT_EQ(variant->cookie,
				  !!(stx.stx_mask & STATX_CHANGE_COOKIE));
			if (!variant->cookie)
				EXPECT_EQ(0, cookie_of(&stx));
			EXPECT_EQ(variant->cookie,
				  !!(stx.stx_attributes_mask &
				     STATX_ATTR_CHANGE_MONOTONIC));
			EXPECT_EQ(variant->monotonic,
				  !!(stx.stx_attributes &
				     STATX_ATTR_CHANGE_MONOTONIC));
		}
		if (self->has_gen) {
			EXPECT_EQ(variant->gen, !!(stx.stx_mask & STATX_GEN));
			if (!variant->gen)
				EXPECT_EQ(0, gen_of(&stx));
			/* i_generation is 32 bits wide */
			EXPECT_EQ(0, gen_of(&stx) >> 32);
		}
	}
}

/* The operations that must change the cookie. */
enum change_op {
	OP_WRITE, OP_REWRITE, OP_APPEND, OP_COPY, OP_TRUNCATE, OP_EXTEND,
	OP_FALLOCATE, OP_CHMOD, OP_CHOWN, OP_UTIMENS, OP_TOUCH, OP_LINK,
	OP_UNLINK, OP_RENAME, OP_EXCHANGE, OP_SETXATTR, OP_REPLACEXATTR,
	OP_REMOVEXATTR, OP_MMAP_WRITE, NR_OPS
};

static const char * const op_names[] = {
	"write", "rewrite of the same bytes", "append", "copy_file_range",
	"truncate", "extend", "fallocate", "chmod", "chown", "utimensat",
	"utimensat(UTIME_NOW)", "link", "unlink of a link", "rename",
	"rename(RENAME_EXCHANGE)", "setxattr", "setxattr(XATTR_REPLACE)",
	"removexattr", "write through mmap",
};

static int do_op(const char *file, const char *other, enum change_op op)
{
	loff_t in = 0, out = 100;
	int fd, ret = 0;
	char *p;

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
	case OP_APPEND:
		fd = open(file, O_WRONLY | O_APPEND);
		if (fd < 0)
			return -1;
		ret = write(fd, "more\n", 5) == 5 ? 0 : -1;
		close(fd);
		return ret;
	case OP_COPY:
		fd = open(file, O_RDWR);
		if (fd < 0)
			return -1;
		ret = copy_file_range(fd, &in, fd, &out, 2, 0) == 2 ? 0 : -1;
		close(fd);
		return ret;
	case OP_TRUNCATE:
		return truncate(file, 3);
	case OP_EXTEND:
		return truncate(file, 8192);
	case OP_FALLOCATE:
		fd = open(file, O_WRONLY);
		if (fd < 0)
			return -1;
		ret = fallocate(fd, 0, 0, 16384);
		close(fd);
		return ret;
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
		/* with another file, and back */
		fd = open(other, O_CREAT | O_WRONLY | O_EXCL, 0644);
		if (fd < 0)
			return -1;
		close(fd);
		ret = renameat2(AT_FDCWD, file, AT_FDCWD, other,
				RENAME_EXCHANGE) ||
		      renameat2(AT_FDCWD, file, AT_FDCWD, other,
				RENAME_EXCHANGE) ? -1 : 0;
		unlink(other);
		return ret;
	case OP_SETXATTR:
		return setxattr(file, "user.statx", "1", 1, XATTR_CREATE);
	case OP_REPLACEXATTR:
		return setxattr(file, "user.statx", "22", 2,
				XATTR_REPLACE);
	case OP_REMOVEXATTR:
		return removexattr(file, "user.statx");
	case OP_MMAP_WRITE:
		fd = open(file, O_RDWR);
		if (fd < 0)
			return -1;
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			return -1;
		}
		p[0] = 'm';
		ret = msync(p, 4096, MS_SYNC);
		munmap(p, 4096);
		close(fd);
		return ret;
	default:
		return -1;
	}
}

/*
 * Each changing operation gives a cookie not seen before in the test, and
 * a larger one where the filesystem says the cookie is monotonic.  An
 * exchange of names is a change of the file only where the filesystem
 * updates its ctime for it (xfs does not): there, the cookie follows the
 * ctime.
 */
TEST_F(fs, cookie_changes)
{
	__u64 seen[NR_OPS + 1], now;
	struct statx before, after;
	int op, i, n = 0;

	if (!self->has_cookie)
		SKIP(return, "the kernel does not return STATX_CHANGE_COOKIE");
	if (!variant->cookie)
		SKIP(return, "%s keeps no change counter", variant->fstype);

	seen[n++] = get_cookie(_metadata, self->file);
	for (op = 0; op < NR_OPS; op++) {
		if (!variant->xattr && (op == OP_SETXATTR ||
					op == OP_REPLACEXATTR ||
					op == OP_REMOVEXATTR))
			continue;
		if (!variant->mmap && op == OP_MMAP_WRITE) {
			TH_LOG("%s does not count stores through a mapping",
			       variant->fstype);
			continue;
		}
		if (op == OP_EXCHANGE)
			next_tick();	/* so that a new ctime shows */
		ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK,
				       &before));
		ASSERT_EQ(0, do_op(self->file, self->link, op))
			TH_LOG("%s: %s", op_names[op], strerror(errno));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK,
				       &after));
		ASSERT_TRUE(after.stx_mask & STATX_CHANGE_COOKIE);
		now = cookie_of(&after);
		if (op == OP_EXCHANGE &&
		    before.stx_ctime.tv_sec == after.stx_ctime.tv_sec &&
		    before.stx_ctime.tv_nsec == after.stx_ctime.tv_nsec) {
			TH_LOG("%s left the ctime alone on %s",
			       op_names[op], variant->fstype);
			continue;
		}
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
TEST_F(fs, directory_cookie)
{
	char sub[PATH_MAX], other[PATH_MAX];
	__u64 c0, c1, c2, c3, c4;
	int fd;

	if (!self->has_cookie)
		SKIP(return, "the kernel does not return STATX_CHANGE_COOKIE");
	if (!variant->cookie)
		SKIP(return, "%s keeps no change counter", variant->fstype);
	snprintf(sub, sizeof(sub), "%s/sub", self->dir);
	snprintf(other, sizeof(other), "%s/other", self->dir);

	c0 = get_cookie(_metadata, self->dir);
	fd = open(other, O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	c1 = get_cookie(_metadata, self->dir);
	EXPECT_NE(c0, c1);
	ASSERT_EQ(0, rename(other, sub));
	c2 = get_cookie(_metadata, self->dir);
	EXPECT_NE(c1, c2);
	ASSERT_EQ(0, unlink(sub));
	c3 = get_cookie(_metadata, self->dir);
	EXPECT_NE(c2, c3);
	ASSERT_EQ(0, mkdir(sub, 0755));
	ASSERT_EQ(0, rmdir(sub));
	c4 = get_cookie(_metadata, self->dir);
	EXPECT_NE(c3, c4);
	EXPECT_NE(c0, c4);
	if (variant->monotonic) {
		EXPECT_LT(c0, c1);
		EXPECT_LT(c1, c2);
		EXPECT_LT(c2, c3);
		EXPECT_LT(c3, c4);
	}
}

/* Reading the file, or asking about it, does not change the cookie. */
TEST_F(fs, cookie_stays)
{
	struct statx stx, before;
	char buf[64], list[256];
	__u64 c0, c1, hino;
	struct stat st;
	int fd, i, v;
	__u32 hgen;
	char *p;

	if (!self->has_cookie)
		SKIP(return, "the kernel does not return STATX_CHANGE_COOKIE");
	if (!variant->cookie)
		SKIP(return, "%s keeps no change counter", variant->fstype);

	/*
	 * An access time ahead of the clock keeps relatime from updating it,
	 * so that these reads leave the inode alone on every filesystem.
	 */
	ASSERT_EQ(0, set_times(self->file, time(NULL) + 3600, 0, 0,
			       UTIME_OMIT));
	c0 = get_cookie(_metadata, self->file);

	for (i = 0; i < 3; i++)
		EXPECT_EQ(c0, get_cookie(_metadata, self->file));
	ASSERT_EQ(0, stat(self->file, &st));
	ASSERT_EQ(0, access(self->file, R_OK));
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(6, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(3, pread(fd, buf, 3, 1));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	EXPECT_EQ('h', p[0]);
	munmap(p, 4096);
	EXPECT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, ALL_MASK, &stx));
	EXPECT_EQ(c0, cookie_of(&stx));
	EXPECT_EQ(0, fsync(fd));
	if (variant->ioctl)
		EXPECT_EQ(0, ioctl(fd, FS_IOC_GETVERSION, &v));
	close(fd);
	if (variant->xattr) {
		EXPECT_LE(0, listxattr(self->file, list, sizeof(list)));
		EXPECT_GE(0, getxattr(self->file, "user.none", buf,
				      sizeof(buf)));
	}
	if (variant->handle != HANDLE_NONE)
		EXPECT_TRUE(handle_ino_gen(self->file, variant->handle, &hino,
					   &hgen));
	EXPECT_EQ(c0, get_cookie(_metadata, self->file));
	if (uring_statx(AT_FDCWD, self->file, 0, ALL_MASK, &stx) == 0)
		EXPECT_EQ(c0, cookie_of(&stx));
	EXPECT_EQ(c0, get_cookie(_metadata, self->file));

	/*
	 * A read that does update the access time (relatime, atime older
	 * than mtime) still leaves the cookie alone, except on xfs, which
	 * counts every change it logs to the inode.
	 */
	ASSERT_EQ(0, set_times(self->file, 1000, 0, 0, UTIME_OMIT));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &before));
	c1 = cookie_of(&before);
	EXPECT_NE(c0, c1);
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(6, read(fd, buf, sizeof(buf)));
	close(fd);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &stx));
	if (stx.stx_atime.tv_sec == before.stx_atime.tv_sec)
		SKIP(return, "the read did not update the access time (noatime?)");
	if (variant->atime)
		TH_LOG("%s counts access time updates: cookie %llu -> %llu",
		       variant->fstype, (unsigned long long)c1,
		       (unsigned long long)cookie_of(&stx));
	else
		EXPECT_EQ(c1, cookie_of(&stx));
}

/*
 * After an unmount the cookie and the generation are read back from the
 * disk: both are what they were, and the cookie still moves on a change.
 */
TEST_F(fs, remount)
{
	struct statx a, b;
	const char *why;
	int fd;

	if (!self->has_cookie && !self->has_gen)
		SKIP(return, "the kernel returns neither STATX_CHANGE_COOKIE nor STATX_GEN");
	if (!variant->remount)
		SKIP(return, "%s keeps nothing across an unmount that is tested",
		     variant->fstype);

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &a));
	why = remount(variant->mnt, variant->fstype);
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &b));
	EXPECT_EQ(a.stx_ino, b.stx_ino);
	EXPECT_EQ(a.stx_mask & NEW_BITS, b.stx_mask & NEW_BITS);
	if (a.stx_mask & STATX_GEN)
		EXPECT_EQ(gen_of(&a), gen_of(&b));
	if (a.stx_mask & STATX_CHANGE_COOKIE) {
		EXPECT_EQ(cookie_of(&a), cookie_of(&b));
		fd = open(self->file, O_WRONLY | O_APPEND);
		ASSERT_LE(0, fd);
		ASSERT_EQ(1, write(fd, "x", 1));
		close(fd);
		EXPECT_NE(cookie_of(&b), get_cookie(_metadata, self->file));
	}
}

/*
 * A remount in place (mount(2) with MS_REMOUNT, which passes MS_I_VERSION
 * in its mask) keeps the counter: the cookie is still returned, unchanged,
 * and still moves with the file.
 */
TEST_F(fs, remount_in_place)
{
	char src[PATH_MAX];
	unsigned long flags;
	__u64 c0, c1;
	int fd;

	if (!self->has_cookie)
		SKIP(return, "the kernel does not return STATX_CHANGE_COOKIE");
	if (!variant->cookie)
		SKIP(return, "%s keeps no change counter", variant->fstype);
	if (geteuid() != 0)
		SKIP(return, "remounting needs root");
	ASSERT_TRUE(mount_source(variant->mnt, src, sizeof(src), &flags));

	c0 = get_cookie(_metadata, self->file);
	ASSERT_EQ(0, mount(NULL, variant->mnt, NULL, MS_REMOUNT | flags, NULL))
		TH_LOG("remount %s: %s", variant->mnt, strerror(errno));
	c1 = get_cookie(_metadata, self->file);
	EXPECT_EQ(c0, c1);
	fd = open(self->file, O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(fd, "x", 1));
	close(fd);
	EXPECT_NE(c1, get_cookie(_metadata, self->file));
}

/* The generation is the one the filesystem gives out by other ways. */
TEST_F(fs, gen_matches)
{
	const char * const paths[] = { self->file, self->dir };
	struct statx stx;
	__u32 hgen;
	__u64 hino;
	int i, fd, v;

	if (!self->has_gen)
		SKIP(return, "the kernel does not return STATX_GEN");
	if (!variant->gen)
		SKIP(return, "%s keeps no stable generation", variant->fstype);

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, sys_statx(AT_FDCWD, paths[i], 0, ALL_MASK, &stx));
		ASSERT_TRUE(stx.stx_mask & STATX_GEN);
		if (variant->ioctl) {
			fd = open(paths[i], O_RDONLY);
			ASSERT_LE(0, fd);
			ASSERT_EQ(0, ioctl(fd, FS_IOC_GETVERSION, &v));
			close(fd);
			EXPECT_EQ((__u32)v, gen_of(&stx));
		}
		if (variant->handle != HANDLE_NONE) {
			ASSERT_TRUE(handle_ino_gen(paths[i], variant->handle,
						   &hino, &hgen));
			EXPECT_EQ(hino, stx.stx_ino);
			EXPECT_EQ(hgen, gen_of(&stx));
		}
	}
}

/*
 * When an inode number comes back after an unlink, the generation tells the
 * new inode from the old one.  Filesystems that hand out inode numbers in
 * increasing order (btrfs, tmpfs) do not reuse one in a bounded loop.
 */
TEST_F(fs, gen_reuse)
{
	enum { TRIES = 96 };
	__u64 ino[TRIES];
	__u32 gen[TRIES];
	char name[PATH_MAX];
	int i, j, fd, reused = 0;
	struct statx stx;

	if (!self->has_gen)
		SKIP(return, "the kernel does not return STATX_GEN");
	if (!variant->gen)
		SKIP(return, "%s keeps no stable generation", variant->fstype);

	for (i = 0; i < TRIES; i++) {
		snprintf(name, sizeof(name), "%s/reuse%d", self->dir, i);
		fd = open(name, O_CREAT | O_WRONLY | O_EXCL, 0644);
		ASSERT_LE(0, fd);
		close(fd);
		ASSERT_EQ(0, sys_statx(AT_FDCWD, name, 0, ALL_MASK, &stx));
		ASSERT_TRUE(stx.stx_mask & STATX_GEN);
		ino[i] = stx.stx_ino;
		gen[i] = gen_of(&stx);
		ASSERT_EQ(0, unlink(name));
		for (j = 0; j < i; j++) {
			if (ino[j] != ino[i])
				continue;
			reused++;
			EXPECT_NE(gen[j], gen[i])
				TH_LOG("inode %llu came back with generation %u",
				       (unsigned long long)ino[i], gen[i]);
		}
		if (reused >= 3)
			break;
		if (i % 16 == 15)
			sync();
	}
	if (!reused)
		SKIP(return, "%s reused no inode number in %d tries",
		     variant->fstype, TRIES);
}

/* Run as nobody: statx by path, by O_PATH descriptor, and by io_uring. */
static void nobody_statx(const char *path, int out)
{
	struct statx stx[3];
	int ret[3], fd;

	memset(stx, 0, sizeof(stx));
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		_exit(2);
	ret[0] = sys_statx(AT_FDCWD, path, 0, ALL_MASK, &stx[0]) ? -errno : 0;
	fd = open(path, O_PATH);
	ret[1] = fd < 0 ? -errno :
		 sys_statx(fd, "", AT_EMPTY_PATH, ALL_MASK, &stx[1]) ? -errno :
		 0;
	ret[2] = uring_statx(AT_FDCWD, path, 0, ALL_MASK, &stx[2]);
	if (write(out, ret, sizeof(ret)) != sizeof(ret) ||
	    write(out, stx, sizeof(stx)) != sizeof(stx))
		_exit(3);
	_exit(0);
}

/*
 * Ask as nobody; each answer must be @root's, with the generation taken
 * away unless @sees_gen.
 */
static void check_nobody(struct __test_metadata *_metadata, const char *path,
			 const struct statx *root, bool sees_gen)
{
	static const char * const how[] = { "path", "O_PATH fd", "io_uring" };
	struct statx stx[3], want = *root;
	int ret[3], pfd[2], status, i;
	pid_t pid;

	if (!sees_gen) {
		want.stx_mask &= ~STATX_GEN;
		memset((char *)&want + STX_GEN_OFF, 0, 8);
	}
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pfd[0]);
		nobody_statx(path, pfd[1]);
	}
	close(pfd[1]);
	ASSERT_EQ(sizeof(ret), read(pfd[0], ret, sizeof(ret)));
	ASSERT_EQ(sizeof(stx), read(pfd[0], stx, sizeof(stx)));
	close(pfd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);

	for (i = 0; i < 3; i++) {
		if (i == 2 && ret[i] == NO_URING) {
			TH_LOG("io_uring is not available to uid %d", NOBODY);
			continue;
		}
		ASSERT_EQ(0, ret[i]) TH_LOG("statx by %s", how[i]);
		EXPECT_EQ(sees_gen, !!(stx[i].stx_mask & STATX_GEN))
			TH_LOG("statx by %s", how[i]);
		EXPECT_EQ(0, memcmp(&want, &stx[i], sizeof(want)))
			TH_LOG("statx by %s: mask %x want %x, gen %llu want %llu",
			       how[i], stx[i].stx_mask, want.stx_mask,
			       (unsigned long long)gen_of(&stx[i]),
			       (unsigned long long)gen_of(&want));
	}
}

/*
 * The generation gate: a caller who may not read the file does not get the
 * generation, and gets the rest of the answer unchanged; one who may read
 * it gets it.
 */
TEST_F(fs, gen_gate)
{
	struct statx root;

	if (!self->has_gen)
		SKIP(return, "the kernel does not return STATX_GEN");
	if (!variant->gen)
		SKIP(return, "%s keeps no stable generation", variant->fstype);
	if (geteuid() != 0)
		SKIP(return, "switching to uid %d needs root", NOBODY);

	/* Readable by others: nobody gets the generation. */
	chmod(self->file, 0644);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &root));
	ASSERT_TRUE(root.stx_mask & STATX_GEN);
	if (root.stx_mode & 0004)
		check_nobody(_metadata, self->file, &root, true);

	/* Readable by root only: nobody gets all but the generation. */
	chmod(self->file, 0600);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &root));
	if ((root.stx_mode & 0777) != 0600 || root.stx_uid != 0)
		SKIP(return, "%s files are mode %o, uid %u: no mode 0600 for root",
		     variant->fstype, root.stx_mode & 0777, root.stx_uid);
	check_nobody(_metadata, self->file, &root, false);

	/* Group read permission is enough for a member of the group. */
	ASSERT_EQ(0, chown(self->file, 0, NOBODY));
	ASSERT_EQ(0, chmod(self->file, 0640));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &root));
	check_nobody(_metadata, self->file, &root, true);
}

/* io_uring's IORING_OP_STATX gives what the system call gives. */
TEST_F(fs, io_uring)
{
	struct statx sys, ring;
	int ret;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &sys));
	memset(&ring, 0xa5, sizeof(ring));
	ret = uring_statx(AT_FDCWD, self->file, 0, ALL_MASK, &ring);
	if (ret == NO_URING)
		SKIP(return, "io_uring is not available: %s", strerror(errno));
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0, memcmp(&sys, &ring, sizeof(sys)));
}

TEST_HARNESS_MAIN
