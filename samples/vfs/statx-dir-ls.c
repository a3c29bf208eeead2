// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * List a directory as "ls -ln" does, with one statx_dir() call per buffer
 * of entries instead of getdents64() and a statx() per name.
 *
 * Usage: statx-dir-ls [-a] [DIR]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/stat.h>

#ifndef __NR_statx_dir
#define __NR_statx_dir 473
#endif

#define MASK (STATX_BASIC_STATS & ~STATX_ATIME)

struct entry {
	struct statx stx;
	int error;
	char *name;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

static void mode_string(unsigned int mode, char *s)
{
	static const char types[] = "?pc?d?b?-?l?s???";
	static const char rwx[] = "rwxrwxrwx";
	int i;

	s[0] = types[(mode >> 12) & 15];
	for (i = 0; i < 9; i++)
		s[1 + i] = mode & (0400 >> i) ? rwx[i] : '-';
	if (mode & S_ISUID)
		s[3] = mode & 0100 ? 's' : 'S';
	if (mode & S_ISGID)
		s[6] = mode & 0010 ? 's' : 'S';
	if (mode & S_ISVTX)
		s[9] = mode & 0001 ? 't' : 'T';
	s[10] = '\0';
}

static int digits(unsigned long long n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

int main(int argc, char **argv)
{
	size_t bufsize = 64 * 1024, n = 0, max = 0, i;
	int all = 0, fd, w[4] = { 1, 1, 1, 1 }, majw = 0, minw = 0;
	unsigned long long blocks = 0;
	struct entry *e = NULL;
	const char *dir = ".";
	char *buf;
	ssize_t len;
	time_t now = time(NULL);

	if (argc > 1 && !strcmp(argv[1], "-a")) {
		all = 1;
		argc--;
		argv++;
	}
	if (argc > 1)
		dir = argv[1];
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	buf = malloc(bufsize);
	if (fd < 0 || !buf) {
		perror(dir);
		return 1;
	}
	while ((len = syscall(__NR_statx_dir, fd, buf, bufsize, MASK, 0,
			      sizeof(struct statx))) > 0) {
		char *p;

		for (p = buf; p < buf + len; p += ((struct statx_dirent *)p)->d_reclen) {
			struct statx_dirent *d = (struct statx_dirent *)p;

			if (!all && d->d_name[0] == '.')
				continue;
			if (n == max) {
				max = max ? 2 * max : 64;
				e = realloc(e, max * sizeof(*e));
				if (!e)
					return 1;
			}
			e[n].stx = d->d_stx;
			e[n].error = -d->d_error;
			e[n].name = strdup(d->d_name);
			n++;
		}
	}
	if (len < 0) {
		perror("statx_dir");
		return 1;
	}
	qsort(e, n, sizeof(*e), by_name);
	for (i = 0; i < n; i++) {
		if (e[i].error)
			continue;
		if (digits(e[i].stx.stx_nlink) > w[0])
			w[0] = digits(e[i].stx.stx_nlink);
		if (digits(e[i].stx.stx_uid) > w[1])
			w[1] = digits(e[i].stx.stx_uid);
		if (digits(e[i].stx.stx_gid) > w[2])
			w[2] = digits(e[i].stx.stx_gid);
		if (digits(e[i].stx.stx_size) > w[3])
			w[3] = digits(e[i].stx.stx_size);
		if (S_ISCHR(e[i].stx.stx_mode) || S_ISBLK(e[i].stx.stx_mode)) {
			if (digits(e[i].stx.stx_rdev_major) > majw)
				majw = digits(e[i].stx.stx_rdev_major);
			if (digits(e[i].stx.stx_rdev_minor) > minw)
				minw = digits(e[i].stx.stx_rdev_minor);
			if (majw + 2 + minw > w[3])
				w[3] = majw + 2 + minw;
		}
		blocks += e[i].stx.stx_blocks;
	}
	/* In KiB, rounded up, as ls prints it */
	printf("total %llu\n", (blocks + 1) / 2);
	for (i = 0; i < n; i++) {
		const struct statx *s = &e[i].stx;
		char mode[11], when[32], target[4096];
		time_t t = s->stx_mtime.tv_sec;
		ssize_t tl;

		if (e[i].error) {
			printf("?????????? %s (%s)\n", e[i].name,
			       strerror(e[i].error));
			continue;
		}
		mode_string(s->stx_mode, mode);
		strftime(when, sizeof(when),
			 t > now - 15778476 && t <= now ?
			 "%b %e %H:%M" : "%b %e  %Y", localtime(&t));
		printf("%s %*u %*u %*u ", mode, w[0], s->stx_nlink,
		       w[1], s->stx_uid, w[2], s->stx_gid);
		if (S_ISCHR(s->stx_mode) || S_ISBLK(s->stx_mode))
			printf("%*u, %*u", w[3] - 2 - minw,
			       s->stx_rdev_major, minw, s->stx_rdev_minor);
		else
			printf("%*llu", w[3], (unsigned long long)s->stx_size);
		printf(" %s %s", when, e[i].name);
		if (S_ISLNK(s->stx_mode)) {
			tl = readlinkat(fd, e[i].name, target,
					sizeof(target) - 1);
			if (tl >= 0)
				printf(" -> %.*s", (int)tl, target);
		}
		printf("\n");
	}
	return 0;
}
