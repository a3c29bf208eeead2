// SPDX-License-Identifier: GPL-2.0
/*
 * Both x86 entry points of statx(2) give the same answer.  The Makefile
 * builds this program twice, as statx_compat (x86_64 system call table)
 * and statx_compat_32 (built with -m32: the i386 table, through
 * IA32_EMULATION).  Each runs the other with --statx-dump, replays the
 * requests of statx_reqs_for() through it over a pipe, and compares the
 * 256-byte results, and the errors, byte for byte with its own.  The
 * requests follow the field table in statx_helpers.h, so fields added to
 * it are compared too.  The objects are on a tmpfs of the case's own, the
 * pseudo files on filesystems it mounts, with the node of a loop device:
 * the entry point is the same code whatever the filesystem.
 */
#include "statx_reqs.h"

#include <elf.h>

#include "../kselftest_harness.h"

#define DUMP_ARG "--statx-dump"

static bool full_io(int fd, void *buf, size_t len, bool wr)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = wr ? write(fd, p, len) : read(fd, p, len);
		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

/* The other build: run each request from stdin, write results to stdout. */
static int dump_main(void)
{
	struct statx_req req;
	struct statx_res res;

	while (full_io(0, &req, sizeof(req), false)) {
		statx_req_run(&req, &res);
		if (!full_io(1, &res, sizeof(res), true))
			return 1;
	}
	return 0;
}

struct peer {
	pid_t pid;
	int req;	/* write end */
	int res;	/* read end */
};

/*
 * Find the other build next to this one and start it.  Returns 0; 1 when
 * it is not there ($(CC) builds no i386 programs) or the kernel cannot
 * run it (ENOEXEC: no CONFIG_IA32_EMULATION); -1 on an error.  @why says
 * why.
 */
static int start_peer(struct peer *peer, char *why, size_t len)
{
	int req[2], res[2], err[2], child_errno = 0;
	char self[256], other[260];
	unsigned char ident[EI_NIDENT];
	bool am64 = sizeof(long) == 8;
	ssize_t n;
	int fd;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		snprintf(why, len, "cannot read /proc/self/exe");
		return -1;
	}
	self[n] = '\0';
	if (am64) {
		snprintf(other, sizeof(other), "%s_32", self);
	} else {
		if (n < 3 || strcmp(self + n - 3, "_32")) {
			snprintf(why, len, "%s is not installed as NAME_32",
				 self);
			return -1;
		}
		snprintf(other, sizeof(other), "%.*s", (int)n - 3, self);
	}
	fd = open(other, O_RDONLY);
	if (fd < 0) {
		snprintf(why, len, "no %d-bit build at %s (%s)",
			 am64 ? 32 : 64, other,
			 "the compiler builds no i386 programs");
		return 1;
	}
	n = read(fd, ident, sizeof(ident));
	close(fd);
	if (n != sizeof(ident) || memcmp(ident, ELFMAG, SELFMAG) ||
	    ident[EI_CLASS] != (am64 ? ELFCLASS32 : ELFCLASS64)) {
		snprintf(why, len, "%s is not a %d-bit ELF program", other,
			 am64 ? 32 : 64);
		return -1;
	}

	if (pipe(req) || pipe(res) || pipe2(err, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return -1;
	}
	peer->pid = fork();
	if (peer->pid == 0) {
		char *const argv[] = { other, DUMP_ARG, NULL };

		dup2(req[0], 0);
		dup2(res[1], 1);
		close(req[0]);
		close(req[1]);
		close(res[0]);
		close(res[1]);
		close(err[0]);
		execv(other, argv);
		child_errno = errno;
		n = write(err[1], &child_errno, sizeof(child_errno));
		_exit(127);
	}
	close(req[0]);
	close(res[1]);
	close(err[1]);
	n = read(err[0], &child_errno, sizeof(child_errno));
	close(err[0]);
	if (peer->pid < 0 || n > 0) {
		close(req[1]);
		close(res[0]);
		if (peer->pid > 0)
			waitpid(peer->pid, NULL, 0);
		snprintf(why, len, "cannot run %s: %s%s", other,
			 strerror(child_errno), child_errno == ENOEXEC ?
			 " (CONFIG_IA32_EMULATION)" : "");
		return child_errno == ENOEXEC ? 1 : -1;
	}
	peer->req = req[1];
	peer->res = res[0];
	return 0;
}

static void stop_peer(struct peer *peer)
{
	int status;

	close(peer->req);
	close(peer->res);
	waitpid(peer->pid, &status, 0);
}

/* Run @q here and in the other build; every result must match. */
static void compare(struct __test_metadata *_metadata,
		    const struct statx_reqs *q)
{
	struct statx_res mine, theirs;
	unsigned int i, errors = 0, failed = 0;
	struct peer peer;
	const char *diff;
	char why[512];
	int ret;

	ret = start_peer(&peer, why, sizeof(why));
	if (ret > 0)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(0, ret) {
		TH_LOG("%s", why);
	}
	for (i = 0; i < q->n; i++) {
		ASSERT_TRUE(full_io(peer.req, (void *)&q->r[i],
				    sizeof(q->r[i]), true));
		ASSERT_TRUE(full_io(peer.res, &theirs, sizeof(theirs), false));
		statx_req_run(&q->r[i], &mine);
		if (mine.ret)
			errors++;
		diff = statx_res_diff(&mine, &theirs);
		if (!diff)
			continue;
		failed++;
		TH_LOG("%s: %s", statx_req_str(&q->r[i]), diff);
	}
	stop_peer(&peer);
	EXPECT_EQ(0, failed);
	EXPECT_LE(STATX_REQ_ERRORS, errors);
	TH_LOG("%u requests, %u errors, identical in both builds", q->n,
	       errors);
}

FIXTURE(compat) {
	struct statx_reqs q;
	struct statx_pseudo ps;
	int loop_nr;
	int fd;
};

FIXTURE_SETUP(compat)
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
	statx_reqs_for(&self->q, paths, n, self->fd, true);
}

FIXTURE_TEARDOWN_PARENT(compat)
{
	statx_loop_remove(self->loop_nr);
}

TEST_F(compat, same_results)
{
	compare(_metadata, &self->q);
}

TEST_F(compat, pseudo_files)
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
	statx_reqs_for(&self->q, self->ps.paths, self->ps.n, fd, true);
	compare(_metadata, &self->q);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], DUMP_ARG))
		return dump_main();
	return test_harness_run(argc, argv);
}
