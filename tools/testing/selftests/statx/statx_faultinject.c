// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) and statx_dir(2) under injected allocation failures, on a
 * tmpfs of the case's own: the errno table under ENOMEM, and statx_dir's
 * per-record d_error.  Needs CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB,
 * CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAULT_INJECTION_DEBUG_FS (see
 * Documentation/fault-injection/fault-injection.rst), and skips, naming
 * them, without their debugfs directories.
 *
 * Every allocation site of one call fails in turn, through
 * /proc/thread-self/fail-nth (the n-th fault-injection point in the task
 * fails), with failslab and fail_page_alloc taking GFP_KERNEL and order-0
 * requests.  A fresh name that does not exist gives ENOENT or ENOMEM, an
 * existing file 0 or ENOMEM; nothing else, and a failed lookup leaves no
 * wrong dentry behind: the file is found again once injection stops.  A
 * file found is recognised by its size (file eN holds N + 1 bytes) and
 * its inode number.  statx_dir() fails with ENOMEM only, or gives records
 * with d_error -ENOMEM or the right attributes.
 *
 * The debugfs knobs are restored afterwards.
 */
#define _FILE_OFFSET_BITS 64
#include "statx_helpers.h"
#include "../kselftest_harness.h"

#define DEBUGFS		"/tmp/debug"
#define NR_EXISTING	8
#define MAX_NTH		4000

static const char *const knob_files[] = {
	"failslab/probability", "failslab/interval", "failslab/times",
	"failslab/space", "failslab/verbose", "failslab/task-filter",
	"failslab/ignore-gfp-wait", "failslab/cache-filter",
	"fail_page_alloc/probability", "fail_page_alloc/interval",
	"fail_page_alloc/times", "fail_page_alloc/space",
	"fail_page_alloc/verbose", "fail_page_alloc/task-filter",
	"fail_page_alloc/ignore-gfp-wait", "fail_page_alloc/ignore-gfp-highmem",
	"fail_page_alloc/min-order",
};

#define NR_KNOBS	ARRAY_SIZE(knob_files)

static int knob_write(const char *knob, const char *val)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), DEBUGFS "/%s", knob);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -1;
	close(fd);
	return ret;
}

static int knob_read(const char *knob, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), DEBUGFS "/%s", knob);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Both capabilities, each set to @prob percent of the eligible calls. */
static int knobs_aim(const char *prob)
{
	static const char *const dirs[] = { "failslab", "fail_page_alloc" };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < 2; i++) {
		char k[64];

#define SET(name, val) do { \
		snprintf(k, sizeof(k), "%s/" name, dirs[i]); \
		ret |= knob_write(k, val); \
	} while (0)
		SET("probability", "0");	/* first: quiet while changing */
		SET("interval", "1");
		SET("times", "-1");
		SET("space", "0");
		SET("verbose", "0");
		SET("task-filter", "Y");
		/* GFP_KERNEL allocations are the ones path lookup makes. */
		SET("ignore-gfp-wait", "N");
		SET("probability", prob);
#undef SET
	}
	ret |= knob_write("failslab/cache-filter", "N");
	ret |= knob_write("fail_page_alloc/ignore-gfp-highmem", "N");
	ret |= knob_write("fail_page_alloc/min-order", "0");
	return ret;
}

static int write_num(int fd, unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -1;
}

struct fi_state {
	char dir[PATH_MAX];
	int dirfd;
	int nth;		/* /proc/thread-self/fail-nth */
	uint64_t ino[NR_EXISTING];
	unsigned int fresh;	/* counter for names never created */
	char saved[NR_KNOBS][64];
	bool have_saved[NR_KNOBS];
	bool ready;
	/* outcomes: [0] fresh name, [1] existing file */
	unsigned long ok[2], enoent[2], enomem[2], calls[2];
};

FIXTURE(fi) {
	struct fi_state s;
};

FIXTURE_SETUP(fi)
{
	struct fi_state *s = &self->s;
	char name[16];
	unsigned int i;

	s->dirfd = -1;
	s->nth = -1;
	if (!statx_private_tmp(_metadata))
		return;
	if (!statx_fs_known("debugfs"))
		STATX_SKIP(return, "no debugfs (CONFIG_DEBUG_FS)");
	ASSERT_EQ(0, statx_mount_at("debugfs", DEBUGFS, 0, NULL));
	if (access(DEBUGFS "/failslab", F_OK))
		STATX_SKIP(return,
			   "no failslab in debugfs (CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)");
	if (access(DEBUGFS "/fail_page_alloc", F_OK))
		STATX_SKIP(return,
			   "no fail_page_alloc in debugfs (CONFIG_FAIL_PAGE_ALLOC)");
	snprintf(s->dir, sizeof(s->dir), "/tmp/fi");
	ASSERT_EQ(0, mkdir(s->dir, 0755));

	for (i = 0; i < NR_KNOBS; i++)
		s->have_saved[i] = !knob_read(knob_files[i], s->saved[i],
						 sizeof(s->saved[i]));
	s->ready = true;

	s->dirfd = open(s->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, s->dirfd);
	for (i = 0; i < NR_EXISTING; i++) {
		struct stat st;
		int fd;

		snprintf(name, sizeof(name), "e%u", i);
		fd = openat(s->dirfd, name, O_CREAT | O_EXCL | O_WRONLY,
			    0644);
		ASSERT_LE(0, fd);
		ASSERT_EQ(i + 1, write(fd, "eeeeeeeeeeeeeeee", i + 1));
		ASSERT_EQ(0, fstat(fd, &st));
		s->ino[i] = st.st_ino;
		ASSERT_EQ(0, close(fd));
	}
	/* There with CONFIG_FAULT_INJECTION, which failslab needs. */
	s->nth = open("/proc/thread-self/fail-nth", O_RDWR);
	ASSERT_LE(0, s->nth);
}

FIXTURE_TEARDOWN(fi)
{
	struct fi_state *s = &self->s;
	unsigned int i;

	if (s->nth >= 0) {
		write_num(s->nth, 0);
		close(s->nth);
	}
	if (s->ready) {
		/* Quiet first, then everything as it was. */
		knob_write("failslab/probability", "0");
		knob_write("fail_page_alloc/probability", "0");
		for (i = 0; i < NR_KNOBS; i++)
			if (s->have_saved[i])
				knob_write(knob_files[i], s->saved[i]);
	}
	/* The files go with the case's mount namespace. */
	if (s->dirfd >= 0)
		close(s->dirfd);
}

/* Is @stx file @e? */
static bool is_file(struct fi_state *s, int e, const struct statx *stx)
{
	return S_ISREG(stx->stx_mode) && stx->stx_size == (uint64_t)e + 1 &&
	       stx->stx_ino == s->ino[e];
}

/*
 * One call's outcome: for a fresh name ENOENT or ENOMEM, for existing
 * file @e 0 (and that file) or ENOMEM.  After a failure the file must be
 * found again without injection.
 */
static void check_outcome(struct __test_metadata *_metadata,
			  struct fi_state *s, int e, const char *name,
			  int ret, int err, const struct statx *stx,
			  const char *how)
{
	int k = e >= 0;
	char why[256];

	s->calls[k]++;
	if (!ret) {
		s->ok[k]++;
		EXPECT_TRUE(k) TH_LOG("%s: statx(%s) of a name never created succeeded",
				      how, name);
		if (!k)
			return;
		EXPECT_TRUE(is_file(s, e, stx))
			TH_LOG("%s: statx(%s) found inode %llu, mode %#o, size %llu",
			       how, name, (unsigned long long)stx->stx_ino,
			       stx->stx_mode, (unsigned long long)stx->stx_size);
		EXPECT_EQ(0, statx_check_result(stx, STATX_ALL_BITS, why,
						sizeof(why)))
			TH_LOG("%s: statx(%s): %s", how, name, why);
		return;
	}
	if (err == ENOENT && !k) {
		s->enoent[k]++;
		return;
	}
	if (err == ENOMEM)
		s->enomem[k]++;
	else
		EXPECT_EQ(0, err) TH_LOG("%s: statx(%s): %s, expected %s or ENOMEM",
					 how, name, strerror(err),
					 k ? "success" : "ENOENT");
	if (k) {
		struct statx again;

		ASSERT_EQ(0, sys_statx(s->dirfd, name, 0, STATX_BASIC_STATS,
				       &again))
			TH_LOG("%s: %s lost after an injected failure: %m",
			       how, name);
		EXPECT_TRUE(is_file(s, e, &again))
			TH_LOG("%s: after a failure %s is inode %llu, size %llu",
			       how, name, (unsigned long long)again.stx_ino,
			       (unsigned long long)again.stx_size);
	}
}

static void print_outcomes(struct fi_state *s)
{
	ksft_print_msg("fresh names: %lu calls, %lu ENOENT, %lu ENOMEM\n",
		       s->calls[0], s->enoent[0], s->enomem[0]);
	ksft_print_msg("existing files: %lu calls, %lu found, %lu ENOMEM\n",
		       s->calls[1], s->ok[1], s->enomem[1]);
}

TEST_F_TIMEOUT(fi, fail_nth, 120)
{
	struct fi_state *s = &self->s;
	unsigned int sites[2] = { 0, 0 }, k, n;
	char name[16], left[16];

	/* Only fail_nth decides; the probabilities stay 0. */
	ASSERT_EQ(0, knobs_aim("0"));

	for (k = 0; k < 2; k++) {
		for (n = 1; n <= MAX_NTH; n++) {
			struct statx stx;
			int e = -1, ret, err;
			ssize_t len;

			if (k) {
				e = n % NR_EXISTING;
				snprintf(name, sizeof(name), "e%d", e);
			} else {
				snprintf(name, sizeof(name), "q%06u",
					 s->fresh++ % 1000000);
			}
			ASSERT_EQ(0, write_num(s->nth, n));
			ret = sys_statx(s->dirfd, name, 0, STATX_ALL_BITS,
					&stx);
			err = errno;
			len = pread(s->nth, left, sizeof(left) - 1, 0);
			write_num(s->nth, 0);
			ASSERT_LT(0, len);
			left[len] = 0;
			check_outcome(_metadata, s, e, name, ret, err, &stx,
				      "fail-nth");
			/* Fewer than n injection points: every one was hit. */
			if (atoi(left) > 0) {
				sites[k] = n - 1;
				break;
			}
		}
		EXPECT_GT(MAX_NTH, n) TH_LOG("more than %d allocations in one statx()",
					     MAX_NTH);
	}
	ksft_print_msg("fail-nth: %u injection points (fresh name), %u (existing file)\n",
		       sites[0], sites[1]);
	print_outcomes(s);
	/* The path name buffer is the first allocation: it must fail. */
	EXPECT_LT(0, s->enomem[0]);
}

/*
 * Check one statx_dir() listing of the test directory, @ret bytes in @buf
 * or -1 with @err: the call fails with ENOMEM only, and each record of a
 * file eN has ENOMEM or the attributes of that file.  Returns the number
 * of records with ENOMEM; the number of files eN listed in *@found.
 */
static unsigned int check_listing(struct __test_metadata *_metadata,
				  struct fi_state *s, const char *buf,
				  ssize_t ret, int err, unsigned int *found)
{
	unsigned int enomem = 0;
	ssize_t pos = 0;

	*found = 0;
	if (ret < 0) {
		EXPECT_EQ(ENOMEM, err) TH_LOG("statx_dir(): %s", strerror(err));
		return 0;
	}
	while (pos < ret) {
		const struct statx_dirent *d = (const void *)(buf + pos);
		int e;

		pos += d->d_reclen;
		if (d->d_error) {
			EXPECT_EQ(-ENOMEM, d->d_error) TH_LOG("%s", d->d_name);
			enomem++;
			continue;
		}
		if (sscanf(d->d_name, "e%d", &e) != 1)
			continue;
		ASSERT_GT(NR_EXISTING, e);
		(*found)++;
		EXPECT_TRUE(is_file(s, e, &d->d_stx))
			TH_LOG("%s: inode %llu, mode %#o, size %llu", d->d_name,
			       (unsigned long long)d->d_stx.stx_ino,
			       d->d_stx.stx_mode,
			       (unsigned long long)d->d_stx.stx_size);
	}
	return enomem;
}

/*
 * statx_dir() of the directory, failing each allocation in turn: ENOMEM
 * for the call or for some entries, never a wrong record, and the next
 * listing complete.
 */
TEST_F_TIMEOUT(fi, statx_dir_fail_nth, 120)
{
	struct fi_state *s = &self->s;
	unsigned int n, found, calls = 0, entries = 0;
	static char buf[65536];
	char left[16];

	ASSERT_EQ(0, knobs_aim("0"));
	for (n = 1; n <= MAX_NTH; n++) {
		ssize_t ret, len;
		int err;

		ASSERT_EQ(0, lseek(s->dirfd, 0, SEEK_SET));
		ASSERT_EQ(0, write_num(s->nth, n));
		ret = sys_statx_dir(s->dirfd, buf, sizeof(buf),
				    STATX_BASIC_STATS, 0);
		err = errno;
		len = pread(s->nth, left, sizeof(left) - 1, 0);
		write_num(s->nth, 0);
		ASSERT_LT(0, len);
		left[len] = 0;
		if (ret < 0)
			calls++;
		entries += check_listing(_metadata, s, buf, ret, err, &found);

		/* Without injection, every file is back. */
		ASSERT_EQ(0, lseek(s->dirfd, 0, SEEK_SET));
		ret = sys_statx_dir(s->dirfd, buf, sizeof(buf),
				    STATX_BASIC_STATS, 0);
		ASSERT_LT(0, ret) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(0, check_listing(_metadata, s, buf, ret, 0, &found));
		EXPECT_EQ(NR_EXISTING, found);
		if (atoi(left) > 0)
			break;
	}
	EXPECT_GT(MAX_NTH, n);
	ksft_print_msg("statx_dir fail-nth: %u points, ENOMEM %u calls, %u entries\n",
		       n - 1, calls, entries);
	/* At least the names' buffer was allocated. */
	EXPECT_LT(0, n - 1);
}

TEST_HARNESS_MAIN
