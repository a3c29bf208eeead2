// SPDX-License-Identifier: GPL-2.0
/*
 * statx_dir(2): a directory's entries, each with the struct statx that
 * statx(fd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | flags, mask)
 * gives of it.
 *
 * Every record is checked against that statx() call, field by field, for
 * several masks and as uid 65534 too; the names, inode numbers, types and
 * offsets against getdents64() on the same directory; the cursor against
 * getdents64() and lseek() on the same file descriptor; the record format
 * against a poisoned buffer of every size; and the errors against the
 * documented ones.  All on a tmpfs of the case's own: how each disk
 * filesystem's readdir meets the call is for fstests.
 */
#define _FILE_OFFSET_BITS 64	/* 64-bit d_off and st_ino in the -m32 build */
#include "statx_helpers.h"

#include <assert.h>
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"

/* The layout is the same for 32-bit and 64-bit callers. */
static_assert(offsetof(struct statx_dirent, d_ino) == 0x00, "d_ino");
static_assert(offsetof(struct statx_dirent, d_off) == 0x08, "d_off");
static_assert(offsetof(struct statx_dirent, d_reclen) == 0x10, "d_reclen");
static_assert(offsetof(struct statx_dirent, d_error) == 0x14, "d_error");
static_assert(offsetof(struct statx_dirent, d_namelen) == 0x18, "d_namelen");
static_assert(offsetof(struct statx_dirent, d_type) == 0x1a, "d_type");
static_assert(offsetof(struct statx_dirent, __spare) == 0x1b, "__spare");
static_assert(offsetof(struct statx_dirent, d_stx) == 0x20, "d_stx");
static_assert(offsetof(struct statx_dirent, d_name) == 0x120, "d_name");
static_assert(sizeof(struct statx_dirent) == 0x120, "size");
static_assert(STATX_DIRENT_RECLEN(0x100, 0) == 0x128, "reclen of no name");
static_assert(STATX_DIRENT_RECLEN(0x100, 7) == 0x128, "reclen of 7 bytes");
static_assert(STATX_DIRENT_RECLEN(0x100, 8) == 0x130, "reclen of 8 bytes");
static_assert(STATX_DIRENT_RECLEN(0x100, 255) == 0x220, "reclen at NAME_MAX");
static_assert(STATX_DIRENT_RECLEN(0x90, 0) == 0xb8, "reclen, smallest statx");
static_assert(STATX_DIRENT_RECLEN(0x1000, 8) == 0x1030, "reclen, largest");
static_assert(STATX_DIR_STX_SIZE_MIN == 0x90, "smallest struct statx");
static_assert(STATX_DIR_STX_SIZE_MAX == 0x1000, "largest struct statx");

/* The record length for a struct statx of this header's size */
#define RECLEN(namelen)	STATX_DIRENT_RECLEN(sizeof(struct statx), namelen)

#define NOFOLLOW	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT)
#define BUFSIZE		65536

/* One record, copied out of the buffer. */
struct rec {
	struct statx_dirent d;
	char name[NAME_MAX + 1];
};

struct listing {
	struct rec *r;
	unsigned int n, max;
};

static void listing_free(struct listing *l)
{
	free(l->r);
	memset(l, 0, sizeof(*l));
}

static struct rec *listing_add(struct listing *l)
{
	if (l->n == l->max) {
		l->max = l->max ? 2 * l->max : 64;
		l->r = realloc(l->r, l->max * sizeof(*l->r));
		if (!l->r)
			abort();
	}
	memset(&l->r[l->n], 0, sizeof(l->r[0]));
	return &l->r[l->n++];
}

/*
 * Check the format of the @len bytes statx_dir() returned in @buf, and the
 * @size - @len bytes after them, which it must not have written, and add
 * the records to @l.  Returns false (having logged why) on a bad record.
 */
static bool parse(struct __test_metadata *_metadata, const unsigned char *buf,
		  size_t len, size_t size, struct listing *l)
{
	size_t pos = 0, i;

	while (pos < len) {
		const struct statx_dirent *d = (const void *)(buf + pos);
		static const unsigned char zero[8];
		size_t name_end;
		struct rec *r;

		EXPECT_EQ(0, pos % 8);
		if (len - pos < sizeof(*d) || d->d_reclen > len - pos ||
		    d->d_namelen > NAME_MAX) {
			TH_LOG("record at %zu of %zu: reclen %u namelen %u",
			       pos, len, d->d_reclen, d->d_namelen);
			return false;
		}
		EXPECT_EQ(RECLEN(d->d_namelen), d->d_reclen);
		EXPECT_EQ(d->d_namelen, strnlen(d->d_name, d->d_namelen + 1));
		EXPECT_EQ(0, memcmp(d->__spare, zero, sizeof(d->__spare)));
		/* The NUL and the padding */
		name_end = offsetof(struct statx_dirent, d_name) + d->d_namelen;
		for (i = name_end; i < d->d_reclen; i++)
			if (((const unsigned char *)d)[i])
				break;
		EXPECT_EQ(d->d_reclen, i) TH_LOG("%s: padding", d->d_name);
		if (d->d_error) {
			static const struct statx zstx;

			EXPECT_EQ(0, memcmp(&d->d_stx, &zstx, sizeof(zstx)));
		}
		r = listing_add(l);
		memcpy(&r->d, d, sizeof(r->d));
		memcpy(r->name, d->d_name, d->d_namelen);
		pos += d->d_reclen;
	}
	EXPECT_EQ(len, pos);
	for (i = len; i < size; i++)
		if (buf[i] != STATX_POISON)
			break;
	EXPECT_EQ(size, i) TH_LOG("byte %zu past the %zu returned is written",
				  i, len);
	return pos == len;
}

/* Read @dfd to its end with buffers of @size bytes into @l; 0 or -errno. */
static int list_all(struct __test_metadata *_metadata, int dfd,
		    unsigned int mask, unsigned int flags, size_t size,
		    struct listing *l)
{
	unsigned char *buf = malloc(size);
	ssize_t ret;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		memset(buf, STATX_POISON, size);
		ret = sys_statx_dir(dfd, buf, size, mask, flags);
		if (ret <= 0)
			break;
		if (!parse(_metadata, buf, ret, size, l)) {
			ret = -EBADMSG;
			break;
		}
	}
	free(buf);
	return ret < 0 ? -errno : 0;
}

/* What getdents64() gives, in the same form. */
static int getdents_all(int dfd, struct listing *l)
{
	char buf[8192];
	long n;

	for (;;) {
		long pos = 0;

		n = syscall(__NR_getdents64, dfd, buf, sizeof(buf));
		if (n <= 0)
			return n < 0 ? -errno : 0;
		while (pos < n) {
			struct dirent64 *de = (void *)(buf + pos);
			struct rec *r = listing_add(l);

			r->d.d_ino = de->d_ino;
			r->d.d_off = de->d_off;
			r->d.d_type = de->d_type;
			r->d.d_namelen = strlen(de->d_name);
			snprintf(r->name, sizeof(r->name), "%.*s", NAME_MAX,
				 de->d_name);
			pos += de->d_reclen;
		}
	}
}

/*
 * Is the record of @r what statx() of its name gives now?  And, where
 * @same_ino, is d_ino the number of the inode, unless a mount covers it?
 */
static void check_rec(struct __test_metadata *_metadata, int dfd,
		      const struct rec *r, unsigned int mask,
		      unsigned int flags, bool same_ino)
{
	struct statx want;
	const char *diff;
	int err;

	memset(&want, 0, sizeof(want));
	err = sys_statx(dfd, r->name, NOFOLLOW | flags, mask, &want) ? errno : 0;
	EXPECT_EQ(-err, r->d.d_error) TH_LOG("%s: d_error", r->name);
	if (err || r->d.d_error)
		return;
	/* Reading the directory may move its atime (relatime). */
	if (!strcmp(r->name, "."))
		want.stx_atime = r->d.d_stx.stx_atime;
	diff = statx_stx_diff(&want, &r->d.d_stx);
	EXPECT_TRUE(!diff) TH_LOG("%s, mask %#x: %s", r->name, mask, diff);
	if (same_ino && !(r->d.d_stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) &&
	    strcmp(r->name, ".."))
		EXPECT_EQ(r->d.d_ino, r->d.d_stx.stx_ino) TH_LOG("%s", r->name);
}

/* Make the objects of @dir: one of each type the filesystem takes. */
static void populate(const char *dir, unsigned int files)
{
	char path[PATH_MAX];
	unsigned int i;
	int fd;

	for (i = 0; i < files; i++) {
		snprintf(path, sizeof(path), "%s/F%u", dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd >= 0) {
			if (write(fd, path, i % 7) < 0)
				break;
			close(fd);
		}
	}
	snprintf(path, sizeof(path), "%s/SUBDIR", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/LINK", dir);
	if (symlink("F0", path))
		errno = 0;
	snprintf(path, sizeof(path), "%s/DANGLING", dir);
	if (symlink("NOWHERE", path))
		errno = 0;
	snprintf(path, sizeof(path), "%s/FIFO", dir);
	if (mknod(path, S_IFIFO | 0644, 0))
		errno = 0;
	snprintf(path, sizeof(path), "%s/NULLDEV", dir);
	if (mknod(path, S_IFCHR | 0644, makedev(1, 3)))
		errno = 0;
}

FIXTURE(dir) {
	char dir[64];
	int dfd;
};

FIXTURE_SETUP(dir)
{
	self->dfd = -1;
	if (!statx_private_tmp(_metadata))
		return;
	snprintf(self->dir, sizeof(self->dir), "/tmp/sxdir");
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	populate(self->dir, 40);
	self->dfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, self->dfd);
}

/* The directory goes with the case's mount namespace. */
FIXTURE_TEARDOWN(dir)
{
}

/* Every record is what statx() of its name gives, for each mask. */
TEST_F(dir, records_match_statx)
{
	static const unsigned int masks[] = {
		0, STATX_TYPE, STATX_BASIC_STATS,
		STATX_BASIC_STATS | STATX_BTIME | STATX_MNT_ID_UNIQUE,
		STATX_ALL | STATX_DIOALIGN | STATX_SUBVOL | STATX_IO_PARAMS |
		STATX_GEN | STATX_CHANGE_COOKIE,
		~STATX__RESERVED,
	};
	static const unsigned int syncs[] = {
		AT_STATX_SYNC_AS_STAT, AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC,
	};
	unsigned int m, s, i;

	for (m = 0; m < ARRAY_SIZE(masks); m++) {
		for (s = 0; s < ARRAY_SIZE(syncs); s++) {
			struct listing l = {};

			ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
			ASSERT_EQ(0, list_all(_metadata, self->dfd, masks[m],
					      syncs[s], BUFSIZE, &l));
			ASSERT_LT(2, l.n);
			for (i = 0; i < l.n; i++)
				check_rec(_metadata, self->dfd, &l.r[i],
					  masks[m], syncs[s], true);
			listing_free(&l);
		}
	}
}

#define STX_END(f) \
	(offsetof(struct statx, f) + sizeof(((struct statx *)0)->f))

/*
 * The STATX_* bits a struct statx of @size bytes keeps in a record: those
 * whose fields, as the bit was defined, all lie within @size.
 */
static unsigned int bits_within(size_t size)
{
	static const struct {
		unsigned int bit;
		size_t end;
	} last[] = {
		{ STATX_MNT_ID, STX_END(stx_mnt_id) },
		{ STATX_MNT_ID_UNIQUE, STX_END(stx_mnt_id) },
		{ STATX_DIOALIGN, STX_END(stx_dio_offset_align) },
		{ STATX_SUBVOL, STX_END(stx_subvol) },
		{ STATX_WRITE_ATOMIC, STX_END(stx_atomic_write_segments_max) },
		{ STATX_DIO_READ_ALIGN, STX_END(stx_dio_read_offset_align) },
		{ STATX_IO_PARAMS, STX_END(stx_erase_size) },
		{ STATX_CHANGE_COOKIE, STX_END(stx_change_cookie) },
		{ STATX_GEN, STX_END(stx_gen) },
	};
	unsigned int bits = ~0U, i;

	for (i = 0; i < ARRAY_SIZE(last); i++)
		if (size < last[i].end)
			bits &= ~last[i].bit;
	return bits;
}

/*
 * A caller whose struct statx has another size than this header's: each
 * record holds that many bytes of struct statx, the name after them.  A
 * shorter one (0xb0 and 0xb8: this header's struct without mainline's
 * newest fields, stx_dio_read_offset_align and
 * stx_atomic_write_unit_max_opt, and without the series' fields) gets the
 * first bytes of what statx() gives when asked only for the bits whose
 * fields it holds, and no other bits in stx_mask; a longer one gets all of
 * it, then zeroes.
 */
TEST_F(dir, stx_sizes)
{
	static const size_t sizes[] = {
		0x90, 0xa0, 0xb0, 0xb8, 0xc8, 0xd0, 0xd8, 0xf8, 0x100, 0x108,
		0x140, 0x1000,
	};
	const size_t head = offsetof(struct statx_dirent, d_stx);
	unsigned char *buf = malloc(BUFSIZE);
	struct listing all = {};
	unsigned int k;

	ASSERT_TRUE(!!buf);
	ASSERT_EQ(0, getdents_all(self->dfd, &all));
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		size_t size = sizes[k], part = size < sizeof(struct statx) ?
			      size : sizeof(struct statx);
		unsigned int dropped = 0, n = 0;
		ssize_t ret;

		ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
		for (;;) {
			ssize_t pos = 0, i;

			memset(buf, STATX_POISON, BUFSIZE);
			ret = sys_statx_dir_sized(self->dfd, buf, BUFSIZE,
						  ~STATX__RESERVED, 0, size);
			if (ret == 0)
				break;
			ASSERT_LT(0, ret) TH_LOG("%#zx: %s", size, strerror(errno));
			while (pos < ret) {
				const struct statx_dirent *d = (void *)(buf + pos);
				const unsigned char *stx = buf + pos + head;
				const char *name = (const char *)stx + size;
				struct statx want, full;

				ASSERT_GE(ret - pos, (ssize_t)(head + size + 8));
				ASSERT_EQ(STATX_DIRENT_RECLEN(size, d->d_namelen),
					  d->d_reclen) TH_LOG("%#zx", size);
				ASSERT_GE(ret - pos, (ssize_t)d->d_reclen);
				EXPECT_EQ(d->d_namelen, strnlen(name, NAME_MAX + 1));
				for (i = head + size + d->d_namelen; i < d->d_reclen; i++)
					if (buf[pos + i])
						break;
				EXPECT_EQ(d->d_reclen, i) TH_LOG("%s: padding", name);
				ASSERT_LT(n, all.n);
				EXPECT_STREQ(all.r[n].name, name);
				EXPECT_EQ(0, d->d_error) TH_LOG("%s", name);

				/* The bits it can hold are all it asks for. */
				memset(&want, 0, sizeof(want));
				ASSERT_EQ(0, sys_statx(self->dfd, name, NOFOLLOW,
						       ~STATX__RESERVED &
						       bits_within(size), &want));
				ASSERT_EQ(0, sys_statx(self->dfd, name, NOFOLLOW,
						       ~STATX__RESERVED, &full));
				dropped |= full.stx_mask & ~bits_within(size);
				/* Reading the directory may move its atime. */
				if (!strcmp(name, "."))
					memcpy(&want.stx_atime,
					       stx + offsetof(struct statx, stx_atime),
					       sizeof(want.stx_atime));
				want.stx_mask &= bits_within(size);
				for (i = 0; i < (ssize_t)part; i++)
					if (stx[i] != ((unsigned char *)&want)[i])
						break;
				EXPECT_EQ((ssize_t)part, i)
					TH_LOG("%s, %#zx: byte %#zx of d_stx differs",
					       name, size, i);
				for (i = part; i < (ssize_t)size; i++)
					if (stx[i])
						break;
				EXPECT_EQ((ssize_t)size, i)
					TH_LOG("%s, %#zx: byte %#zx of d_stx not zero",
					       name, size, i);
				n++;
				pos += d->d_reclen;
			}
			for (pos = ret; pos < BUFSIZE; pos++)
				if (buf[pos] != STATX_POISON)
					break;
			EXPECT_EQ(BUFSIZE, pos) TH_LOG("%#zx: byte %zd written",
						       size, pos);
		}
		EXPECT_EQ(all.n, n) TH_LOG("%#zx", size);
		/* tmpfs gives a cookie and a generation to every entry. */
		if (size < STX_END(stx_gen))
			EXPECT_TRUE(dropped & STATX_GEN) TH_LOG("%#zx", size);
		if (size < STX_END(stx_change_cookie))
			EXPECT_TRUE(dropped & STATX_CHANGE_COOKIE)
				TH_LOG("%#zx", size);
	}
	listing_free(&all);
	free(buf);
}

/* The entries are getdents64()'s, in its order, with its d_off. */
TEST_F(dir, entries_match_getdents)
{
	struct listing a = {}, b = {};
	unsigned int i;

	ASSERT_EQ(0, list_all(_metadata, self->dfd, STATX_BASIC_STATS, 0,
			      BUFSIZE, &a));
	ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
	ASSERT_EQ(0, getdents_all(self->dfd, &b));
	ASSERT_EQ(b.n, a.n);
	for (i = 0; i < a.n; i++) {
		EXPECT_STREQ(b.r[i].name, a.r[i].name);
		EXPECT_EQ(b.r[i].d.d_ino, a.r[i].d.d_ino);
		EXPECT_EQ(b.r[i].d.d_off, a.r[i].d.d_off);
		EXPECT_EQ(b.r[i].d.d_type, a.r[i].d.d_type);
		EXPECT_EQ(b.r[i].d.d_namelen, a.r[i].d.d_namelen);
	}
	listing_free(&a);
	listing_free(&b);
}

/*
 * One file position: statx_dir() and getdents64() take turns, one entry
 * each, and between them see every entry once; lseek() to a record's d_off
 * resumes after it; lseek() to 0 starts over; the end stays the end.
 */
TEST_F(dir, cursor_is_the_file_position)
{
	struct listing all = {}, mixed = {}, one = {};
	unsigned char buf[RECLEN(NAME_MAX)];
	unsigned int i;
	ssize_t n;

	ASSERT_EQ(0, getdents_all(self->dfd, &all));
	ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
	for (i = 0;; i++) {
		if (i % 2) {
			char dbuf[sizeof(struct dirent64) + NAME_MAX + 1];
			struct dirent64 *de = (void *)dbuf;
			struct rec *r;

			/* Room for exactly the next entry's record, or less */
			n = syscall(__NR_getdents64, self->dfd, dbuf,
				    mixed.n < all.n ?
				    (offsetof(struct dirent64, d_name) + 8 +
				     strlen(all.r[mixed.n].name)) & ~7UL :
				    sizeof(dbuf));
			if (n == 0)
				break;
			ASSERT_LT(0, n);
			r = listing_add(&mixed);
			snprintf(r->name, sizeof(r->name), "%.*s", NAME_MAX,
				 de->d_name);
		} else {
			memset(buf, STATX_POISON, sizeof(buf));
			n = sys_statx_dir(self->dfd, buf,
					  mixed.n < all.n ?
					  RECLEN(strlen(all.r[mixed.n].name)) :
					  sizeof(buf), STATX_BASIC_STATS, 0);
			if (n == 0)
				break;
			ASSERT_LT(0, n) TH_LOG("%s", strerror(errno));
			ASSERT_TRUE(parse(_metadata, buf, n, sizeof(buf),
					  &mixed));
		}
		ASSERT_GE(all.n, mixed.n);
	}
	ASSERT_EQ(all.n, mixed.n);
	for (i = 0; i < all.n; i++)
		EXPECT_STREQ(all.r[i].name, mixed.r[i].name);

	/* The end stays the end. */
	memset(buf, STATX_POISON, sizeof(buf));
	EXPECT_EQ(0, sys_statx_dir(self->dfd, buf, sizeof(buf), 0, 0));
	EXPECT_EQ(0, sys_statx_dir(self->dfd, buf, sizeof(buf), 0, 0));

	/* After each record, the next one */
	for (i = 0; i + 1 < all.n; i++) {
		ASSERT_EQ(all.r[i].d.d_off,
			  lseek(self->dfd, all.r[i].d.d_off, SEEK_SET));
		memset(buf, STATX_POISON, sizeof(buf));
		n = sys_statx_dir(self->dfd, buf, sizeof(buf), 0, 0);
		ASSERT_LT(0, n);
		listing_free(&one);
		ASSERT_TRUE(parse(_metadata, buf, n, sizeof(buf), &one));
		EXPECT_STREQ(all.r[i + 1].name, one.r[0].name);
	}
	/* From the start again */
	ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
	memset(buf, STATX_POISON, sizeof(buf));
	n = sys_statx_dir(self->dfd, buf, sizeof(buf), 0, 0);
	ASSERT_LT(0, n);
	listing_free(&one);
	ASSERT_TRUE(parse(_metadata, buf, n, sizeof(buf), &one));
	EXPECT_STREQ(all.r[0].name, one.r[0].name);
	listing_free(&one);
	listing_free(&all);
	listing_free(&mixed);
}

/*
 * Buffer sizes: one byte short of the next record is EINVAL and moves
 * nothing; the record's exact size returns it; every size returns whole
 * records, writes nothing past them, and all of them together are the
 * directory.
 */
TEST_F(dir, buffer_sizes)
{
	unsigned char *buf = malloc(BUFSIZE);
	struct listing all = {}, first = {};
	size_t size, reclen, largest = 0;
	unsigned int i;
	ssize_t n;

	ASSERT_TRUE(!!buf);
	ASSERT_EQ(0, list_all(_metadata, self->dfd, 0, 0, BUFSIZE, &all));
	ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
	reclen = all.r[0].d.d_reclen;
	for (i = 0; i < all.n; i++)
		if (all.r[i].d.d_reclen > largest)
			largest = all.r[i].d.d_reclen;
	for (size = 0; size < reclen; size += size < 64 ? 1 : 7) {
		n = sys_statx_dir(self->dfd, buf, size, 0, 0);
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, errno) TH_LOG("size %zu", size);
	}
	memset(buf, STATX_POISON, BUFSIZE);
	n = sys_statx_dir(self->dfd, buf, reclen, 0, 0);
	ASSERT_EQ(reclen, n);
	ASSERT_TRUE(parse(_metadata, buf, n, BUFSIZE, &first));
	EXPECT_STREQ(all.r[0].name, first.r[0].name);
	listing_free(&first);

	/* Any size that holds the largest record reads the directory. */
	for (size = largest; size < largest + 3 * RECLEN(NAME_MAX);
	     size += 8) {
		struct listing l = {};

		ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
		ASSERT_EQ(0, list_all(_metadata, self->dfd, 0, 0, size, &l))
			TH_LOG("size %zu", size);
		ASSERT_EQ(all.n, l.n) TH_LOG("size %zu", size);
		for (i = 0; i < l.n; i++)
			EXPECT_STREQ(all.r[i].name, l.r[i].name);
		listing_free(&l);
	}
	listing_free(&all);
	free(buf);
}

/* Run statx_dir() on @dir as uid 65534 into @buf: the length or -errno. */
static ssize_t list_as_nobody(const char *dir, unsigned char *buf,
			      size_t size, unsigned int mask)
{
	struct {
		ssize_t ret;
	} *shared;
	ssize_t ret = -ECHILD;
	int status;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared) + size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -ENOMEM;
	memset(shared + 1, STATX_POISON, size);
	pid = fork();
	if (pid == 0) {
		int fd;

		if (statx_become_nobody())
			_exit(1);
		fd = open(dir, O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			_exit(2);
		shared->ret = sys_statx_dir(fd, shared + 1, size, mask, 0);
		if (shared->ret < 0)
			shared->ret = -errno;
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = shared->ret;
		memcpy(buf, shared + 1, size);
	}
	munmap(shared, sizeof(*shared) + size);
	return ret;
}

/*
 * As uid 65534: in a directory it may search, the same records as statx()
 * gives uid 65534, generation included; in one it may read but not
 * search, every name, each with EACCES, as fstatat() gives it for each.
 */
TEST_F(dir, as_nobody)
{
	const unsigned int mask = STATX_BASIC_STATS | STATX_BTIME | STATX_GEN;
	unsigned char *buf = malloc(BUFSIZE);
	struct listing l = {};
	unsigned int i;
	struct stat st;
	ssize_t n;

	ASSERT_TRUE(!!buf);
	n = list_as_nobody(self->dir, buf, BUFSIZE, mask);
	ASSERT_LT(0, n) TH_LOG("%s", strerror(-n));
	ASSERT_TRUE(parse(_metadata, buf, n, BUFSIZE, &l));
	ASSERT_LT(2, l.n);
	for (i = 0; i < l.n; i++) {
		struct statx want;
		const char *diff;
		int err;

		memset(&want, 0, sizeof(want));
		err = statx_as_nobody(self->dfd, l.r[i].name, NOFOLLOW, mask,
				      &want);
		ASSERT_LE(0, err);
		EXPECT_EQ(-err, l.r[i].d.d_error) TH_LOG("%s", l.r[i].name);
		if (err || !strcmp(l.r[i].name, "."))
			continue;
		diff = statx_stx_diff(&want, &l.r[i].d.d_stx);
		EXPECT_TRUE(!diff) TH_LOG("%s: %s", l.r[i].name, diff);
	}
	listing_free(&l);

	ASSERT_EQ(0, chmod(self->dir, 0744));
	ASSERT_EQ(0, stat(self->dir, &st));
	ASSERT_EQ(0744, st.st_mode & 07777);
	n = list_as_nobody(self->dir, buf, BUFSIZE, mask);
	ASSERT_LT(0, n) TH_LOG("%s", strerror(-n));
	ASSERT_TRUE(parse(_metadata, buf, n, BUFSIZE, &l));
	ASSERT_LT(2, l.n);
	for (i = 0; i < l.n; i++) {
		struct statx want;

		EXPECT_EQ(-EACCES, l.r[i].d.d_error) TH_LOG("%s", l.r[i].name);
		EXPECT_EQ(EACCES, statx_as_nobody(self->dfd, l.r[i].name,
						  NOFOLLOW, mask, &want));
		EXPECT_NE(0, l.r[i].d.d_namelen);
	}
	EXPECT_EQ(0, chmod(self->dir, 0755));
	listing_free(&l);
	free(buf);
}

/*
 * Entries that come and go while the directory is read: every record is
 * whole, an entry that was there throughout is there with its own
 * attributes, and one that went has ENOENT or the attributes of a file.
 */
TEST_F(dir, concurrent_changes)
{
	struct listing keep = {};
	unsigned int pass, i, j;
	pid_t pid;

	ASSERT_EQ(0, list_all(_metadata, self->dfd, STATX_BASIC_STATS, 0,
			      BUFSIZE, &keep));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char a[PATH_MAX], b[PATH_MAX];

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (i = 0;; i++) {
			int fd;

			snprintf(a, sizeof(a), "%s/T%u", self->dir, i % 64);
			snprintf(b, sizeof(b), "%s/R%u", self->dir, i % 64);
			fd = open(a, O_CREAT | O_WRONLY, 0644);
			if (fd >= 0)
				close(fd);
			if (i % 3 == 0)
				rename(a, b);
			if (i % 5 == 0)
				unlink(b);
			if (i % 2 == 0)
				unlink(a);
		}
	}
	for (pass = 0; pass < 20; pass++) {
		struct listing l = {};

		ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
		ASSERT_EQ(0, list_all(_metadata, self->dfd, STATX_BASIC_STATS,
				      0, 4096, &l));
		for (i = 0; i < keep.n; i++) {
			for (j = 0; j < l.n; j++)
				if (!strcmp(keep.r[i].name, l.r[j].name))
					break;
			if (j == l.n) {
				/* tmpfs keeps its entries in creation order */
				TH_LOG("%s missing", keep.r[i].name);
				_metadata->exit_code = KSFT_FAIL;
				continue;
			}
			if (!strcmp(l.r[j].name, "."))
				continue;
			EXPECT_EQ(0, l.r[j].d.d_error);
			EXPECT_EQ(keep.r[i].d.d_stx.stx_ino,
				  l.r[j].d.d_stx.stx_ino);
			EXPECT_EQ(keep.r[i].d.d_stx.stx_mode,
				  l.r[j].d.d_stx.stx_mode);
		}
		for (j = 0; j < l.n; j++) {
			if (l.r[j].name[0] != 'T' && l.r[j].name[0] != 'R')
				continue;
			if (l.r[j].d.d_error) {
				EXPECT_EQ(-ENOENT, l.r[j].d.d_error);
				continue;
			}
			EXPECT_TRUE(S_ISREG(l.r[j].d.d_stx.stx_mode));
		}
		listing_free(&l);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	listing_free(&keep);
}

/*
 * A mount on a subdirectory: its record is the mounted root, as statx()
 * of the name gives it, while d_ino stays the covered directory's number.
 */
TEST_F(dir, mount_on_entry)
{
	struct listing l = {};
	char sub[PATH_MAX];
	struct stat covered;
	unsigned int i;

	snprintf(sub, sizeof(sub), "%s/SUBDIR", self->dir);
	ASSERT_EQ(0, lstat(sub, &covered));
	ASSERT_EQ(0, mount("sxdir", sub, "tmpfs", 0, NULL));
	ASSERT_EQ(0, list_all(_metadata, self->dfd, STATX_BASIC_STATS |
			      STATX_MNT_ID_UNIQUE, 0, BUFSIZE, &l));
	for (i = 0; i < l.n; i++)
		if (!strcasecmp(l.r[i].name, "SUBDIR"))
			break;
	ASSERT_GT(l.n, i);
	EXPECT_EQ(covered.st_ino, l.r[i].d.d_ino);
	EXPECT_TRUE(l.r[i].d.d_stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	check_rec(_metadata, self->dfd, &l.r[i], STATX_BASIC_STATS |
		  STATX_MNT_ID_UNIQUE, 0, false);
	EXPECT_EQ(0, umount2(sub, MNT_DETACH));
	listing_free(&l);
}

/* The record named @name in @l, or NULL */
static const struct rec *find_rec(const struct listing *l, const char *name)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->r[i].name, name))
			return &l->r[i];
	return NULL;
}

/*
 * ".." as a path walk takes it: at the root of a bind mount, the parent of
 * what the bind mount is mounted on; from a directory opened through a
 * bind mount and then moved out of what that mount shows, ENOENT, as
 * statx(fd, "..") gives, and not the attributes of its new parent, a
 * directory the caller's mount does not expose.
 */
TEST_F(dir, dotdot_outside_bind_mount)
{
	static const char *const dirs[] = {
		"/tmp/sxdir/a", "/tmp/sxdir/a/b", "/tmp/sxdir/a/b/c",
		"/tmp/sxdir/secret", "/tmp/sxbind",
	};
	const unsigned int mask = STATX_BASIC_STATS | STATX_MNT_ID_UNIQUE;
	struct listing l = {};
	const struct rec *r;
	struct statx stx;
	struct stat tmp;
	unsigned int i;
	int fd, rootfd;

	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		ASSERT_EQ(0, mkdir(dirs[i], 0755)) TH_LOG("%s", dirs[i]);
	ASSERT_EQ(0, chmod("/tmp/sxdir/secret", 0700));
	ASSERT_EQ(0, chown("/tmp/sxdir/secret", 4321, 4321));
	ASSERT_EQ(0, mount("/tmp/sxdir/a/b", "/tmp/sxbind", NULL, MS_BIND,
			   NULL));
	ASSERT_EQ(0, stat("/tmp", &tmp));

	/* The bind mount's root: ".." leaves it for /tmp, as a walk does */
	rootfd = open("/tmp/sxbind", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, rootfd);
	ASSERT_EQ(0, list_all(_metadata, rootfd, mask, 0, BUFSIZE, &l));
	r = find_rec(&l, "..");
	ASSERT_TRUE(!!r);
	EXPECT_EQ(0, r->d.d_error);
	EXPECT_EQ(tmp.st_ino, r->d.d_stx.stx_ino);
	check_rec(_metadata, rootfd, r, mask, 0, false);
	listing_free(&l);

	/* A directory under it: ".." is the bind mount's root */
	fd = open("/tmp/sxbind/c", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, list_all(_metadata, fd, mask, 0, BUFSIZE, &l));
	r = find_rec(&l, "..");
	ASSERT_TRUE(!!r);
	EXPECT_EQ(0, r->d.d_error);
	EXPECT_TRUE(r->d.d_stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	check_rec(_metadata, fd, r, mask, 0, false);
	listing_free(&l);

	/* Moved, through the other mount, out of what the bind mount shows */
	ASSERT_EQ(0, rename("/tmp/sxdir/a/b/c", "/tmp/sxdir/secret/c"));
	memset(&stx, 0, sizeof(stx));
	EXPECT_EQ(-1, sys_statx(fd, "..", NOFOLLOW, mask, &stx));
	EXPECT_EQ(ENOENT, errno);
	ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
	ASSERT_EQ(0, list_all(_metadata, fd, mask, 0, BUFSIZE, &l));
	r = find_rec(&l, "..");
	ASSERT_TRUE(!!r);
	EXPECT_EQ(-ENOENT, r->d.d_error)
		TH_LOG("\"..\" gave the inode %llu, owner %u, mode %o",
		       (unsigned long long)r->d.d_stx.stx_ino,
		       r->d.d_stx.stx_uid, r->d.d_stx.stx_mode);
	check_rec(_metadata, fd, r, mask, 0, false);
	r = find_rec(&l, ".");
	ASSERT_TRUE(!!r);
	EXPECT_EQ(0, r->d.d_error);
	listing_free(&l);
	close(fd);
	close(rootfd);
	EXPECT_EQ(0, umount2("/tmp/sxbind", MNT_DETACH));
}

/* Names of 1 to NAME_MAX bytes */
TEST_F(dir, name_lengths)
{
	char name[NAME_MAX + 1], path[PATH_MAX];
	struct listing l = {};
	unsigned int len, i;
	int dfd, fd;

	snprintf(path, sizeof(path), "%s/names", self->dir);
	ASSERT_EQ(0, mkdir(path, 0755));
	dfd = open(path, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dfd);
	for (len = 1; len <= NAME_MAX; len++) {
		memset(name, 'n', len);
		name[len] = '\0';
		fd = openat(dfd, name, O_CREAT | O_WRONLY, 0644);
		ASSERT_LE(0, fd) TH_LOG("a name of %u bytes: %m", len);
		close(fd);
	}
	close(dfd);
	dfd = open(path, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, list_all(_metadata, dfd, STATX_BASIC_STATS, 0, BUFSIZE,
			      &l));
	EXPECT_EQ(NAME_MAX + 2, l.n);
	for (i = 0; i < l.n; i++)
		check_rec(_metadata, dfd, &l.r[i], STATX_BASIC_STATS, 0, true);
	listing_free(&l);
	close(dfd);
}

/* The errors of the call, each with nothing written and nothing read. */
TEST_F(dir, errors)
{
	unsigned char *buf = malloc(BUFSIZE), *none;
	char file[PATH_MAX], gone[PATH_MAX];
	struct listing a = {}, b = {};
	int fd;

	ASSERT_TRUE(!!buf);
	memset(buf, STATX_POISON, BUFSIZE);
	EXPECT_EQ(-1, sys_statx_dir(-1, buf, BUFSIZE, 0, 0));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, sys_statx_dir(1000000, buf, BUFSIZE, 0, 0));
	EXPECT_EQ(EBADF, errno);

	fd = open(self->dir, O_PATH | O_DIRECTORY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, sys_statx_dir(fd, buf, BUFSIZE, 0, 0));
	EXPECT_EQ(EBADF, errno);
	close(fd);

	snprintf(file, sizeof(file), "%s/F1", self->dir);
	fd = open(file, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, sys_statx_dir(fd, buf, BUFSIZE, 0, 0));
	EXPECT_EQ(ENOTDIR, errno);
	close(fd);

	snprintf(gone, sizeof(gone), "%s/gone", self->dir);
	ASSERT_EQ(0, mkdir(gone, 0755));
	fd = open(gone, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rmdir(gone));
	EXPECT_EQ(-1, sys_statx_dir(fd, buf, BUFSIZE, 0, 0));
	EXPECT_EQ(ENOENT, errno);
	close(fd);

	EXPECT_EQ(-1, sys_statx_dir(self->dfd, buf, BUFSIZE, 0,
				    AT_SYMLINK_NOFOLLOW));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_statx_dir(self->dfd, buf, BUFSIZE, 0, 0x80000000));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_statx_dir(self->dfd, buf, BUFSIZE, 0,
				    AT_STATX_SYNC_TYPE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_statx_dir(self->dfd, buf, BUFSIZE, STATX__RESERVED,
				    0));
	EXPECT_EQ(EINVAL, errno);
	/* A struct statx too small, too large, or not in multiples of 8 */
	EXPECT_EQ(-1, sys_statx_dir_sized(self->dfd, buf, BUFSIZE, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_statx_dir_sized(self->dfd, buf, BUFSIZE, 0, 0, 0x88));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_statx_dir_sized(self->dfd, buf, BUFSIZE, 0, 0, 0xfc));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_statx_dir_sized(self->dfd, buf, BUFSIZE, 0, 0,
					  0x1008));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_statx_dir_sized(self->dfd, buf, BUFSIZE, 0, 0,
					  (size_t)-8));
	EXPECT_EQ(EINVAL, errno);
	/* None of these read anything: the first records are still due. */
	EXPECT_EQ(0, lseek(self->dfd, 0, SEEK_CUR));
	EXPECT_EQ(STATX_POISON, buf[0]);

	/* An unmapped buffer: EFAULT, and the position does not move. */
	ASSERT_EQ(0, getdents_all(self->dfd, &a));
	ASSERT_EQ(0, lseek(self->dfd, 0, SEEK_SET));
	none = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(none != MAP_FAILED);
	ASSERT_EQ(0, munmap(none + 4096, 4096));
	EXPECT_EQ(-1, sys_statx_dir(self->dfd, none + 4096, 4096, 0, 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(0, lseek(self->dfd, 0, SEEK_CUR));

	/*
	 * A buffer that ends in the hole: the records before it, and the
	 * position after them, so that the next call goes on from there.
	 */
	fd = sys_statx_dir(self->dfd, none + 4096 - 600, 8192, 0, 0);
	ASSERT_LT(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_TRUE(parse(_metadata, none + 4096 - 600, fd, fd, &b));
	ASSERT_EQ(0, list_all(_metadata, self->dfd, 0, 0, BUFSIZE, &b));
	ASSERT_EQ(a.n, b.n);
	for (fd = 0; fd < (int)a.n; fd++)
		EXPECT_STREQ(a.r[fd].name, b.r[fd].name);
	munmap(none, 4096);
	listing_free(&a);
	listing_free(&b);
	free(buf);
}

TEST_HARNESS_MAIN
