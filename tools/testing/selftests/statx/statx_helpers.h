/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the statx selftests.
 *
 * The suite tests what the VFS promises to every statx() caller, whatever
 * the filesystem: the layout of struct statx and struct statx_dirent, the
 * argument and errno rules, that nothing unasked leaks, the compat and
 * io_uring entries, statx_dir(2), and the change cookie and generation
 * contract on tmpfs.  Each case makes what it looks at in a mount
 * namespace of its own: a tmpfs on /tmp, pseudo filesystems mounted
 * there, loop devices it adds and removes.  Per-filesystem behaviour is
 * tested by fstests.
 *
 * Everything is built against the headers of the kernel under test
 * (KHDR_INCLUDES): no constant is defined here a second time.
 */
#ifndef __STATX_HELPERS_H
#define __STATX_HELPERS_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/io_uring.h>
#include <linux/loop.h>
#include <linux/stat.h>

#include "../kselftest_harness.h"

/* The raw system calls: glibc's statx() may fall back to fstatat(). */
static inline int sys_statx(int dfd, const char *path, unsigned int flags,
			    unsigned int mask, struct statx *stx)
{
	return syscall(__NR_statx, dfd, path, flags, mask, stx);
}

/* statx_dir() with a struct statx of @stx_size bytes in each record */
static inline ssize_t sys_statx_dir_sized(int fd, void *buf, size_t size,
					  unsigned int mask, unsigned int flags,
					  size_t stx_size)
{
	return syscall(__NR_statx_dir, fd, buf, size, mask, flags, stx_size);
}

static inline ssize_t sys_statx_dir(int fd, void *buf, size_t size,
				    unsigned int mask, unsigned int flags)
{
	return sys_statx_dir_sized(fd, buf, size, mask, flags,
				   sizeof(struct statx));
}

/*
 * The one test of whether the running kernel has the statx extensions at
 * all: statx_dir(2), the last system call they add, is not there.  It runs
 * before main() in every program (nothing else is probed), and skips the
 * whole program.  From here on a missing field or flag is a failure.
 */
#define STATX_LACKS_SERIES \
	"kernel lacks the statx extensions (statx_dir: ENOSYS)"

static void __attribute__((constructor)) statx_require_extensions(void)
{
	if (sys_statx_dir(-1, NULL, 0, 0, 0) == -1 && errno == ENOSYS) {
		ksft_print_header();
		ksft_exit_skip(STATX_LACKS_SERIES "\n");
	}
}

/*
 * The harness's SKIP() sets the result of a case to KSFT_SKIP whatever it
 * was, so a skip after a failed EXPECT_*() reports the failure as a skip.
 * The tests skip with STATX_SKIP() instead: SKIP() in a case that has not
 * failed; in one that has, it keeps the failure and says what it would
 * have skipped for.  Either way it then runs @statement.  A case skips
 * only for a missing privilege, kernel option or tool, which the reason
 * names.
 */
#define STATX_CASE_FAILED()	(_metadata->exit_code == KSFT_FAIL)

#define STATX_SKIP(statement, fmt, ...) do {				\
	char _statx_why[sizeof(_metadata->results->reason)];		\
									\
	snprintf(_statx_why, sizeof(_statx_why), fmt, ##__VA_ARGS__);	\
	if (STATX_CASE_FAILED())					\
		TH_LOG("refusing to skip (%s) after a failed expectation", \
		       _statx_why);					\
	else								\
		SKIP(, "%s", _statx_why);				\
	statement;							\
} while (0)

/* Byte the buffers are filled with before each call. */
#define STATX_POISON	0xa5

/* uid and gid of the unprivileged caller. */
#define STATX_NOBODY	65534

/* Every mask bit, present and future, that a caller may ask for. */
#define STATX_ALL_BITS	(~0U & ~STATX__RESERVED)

/* The flags statx() accepts (fs/stat.c); any other is EINVAL. */
#define STATX_VALID_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | \
				 AT_EMPTY_PATH | AT_STATX_SYNC_TYPE)

/*
 * Enter a mount namespace of this process's own, with propagation off and
 * a new tmpfs on /tmp: everything a case makes goes with the process.
 * Each case of kselftest_harness.h runs in a process of its own.  Returns
 * false when the case skipped, for want of CAP_SYS_ADMIN.
 */
static inline bool statx_private_tmp(struct __test_metadata *_metadata)
{
	int err = 0;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("statx", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777"))
		err = errno;
	if (err == EPERM)
		STATX_SKIP(return false,
			   "needs root (CAP_SYS_ADMIN) for a tmpfs of its own");
	ASSERT_EQ(0, err) {
		TH_LOG("private /tmp: %s", strerror(err));
	}
	return true;
}

/*
 * Is a filesystem of @type built in?  /proc/filesystems tells, for the
 * skips that name a missing kernel option.
 */
static inline bool statx_fs_known(const char *type)
{
	char line[128], name[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/filesystems", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = (sscanf(line, "nodev %63s", name) == 1 ||
			 sscanf(line, "%63s", name) == 1) &&
			!strcmp(name, type);
	fclose(f);
	return found;
}

/* Make @dir and mount a filesystem of @type with @opts there; 0 or -errno. */
static inline int statx_mount_at(const char *type, const char *dir,
				 unsigned long flags, const char *opts)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	if (mount(type, dir, type, flags, opts))
		return -errno;
	return 0;
}

/* Write @len bytes of @data to a new file @path; 0 or -1. */
static inline int statx_put_file(const char *path, const void *data,
				 size_t len)
{
	int fd, ret = 0;

	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (len && write(fd, data, len) != (ssize_t)len)
		ret = -1;
	if (close(fd))
		ret = -1;
	return ret;
}

/*
 * utimensat() with 64-bit times: a 32-bit glibc calls the old 32-bit-time
 * system call when the times fit, which a kernel without
 * CONFIG_COMPAT_32BIT_TIME does not have.  UTIME_NOW or UTIME_OMIT as
 * nanoseconds; @path NULL for the file @dfd.
 */
static inline int statx_utimens(int dfd, const char *path, long long asec,
				long ansec, long long msec, long mnsec)
{
	struct {
		long long tv_sec;
		long long tv_nsec;
	} ts[2] = {
		{ .tv_sec = asec, .tv_nsec = ansec },
		{ .tv_sec = msec, .tv_nsec = mnsec },
	};

#ifdef __NR_utimensat_time64
	return syscall(__NR_utimensat_time64, dfd, path, ts, 0);
#else
	return syscall(__NR_utimensat, dfd, path, ts, 0);
#endif
}

/* One line of /proc/self/mountinfo. */
struct statx_mount {
	unsigned int id;
	unsigned int dev_major;
	unsigned int dev_minor;
	char fstype[64];
};

/*
 * The mount on top of @dir in /proc/self/mountinfo.  Mount points with
 * escaped characters are not matched.
 */
static inline bool statx_mountinfo(const char *dir, struct statx_mount *m)
{
	char line[4096], mnt[PATH_MAX], type[64];
	unsigned int id, ma, mi;
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%u %*u %u:%u %*s %4095s",
				   &id, &ma, &mi, mnt) != 4 ||
		    sscanf(sep, " - %63s", type) != 1 || strcmp(mnt, dir))
			continue;
		/* The last one wins: it is the one on top. */
		m->id = id;
		m->dev_major = ma;
		m->dev_minor = mi;
		snprintf(m->fstype, sizeof(m->fstype), "%s", type);
		found = true;
	}
	fclose(f);
	return found;
}

/*
 * Loop devices: a case adds one of its own (LOOP_CTL_ADD with -1 always
 * makes a new device, where LOOP_CTL_GET_FREE could hand out an unbound
 * device someone else made), binds a file to it with LOOP_CONFIGURE and
 * keeps its number, and removes exactly that number when it is done
 * (statx_loop_remove(), from FIXTURE_TEARDOWN_PARENT, so also after the
 * case crashed).  No other loop device is looked at.
 */
static inline int statx_loop_attach(const char *img, unsigned int block_size,
				    int *nr, char *dev, size_t len)
{
	struct loop_config cfg;
	int ctl, n, fd, ifd, ret, tries;

	*nr = -1;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	for (tries = 0; tries < 8; tries++) {
		n = ioctl(ctl, LOOP_CTL_ADD, -1);
		if (n < 0) {
			ret = -errno;
			break;
		}
		snprintf(dev, len, "/dev/loop%d", n);
		fd = open(dev, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			ioctl(ctl, LOOP_CTL_REMOVE, n);
			break;
		}
		ifd = open(img, O_RDONLY | O_CLOEXEC);
		if (ifd < 0) {
			ret = -errno;
			close(fd);
			ioctl(ctl, LOOP_CTL_REMOVE, n);
			break;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = ifd;
		cfg.block_size = block_size;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | LO_FLAGS_READ_ONLY;
		ret = ioctl(fd, LOOP_CONFIGURE, &cfg) ? -errno : 0;
		close(ifd);
		if (ret == -EBUSY) {
			/* Taken by another's LOOP_CTL_GET_FREE: theirs now. */
			close(fd);
			continue;
		}
		if (ret) {
			close(fd);
			ioctl(ctl, LOOP_CTL_REMOVE, n);
			break;
		}
		*nr = n;
		ret = fd;
		break;
	}
	close(ctl);
	return ret;
}

/* Remove loop device @nr, once its last user has let go (2 s at most). */
static inline void statx_loop_remove(int nr)
{
	int ctl, tries = 40;

	if (nr < 0)
		return;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return;
	while (ioctl(ctl, LOOP_CTL_REMOVE, nr) && errno == EBUSY && --tries)
		usleep(50000);
	close(ctl);
}

static inline int statx_rm_one(const char *path, const struct stat *st,
			       int type, struct FTW *ftw)
{
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* rm -rf @dir, not crossing mounts. */
static inline void statx_rmtree(const char *dir)
{
	if (dir[0])
		nftw(dir, statx_rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* Drop to uid and gid 65534 with no supplementary groups; 0 or -1. */
static inline int statx_become_nobody(void)
{
	if (setgroups(0, NULL) || setresgid(STATX_NOBODY, STATX_NOBODY,
					    STATX_NOBODY) ||
	    setresuid(STATX_NOBODY, STATX_NOBODY, STATX_NOBODY))
		return -1;
	return 0;
}

/*
 * Run statx() as uid 65534 in a child.  Returns 0 or the errno, with the
 * result in @stx; -1 if the child could not switch (not root).
 */
static inline int statx_as_nobody(int dfd, const char *path,
				  unsigned int flags, unsigned int mask,
				  struct statx *stx)
{
	struct {
		int err;
		struct statx stx;
	} *shared;
	int status, ret = -1;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (statx_become_nobody())
			_exit(1);
		shared->err = sys_statx(dfd, path, flags, mask, &shared->stx) ?
			      errno : 0;
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = shared->err;
		*stx = shared->stx;
	}
	munmap(shared, sizeof(*shared));
	return ret;
}

/*
 * One io_uring request through the raw system calls: one SQE, one CQE.
 * Returns the operation's result (cqe->res), or STATX_NO_URING - errno
 * when the ring itself could not be set up.
 */
#define STATX_NO_URING	(-100000)

static inline int statx_uring_one(const struct io_uring_sqe *req)
{
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	size_t sq_sz, cq_sz;
	unsigned int *tail, head;
	void *sq, *cq;
	int fd, ret;

	fd = syscall(__NR_io_uring_setup, 1, &p);
	if (fd < 0)
		return STATX_NO_URING - errno;
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
		return STATX_NO_URING - ENOMEM;
	}

	sqes[0] = *req;
	((unsigned int *)((char *)sq + p.sq_off.array))[0] = 0;
	tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);

	ret = syscall(__NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	if (ret < 0) {
		ret = STATX_NO_URING - errno;
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

/* IORING_OP_STATX: 0, -errno of the request, or STATX_NO_URING - errno. */
static inline int statx_uring_statx(int dfd, const char *path,
				    unsigned int flags, unsigned int mask,
				    struct statx *stx)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_STATX,
		.fd = dfd,
		.addr = (unsigned long)path,
		.len = mask,
		.addr2 = (unsigned long)stx,
		.statx_flags = flags,
	};

	return statx_uring_one(&sqe);
}

/*
 * Why io_uring could not be set up, for a skip: the kernel has none (its
 * sysctl is missing too), or the sysctl forbids it.  NULL otherwise.
 */
static inline const char *statx_uring_missing(int ret)
{
	if (ret > STATX_NO_URING)
		return NULL;
	if (access("/proc/sys/kernel/io_uring_disabled", F_OK))
		return "no io_uring in this kernel (CONFIG_IO_URING)";
	if (ret == STATX_NO_URING - EPERM)
		return "io_uring disabled (sysctl kernel.io_uring_disabled)";
	return NULL;
}

/*
 * The table of struct statx fields: which STATX_* bit makes each one
 * valid (0: always written), where it is and how big (statx_layout checks
 * each entry against the documented offset and size).  The leak test, the
 * compat comparison and the io_uring comparison walk it, so a field added
 * to struct statx is covered by all three once it is listed here.  A
 * field that two bits can fill (stx_mnt_id) is listed once per bit.
 */
struct statx_field {
	const char *name;
	unsigned int mask;
	unsigned int offset;
	unsigned int size;
};

#define STATX_FIELD(_mask, _field, _size) {				\
	.name = #_field,						\
	.mask = (_mask),						\
	.offset = offsetof(struct statx, _field),			\
	.size = (_size),						\
}

static const struct statx_field statx_fields[] = {
	STATX_FIELD(0, stx_mask, 4),
	STATX_FIELD(0, stx_blksize, 4),
	STATX_FIELD(0, stx_attributes, 8),
	STATX_FIELD(STATX_NLINK, stx_nlink, 4),
	STATX_FIELD(STATX_UID, stx_uid, 4),
	STATX_FIELD(STATX_GID, stx_gid, 4),
	STATX_FIELD(STATX_TYPE | STATX_MODE, stx_mode, 2),
	STATX_FIELD(STATX_INO, stx_ino, 8),
	STATX_FIELD(STATX_SIZE, stx_size, 8),
	STATX_FIELD(STATX_BLOCKS, stx_blocks, 8),
	STATX_FIELD(0, stx_attributes_mask, 8),
	STATX_FIELD(STATX_ATIME, stx_atime.tv_sec, 8),
	STATX_FIELD(STATX_ATIME, stx_atime.tv_nsec, 4),
	STATX_FIELD(STATX_BTIME, stx_btime.tv_sec, 8),
	STATX_FIELD(STATX_BTIME, stx_btime.tv_nsec, 4),
	STATX_FIELD(STATX_CTIME, stx_ctime.tv_sec, 8),
	STATX_FIELD(STATX_CTIME, stx_ctime.tv_nsec, 4),
	STATX_FIELD(STATX_MTIME, stx_mtime.tv_sec, 8),
	STATX_FIELD(STATX_MTIME, stx_mtime.tv_nsec, 4),
	STATX_FIELD(0, stx_rdev_major, 4),
	STATX_FIELD(0, stx_rdev_minor, 4),
	STATX_FIELD(0, stx_dev_major, 4),
	STATX_FIELD(0, stx_dev_minor, 4),
	STATX_FIELD(STATX_MNT_ID, stx_mnt_id, 8),
	STATX_FIELD(STATX_MNT_ID_UNIQUE, stx_mnt_id, 8),
	STATX_FIELD(STATX_DIOALIGN, stx_dio_mem_align, 4),
	STATX_FIELD(STATX_DIOALIGN, stx_dio_offset_align, 4),
	STATX_FIELD(STATX_SUBVOL, stx_subvol, 8),
	STATX_FIELD(STATX_WRITE_ATOMIC, stx_atomic_write_unit_min, 4),
	STATX_FIELD(STATX_WRITE_ATOMIC, stx_atomic_write_unit_max, 4),
	STATX_FIELD(STATX_WRITE_ATOMIC, stx_atomic_write_segments_max, 4),
	STATX_FIELD(STATX_DIO_READ_ALIGN, stx_dio_read_offset_align, 4),
	STATX_FIELD(STATX_WRITE_ATOMIC, stx_atomic_write_unit_max_opt, 4),
	STATX_FIELD(STATX_IO_PARAMS, stx_io_min, 4),
	STATX_FIELD(STATX_IO_PARAMS, stx_io_opt, 4),
	STATX_FIELD(STATX_IO_PARAMS, stx_erase_size, 4),
	STATX_FIELD(STATX_CHANGE_COOKIE, stx_change_cookie, 8),
	STATX_FIELD(STATX_GEN, stx_gen, 4),
};

/* The STATX_ATTR_* flags of the headers; list new ones here. */
static const __u64 statx_attrs[] = {
	STATX_ATTR_COMPRESSED, STATX_ATTR_IMMUTABLE, STATX_ATTR_APPEND,
	STATX_ATTR_NODUMP, STATX_ATTR_ENCRYPTED, STATX_ATTR_AUTOMOUNT,
	STATX_ATTR_MOUNT_ROOT, STATX_ATTR_VERITY, STATX_ATTR_DAX,
	STATX_ATTR_WRITE_ATOMIC, STATX_ATTR_HIDDEN, STATX_ATTR_SYSTEM,
	STATX_ATTR_ARCHIVE, STATX_ATTR_DOS_READONLY,
	STATX_ATTR_FOREIGN_OWNER, STATX_ATTR_KERNEL_FILE,
	STATX_ATTR_STORED_COMPRESSED, STATX_ATTR_SPARSE,
	STATX_ATTR_CHANGE_MONOTONIC,
};

/* Every mask bit the table knows. */
static inline unsigned int statx_known_mask(void)
{
	unsigned int i, mask = 0;

	for (i = 0; i < ARRAY_SIZE(statx_fields); i++)
		mask |= statx_fields[i].mask;
	return mask;
}

/* Every attribute flag the headers define. */
static inline __u64 statx_known_attrs(void)
{
	__u64 attrs = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(statx_attrs); i++)
		attrs |= statx_attrs[i];
	return attrs;
}

/* Did a result with stx_mask @got fill @f? */
static inline bool statx_field_valid(const struct statx_field *f,
				     unsigned int got)
{
	return !f->mask || (got & f->mask);
}

/* The name of the table field at byte @off, or NULL if none covers it. */
static inline const char *statx_field_at(unsigned int off)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(statx_fields); i++)
		if (off >= statx_fields[i].offset &&
		    off < statx_fields[i].offset + statx_fields[i].size)
			return statx_fields[i].name;
	return NULL;
}

/*
 * The request masks worth trying: nothing, each distinct mask of the
 * table, everything the table knows, and every bit but STATX__RESERVED
 * (bits the kernel does not know must be ignored).  Returns the count.
 */
#define STATX_MAX_MASKS (ARRAY_SIZE(statx_fields) + 3)

static inline unsigned int statx_masks(unsigned int *masks)
{
	unsigned int i, j, n = 0;

	masks[n++] = 0;
	for (i = 0; i < ARRAY_SIZE(statx_fields); i++) {
		if (!statx_fields[i].mask)
			continue;
		for (j = 0; j < n; j++)
			if (masks[j] == statx_fields[i].mask)
				break;
		if (j == n)
			masks[n++] = statx_fields[i].mask;
	}
	masks[n++] = statx_known_mask();
	masks[n++] = STATX_ALL_BITS;
	return n;
}

/*
 * Bits a filesystem may return although they were not asked for: the man
 * page says the kernel may return fields that were not requested.  These
 * are the basic stats, btime, the mount id (vfs_statx_path() sets
 * STATX_MNT_ID unless STATX_MNT_ID_UNIQUE was asked for) and the
 * subvolume.  Every other bit must be asked for.
 */
#define STATX_UNASKED_OK	(STATX_BASIC_STATS | STATX_BTIME | \
				 STATX_MNT_ID | STATX_SUBVOL)

/* Bytes that are zero unless @unless is in stx_mask (0: always zero). */
struct statx_zero_range {
	unsigned int off, len;
	unsigned int unless;
};

static const struct statx_zero_range statx_zero_ranges[] = {
	{ offsetof(struct statx, __spare0), 2, 0 },
	{ offsetof(struct statx, stx_atime.__reserved), 4, 0 },
	{ offsetof(struct statx, stx_btime), 16, STATX_BTIME },
	{ offsetof(struct statx, stx_btime.__reserved), 4, 0 },
	{ offsetof(struct statx, stx_ctime.__reserved), 4, 0 },
	{ offsetof(struct statx, stx_mtime.__reserved), 4, 0 },
	{ offsetof(struct statx, stx_dio_mem_align), 8, STATX_DIOALIGN },
	{ offsetof(struct statx, stx_subvol), 8, STATX_SUBVOL },
	{ offsetof(struct statx, stx_atomic_write_unit_min), 12,
	  STATX_WRITE_ATOMIC },
	{ offsetof(struct statx, stx_dio_read_offset_align), 4,
	  STATX_DIO_READ_ALIGN },
	{ offsetof(struct statx, stx_atomic_write_unit_max_opt), 4,
	  STATX_WRITE_ATOMIC },
	{ offsetof(struct statx, stx_io_min), 12, STATX_IO_PARAMS },
	{ offsetof(struct statx, stx_change_cookie), 8, STATX_CHANGE_COOKIE },
	{ offsetof(struct statx, stx_gen), 4, STATX_GEN },
	{ offsetof(struct statx, __spare2), 4, 0 },
	{ offsetof(struct statx, __spare3), 40, 0 },
};

static inline int statx_fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * statx_check_result - is what statx() wrote sane for a request of @req?
 * @buf: the 256 bytes statx() returned (any alignment)
 * @req: the mask that was passed to statx()
 * @why: where to describe the first problem found
 *
 * No reserved or unasked bit comes back, exactly one kind of mount id is
 * reported, every byte of a field whose bit is not in stx_mask and every
 * spare byte is zero, the attributes are within the attributes mask, the
 * file type is a real one and the nanoseconds are below one second.
 *
 * Return: 0 if sane, -1 with @why filled in otherwise.
 */
static inline int statx_check_result(const void *buf, unsigned int req,
				     char *why, size_t len)
{
	const unsigned char *p = buf;
	unsigned int got, unasked, i, j;
	struct statx stx;

	memcpy(&stx, buf, sizeof(stx));
	got = stx.stx_mask;
	if (got & STATX__RESERVED)
		return statx_fail(why, len, "stx_mask %#x has STATX__RESERVED",
				  got);
	/* Both direct I/O alignments come for either bit. */
	if (req & (STATX_DIOALIGN | STATX_DIO_READ_ALIGN))
		req |= STATX_DIOALIGN | STATX_DIO_READ_ALIGN;
	unasked = got & ~req & ~STATX_UNASKED_OK;
	if (unasked)
		return statx_fail(why, len,
				  "stx_mask %#x has %#x that was not asked for (mask %#x)",
				  got, unasked, req);
	if (!(got & STATX_MNT_ID) == !(got & STATX_MNT_ID_UNIQUE))
		return statx_fail(why, len,
				  "stx_mask %#x must have exactly one of MNT_ID and MNT_ID_UNIQUE",
				  got);
	for (i = 0; i < ARRAY_SIZE(statx_zero_ranges); i++) {
		const struct statx_zero_range *z = &statx_zero_ranges[i];

		if (z->unless & got)
			continue;
		for (j = z->off; j < z->off + z->len; j++)
			if (p[j])
				return statx_fail(why, len,
						  "byte %#x is %#x, stx_mask %#x does not cover it",
						  j, p[j], got);
	}
	if (stx.stx_attributes & ~stx.stx_attributes_mask)
		return statx_fail(why, len,
				  "stx_attributes %#llx not within stx_attributes_mask %#llx",
				  (unsigned long long)stx.stx_attributes,
				  (unsigned long long)stx.stx_attributes_mask);
	if (got & STATX_TYPE) {
		switch (stx.stx_mode & S_IFMT) {
		case S_IFREG: case S_IFDIR: case S_IFLNK: case S_IFCHR:
		case S_IFBLK: case S_IFIFO: case S_IFSOCK:
			break;
		default:
			return statx_fail(why, len, "stx_mode %#o has no file type",
					  stx.stx_mode);
		}
	}
	if (stx.stx_atime.tv_nsec >= 1000000000U ||
	    stx.stx_btime.tv_nsec >= 1000000000U ||
	    stx.stx_ctime.tv_nsec >= 1000000000U ||
	    stx.stx_mtime.tv_nsec >= 1000000000U)
		return statx_fail(why, len, "a timestamp has tv_nsec >= 1e9");
	return 0;
}

/*
 * Compare two struct statx byte for byte: NULL when they are the same,
 * else a description of the first difference.
 */
static inline const char *statx_stx_diff(const struct statx *a,
					 const struct statx *b)
{
	const unsigned char *pa = (const void *)a, *pb = (const void *)b;
	static char buf[200];
	const char *name;
	unsigned int i;

	for (i = 0; i < sizeof(*a); i++) {
		if (pa[i] == pb[i])
			continue;
		name = statx_field_at(i);
		snprintf(buf, sizeof(buf), "byte %#x (%s): %#x vs %#x", i,
			 name ?: "not a field", pa[i], pb[i]);
		return buf;
	}
	return NULL;
}

/* Compare two statx timestamps like strcmp(). */
static inline int statx_ts_cmp(const struct statx_timestamp *a,
			       const struct statx_timestamp *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

/*
 * Pseudo files and device nodes on filesystems the case mounts itself in
 * its private /tmp (after statx_private_tmp()): procfs, sysfs, debugfs
 * where it is built in, a character device node and the node of a loop
 * device of its own (4096-byte blocks, over a file on the tmpfs).  The
 * loop device's number goes to *@loop_nr for FIXTURE_TEARDOWN_PARENT.
 * Returns 0; 1 without loop devices (@why says so); -1 on an error.
 */
#define STATX_MAX_PSEUDO	12

struct statx_pseudo {
	char paths[STATX_MAX_PSEUDO][64];
	unsigned int n;
	int loop_fd;
	char status[64];	/* a procfs file */
	char bdev[64];		/* the loop device's node, on the tmpfs */
};

static inline int statx_pseudo_make(struct statx_pseudo *ps, int *loop_nr,
				    char *why, size_t len)
{
	static const char *const mounts[][2] = {
		{ "proc", "/tmp/proc" }, { "sysfs", "/tmp/sys" },
		{ "debugfs", "/tmp/debug" },
	};
	static const char *const extra[] = {
		"/tmp", "/tmp/proc/1", "/tmp/sys/kernel", "/tmp/null",
	};
	char dev[32];
	struct stat st;
	unsigned int i;
	int ret;

	memset(ps, 0, sizeof(*ps));
	ps->loop_fd = -1;
	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		if (!statx_fs_known(mounts[i][0]))
			continue;	/* debugfs: CONFIG_DEBUG_FS */
		ret = statx_mount_at(mounts[i][0], mounts[i][1], 0, NULL);
		if (ret)
			return statx_fail(why, len, "mount %s: %s",
					  mounts[i][0], strerror(-ret));
		/* Not /proc itself: its link count follows the tasks. */
		if (strcmp(mounts[i][0], "proc"))
			snprintf(ps->paths[ps->n++], 64, "%s", mounts[i][1]);
	}
	if (mknod("/tmp/null", S_IFCHR | 0666, makedev(1, 3)))
		return statx_fail(why, len, "mknod: %s", strerror(errno));
	for (i = 0; i < ARRAY_SIZE(extra); i++)
		snprintf(ps->paths[ps->n++], 64, "%s", extra[i]);
	snprintf(ps->status, sizeof(ps->status), "/tmp/proc/%d/status",
		 getpid());
	snprintf(ps->paths[ps->n++], 64, "%s", ps->status);

	if (access("/dev/loop-control", F_OK)) {
		snprintf(why, len, "no /dev/loop-control (CONFIG_BLK_DEV_LOOP)");
		return 1;
	}
	if (statx_put_file("/tmp/loop.img", NULL, 0) ||
	    truncate("/tmp/loop.img", 1 << 20))
		return statx_fail(why, len, "loop.img: %s", strerror(errno));
	ps->loop_fd = statx_loop_attach("/tmp/loop.img", 4096, loop_nr, dev,
					sizeof(dev));
	if (ps->loop_fd < 0)
		return statx_fail(why, len, "loop device: %s",
				  strerror(-ps->loop_fd));
	snprintf(ps->bdev, sizeof(ps->bdev), "/tmp/loop");
	if (fstat(ps->loop_fd, &st) ||
	    mknod(ps->bdev, S_IFBLK | 0600, st.st_rdev))
		return statx_fail(why, len, "%s: %s", ps->bdev,
				  strerror(errno));
	snprintf(ps->paths[ps->n++], 64, "%s", ps->bdev);
	return 0;
}

#endif /* __STATX_HELPERS_H */
