// SPDX-License-Identifier: GPL-2.0
/*
 * statx_profile: directory listings between the markers of
 * harness/profile_plugin.c, for an instruction profile by kernel function
 * (harness/profile.sh).
 *
 *	statx_profile [LISTINGS]
 *
 * On each of /mnt/tmpfs and /mnt/ext4 (a filesystem that is not mounted
 * there is skipped), a directory of LIST_FILES empty files, as
 * statx_bench makes it, listed once with getdents64() to count its
 * entries; then for each case, as statx_bench's list_* cases call it:
 *	getdents_<fs>		getdents64() with a 64 KiB buffer
 *	getdents_statx_<fs>	the same and statx(dfd, name,
 *				AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS) per
 *				entry
 *	statx_dir_<fs>		statx_dir(STATX_BASIC_STATS) with a 64 KiB
 *				buffer, where the kernel has it
 * one listing to make it hot, the start marker, LISTINGS (default 5)
 * listings, each of which must give every entry (none with an error), the
 * end marker, and the line
 *
 *	PROFILE <case> window=<N> listings=<LISTINGS> entries=<total>
 *
 * N counts the windows from 0, as the plugin numbers its files.  The
 * marker is "mov $leaf, %eax; cpuid" with a leaf no CPU defines: two
 * instructions, which QEMU emulates without the kernel.  Exit status 1 if
 * any listing fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/stat.h>

#include "statx_list.h"

#define LIST_FILES	10000

/* The marker leaves; harness/profile_plugin.c has the same. */
#define PROFILE_MAGIC_START	0x5a9e1f01u
#define PROFILE_MAGIC_END	0x5a9e1f02u

/* "mov $leaf, %eax" must be b8 imm32, right before the cpuid. */
#define MARKER(leaf) do {						\
	unsigned int a_, b_, c_, d_;					\
	asm volatile("mov %4, %%eax\n\tcpuid"				\
		     : "=&a"(a_), "=b"(b_), "=c"(c_), "=d"(d_)		\
		     : "i"(leaf) : "memory");				\
	(void)a_; (void)b_; (void)c_; (void)d_;				\
} while (0)

static int failed, windows;

static void profile(const char *name, int dfd, enum list_op op, int listings)
{
	static char buf[LIST_BUF];
	long want, got = 0, n = 0;
	int k;

	want = list_once(dfd, LIST_GETDENTS, buf);
	if (want <= 0 || list_once(dfd, op, buf) != want) {
		if (!failed++)
			fprintf(stderr, "statx_profile: %s: %s\n", name,
				strerror(errno));
		return;
	}
	MARKER(PROFILE_MAGIC_START);
	for (k = 0; k < listings; k++) {
		n = list_once(dfd, op, buf);
		if (n != want)
			break;
		got += n;
	}
	MARKER(PROFILE_MAGIC_END);
	if (n != want) {
		/* The window was written all the same: give its number. */
		printf("# %s: window=%d failed: %ld entries where %ld were due\n",
		       name, windows++, n, want);
		failed++;
		return;
	}
	printf("PROFILE %s window=%d listings=%d entries=%ld\n", name,
	       windows++, listings, got);
	fflush(stdout);
}

/* A directory of LIST_FILES empty files on @mnt, listed three ways. */
static void profile_fs(const char *fs, const char *mnt, int listings)
{
	char dir[128], path[192], name[64];
	struct statx stx;
	int dfd, i, fd;

	if (syscall(__NR_statx, AT_FDCWD, mnt, 0, STATX_TYPE, &stx) ||
	    !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT)) {
		printf("# skip %s: not mounted at %s\n", fs, mnt);
		return;
	}
	snprintf(dir, sizeof(dir), "%s/statx-bench-list", mnt);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		printf("# skip %s: %s\n", fs, strerror(errno));
		return;
	}
	for (i = 0; i < LIST_FILES; i++) {
		snprintf(path, sizeof(path), "%s/file%05d", dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0) {
			printf("# skip %s: %s\n", fs, strerror(errno));
			return;
		}
		close(fd);
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0) {
		failed++;
		return;
	}
	snprintf(name, sizeof(name), "getdents_%s", fs);
	profile(name, dfd, LIST_GETDENTS, listings);
	snprintf(name, sizeof(name), "getdents_statx_%s", fs);
	profile(name, dfd, LIST_GETDENTS_STATX, listings);
	if (syscall(__NR_statx_dir, -1, NULL, 0, 0, 0, sizeof(struct statx)) < 0 &&
	    errno == EBADF) {
		snprintf(name, sizeof(name), "statx_dir_%s", fs);
		profile(name, dfd, LIST_STATX_DIR, listings);
	} else {
		printf("# skip statx_dir_%s: no statx_dir()\n", fs);
	}
	close(dfd);
}

int main(int argc, char **argv)
{
	int listings = argc > 1 ? atoi(argv[1]) : 5;

	if (listings < 1) {
		fprintf(stderr, "usage: %s [LISTINGS]\n", argv[0]);
		return 2;
	}
	sync();
	printf("# statx_profile: %d listings of %d files per case\n",
	       listings, LIST_FILES);
	profile_fs("tmpfs", "/mnt/tmpfs", listings);
	profile_fs("ext4", "/mnt/ext4", listings);
	return failed ? 1 : 0;
}
