/* SPDX-License-Identifier: GPL-2.0 */
/*
 * statx() requests that the compat and io_uring comparisons replay through
 * another entry point and compare, byte for byte, with the system call.
 * The requests follow the field table of statx_helpers.h, so a field added
 * there is compared too.
 */
#ifndef __STATX_REQS_H
#define __STATX_REQS_H

#include "statx_helpers.h"

/* How the pointers of a request are made. */
enum {
	STATX_REQ_PATH,		/* path as given */
	STATX_REQ_NULL_PATH,	/* a NULL path */
	STATX_REQ_BAD_PATH,	/* a path pointer into no mapping */
	STATX_REQ_BAD_BUF,	/* a buffer pointer into no mapping */
};

/* The same layout for -m32 and -m64 builds: it goes through a pipe. */
struct statx_req {
	__s32 dfd;
	__u32 flags;
	__u32 mask;
	__u32 kind;
	char path[128];
};

struct statx_res {
	__s32 ret;		/* 0 or -errno */
	__u32 pad;
	struct statx stx;	/* poisoned first */
};

static inline const char *statx_req_path(const struct statx_req *r)
{
	switch (r->kind) {
	case STATX_REQ_NULL_PATH:
		return NULL;
	case STATX_REQ_BAD_PATH:
		return (const char *)8;	/* page 0 is never mapped */
	}
	return r->path;
}

static inline struct statx *statx_req_buf(const struct statx_req *r,
					  struct statx *stx)
{
	return r->kind == STATX_REQ_BAD_BUF ? (struct statx *)8 : stx;
}

/* Run @r through the system call. */
static inline void statx_req_run(const struct statx_req *r,
				 struct statx_res *res)
{
	memset(res, 0, sizeof(*res));
	memset(&res->stx, STATX_POISON, sizeof(res->stx));
	if (sys_statx(r->dfd, statx_req_path(r), r->flags, r->mask,
		      statx_req_buf(r, &res->stx)))
		res->ret = -errno;
}

#define STATX_MAX_REQS	1024

struct statx_reqs {
	struct statx_req r[STATX_MAX_REQS];
	unsigned int n;
};

static inline void statx_req_add(struct statx_reqs *q, int dfd,
				 const char *path, unsigned int flags,
				 unsigned int mask, unsigned int kind)
{
	struct statx_req *r;

	if (q->n >= STATX_MAX_REQS)
		return;
	r = &q->r[q->n++];
	memset(r, 0, sizeof(*r));
	r->dfd = dfd;
	r->flags = flags;
	r->mask = mask;
	r->kind = kind;
	snprintf(r->path, sizeof(r->path), "%s", path);
}

/*
 * The requests for @paths and the open file @fd: every mask of
 * statx_masks() on each, the sync and symlink flags, AT_EMPTY_PATH on @fd
 * (and with a NULL path if @null_path), and one of each argument error:
 * EBADF, ENOTDIR, EINVAL three ways, EFAULT two ways, ENOENT.
 */
static inline void statx_reqs_for(struct statx_reqs *q,
				  char (*paths)[64], unsigned int npaths,
				  int fd, bool null_path)
{
	static const unsigned int flags[] = {
		AT_SYMLINK_NOFOLLOW, AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC,
		AT_NO_AUTOMOUNT,
	};
	const unsigned int all = statx_known_mask();
	unsigned int masks[STATX_MAX_MASKS], nm, i, j;

	nm = statx_masks(masks);
	for (i = 0; i < npaths; i++) {
		for (j = 0; j < nm; j++)
			statx_req_add(q, AT_FDCWD, paths[i], 0, masks[j],
				      STATX_REQ_PATH);
		for (j = 0; j < ARRAY_SIZE(flags); j++)
			statx_req_add(q, AT_FDCWD, paths[i], flags[j], all,
				      STATX_REQ_PATH);
	}
	for (j = 0; j < nm; j++)
		statx_req_add(q, fd, "", AT_EMPTY_PATH, masks[j],
			      STATX_REQ_PATH);
	if (null_path)
		statx_req_add(q, fd, "", AT_EMPTY_PATH, all,
			      STATX_REQ_NULL_PATH);
	statx_req_add(q, -1, "x", 0, all, STATX_REQ_PATH);
	statx_req_add(q, fd, "x", 0, all, STATX_REQ_PATH);
	statx_req_add(q, AT_FDCWD, paths[0], 0, STATX__RESERVED,
		      STATX_REQ_PATH);
	statx_req_add(q, AT_FDCWD, paths[0], 0x1, all, STATX_REQ_PATH);
	statx_req_add(q, AT_FDCWD, paths[0],
		      AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC, all,
		      STATX_REQ_PATH);
	statx_req_add(q, AT_FDCWD, paths[0], 0, all, STATX_REQ_BAD_PATH);
	statx_req_add(q, AT_FDCWD, paths[0], 0, all, STATX_REQ_BAD_BUF);
	statx_req_add(q, AT_FDCWD, "/tmp/nonexistent/x", 0, all,
		      STATX_REQ_PATH);
}

/* The error requests of statx_reqs_for(). */
#define STATX_REQ_ERRORS	8

/*
 * The objects on the private /tmp: the tmpfs root, a directory, a regular
 * file in it (open as *@fd), a symlink and a fifo.  Returns their count,
 * 0 on an error.
 */
static inline unsigned int statx_make_objects(char (*paths)[64], int *fd)
{
	if (mkdir("/tmp/dir", 0755))
		return 0;
	*fd = open("/tmp/dir/file", O_CREAT | O_RDWR | O_EXCL,
		   0644);
	if (*fd < 0 || write(*fd, "data\n", 5) != 5 ||
	    symlink("file", "/tmp/dir/link") ||
	    mknod("/tmp/dir/fifo", S_IFIFO | 0644, 0))
		return 0;
	snprintf(paths[0], 64, "/tmp");
	snprintf(paths[1], 64, "/tmp/dir");
	snprintf(paths[2], 64, "/tmp/dir/file");
	snprintf(paths[3], 64, "/tmp/dir/link");
	snprintf(paths[4], 64, "/tmp/dir/fifo");
	return 5;
}

/* A printable description of @r for failure messages. */
static inline const char *statx_req_str(const struct statx_req *r)
{
	static const char *const kinds[] = {
		"", " (NULL path)", " (bad path pointer)", " (bad buffer)",
	};
	static char buf[300];

	snprintf(buf, sizeof(buf), "dfd %d path \"%s\" flags %#x mask %#x%s",
		 r->dfd, r->path, r->flags, r->mask,
		 r->kind < ARRAY_SIZE(kinds) ? kinds[r->kind] : "");
	return buf;
}

/* Compare two results: the return value, then statx_stx_diff(). */
static inline const char *statx_res_diff(const struct statx_res *a,
					 const struct statx_res *b)
{
	static char buf[200];

	if (a->ret != b->ret) {
		snprintf(buf, sizeof(buf), "returned %d vs %d", a->ret, b->ret);
		return buf;
	}
	return statx_stx_diff(&a->stx, &b->stx);
}

#endif /* __STATX_REQS_H */
