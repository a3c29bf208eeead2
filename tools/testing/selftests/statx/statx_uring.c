// SPDX-License-Identifier: GPL-2.0
/*
 * IORING_OP_STATX gives the same answer as statx(2).  Every request of
 * statx_reqs() (each mask of the field table in statx_helpers.h, the sync
 * and symlink flags, AT_EMPTY_PATH on a descriptor, the argument errors)
 * goes through the system call and through an io_uring set up here with
 * the raw system calls, into buffers filled with the same poison byte;
 * the 256 bytes and the error must be the same.
 *
 * Left out: a NULL path with AT_EMPTY_PATH.  The system call takes it
 * since 6.11; io_uring reads the path with delayed_getname_uflags(), for
 * which NULL is a bad address.
 */
#include "statx_helpers.h"

#include <stdint.h>
#include <linux/io_uring.h>

#include "../kselftest_harness.h"

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif

struct ring {
	int fd;
	void *sq, *cq;
	size_t sq_len, cq_len, sqes_len;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* Set up a ring of @entries; 0 or -errno. */
static int ring_setup(struct ring *r, unsigned int entries)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	memset(r, 0, sizeof(*r));
	r->fd = syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -errno;

	r->sq_len = p.sq_off.array + p.sq_entries * sizeof(__u32);
	r->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->sq = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	r->cq = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sq == MAP_FAILED || r->cq == MAP_FAILED ||
	    r->sqes == MAP_FAILED)
		return -errno;

	r->sq_tail = (unsigned int *)((char *)r->sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)((char *)r->sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)((char *)r->sq + p.sq_off.array);
	r->cq_head = (unsigned int *)((char *)r->cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)((char *)r->cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)((char *)r->cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)((char *)r->cq + p.cq_off.cqes);
	return 0;
}

static void ring_free(struct ring *r)
{
	if (r->sqes && r->sqes != MAP_FAILED)
		munmap(r->sqes, r->sqes_len);
	if (r->cq && r->cq != MAP_FAILED)
		munmap(r->cq, r->cq_len);
	if (r->sq && r->sq != MAP_FAILED)
		munmap(r->sq, r->sq_len);
	if (r->fd >= 0)
		close(r->fd);
}

/*
 * Submit @req as IORING_OP_STATX and wait for it.  Returns false if the
 * ring failed; else the completion's result is in @res.
 */
static bool ring_statx(struct ring *r, const struct statx_req *req,
		       struct statx_res *res)
{
	unsigned int tail, head, idx;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;

	memset(res, 0, sizeof(*res));
	memset(&res->stx, STATX_POISON, sizeof(res->stx));

	tail = *r->sq_tail;
	idx = tail & *r->sq_mask;
	sqe = &r->sqes[idx];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_STATX;
	sqe->fd = req->dfd;
	sqe->addr = (uintptr_t)statx_req_path(req);
	sqe->len = req->mask;
	sqe->addr2 = (uintptr_t)statx_req_buf(req, &res->stx);
	sqe->statx_flags = req->flags;
	sqe->user_data = 0x5747;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);

	if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) != 1)
		return false;
	head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return false;
	cqe = &r->cqes[head & *r->cq_mask];
	if (cqe->user_data != 0x5747)
		return false;
	res->ret = cqe->res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return true;
}

/*
 * io_uring registers its sysctl when it is built in: without the sysctl
 * there is no io_uring.
 */
static bool uring_missing(void)
{
	return access("/proc/sys/kernel/io_uring_disabled", F_OK) &&
	       !access("/proc/sys/kernel", F_OK);
}

static void compare(struct __test_metadata *_metadata,
		    const struct statx_req *reqs, unsigned int n)
{
	struct statx_res sys, uring;
	unsigned int i, failed = 0, errors = 0;
	const char *diff;
	struct ring r;
	int ret;

	ret = ring_setup(&r, 4);
	if (ret && uring_missing())
		STATX_SKIP(return, "no io_uring in this kernel (CONFIG_IO_URING=n)");
	if (ret == -EPERM)
		STATX_SKIP(return, "io_uring disabled (sysctl kernel.io_uring_disabled)");
	ASSERT_EQ(0, ret) {
		TH_LOG("io_uring_setup: %s", strerror(-ret));
	}
	for (i = 0; i < n; i++) {
		statx_req_run(&reqs[i], &sys);
		ASSERT_TRUE(ring_statx(&r, &reqs[i], &uring)) {
			TH_LOG("io_uring_enter: %s", strerror(errno));
		}
		if (sys.ret)
			errors++;
		diff = statx_res_diff(&sys, &uring);
		if (!diff)
			continue;
		failed++;
		TH_LOG("%s: %s (syscall vs io_uring)",
		       statx_req_str(&reqs[i]), diff);
	}
	ring_free(&r);
	EXPECT_EQ(0, failed);
	EXPECT_LE(6, errors);
	TH_LOG("%u requests, %u errors, identical through io_uring", n,
	       errors);
}

FIXTURE(uring) {
	struct statx_objects o;
};

FIXTURE_VARIANT(uring) {
	const struct statx_fs *fs;
};

FIXTURE_VARIANT_ADD(uring, tmpfs) { .fs = STATX_FS(TMPFS) };
FIXTURE_VARIANT_ADD(uring, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(uring, ext4_lbs4k) { .fs = STATX_FS(EXT4_LBS4K) };
FIXTURE_VARIANT_ADD(uring, xfs) { .fs = STATX_FS(XFS) };
FIXTURE_VARIANT_ADD(uring, btrfs) { .fs = STATX_FS(BTRFS) };
FIXTURE_VARIANT_ADD(uring, vfat) { .fs = STATX_FS(VFAT) };
FIXTURE_VARIANT_ADD(uring, msdos) { .fs = STATX_FS(MSDOS) };
FIXTURE_VARIANT_ADD(uring, exfat) { .fs = STATX_FS(EXFAT) };
FIXTURE_VARIANT_ADD(uring, ntfs3) { .fs = STATX_FS(NTFS3) };

FIXTURE_SETUP(uring)
{
	int ret = statx_objects_make(&self->o, variant->fs, "uring", false);

	if (ret > 0)
		STATX_SKIP(return, "%s", self->o.why);
	ASSERT_EQ(0, ret) {
		TH_LOG("%s", self->o.why);
	}
}

FIXTURE_TEARDOWN(uring)
{
	statx_objects_free(&self->o);
}

TEST_F(uring, same_results)
{
	compare(_metadata, self->o.reqs, self->o.nreqs);
}

TEST(pseudo_files)
{
	struct statx_req *reqs;
	unsigned int n;
	int fd;

	reqs = calloc(STATX_MAX_REQS, sizeof(*reqs));
	ASSERT_TRUE(!!reqs);
	n = statx_pseudo_reqs(reqs, "/proc/self/status", &fd, false);
	compare(_metadata, reqs, n);
	free(reqs);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
