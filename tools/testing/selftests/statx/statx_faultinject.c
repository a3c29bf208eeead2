// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) under injected allocation failures, on each filesystem the
 * program makes in a mount namespace of its own.  Needs CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB,
 * CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAULT_INJECTION_DEBUG_FS (see
 * Documentation/fault-injection/fault-injection.rst); skipped without
 * them.
 *
 * Two kinds of lookup must allocate: a fresh name that does not exist
 * (a negative dentry) and an existing file whose dentry and inode were
 * just evicted (drop_caches).  Under injection a fresh name gives ENOENT
 * or ENOMEM, an existing file 0 or ENOMEM; nothing else, and a failed
 * lookup must not leave a wrong (negative) dentry behind: the file is
 * found again once injection stops.  A file found is recognised by its
 * size (file eN holds N + 1 bytes) and, where the filesystem keeps inode
 * numbers across eviction, by its inode number: FAT and exFAT number an
 * inode afresh each time it is read in.
 *
 * fail_nth: every allocation site of one statx() call in turn, through
 * /proc/thread-self/fail-nth (the n-th fault-injection point in the task
 * fails), with failslab and fail_page_alloc taking GFP_KERNEL and
 * order-0 requests.
 * random: failslab and fail_page_alloc aimed at this process only
 * (task-filter=Y, /proc/self/make-it-fail around each call) with a
 * probability per allocation, over a few hundred calls.
 *
 * statx_dir_fail_nth: the same for statx_dir() of the directory, whose
 * failures land in the call or in single records.
 *
 * The debugfs knobs are restored afterwards.
 */
#define _FILE_OFFSET_BITS 64
#include "statx_check.h"
#include "../kselftest_harness.h"

#define DEBUGFS		"/sys/kernel/debug"
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
	int mif;		/* /proc/self/make-it-fail */
	int drop;		/* /proc/sys/vm/drop_caches */
	uint64_t ino[NR_EXISTING];
	bool stable_ino;	/* inode numbers survive eviction */
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

FIXTURE_VARIANT(fi) {
	const struct statx_fs *fs;
	bool unstable_ino;	/* a new inode number after eviction */
};

FIXTURE_VARIANT_ADD(fi, tmpfs) { .fs = STATX_FS(TMPFS) };
FIXTURE_VARIANT_ADD(fi, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(fi, xfs) { .fs = STATX_FS(XFS) };
FIXTURE_VARIANT_ADD(fi, btrfs) { .fs = STATX_FS(BTRFS) };
FIXTURE_VARIANT_ADD(fi, vfat) { .fs = STATX_FS(VFAT), .unstable_ino = true };
FIXTURE_VARIANT_ADD(fi, msdos) { .fs = STATX_FS(MSDOS), .unstable_ino = true };
FIXTURE_VARIANT_ADD(fi, exfat) { .fs = STATX_FS(EXFAT), .unstable_ino = true };
FIXTURE_VARIANT_ADD(fi, ntfs3) { .fs = STATX_FS(NTFS3) };

FIXTURE_SETUP(fi)
{
	struct fi_state *s = &self->s;
	enum statx_verdict v;
	char name[16], why[160];
	unsigned int i;

	s->dirfd = -1;
	s->nth = -1;
	s->mif = -1;
	s->drop = -1;
	if (access(DEBUGFS "/failslab", F_OK))
		STATX_SKIP(return,
			   "no %s/failslab (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)",
			   DEBUGFS);
	if (access(DEBUGFS "/fail_page_alloc", F_OK))
		STATX_SKIP(return, "no %s/fail_page_alloc (CONFIG_FAIL_PAGE_ALLOC)",
			   DEBUGFS);
	if (geteuid())
		STATX_SKIP(return, "fault injection needs root");
	v = statx_fs_mkdtemp(variant->fs, "fi", s->dir, sizeof(s->dir), why,
			     sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);

	for (i = 0; i < NR_KNOBS; i++)
		s->have_saved[i] = !knob_read(knob_files[i], s->saved[i],
						 sizeof(s->saved[i]));
	s->ready = true;

	s->dirfd = open(s->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, s->dirfd);
	s->stable_ino = !variant->unstable_ino;
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
	s->mif = open("/proc/self/make-it-fail", O_WRONLY);
	ASSERT_LE(0, s->mif);
	s->nth = open("/proc/thread-self/fail-nth", O_RDWR);
	s->drop = open("/proc/sys/vm/drop_caches", O_WRONLY);
}

FIXTURE_TEARDOWN(fi)
{
	struct fi_state *s = &self->s;
	char name[16];
	unsigned int i;

	if (s->mif >= 0) {
		write_num(s->mif, 0);
		close(s->mif);
	}
	if (s->nth >= 0) {
		write_num(s->nth, 0);
		close(s->nth);
	}
	if (s->drop >= 0)
		close(s->drop);
	if (s->ready) {
		/* Quiet first, then everything as it was. */
		knob_write("failslab/probability", "0");
		knob_write("fail_page_alloc/probability", "0");
		for (i = 0; i < NR_KNOBS; i++)
			if (s->have_saved[i])
				knob_write(knob_files[i], s->saved[i]);
	}
	if (s->dirfd >= 0) {
		for (i = 0; i < NR_EXISTING; i++) {
			snprintf(name, sizeof(name), "e%u", i);
			unlinkat(s->dirfd, name, 0);
		}
		close(s->dirfd);
		rmdir(s->dir);
	}
}

/* Evict the unused dentries and inodes, so the next lookup allocates. */
static void drop_dentries(struct fi_state *s)
{
	if (s->drop >= 0 && pwrite(s->drop, "2", 1, 0) != 1)
		s->drop = -1;
}

/* Is @stx file @e? */
static bool is_file(struct fi_state *s, int e, const struct statx *stx)
{
	return S_ISREG(stx->stx_mode) && stx->stx_size == (uint64_t)e + 1 &&
	       (!s->stable_ino || stx->stx_ino == s->ino[e]);
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

static void print_outcomes(struct fi_state *s, const char *fs,
			   const char *how)
{
	ksft_print_msg("%s %s: fresh names: %lu calls, %lu ENOENT, %lu ENOMEM\n",
		       fs, how, s->calls[0], s->enoent[0], s->enomem[0]);
	ksft_print_msg("%s %s: evicted files: %lu calls, %lu found, %lu ENOMEM\n",
		       fs, how, s->calls[1], s->ok[1], s->enomem[1]);
}

TEST_F_TIMEOUT(fi, fail_nth, 120)
{
	struct fi_state *s = &self->s;
	unsigned int sites[2] = { 0, 0 }, k, n;
	char name[16], left[16];

	if (s->nth < 0)
		STATX_SKIP(return, "no /proc/thread-self/fail-nth");
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
				drop_dentries(s);
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
	ksft_print_msg("%s fail-nth: %u injection points (fresh name), %u (evicted file)%s\n",
		       variant->fs->name, sites[0], sites[1],
		       s->drop < 0 ? " (no drop_caches: not evicted)" : "");
	print_outcomes(s, variant->fs->name, "fail-nth");
	/* The path name buffer is the first allocation: it must fail. */
	EXPECT_LT(0, s->enomem[0]);
}

TEST_F_TIMEOUT(fi, random, 120)
{
	struct fi_state *s = &self->s;
	unsigned int i;
	char name[16];

	ASSERT_EQ(0, knobs_aim("20"));
	for (i = 0; i < 400; i++) {
		struct statx stx;
		int e = -1, ret, err;

		if (i % 2) {
			e = i / 2 % NR_EXISTING;
			snprintf(name, sizeof(name), "e%d", e);
			if (e == 0)
				drop_dentries(s);
		} else {
			snprintf(name, sizeof(name), "q%06u",
				 s->fresh++ % 1000000);
		}
		ASSERT_EQ(0, write_num(s->mif, 1));
		ret = sys_statx(s->dirfd, name, 0, STATX_ALL_BITS, &stx);
		err = errno;
		ASSERT_EQ(0, write_num(s->mif, 0));
		check_outcome(_metadata, s, e, name, ret, err, &stx,
			      "random");
	}
	ASSERT_EQ(0, knobs_aim("0"));
	print_outcomes(s, variant->fs->name, "random 20%");
	EXPECT_LT(0, s->enomem[0] + s->enomem[1]);
}

#ifndef __NR_statx_dir
#define __NR_statx_dir 473
#endif

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
 * statx_dir() of the directory with its dentries evicted, failing each
 * allocation in turn: ENOMEM for the call or for some entries, never a
 * wrong record, and the next listing complete.
 */
TEST_F_TIMEOUT(fi, statx_dir_fail_nth, 120)
{
	struct fi_state *s = &self->s;
	unsigned int n, found, calls = 0, entries = 0;
	static char buf[65536];
	char left[16];

	if (syscall(__NR_statx_dir, -1, NULL, 0, 0, 0) == 0 || errno != EBADF)
		STATX_SKIP(return, "the kernel has no statx_dir()");
	if (s->nth < 0)
		STATX_SKIP(return, "no /proc/thread-self/fail-nth");
	ASSERT_EQ(0, knobs_aim("0"));
	for (n = 1; n <= MAX_NTH; n++) {
		ssize_t ret, len;
		int err;

		drop_dentries(s);
		ASSERT_EQ(0, lseek(s->dirfd, 0, SEEK_SET));
		ASSERT_EQ(0, write_num(s->nth, n));
		ret = syscall(__NR_statx_dir, s->dirfd, buf, sizeof(buf),
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
		ret = syscall(__NR_statx_dir, s->dirfd, buf, sizeof(buf),
			      STATX_BASIC_STATS, 0);
		ASSERT_LT(0, ret) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(0, check_listing(_metadata, s, buf, ret, 0, &found));
		EXPECT_EQ(NR_EXISTING, found);
		if (atoi(left) > 0)
			break;
	}
	EXPECT_GT(MAX_NTH, n);
	ksft_print_msg("%s statx_dir fail-nth: %u points, ENOMEM %u calls, %u entries\n",
		       variant->fs->name, n - 1, calls, entries);
	/*
	 * At least the names' buffer was allocated; kvmalloc() falls back
	 * to vmalloc(), so that the call itself fails only where the
	 * filesystem's readdir allocates (ext4's htree).
	 */
	EXPECT_LT(0, n - 1);
}

int main(int argc, char **argv)
{
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
