// SPDX-License-Identifier: GPL-2.0
/*
 * statx_walk: the cost of walking a real directory tree as "find -ls" or
 * "du" does, with getdents64() and a statx() per name, and with
 * statx_dir(), for comparing kernels.
 *
 *	statx_walk MANIFEST DIR [REPEATS]
 *
 * MANIFEST lists a tree, one entry per line, as find(1) prints it with
 * -printf '%y %s %m %P\n': type (d, f or l), size, octal mode, path.  The
 * tree is made under DIR (which must be empty or missing): directories,
 * regular files of that size (sparse: ftruncate(), no data) and symbolic
 * links (to "target").  Then each walk runs REPEATS times (default 3) after
 * one untimed walk, and the lowest time per entry is printed as
 *
 *	BENCH <case>_tree <ns_per_entry>
 *
 * with the total, the entries and the directories in a "# ..." comment:
 *
 *	walk_getdents		getdents64() of every directory, no attributes
 *	walk_getdents_statx	the same and statx(dfd, name,
 *				AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS) per
 *				name, as find -ls and du do
 *	walk_statx_dir		statx_dir(STATX_BASIC_STATS) of every
 *				directory, where the kernel has it
 *
 * Each walk descends through openat(dfd, name, O_DIRECTORY) of each entry
 * that is a directory and sums, over every entry, the size, the inode
 * number, the mode and the link count: the two walks that see attributes
 * must agree on the sums and on the number of entries, and all on the
 * number of entries, or the program fails.  Under QEMU "-icount
 * shift=0,sleep=off" the clock counts guest instructions.
 * Exit status 1 if anything fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
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

#define WALK_BUF	65536

enum walk_op { WALK_GETDENTS, WALK_GETDENTS_STATX, WALK_STATX_DIR };

struct sums {
	uint64_t entries, dirs, size, ino, mode, nlink;
};

static int dots(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

static void add(struct sums *s, const struct statx *stx)
{
	s->size += stx->stx_size;
	s->ino += stx->stx_ino;
	s->mode += stx->stx_mode;
	s->nlink += stx->stx_nlink;
}

/* Walk the directory @dfd (closed on return) and below it; 0 or -1. */
static int walk(int dfd, enum walk_op op, struct sums *s, int depth)
{
	char *buf = malloc(WALK_BUF);
	long n, pos;
	int ret = -1;

	if (!buf || depth > 64)
		goto out;
	s->dirs++;
	for (;;) {
		if (op == WALK_STATX_DIR)
			n = syscall(__NR_statx_dir, dfd, buf, WALK_BUF,
				    STATX_BASIC_STATS, 0, sizeof(struct statx));
		else
			n = syscall(SYS_getdents64, dfd, buf, WALK_BUF);
		if (n < 0) {
			perror("statx_walk: listing");
			goto out;
		}
		if (!n)
			break;
		for (pos = 0; pos < n;) {
			const char *name;
			unsigned char type;
			struct statx stx;

			if (op == WALK_STATX_DIR) {
				struct guest_statx_dirent *d = (void *)(buf + pos);

				pos += d->d_reclen;
				name = d->d_name;
				type = d->d_type;
				if (dots(name))
					continue;
				if (d->d_error) {
					fprintf(stderr, "statx_walk: %s: d_error %d\n",
						name, d->d_error);
					goto out;
				}
				add(s, &d->d_stx);
			} else {
				struct guest_dirent64 *de = (void *)(buf + pos);

				pos += de->reclen;
				name = de->name;
				type = de->type;
				if (dots(name))
					continue;
				if (op == WALK_GETDENTS_STATX) {
					if (syscall(__NR_statx, dfd, name,
						    AT_SYMLINK_NOFOLLOW,
						    STATX_BASIC_STATS, &stx)) {
						perror(name);
						goto out;
					}
					add(s, &stx);
				}
			}
			s->entries++;
			if (type == DT_DIR) {
				int sub = openat(dfd, name, O_RDONLY |
						 O_DIRECTORY | O_NOFOLLOW);

				if (sub < 0 || walk(sub, op, s, depth + 1))
					goto out;
			}
		}
	}
	ret = 0;
out:
	free(buf);
	close(dfd);
	return ret;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Make the tree MANIFEST describes under @root; the number of entries. */
static long make_tree(const char *manifest, const char *root)
{
	char line[8192], path[8400];
	long entries = 0;
	FILE *f = fopen(manifest, "r");

	if (!f || (mkdir(root, 0755) && errno != EEXIST)) {
		perror(manifest);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char type, *rel;
		unsigned long long size;
		unsigned int mode;
		int fd, off = 0;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%c %llu %o %n", &type, &size, &mode, &off) < 3 ||
		    !off || !line[off])
			continue;	/* the top directory itself */
		rel = line + off;
		snprintf(path, sizeof(path), "%s/%s", root, rel);
		if (type == 'd') {
			if (mkdir(path, mode & 07777))
				goto fail;
		} else if (type == 'l') {
			if (symlink("target", path))
				goto fail;
		} else {
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode & 07777);
			if (fd < 0 || ftruncate(fd, size))
				goto fail;
			close(fd);
		}
		entries++;
	}
	fclose(f);
	return entries;
fail:
	perror(path);
	fclose(f);
	return -1;
}

static const char *const names[] = {
	[WALK_GETDENTS] = "walk_getdents",
	[WALK_GETDENTS_STATX] = "walk_getdents_statx",
	[WALK_STATX_DIR] = "walk_statx_dir",
};

int main(int argc, char **argv)
{
	struct sums want = { 0 }, statx_sums = { 0 };
	int repeats = argc > 3 ? atoi(argv[3]) : 3;
	long made;
	int op, failed = 0;

	if (argc < 3 || repeats < 1) {
		fprintf(stderr, "usage: %s MANIFEST DIR [REPEATS]\n", argv[0]);
		return 1;
	}
	made = make_tree(argv[1], argv[2]);
	if (made < 0)
		return 1;
	printf("# made %ld entries under %s\n", made, argv[2]);
	for (op = WALK_GETDENTS; op <= WALK_STATX_DIR; op++) {
		uint64_t best = 0, worst = 0;
		struct sums s;
		int i;

		if (op == WALK_STATX_DIR &&
		    syscall(__NR_statx_dir, -1, NULL, 0, 0, 0,
			    sizeof(struct statx)) < 0 && errno == ENOSYS) {
			printf("# skip %s: no statx_dir()\n", names[op]);
			continue;
		}
		for (i = 0; i <= repeats; i++) {
			int dfd = open(argv[2], O_RDONLY | O_DIRECTORY);
			uint64_t t0, t;

			memset(&s, 0, sizeof(s));
			t0 = now_ns();
			if (dfd < 0 || walk(dfd, op, &s, 0)) {
				fprintf(stderr, "statx_walk: %s failed\n", names[op]);
				return 1;
			}
			t = now_ns() - t0;
			if (!i)
				continue;	/* the untimed walk */
			if (!best || t < best)
				best = t;
			if (t > worst)
				worst = t;
		}
		if (s.entries != (uint64_t)made) {
			fprintf(stderr, "%s: %llu entries, the tree has %ld\n",
				names[op], (unsigned long long)s.entries, made);
			failed = 1;
		}
		if (op == WALK_GETDENTS_STATX) {
			statx_sums = s;
		} else if (op == WALK_STATX_DIR &&
			   memcmp(&s, &statx_sums, sizeof(s))) {
			fprintf(stderr, "%s: the sums differ from statx()'s\n",
				names[op]);
			failed = 1;
		}
		want = s;
		printf("BENCH %s_tree %.0f\n", names[op],
		       (double)best / want.entries);
		printf("# %s_tree: %llu ns for %llu entries in %llu directories"
		       " (worst %llu ns)\n", names[op],
		       (unsigned long long)best,
		       (unsigned long long)want.entries,
		       (unsigned long long)want.dirs,
		       (unsigned long long)worst);
	}
	return failed;
}
