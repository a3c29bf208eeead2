// SPDX-License-Identifier: GPL-2.0
/*
 * Both x86 entry points of statx(2) give the same answer.  The harness
 * installs this program twice, as statx_compat (x86_64 system call table)
 * and statx_compat_32 (built with -m32: the i386 table, through
 * IA32_EMULATION).  Each runs the other with --statx-dump, replays the
 * requests of statx_reqs() through it over a pipe, and compares the
 * 256-byte results, and the errors, byte for byte with its own.  The
 * requests follow the field table in statx_helpers.h, so fields added to
 * it are compared too.
 */
#include "statx_helpers.h"

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
 * Find the other build next to this one and start it.  Returns false,
 * with @why set, if there is none or it cannot run here.
 */
static bool start_peer(struct peer *peer, char *why, size_t len)
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
		return false;
	}
	self[n] = '\0';
	if (am64) {
		snprintf(other, sizeof(other), "%s_32", self);
	} else {
		if (n < 3 || strcmp(self + n - 3, "_32")) {
			snprintf(why, len, "%s is not installed as NAME_32",
				 self);
			return false;
		}
		snprintf(other, sizeof(other), "%.*s", (int)n - 3, self);
	}
	fd = open(other, O_RDONLY);
	if (fd < 0) {
		snprintf(why, len, "no %d-bit build at %s", am64 ? 32 : 64,
			 other);
		return false;
	}
	n = read(fd, ident, sizeof(ident));
	close(fd);
	if (n != sizeof(ident) || memcmp(ident, ELFMAG, SELFMAG) ||
	    ident[EI_CLASS] != (am64 ? ELFCLASS32 : ELFCLASS64)) {
		snprintf(why, len, "%s is not a %d-bit ELF program", other,
			 am64 ? 32 : 64);
		return false;
	}

	if (pipe(req) || pipe(res) || pipe2(err, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return false;
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
			 strerror(child_errno),
			 child_errno == ENOEXEC ?
			 " (no IA32_EMULATION?)" : "");
		return false;
	}
	peer->req = req[1];
	peer->res = res[0];
	return true;
}

static void stop_peer(struct peer *peer)
{
	int status;

	close(peer->req);
	close(peer->res);
	waitpid(peer->pid, &status, 0);
}

/* Run @reqs here and in the other build; every result must match. */
static void compare(struct __test_metadata *_metadata,
		    const struct statx_req *reqs, unsigned int n)
{
	struct statx_res mine, theirs;
	struct peer peer;
	const char *diff;
	char why[512];
	unsigned int i, errors = 0, failed = 0;

	if (!start_peer(&peer, why, sizeof(why)))
		STATX_SKIP(return, "%s", why);
	for (i = 0; i < n; i++) {
		ASSERT_TRUE(full_io(peer.req, (void *)&reqs[i], sizeof(reqs[i]),
				    true));
		ASSERT_TRUE(full_io(peer.res, &theirs, sizeof(theirs), false));
		statx_req_run(&reqs[i], &mine);
		if (mine.ret)
			errors++;
		diff = statx_res_diff(&mine, &theirs);
		if (!diff)
			continue;
		failed++;
		TH_LOG("%s: %s", statx_req_str(&reqs[i]), diff);
	}
	stop_peer(&peer);
	EXPECT_EQ(0, failed);
	/* The error cases of statx_reqs() came back as errors. */
	EXPECT_LE(6, errors);
	TH_LOG("%u requests, %u errors, identical in both builds", n, errors);
}

FIXTURE(compat) {
	struct statx_objects o;
};

FIXTURE_VARIANT(compat) {
	const struct statx_fs *fs;
};

FIXTURE_VARIANT_ADD(compat, tmpfs) { .fs = STATX_FS(TMPFS) };
FIXTURE_VARIANT_ADD(compat, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(compat, ext4_lbs4k) { .fs = STATX_FS(EXT4_LBS4K) };
FIXTURE_VARIANT_ADD(compat, xfs) { .fs = STATX_FS(XFS) };
FIXTURE_VARIANT_ADD(compat, btrfs) { .fs = STATX_FS(BTRFS) };
FIXTURE_VARIANT_ADD(compat, vfat) { .fs = STATX_FS(VFAT) };
FIXTURE_VARIANT_ADD(compat, msdos) { .fs = STATX_FS(MSDOS) };
FIXTURE_VARIANT_ADD(compat, exfat) { .fs = STATX_FS(EXFAT) };
FIXTURE_VARIANT_ADD(compat, ntfs3) { .fs = STATX_FS(NTFS3) };

FIXTURE_SETUP(compat)
{
	int ret = statx_objects_make(&self->o, variant->fs, "compat", true);

	if (ret > 0)
		STATX_SKIP(return, "%s", self->o.why);
	ASSERT_EQ(0, ret) {
		TH_LOG("%s", self->o.why);
	}
}

FIXTURE_TEARDOWN(compat)
{
	statx_objects_free(&self->o);
}

TEST_F(compat, same_results)
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
	n = statx_pseudo_reqs(reqs, "/proc/1/status", &fd, true);
	compare(_metadata, reqs, n);
	free(reqs);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], DUMP_ARG))
		return dump_main();
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
