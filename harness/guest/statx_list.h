/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest programs that list directories share (statx_bench,
 * statx_profile, statx_walk): the system call numbers and the records of
 * getdents64() and statx_dir() for headers that predate them, and the
 * listing loop the bench times and the profile counts, so that the two
 * measure the same code.
 */
#ifndef STATX_LIST_H
#define STATX_LIST_H

#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/stat.h>

#ifndef __NR_statx
#define __NR_statx 332
#endif
#ifndef __NR_statx_dir
#define __NR_statx_dir 473
#endif
#define LIST_BUF	65536

/* The fixed part of a statx_dir() record, for headers that predate it */
struct guest_statx_dirent {
	uint64_t d_ino;
	int64_t d_off;
	uint32_t d_reclen;
	int32_t d_error;
	uint16_t d_namelen;
	uint8_t d_type;
	uint8_t spare[5];
	struct statx d_stx;
	char d_name[];
};

struct guest_dirent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

enum list_op { LIST_GETDENTS, LIST_GETDENTS_STATX, LIST_STATX_DIR };

/* List @dfd once, @buf LIST_BUF bytes; the number of entries, or -1. */
static inline long list_once(int dfd, enum list_op op, char *buf)
{
	long n, pos, entries = 0;
	struct statx stx;

	if (lseek(dfd, 0, SEEK_SET))
		return -1;
	for (;;) {
		if (op == LIST_STATX_DIR)
			n = syscall(__NR_statx_dir, dfd, buf, LIST_BUF,
				    STATX_BASIC_STATS, 0, sizeof(struct statx));
		else
			n = syscall(SYS_getdents64, dfd, buf, LIST_BUF);
		if (n <= 0)
			return n < 0 ? -1 : entries;
		for (pos = 0; pos < n; entries++) {
			if (op == LIST_STATX_DIR) {
				struct guest_statx_dirent *d = (void *)(buf + pos);

				if (d->d_error)
					return -1;
				pos += d->d_reclen;
				continue;
			}
			struct guest_dirent64 *de = (void *)(buf + pos);

			if (op == LIST_GETDENTS_STATX &&
			    syscall(__NR_statx, dfd, de->name,
				    AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
				    &stx))
				return -1;
			pos += de->reclen;
		}
	}
}

#endif
