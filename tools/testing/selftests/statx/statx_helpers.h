/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the statx selftests: the raw syscall, the filesystems
 * the tests visit, and comparisons against fstatat().
 */
#ifndef __STATX_HELPERS_H
#define __STATX_HELPERS_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/stat.h>

#ifndef __NR_statx
#if defined(__x86_64__)
#define __NR_statx 332
#elif defined(__i386__)
#define __NR_statx 383
#endif
#endif

/* The raw system call: glibc's wrapper may fall back to fstatat(). */
static inline int sys_statx(int dfd, const char *path, unsigned int flags,
			    unsigned int mask, struct statx *stx)
{
	return syscall(__NR_statx, dfd, path, flags, mask, stx);
}

/*
 * Where the test harness mounts each filesystem in the guest.  A test on a
 * filesystem that is not mounted there is skipped, so the suite also runs
 * (mostly skipped) on a development machine.
 */
#ifndef STATX_TEST_ROOT
#define STATX_TEST_ROOT "/mnt"
#endif

/* Is @dir the root of a mount of filesystem type @fstype? */
static inline bool statx_fs_mounted(const char *dir, const char *fstype)
{
	char line[4096], mnt[PATH_MAX], type[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep, " - %63s", type) != 1)
			continue;
		if (!strcmp(mnt, dir))
			found = !strcmp(type, fstype);	/* the last one wins */
	}
	fclose(f);
	return found;
}

#endif /* __STATX_HELPERS_H */
