// SPDX-License-Identifier: GPL-2.0
/*
 * The contract of STATX_CHANGE_COOKIE and STATX_GEN in
 * include/uapi/linux/stat.h, on tmpfs, the filesystem every kernel has
 * that keeps both:
 *
 *  - neither comes unless asked for, and asking changes nothing else;
 *  - both come for files and directories, the cookie with
 *    STATX_ATTR_CHANGE_MONOTONIC; a remount in place keeps the cookie;
 *  - every change the header lists gives a new, larger cookie; reads,
 *    access time updates and questions about the file do not;
 *  - a cookie read while another process's write is in progress is not
 *    returned once that write is complete;
 *  - the generation is the one in the file's handle, and every caller who
 *    can look the file up gets it, by path, O_PATH descriptor or io_uring;
 *  - a filesystem that keeps no change counter (ramfs) returns no cookie,
 *    even mounted with MS_I_VERSION.
 *
 * Which disk filesystem keeps what is fstests' business.
 */
#include "statx_helpers.h"

#include <signal.h>
#include <time.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "../kselftest_harness.h"

#define NEW_BITS	(STATX_CHANGE_COOKIE | STATX_GEN)
#define MASK		(STATX_BASIC_STATS | STATX_BTIME | NEW_BITS)
#define MNT		"/tmp/mnt"

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

/*
 * The inode number and generation in the handle of a tmpfs file
 * (shmem_encode_fh(): type 1, u32 generation, u32 ino low, u32 ino high).
 */
static bool handle_ino_gen(const char *path, __u64 *ino, __u32 *gen)
{
	struct {
		struct file_handle fh;
		unsigned char buf[MAX_HANDLE_SZ];
	} h;
	__u32 u32s[3];
	int mnt_id;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt_id, 0) ||
	    h.fh.handle_type != 1 || h.fh.handle_bytes != 12)
		return false;
	memcpy(u32s, h.fh.f_handle, sizeof(u32s));
	*gen = u32s[0];
	*ino = u32s[1] | (__u64)u32s[2] << 32;
	return true;
}

/*
 * A tmpfs of the case's own, mounted strictatime (every read updates the
 * access time), with a directory and a 64 KiB file in it.
 */
FIXTURE(tmpfs) {
	char dir[64];
	char file[96];
	char other[96];
};

FIXTURE_SETUP(tmpfs)
{
	char *buf;

	if (!statx_private_tmp(_metadata))
		return;
	ASSERT_EQ(0, statx_mount_at("tmpfs", MNT, MS_STRICTATIME, NULL));
	snprintf(self->dir, sizeof(self->dir), "%s/dir", MNT);
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	snprintf(self->other, sizeof(self->other), "%s/other", self->dir);
	/* 64 KiB, so that every fallocate mode has whole pages to move */
	buf = malloc(65536);
	ASSERT_TRUE(!!buf);
	memset(buf, 'a', 65536);
	ASSERT_EQ(0, statx_put_file(self->file, buf, 65536));
	free(buf);
}

/* Everything goes with the case's mount namespace. */
FIXTURE_TEARDOWN(tmpfs)
{
}

/* The change cookie of @path, which must be there. */
static __u64 get_cookie(struct __test_metadata *_metadata, const char *path)
{
	struct statx stx;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, MASK, &stx))
		TH_LOG("statx(%s): %s", path, strerror(errno));
	ASSERT_TRUE(stx.stx_mask & STATX_CHANGE_COOKIE)
		TH_LOG("statx(%s) returned no change cookie", path);
	return stx.stx_change_cookie;
}

/*
 * A caller that asks for neither bit gets neither, and the rest of its
 * answer is what a caller asking for both gets.
 */
TEST_F(tmpfs, not_asked)
{
	struct statx old, all;
	const char *diff;

	memset(&old, STATX_POISON, sizeof(old));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0,
			       STATX_BASIC_STATS | STATX_BTIME, &old));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &all));
	EXPECT_EQ(0, old.stx_mask & NEW_BITS);
	EXPECT_EQ(0, old.stx_attributes & STATX_ATTR_CHANGE_MONOTONIC);
	EXPECT_EQ(0, old.stx_change_cookie);
	EXPECT_EQ(0, old.stx_gen);
	/* What the new bits add, taken out again */
	all.stx_mask &= ~NEW_BITS;
	all.stx_attributes &= ~STATX_ATTR_CHANGE_MONOTONIC;
	all.stx_attributes_mask &= ~STATX_ATTR_CHANGE_MONOTONIC;
	old.stx_attributes_mask &= ~STATX_ATTR_CHANGE_MONOTONIC;
	all.stx_change_cookie = 0;
	all.stx_gen = 0;
	diff = statx_stx_diff(&old, &all);
	EXPECT_TRUE(!diff) TH_LOG("%s", diff);
}

/* Both bits, for a file and a directory; the cookie says it only grows. */
TEST_F(tmpfs, presence)
{
	const char * const paths[] = { self->file, self->dir };
	struct statx stx;
	int i;

	for (i = 0; i < 2; i++) {
		memset(&stx, STATX_POISON, sizeof(stx));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, paths[i], 0, MASK, &stx));
		EXPECT_EQ(NEW_BITS, stx.stx_mask & NEW_BITS) TH_LOG("%s", paths[i]);
		EXPECT_TRUE(stx.stx_attributes_mask &
			    STATX_ATTR_CHANGE_MONOTONIC);
		EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_CHANGE_MONOTONIC);
		EXPECT_EQ(0, stx.__spare2[0]);
	}
}

/*
 * A remount in place (mount(2) with MS_REMOUNT, which passes MS_I_VERSION
 * in its mask) keeps the counter: the cookie is still returned, unchanged,
 * and still moves with the file.
 */
TEST_F(tmpfs, remount_in_place)
{
	__u64 c0, c1;
	int fd;

	c0 = get_cookie(_metadata, self->file);
	ASSERT_EQ(0, mount(NULL, MNT, NULL, MS_REMOUNT | MS_STRICTATIME, NULL))
		TH_LOG("remount %s: %s", MNT, strerror(errno));
	c1 = get_cookie(_metadata, self->file);
	EXPECT_EQ(c0, c1);
	fd = open(self->file, O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(fd, "x", 1));
	close(fd);
	EXPECT_LT(c1, get_cookie(_metadata, self->file));
}

/* The generation and inode number are the ones in the file handle. */
TEST_F(tmpfs, gen_matches)
{
	const char * const paths[] = { self->file, self->dir };
	struct statx stx;
	__u32 hgen;
	__u64 hino;
	int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, sys_statx(AT_FDCWD, paths[i], 0, MASK, &stx));
		ASSERT_TRUE(stx.stx_mask & STATX_GEN);
		ASSERT_TRUE(handle_ino_gen(paths[i], &hino, &hgen))
			TH_LOG("%s: name_to_handle_at: %s", paths[i],
			       strerror(errno));
		EXPECT_EQ(hino, stx.stx_ino);
		EXPECT_EQ(hgen, stx.stx_gen);
	}
}

/* What nobody_statx() hands back. */
struct nobody_answer {
	int ret[3];
	struct statx stx[3];
	bool handle;
	__u64 hino;
	__u32 hgen;
};

/*
 * As uid 65534: statx by path, by O_PATH descriptor and by io_uring, and
 * name_to_handle_at() of the same path.
 */
static void nobody_statx(const char *path, struct nobody_answer *a)
{
	int fd;

	if (statx_become_nobody())
		_exit(2);
	a->ret[0] = sys_statx(AT_FDCWD, path, 0, MASK, &a->stx[0]) ?
		    -errno : 0;
	fd = open(path, O_PATH);
	a->ret[1] = fd < 0 ? -errno :
		    sys_statx(fd, "", AT_EMPTY_PATH, MASK, &a->stx[1]) ?
		    -errno : 0;
	a->ret[2] = statx_uring_statx(AT_FDCWD, path, 0, MASK, &a->stx[2]);
	a->handle = handle_ino_gen(path, &a->hino, &a->hgen);
	_exit(0);
}

/*
 * The generation has no gate: name_to_handle_at() already gives it, inside
 * the file handle, to anyone who can look the file up, so statx() gives it
 * to the same callers, and the change cookie with it.  A caller who cannot
 * read the file gets the answer root gets, generation and cookie included,
 * by path, by O_PATH descriptor and by io_uring.
 */
TEST_F(tmpfs, gen_for_anyone)
{
	static const char * const how[] = { "path", "O_PATH fd", "io_uring" };
	struct nobody_answer *a;
	const char *missing;
	struct statx root;
	int status, i;
	pid_t pid;

	ASSERT_EQ(0, chmod(self->file, 0600));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &root));
	ASSERT_TRUE(root.stx_mask & STATX_GEN);
	a = mmap(NULL, sizeof(*a), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(a != MAP_FAILED);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		nobody_statx(self->file, a);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);

	missing = statx_uring_missing(a->ret[2]);
	for (i = 0; i < 3; i++) {
		if (i == 2 && missing)
			break;
		ASSERT_EQ(0, a->ret[i]) TH_LOG("statx by %s", how[i]);
		EXPECT_EQ(0, memcmp(&root, &a->stx[i], sizeof(root)))
			TH_LOG("statx by %s: mask %x want %x, gen %u want %u",
			       how[i], a->stx[i].stx_mask, root.stx_mask,
			       a->stx[i].stx_gen, root.stx_gen);
	}
	EXPECT_TRUE(a->handle);
	EXPECT_EQ(root.stx_ino, a->hino);
	EXPECT_EQ(root.stx_gen, a->hgen);
	munmap(a, sizeof(*a));
	if (missing)
		STATX_SKIP(return, "by path and O_PATH fd as root; %s", missing);
}

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
			{ 0x02, 4, STATX_NOBODY },	/* ACL_USER nobody r */
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
	if (statx_put_file(other, block, sizeof(block)))
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
		ret = statx_uring_one(&sqe);
		close(fd);
		if (ret == 5)
			return 0;
		errno = ret <= STATX_NO_URING ? STATX_NO_URING - ret : -ret;
		return -1;
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
		return chown(file, STATX_NOBODY, STATX_NOBODY);
	case OP_UTIMENS:
		return statx_utimens(AT_FDCWD, file, 1000000000, 0, 1000000000,
				     0);
	case OP_TOUCH:
		return statx_utimens(AT_FDCWD, file, 0, UTIME_NOW, 0,
				     UTIME_NOW);
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

/* Refused by tmpfs, with EOPNOTSUPP or EINVAL: no reflink, no such modes */
static bool refused(enum op op, int err)
{
	if (err != EOPNOTSUPP && err != EINVAL)
		return false;
	return op == OP_CLONE || op == OP_DEDUPE || op == OP_ZERO ||
	       op == OP_COLLAPSE || op == OP_INSERT;
}

/*
 * Every change the header lists gives a cookie not seen before in the test,
 * and a larger one: tmpfs says its cookie is monotonic.  A
 * preallocation beyond the end of the file, a dedupe (the data stays what
 * it was) and an exchange of names change neither data nor attributes
 * statx reports on every filesystem: there the cookie must change where
 * the ctime does.
 */
TEST_F(tmpfs, every_change)
{
	__u64 seen[OP_NR + 1], now;
	struct statx before, after;
	const char *uring = NULL;
	int op, i, n = 0, ret;
	bool may_stay;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &before));
	ASSERT_TRUE(before.stx_mask & STATX_CHANGE_COOKIE);
	seen[n++] = before.stx_change_cookie;
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
		if (ret && refused(op, ret)) {
			TH_LOG("tmpfs refuses %s", op_names[op]);
			continue;
		}
		if (op == OP_URING && statx_uring_missing(STATX_NO_URING - ret)) {
			uring = statx_uring_missing(STATX_NO_URING - ret);
			continue;
		}
		ASSERT_EQ(0, ret)
			TH_LOG("%s: %s", op_names[op], strerror(ret));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &after));
		ASSERT_TRUE(after.stx_mask & STATX_CHANGE_COOKIE);
		now = after.stx_change_cookie;
		/* the change happened: the mode the ACL stands for, no data */
		if (op == OP_MODE_ACL)
			EXPECT_EQ(0750, after.stx_mode & 07777);
		if (op == OP_SAME_SIZE)
			EXPECT_EQ(before.stx_size, after.stx_size);
		if (op == OP_TRUNC_EMPTY)
			EXPECT_EQ(0, after.stx_size);
		if (may_stay && !statx_ts_cmp(&before.stx_ctime,
					      &after.stx_ctime)) {
			TH_LOG("%s left the ctime alone", op_names[op]);
			continue;
		}
		/* a preparation may have changed it since the last op */
		EXPECT_NE(before.stx_change_cookie, now)
			TH_LOG("%s left the cookie at %llu", op_names[op],
			       (unsigned long long)now);
		for (i = 0; i < n; i++)
			EXPECT_NE(seen[i], now)
				TH_LOG("after %s the cookie %llu is one seen before",
				       op_names[op], (unsigned long long)now);
		EXPECT_LT(seen[n - 1], now)
			TH_LOG("after %s the cookie went from %llu to %llu",
			       op_names[op], (unsigned long long)seen[n - 1],
			       (unsigned long long)now);
		seen[n++] = now;
	}
	if (uring)
		STATX_SKIP(return, "the io_uring write left out: %s", uring);
}

/* A directory's cookie changes when its entries do. */
TEST_F(tmpfs, directory)
{
	char sub[128];
	__u64 c[5];
	struct statx stx;
	int i;

	snprintf(sub, sizeof(sub), "%s/sub", self->dir);
	for (i = 0; i < 5; i++) {
		switch (i) {
		case 1:
			ASSERT_EQ(0, statx_put_file(self->other, "o", 1));
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
		c[i] = stx.stx_change_cookie;
		if (i)
			EXPECT_LT(c[i - 1], c[i]);
	}
}

/*
 * Reading the file, asking about it in every way, and the access time
 * updates that reads make on a strictatime mount leave the cookie alone.
 */
TEST_F(tmpfs, reads_keep)
{
	struct statx before, after;
	char buf[64], list[256];
	__u32 hgen;
	__u64 hino;
	int fd, v;
	char *p;

	ASSERT_EQ(0, statx_utimens(AT_FDCWD, self->file, 1000, 0, 0,
				   UTIME_OMIT));
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
	close(fd);
	EXPECT_LE(0, listxattr(self->file, list, sizeof(list)));
	EXPECT_GE(0, getxattr(self->file, "user.none", buf, sizeof(buf)));
	EXPECT_TRUE(handle_ino_gen(self->file, &hino, &hgen));
	v = statx_uring_statx(AT_FDCWD, self->file, 0, MASK, &after);
	if (!statx_uring_missing(v))
		EXPECT_EQ(0, v);

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, MASK, &after));
	/* strictatime: the reads moved the access time, as the kernel must */
	ASSERT_NE(before.stx_atime.tv_sec, after.stx_atime.tv_sec);
	EXPECT_EQ(before.stx_change_cookie, after.stx_change_cookie)
		TH_LOG("reads changed the cookie from %llu to %llu",
		       (unsigned long long)before.stx_change_cookie,
		       (unsigned long long)after.stx_change_cookie);
}

/*
 * The write-in-progress test: how many writes, and how much one write
 * rewrites (enough for a write to outlast a time slice, so that the
 * reader runs while one is in progress also on a single CPU).
 */
#define INFLIGHT_WRITES		24
#define INFLIGHT_SIZE		(4 * 1024 * 1024)
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
 * Rewrite the whole file INFLIGHT_WRITES times, each time with another
 * byte, with a pause after each write in which no write is in progress.
 */
static void inflight_write(const char *path, struct inflight_writer *w)
{
	unsigned char v = 0;
	char *buf;
	int fd, i;

	buf = malloc(INFLIGHT_SIZE);
	fd = open(path, O_WRONLY);
	if (!buf || fd < 0) {
		w->err = errno;
		_exit(1);
	}
	for (i = 0; i < INFLIGHT_WRITES; i++) {
		memset(buf, ++v, INFLIGHT_SIZE);
		__atomic_add_fetch(&w->started, 1, __ATOMIC_SEQ_CST);
		if (pwrite(fd, buf, INFLIGHT_SIZE, 0) != INFLIGHT_SIZE) {
			w->err = errno;
			_exit(1);
		}
		__atomic_add_fetch(&w->done, 1, __ATOMIC_SEQ_CST);
		usleep(500);
	}
	_exit(0);
}

/*
 * While another process rewrites the file, statx(cookie) and read the
 * file's last page, again and again, until the writer is done.  Where
 * that page holds bytes of a write older than the last one begun before
 * the statx() call, that write was still in progress when the page was
 * read, so also when the cookie was: no call that begins after that write
 * is complete may return that cookie (the write moves it again at its end
 * when it was read meanwhile).  Without that second move the cookie read
 * during the write stays until the next write, and what was read with it
 * passes for current.  How many writes were caught in progress depends on
 * the scheduler and is only reported: the verdict is that none was stale.
 */
TEST_F_TIMEOUT(tmpfs, inflight_cookie_moves_on, 120)
{
	unsigned long calls = 0, inflight = 0, checked = 0, stale = 0;
	unsigned long s0, d0, pend_write = 0;
	struct inflight_writer *w;
	struct statx stx = { 0 };
	__u64 pend_cookie = 0;
	unsigned char *buf;
	int fd, i, status;
	pid_t pid;

	buf = calloc(1, INFLIGHT_SIZE);
	ASSERT_TRUE(!!buf);
	ASSERT_EQ(0, statx_put_file(self->file, buf, INFLIGHT_SIZE));
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	w = mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(w != MAP_FAILED);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		inflight_write(self->file, w);
	for (;;) {
		s0 = __atomic_load_n(&w->started, __ATOMIC_SEQ_CST);
		d0 = __atomic_load_n(&w->done, __ATOMIC_SEQ_CST);
		if (d0 == INFLIGHT_WRITES || w->err)
			break;
		ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH,
				       STATX_CHANGE_COOKIE, &stx));
		ASSERT_TRUE(stx.stx_mask & STATX_CHANGE_COOKIE);
		ASSERT_EQ(INFLIGHT_TAIL, pread(fd, buf, INFLIGHT_TAIL,
					       INFLIGHT_SIZE - INFLIGHT_TAIL));
		calls++;
		if (pend_write && d0 >= pend_write) {
			/* that write was complete before this call began */
			checked++;
			if (stx.stx_change_cookie == pend_cookie && stale++ < 3)
				TH_LOG("cookie %llu, read during write %lu, again after it",
				       (unsigned long long)pend_cookie,
				       pend_write);
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
			pend_cookie = stx.stx_change_cookie;
		}
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(fd);
	free(buf);
	ksft_print_msg("%lu writes, %lu calls, %lu during a write, %lu checked after, %lu stale\n",
		       w->done, calls, inflight, checked, stale);
	ASSERT_EQ(0, w->err);
	ASSERT_EQ(0, status);
	EXPECT_EQ(0, stale);
}

/*
 * ramfs keeps no change counter: no cookie, zero in its place, and no
 * word on its monotonicity, for a file and its directory, asked for or
 * not, even mounted with MS_I_VERSION (SB_I_VERSION alone gives no
 * cookie: the filesystem must say it keeps one).
 */
TEST(ramfs_no_cookie)
{
	const unsigned int masks[] = { STATX_BASIC_STATS, MASK };
	const char * const paths[] = { MNT "/file", MNT };
	struct statx stx;
	int i, j;

	if (!statx_private_tmp(_metadata))
		return;
	ASSERT_EQ(0, statx_mount_at("ramfs", MNT, MS_I_VERSION, NULL));
	ASSERT_EQ(0, statx_put_file(paths[0], "hello\n", 6));
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			memset(&stx, STATX_POISON, sizeof(stx));
			ASSERT_EQ(0, sys_statx(AT_FDCWD, paths[i], 0, masks[j],
					       &stx));
			EXPECT_FALSE(stx.stx_mask & STATX_CHANGE_COOKIE)
				TH_LOG("%s: cookie %llu", paths[i],
				       (unsigned long long)stx.stx_change_cookie);
			EXPECT_EQ(0, stx.stx_change_cookie);
			EXPECT_FALSE(stx.stx_attributes &
				     STATX_ATTR_CHANGE_MONOTONIC);
			EXPECT_FALSE(stx.stx_attributes_mask &
				     STATX_ATTR_CHANGE_MONOTONIC);
		}
	}
}

TEST_HARNESS_MAIN
