/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks shared by the statx hardening selftests (fuzzer, stress, fault
 * injection): what a successful statx() may put in the 256-byte struct
 * statx, whatever the caller asked for.
 *
 * The struct is read by offset, not through the exported headers, so the
 * same checks run against headers that do not yet name the newer fields.
 */
#ifndef __STATX_CHECK_H
#define __STATX_CHECK_H

#include "statx_helpers.h"	/* first: it defines _GNU_SOURCE */
#include <stdarg.h>
#include <stdint.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Flag bits statx() accepts (fs/stat.c); anything else is EINVAL. */
#define STATX_VALID_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | \
				 AT_EMPTY_PATH | AT_STATX_SYNC_TYPE)

/*
 * Mask bits named here so the tests build against headers that predate
 * them.  STATX_CHANGE_COOKIE is the one whose header definition tells the
 * stress test that struct statx has stx_change_cookie.
 */
#ifdef STATX_CHANGE_COOKIE
#define STATX_HDR_HAS_CHANGE_COOKIE	1
#else
#define STATX_HDR_HAS_CHANGE_COOKIE	0
#define STATX_CHANGE_COOKIE		0x00080000U
#endif
#ifndef STATX_DIO_READ_ALIGN
#define STATX_DIO_READ_ALIGN		0x00020000U
#endif
#ifndef STATX_IO_PARAMS
#define STATX_IO_PARAMS			0x00040000U
#endif
#ifndef STATX_GEN
#define STATX_GEN			0x00100000U
#endif
#ifndef STATX_ATTR_CHANGE_MONOTONIC
#define STATX_ATTR_CHANGE_MONOTONIC	0x8000000000000000ULL
#endif

/* Every mask bit, present and future, that a caller may ask for. */
#define STATX_ALL_BITS		(~0U & ~STATX__RESERVED)

/*
 * Bits a filesystem may return although they were not asked for: the man
 * page says the kernel may return fields that were not requested.  In
 * practice these are the basic stats (generic_fillattr() sets all of
 * them), btime (btrfs, exfat, ntfs3 fill it unconditionally), the mount
 * id (vfs_statx_path() always sets STATX_MNT_ID unless STATX_MNT_ID_UNIQUE
 * was asked for) and btrfs' subvolume id.  Every other bit, in particular
 * each field added after STATX_DIO_READ_ALIGN, must be mask-gated.
 */
#define STATX_UNASKED_OK	(STATX_BASIC_STATS | STATX_BTIME | \
				 STATX_MNT_ID | STATX_SUBVOL)

/* Offsets in struct statx (include/uapi/linux/stat.h, series layout). */
struct statx_zero_range {
	unsigned int off, len;
	unsigned int unless;	/* zero unless this bit is in stx_mask */
};

static const struct statx_zero_range statx_zero_ranges[] = {
	{ 0x1e, 2, 0 },				/* __spare0 */
	{ 0x4c, 4, 0 },				/* stx_atime.__reserved */
	{ 0x50, 16, STATX_BTIME },		/* stx_btime */
	{ 0x5c, 4, 0 },				/* stx_btime.__reserved */
	{ 0x6c, 4, 0 },				/* stx_ctime.__reserved */
	{ 0x7c, 4, 0 },				/* stx_mtime.__reserved */
	{ 0x98, 8, STATX_DIOALIGN },		/* stx_dio_{mem,offset}_align */
	{ 0xa0, 8, STATX_SUBVOL },		/* stx_subvol */
	{ 0xa8, 12, STATX_WRITE_ATOMIC },	/* stx_atomic_write_* */
	{ 0xb4, 4, STATX_DIO_READ_ALIGN },	/* stx_dio_read_offset_align */
	{ 0xb8, 4, STATX_WRITE_ATOMIC },	/* stx_atomic_write_unit_max_opt */
	{ 0xbc, 12, STATX_IO_PARAMS },		/* stx_io_min .. stx_erase_size */
	{ 0xc8, 8, STATX_CHANGE_COOKIE },	/* stx_change_cookie */
	{ 0xd0, 4, STATX_GEN },			/* stx_gen */
	{ 0xd4, 4, 0 },				/* __spare2 */
	{ 0xd8, 40, 0 },			/* __spare3 */
};

#define STATX_OFF_CHANGE_COOKIE	0xc8

static inline uint64_t statx_u64_at(const void *stx, unsigned int off)
{
	uint64_t v;

	memcpy(&v, (const char *)stx + off, sizeof(v));
	return v;
}

static inline int statx_fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * statx_check_result - is what statx() wrote sane for a request of @req?
 * @buf: the 256 bytes statx() returned (any alignment)
 * @req: the mask that was passed to statx()
 * @why: where to describe the first problem found
 *
 * Checks that no reserved or unrequested-and-undocumented bit comes back,
 * that exactly one mount id kind is reported, that every byte of a field
 * whose bit is not in stx_mask (and every spare byte) is zero, that the
 * attributes are a subset of the attributes mask, that the file type is a
 * real one and that the timestamps' nanoseconds are below one second.
 *
 * Return: 0 if sane, -1 with @why filled in otherwise.
 */
static inline int statx_check_result(const void *buf, unsigned int req,
				     char *why, size_t len)
{
	const unsigned char *p = buf;
	unsigned int got, unasked, i, j;
	struct statx stx;

	memcpy(&stx, buf, sizeof(stx));
	got = stx.stx_mask;
	if (got & STATX__RESERVED)
		return statx_fail(why, len, "stx_mask %#x has STATX__RESERVED",
				  got);
	/* Mainline fills both direct I/O alignments for either bit. */
	if (req & (STATX_DIOALIGN | STATX_DIO_READ_ALIGN))
		req |= STATX_DIOALIGN | STATX_DIO_READ_ALIGN;
	unasked = got & ~req & ~STATX_UNASKED_OK;
	if (unasked)
		return statx_fail(why, len,
				  "stx_mask %#x has %#x that was not asked for (mask %#x)",
				  got, unasked, req);
	if (!(got & STATX_MNT_ID) == !(got & STATX_MNT_ID_UNIQUE))
		return statx_fail(why, len,
				  "stx_mask %#x must have exactly one of MNT_ID and MNT_ID_UNIQUE",
				  got);
	for (i = 0; i < ARRAY_SIZE(statx_zero_ranges); i++) {
		const struct statx_zero_range *z = &statx_zero_ranges[i];

		if (z->unless & got)
			continue;
		for (j = z->off; j < z->off + z->len; j++)
			if (p[j])
				return statx_fail(why, len,
						  "byte %#x is %#x, stx_mask %#x does not cover it",
						  j, p[j], got);
	}
	if (stx.stx_attributes & ~stx.stx_attributes_mask)
		return statx_fail(why, len,
				  "stx_attributes %#llx not within stx_attributes_mask %#llx",
				  (unsigned long long)stx.stx_attributes,
				  (unsigned long long)stx.stx_attributes_mask);
	if (got & STATX_TYPE) {
		switch (stx.stx_mode & S_IFMT) {
		case S_IFREG: case S_IFDIR: case S_IFLNK: case S_IFCHR:
		case S_IFBLK: case S_IFIFO: case S_IFSOCK:
			break;
		default:
			return statx_fail(why, len, "stx_mode %#o has no file type",
					  stx.stx_mode);
		}
	}
	if (stx.stx_atime.tv_nsec >= 1000000000U ||
	    stx.stx_btime.tv_nsec >= 1000000000U ||
	    stx.stx_ctime.tv_nsec >= 1000000000U ||
	    stx.stx_mtime.tv_nsec >= 1000000000U)
		return statx_fail(why, len, "a timestamp has tv_nsec >= 1e9");
	return 0;
}

#endif /* __STATX_CHECK_H */
