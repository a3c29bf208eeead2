/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the change cookie and generation selftests: where the fields
 * are, whether the running kernel returns them, timestamps and the coarse
 * clock, one io_uring request, and the inode number and generation inside
 * a file handle.
 */
#ifndef STATX_COOKIE_H
#define STATX_COOKIE_H

#include "statx_helpers.h"

#include <assert.h>
#include <stdint.h>
#include <sys/mman.h>
#include <linux/io_uring.h>

/* Building against uapi headers older than the kernel under test. */
#ifndef STATX_GEN
#define STATX_GEN		0x00100000U
#define STATX_CHANGE_COOKIE	0x00080000U
#define STATX_ATTR_CHANGE_MONOTONIC 0x8000000000000000ULL
#define STX_COOKIE_OFF		0xc8
#define STX_GEN_OFF		0xd0
#else
#define STX_COOKIE_OFF		offsetof(struct statx, stx_change_cookie)
#define STX_GEN_OFF		offsetof(struct statx, stx_gen)
static_assert(offsetof(struct statx, stx_change_cookie) == 0xc8,
	      "stx_change_cookie is at 0xc8");
static_assert(offsetof(struct statx, stx_gen) == 0xd0, "stx_gen is at 0xd0");
static_assert(sizeof(struct statx) == 0x100, "struct statx is 256 bytes");
#endif

#ifndef FS_IOC_GETVERSION
#define FS_IOC_GETVERSION	_IOR('v', 1, long)
#endif

static inline __u64 stx_u64(const struct statx *stx, size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)stx + off, sizeof(v));
	return v;
}

static inline __u32 stx_u32(const struct statx *stx, size_t off)
{
	__u32 v;

	memcpy(&v, (const char *)stx + off, sizeof(v));
	return v;
}

static inline __u64 cookie_of(const struct statx *stx)
{
	return stx_u64(stx, STX_COOKIE_OFF);
}

static inline __u32 gen_of(const struct statx *stx)
{
	return stx_u32(stx, STX_GEN_OFF);
}

/*
 * Does the running kernel return @bit to userspace?  A memfd lives on the
 * kernel's internal tmpfs mount, which keeps both a change counter and a
 * generation whenever the kernel has the feature.
 */
static inline bool kernel_returns(unsigned int bit)
{
	struct statx stx;
	int fd, ret;

	fd = memfd_create("statx_cookie", 0);
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
static inline int set_times(const char *path, long long asec, long ansec,
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
static inline void next_tick(void)
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

/* What uring_one() returns when io_uring cannot be set up (errno says why). */
#define NO_URING	INT_MIN

/*
 * One request through io_uring's raw system calls: one SQE, one CQE.
 * Returns the result of the operation (its cqe->res), or NO_URING.
 */
static inline int uring_one(const struct io_uring_sqe *req)
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

	sqes[0] = *req;
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

/* IORING_OP_STATX: 0, a negative errno, or NO_URING. */
static inline int uring_statx(int dfd, const char *path, int flags,
			      unsigned int mask, struct statx *stx)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_STATX,
		.fd = dfd,
		.addr = (unsigned long)path,
		.len = mask,
		.addr2 = (unsigned long)stx,
		.statx_flags = flags,
	};

	return uring_one(&sqe);
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
static inline bool handle_ino_gen(const char *path,
				  enum handle_layout layout, __u64 *ino,
				  __u32 *gen)
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

#endif /* STATX_COOKIE_H */
