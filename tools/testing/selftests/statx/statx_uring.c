// SPDX-License-Identifier: GPL-2.0
/*
 * IORING_OP_STATX gives the same answer as statx(2).  Every request of
 * statx_reqs_for() (each mask of the field table in statx_helpers.h, the
 * sync and symlink flags, AT_EMPTY_PATH on a descriptor, the argument
 * errors) goes through the system call and through io_uring, into
 * buffers filled with the same poison byte; the 256 bytes and the error
 * must be the same.  The objects are on a tmpfs of the case's own, the
 * pseudo files on filesystems it mounts, with the node of a loop device.
 *
 * Left out: a NULL path with AT_EMPTY_PATH, which io_uring reads with
 * delayed_getname_uflags(), for which NULL is a bad address.
 */
#include "statx_reqs.h"
#include "../kselftest_harness.h"

static void compare(struct __test_metadata *_metadata,
		    const struct statx_reqs *q)
{
	struct statx_res sys, uring;
	unsigned int i, failed = 0, errors = 0;
	const char *diff, *missing;

	for (i = 0; i < q->n; i++) {
		const struct statx_req *r = &q->r[i];
		int ret;

		statx_req_run(r, &sys);
		memset(&uring, 0, sizeof(uring));
		memset(&uring.stx, STATX_POISON, sizeof(uring.stx));
		ret = statx_uring_statx(r->dfd, statx_req_path(r), r->flags,
					r->mask, statx_req_buf(r, &uring.stx));
		missing = statx_uring_missing(ret);
		if (missing)
			STATX_SKIP(return, "%s", missing);
		ASSERT_LT(STATX_NO_URING, ret) {
			TH_LOG("io_uring: %s", strerror(STATX_NO_URING - ret));
		}
		uring.ret = ret;
		if (sys.ret)
			errors++;
		diff = statx_res_diff(&sys, &uring);
		if (!diff)
			continue;
		failed++;
		TH_LOG("%s: %s (syscall vs io_uring)", statx_req_str(r), diff);
	}
	EXPECT_EQ(0, failed);
	EXPECT_LE(STATX_REQ_ERRORS, errors);
	TH_LOG("%u requests, %u errors, identical through io_uring", q->n,
	       errors);
}

FIXTURE(uring) {
	struct statx_reqs q;
	struct statx_pseudo ps;
	int loop_nr;
	int fd;
};

FIXTURE_SETUP(uring)
{
	char paths[5][64];
	unsigned int n;

	self->loop_nr = -1;
	self->fd = -1;
	if (!statx_private_tmp(_metadata))
		return;
	n = statx_make_objects(paths, &self->fd);
	ASSERT_LT(0, n) {
		TH_LOG("making the objects: %s", strerror(errno));
	}
	statx_reqs_for(&self->q, paths, n, self->fd, false);
}

FIXTURE_TEARDOWN_PARENT(uring)
{
	statx_loop_remove(self->loop_nr);
}

TEST_F(uring, same_results)
{
	compare(_metadata, &self->q);
}

TEST_F(uring, pseudo_files)
{
	char why[160];
	int ret, fd;

	ret = statx_pseudo_make(&self->ps, &self->loop_nr, why, sizeof(why));
	if (ret > 0)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(0, ret) {
		TH_LOG("%s", why);
	}
	fd = open(self->ps.status, O_RDONLY);
	ASSERT_LE(0, fd);
	self->q.n = 0;
	statx_reqs_for(&self->q, self->ps.paths, self->ps.n, fd, false);
	compare(_metadata, &self->q);
	close(fd);
}

TEST_HARNESS_MAIN
