// SPDX-License-Identifier: GPL-2.0
/*
 * statx_bench: the cost of one statx() call, for comparing kernels.
 *
 *	statx_bench [N] [REPEATS]
 *
 * For each case: N / 10 warm-up calls, then REPEATS (default 3) timed runs
 * of N calls (default 50000) with clock_gettime(CLOCK_MONOTONIC); the
 * lowest ns per call of the runs is printed as
 *
 *	BENCH <case> <ns_per_call>
 *
 * one line per case, and the spread as a "# ..." comment.  Under QEMU
 * "-icount shift=0,sleep=off" the guest clock counts guest instructions,
 * so the figures repeat exactly from boot to boot; under plain TCG they
 * are wall time and noisy.
 *
 * Cases (the file is created if missing, then looked up once so its
 * dentry is hot):
 *	null			getppid() through syscall(): the syscall floor
 *	statx_basic_<fs>	statx(STATX_BASIC_STATS) by path
 *	statx_all_new_<fs>	statx(BASIC | BTIME | GEN | CHANGE_COOKIE |
 *				IO_PARAMS): every field the series adds
 *	statx_fd_basic_<fs>	statx(fd, "", AT_EMPTY_PATH, BASIC)
 *	fstat_<fs>		fstat() on an open fd of the same file
 * for <fs> = tmpfs (/mnt/tmpfs) and ext4 (/mnt/ext4); a filesystem that
 * is not mounted is reported as "# skip".  Then, in ns per entry, the
 * listing of a directory of LIST_FILES empty files (hot; the environment's
 * STATX_BENCH_LIST_FILES, which the kernel command line can set, overrides
 * it) on each:
 *	list_getdents_<fs>	getdents64() with a 64 KiB buffer
 *	list_getdents_statx_<fs>  the same and statx(dfd, name,
 *				AT_SYMLINK_NOFOLLOW, BASIC) per entry
 *	list_statx_dir_<fs>	statx_dir(BASIC) with a 64 KiB buffer, where
 *				the kernel has it (each listing must give as
 *				many entries as getdents64(), none with an
 *				error)
 * Exit status 1 if any call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/stat.h>

#include "statx_list.h"

#define LIST_FILES	10000
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
/* The series' mask bits, for headers that predate them. */
#ifndef STATX_IO_PARAMS
#define STATX_IO_PARAMS		0x00040000U
#endif
#ifndef STATX_CHANGE_COOKIE
#define STATX_CHANGE_COOKIE	0x00080000U
#endif
#ifndef STATX_GEN
#define STATX_GEN		0x00100000U
#endif
#define BENCH_MASK_NEW	(STATX_BASIC_STATS | STATX_BTIME | STATX_GEN | \
			 STATX_CHANGE_COOKIE | STATX_IO_PARAMS)

enum op { OP_NULL, OP_STATX_PATH, OP_STATX_FD, OP_FSTAT, OP_WRITE_STATX };

struct bench {
	char name[48];
	enum op op;
	const char *path;
	int fd;
	unsigned int mask;
};

static int failed;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* One call; the result is checked so a failing call cannot look fast. */
static inline void call(const struct bench *b)
{
	struct statx stx;
	struct stat st;
	long r;

	switch (b->op) {
	case OP_NULL:
		r = syscall(SYS_getppid) < 0;
		break;
	case OP_STATX_PATH:
		r = syscall(__NR_statx, AT_FDCWD, b->path, 0, b->mask, &stx);
		break;
	case OP_STATX_FD:
		r = syscall(__NR_statx, b->fd, "", AT_EMPTY_PATH, b->mask, &stx);
		break;
	case OP_WRITE_STATX:
		/*
		 * A one-byte overwrite, then statx() of the file: with the
		 * cookie asked for, every write must count (and ext4 journal
		 * the inode); without it, once a clock tick.
		 */
		r = pwrite(b->fd, "s", 1, 0) != 1 ||
		    syscall(__NR_statx, b->fd, "", AT_EMPTY_PATH, b->mask, &stx);
		break;
	case OP_FSTAT:
#ifdef SYS_fstat
		r = syscall(SYS_fstat, b->fd, &st);
#else
		r = fstat(b->fd, &st);
#endif
		break;
	default:
		r = -1;
	}
	if (r && !failed++)
		fprintf(stderr, "statx_bench: %s: %s\n", b->name, strerror(errno));
}

static void run(const struct bench *b, unsigned long n, int repeats)
{
	double best = 0, worst = 0;
	unsigned long i;
	int k;

	for (i = 0; i < n / 10 + 1; i++)
		call(b);
	for (k = 0; k < repeats; k++) {
		uint64_t t0 = now_ns(), t1;
		double ns;

		for (i = 0; i < n; i++)
			call(b);
		t1 = now_ns();
		ns = (double)(t1 - t0) / n;
		if (!k || ns < best)
			best = ns;
		if (!k || ns > worst)
			worst = ns;
	}
	printf("BENCH %s %.1f\n", b->name, best);
	printf("# %s: best %.1f, worst %.1f ns/call over %d runs of %lu\n",
	       b->name, best, worst, repeats, n);
	fflush(stdout);
}

/* The file on @mnt the cases use: made if missing, opened, made hot. */
static int prepare(const char *mnt, char *path, size_t len)
{
	struct statx stx;
	int fd;

	snprintf(path, len, "%s/statx-bench", mnt);
	if (syscall(__NR_statx, AT_FDCWD, mnt, 0, STATX_TYPE, &stx) ||
	    !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		return -1;
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, "statx_bench\n", 12) != 12 || fsync(fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void run_list(const char *name, int dfd, enum list_op op,
		     int repeats)
{
	static char buf[LIST_BUF];
	double best = 0, worst = 0;
	long entries = 0, want;
	int k;

	want = list_once(dfd, LIST_GETDENTS, buf);
	if (want <= 0 || list_once(dfd, op, buf) < 0) {
		if (!failed++)
			fprintf(stderr, "statx_bench: %s: %s\n", name,
				strerror(errno));
		return;
	}
	for (k = 0; k < repeats; k++) {
		uint64_t t0 = now_ns(), t1;
		double ns;

		entries = list_once(dfd, op, buf);
		t1 = now_ns();
		if (entries != want) {
			if (!failed++)
				fprintf(stderr, "statx_bench: %s failed\n", name);
			return;
		}
		ns = (double)(t1 - t0) / entries;
		if (!k || ns < best)
			best = ns;
		if (!k || ns > worst)
			worst = ns;
	}
	printf("BENCH %s %.1f\n", name, best);
	printf("# %s: best %.1f, worst %.1f ns/entry over %d listings of %ld\n",
	       name, best, worst, repeats, entries);
	fflush(stdout);
}

static int list_files = LIST_FILES;

/* A directory of list_files empty files on @mnt, listed three ways. */
static void bench_listing(const char *fs, const char *mnt, int repeats)
{
	char dir[128], path[192], name[64];
	int dfd, i, fd;

	snprintf(dir, sizeof(dir), "%s/statx-bench-list", mnt);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		printf("# skip listing on %s: %s\n", fs, strerror(errno));
		return;
	}
	for (i = 0; i < list_files; i++) {
		snprintf(path, sizeof(path), "%s/file%05d", dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0) {
			printf("# skip listing on %s: %s\n", fs,
			       strerror(errno));
			return;
		}
		close(fd);
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return;
	snprintf(name, sizeof(name), "list_getdents_%s", fs);
	run_list(name, dfd, LIST_GETDENTS, repeats);
	snprintf(name, sizeof(name), "list_getdents_statx_%s", fs);
	run_list(name, dfd, LIST_GETDENTS_STATX, repeats);
	if (syscall(__NR_statx_dir, -1, NULL, 0, 0, 0, sizeof(struct statx)) < 0 &&
	    errno == EBADF) {
		snprintf(name, sizeof(name), "list_statx_dir_%s", fs);
		run_list(name, dfd, LIST_STATX_DIR, repeats);
	} else {
		printf("# skip list_statx_dir_%s: no statx_dir()\n", fs);
	}
	close(dfd);
}

int main(int argc, char **argv)
{
	static const char *const fss[] = { "tmpfs", "ext4" };
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000;
	int repeats = argc > 2 ? atoi(argv[2]) : 3;
	struct bench b = { .name = "null", .op = OP_NULL };
	unsigned int i;

	if (getenv("STATX_BENCH_LIST_FILES"))
		list_files = atoi(getenv("STATX_BENCH_LIST_FILES"));
	if (!n || repeats < 1 || list_files < 1) {
		fprintf(stderr, "usage: %s [N] [REPEATS]\n", argv[0]);
		return 2;
	}
	sync();
	printf("# statx_bench: %lu calls per run, best of %d runs, %d files listed\n",
	       n, repeats, list_files);
	run(&b, n, repeats);
	for (i = 0; i < ARRAY_SIZE(fss); i++) {
		static char paths[2][256];
		char mnt[64];
		int fd;

		snprintf(mnt, sizeof(mnt), "/mnt/%s", fss[i]);
		fd = prepare(mnt, paths[i], sizeof(paths[i]));
		if (fd < 0) {
			printf("# skip %s: not mounted at %s\n", fss[i], mnt);
			continue;
		}
		b = (struct bench){ .op = OP_STATX_PATH, .path = paths[i],
				    .fd = fd, .mask = STATX_BASIC_STATS };
		snprintf(b.name, sizeof(b.name), "statx_basic_%s", fss[i]);
		run(&b, n, repeats);
		b.mask = BENCH_MASK_NEW;
		snprintf(b.name, sizeof(b.name), "statx_all_new_%s", fss[i]);
		run(&b, n, repeats);
		b.op = OP_STATX_FD;
		b.mask = STATX_BASIC_STATS;
		snprintf(b.name, sizeof(b.name), "statx_fd_basic_%s", fss[i]);
		run(&b, n, repeats);
		b.mask = STATX_BASIC_STATS | STATX_CHANGE_COOKIE;
		snprintf(b.name, sizeof(b.name), "statx_fd_cookie_%s", fss[i]);
		run(&b, n, repeats);
		b.op = OP_WRITE_STATX;
		b.mask = STATX_BASIC_STATS;
		snprintf(b.name, sizeof(b.name), "write_statx_basic_%s",
			 fss[i]);
		run(&b, n / 10, repeats);
		b.mask = STATX_BASIC_STATS | STATX_CHANGE_COOKIE;
		snprintf(b.name, sizeof(b.name), "write_statx_cookie_%s",
			 fss[i]);
		run(&b, n / 10, repeats);
		b.op = OP_FSTAT;
		snprintf(b.name, sizeof(b.name), "fstat_%s", fss[i]);
		run(&b, n, repeats);
		close(fd);
		unlink(paths[i]);
		bench_listing(fss[i], mnt, repeats);
	}
	return failed ? 1 : 0;
}
