// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing leaks through struct statx, and what a caller asks for decides
 * what it gets.  For each request mask (see statx_masks()) the buffer is
 * filled with a poison byte first, and then:
 *
 * - the kernel wrote every byte: the result equals the same request made
 *   into a zeroed buffer;
 * - every byte that is no field of the table in statx_helpers.h (spare
 *   words, the __reserved word of each timestamp) is zero;
 * - a field whose mask bit came back holds the value it has when its bit
 *   alone is asked for;
 * - a field whose bit did not come back is zero, except that a basic
 *   field may instead hold the fabricated value stat() shows;
 * - stx_mask has no bit the headers do not define, and stx_attributes is
 *   a subset of stx_attributes_mask, itself a subset of the known flags.
 *
 * On a tmpfs of the case's own, on pseudo files of filesystems it mounts
 * and on the node of a loop device it adds, whose STATX_DIOALIGN comes
 * from the device.  The three sync modes give the same answer.
 */
#include "statx_helpers.h"
#include "../kselftest_harness.h"

#define NFIELDS ARRAY_SIZE(statx_fields)

static bool same_field(const struct statx_field *f, const struct statx *a,
		       const struct statx *b)
{
	return !memcmp((const char *)a + f->offset,
		       (const char *)b + f->offset, f->size);
}

static bool zero_field(const struct statx_field *f, const struct statx *a)
{
	static const struct statx zero;

	return same_field(f, a, &zero);
}

/* stx_mask and the attribute words are checked by the subset rules. */
static bool checked_by_rules(const struct statx_field *f)
{
	return f->offset == offsetof(struct statx, stx_mask) ||
	       f->offset == offsetof(struct statx, stx_attributes) ||
	       f->offset == offsetof(struct statx, stx_attributes_mask);
}

/* Is byte range of @f shared with a field the result @got fills? */
static bool overlaps_valid(const struct statx_field *f, unsigned int got)
{
	const struct statx_field *o;
	unsigned int i;

	for (i = 0; i < NFIELDS; i++) {
		o = &statx_fields[i];
		if (o != f && statx_field_valid(o, got) &&
		    o->offset < f->offset + f->size &&
		    f->offset < o->offset + o->size)
			return true;
	}
	return false;
}

/*
 * Check every request mask on (@dfd, @path, @flags).  Returns the number
 * of requests checked.
 */
static int check_no_leak(struct __test_metadata *_metadata, int dfd,
			 const char *path, unsigned int flags)
{
	static struct statx ref[NFIELDS];
	unsigned int masks[STATX_MAX_MASKS], nm, i, m, b, got;
	const struct statx_field *f;
	unsigned char *p;
	struct statx zero, pois;
	const char *name;

	for (i = 0; i < NFIELDS; i++) {
		memset(&ref[i], 0, sizeof(ref[i]));
		ASSERT_EQ(0, sys_statx(dfd, path, flags, statx_fields[i].mask,
				       &ref[i])) {
			TH_LOG("%s: %s", path, strerror(errno));
		}
	}
	nm = statx_masks(masks);
	for (m = 0; m < nm; m++) {
		memset(&zero, 0, sizeof(zero));
		memset(&pois, STATX_POISON, sizeof(pois));
		ASSERT_EQ(0, sys_statx(dfd, path, flags, masks[m], &zero));
		ASSERT_EQ(0, sys_statx(dfd, path, flags, masks[m], &pois));
		got = pois.stx_mask;

		/* The kernel wrote all 256 bytes. */
		p = (unsigned char *)&pois;
		for (b = 0; b < sizeof(pois); b++) {
			if (p[b] == ((unsigned char *)&zero)[b])
				continue;
			name = statx_field_at(b);
			TH_LOG("%s mask %#x: byte %#x (%s) not written",
			       path, masks[m], b, name ?: "no field");
			_metadata->exit_code = KSFT_FAIL;
			break;
		}

		EXPECT_EQ(0, got & ~statx_known_mask()) {
			TH_LOG("%s mask %#x: unknown bits in stx_mask %#x",
			       path, masks[m], got);
		}
		EXPECT_EQ(0, pois.stx_attributes & ~pois.stx_attributes_mask);
		EXPECT_EQ(0, pois.stx_attributes_mask & ~statx_known_attrs()) {
			TH_LOG("%s mask %#x: attributes_mask %#llx", path,
			       masks[m],
			       (unsigned long long)pois.stx_attributes_mask);
		}

		/* Bytes that are no field are zero. */
		for (b = 0; b < sizeof(pois); b++) {
			if (statx_field_at(b) || !p[b])
				continue;
			TH_LOG("%s mask %#x: byte %#x is %#x, not a field",
			       path, masks[m], b, p[b]);
			_metadata->exit_code = KSFT_FAIL;
		}

		for (i = 0; i < NFIELDS; i++) {
			f = &statx_fields[i];
			if (checked_by_rules(f))
				continue;
			if (statx_field_valid(f, got)) {
				/* Returned: what its own bit gives. */
				EXPECT_TRUE(statx_field_valid(f,
							      ref[i].stx_mask));
				EXPECT_TRUE(same_field(f, &pois, &ref[i])) {
					TH_LOG("%s mask %#x: %s differs", path,
					       masks[m], f->name);
				}
				continue;
			}
			if (overlaps_valid(f, got))
				continue;
			if (!(f->mask & ~STATX_BASIC_STATS)) {
				/* A fabricated basic field is stable. */
				EXPECT_TRUE(zero_field(f, &pois) ||
					    same_field(f, &pois, &ref[i])) {
					TH_LOG("%s mask %#x: %s differs", path,
					       masks[m], f->name);
				}
				continue;
			}
			EXPECT_TRUE(zero_field(f, &pois)) {
				TH_LOG("%s mask %#x: %s not returned but set",
				       path, masks[m], f->name);
			}
		}
	}
	return nm;
}

FIXTURE(leak) {
	char dir[64];
};

FIXTURE_SETUP(leak)
{
	if (!statx_private_tmp(_metadata))
		return;
	snprintf(self->dir, sizeof(self->dir), "/tmp/leak");
	ASSERT_EQ(0, mkdir(self->dir, 0755));
}

/* Everything goes with the case's mount namespace. */
FIXTURE_TEARDOWN(leak)
{
}

TEST_F(leak, mount_root)
{
	check_no_leak(_metadata, AT_FDCWD, "/tmp", 0);
}

TEST_F(leak, regular_file)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/file", self->dir);
	fd = open(path, O_CREAT | O_RDWR | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "data\n", 5));
	check_no_leak(_metadata, AT_FDCWD, path, 0);
	/* The descriptor path of the system call */
	check_no_leak(_metadata, fd, "", AT_EMPTY_PATH);
	close(fd);
}

TEST_F(leak, directory)
{
	check_no_leak(_metadata, AT_FDCWD, self->dir, 0);
}

TEST_F(leak, symlink)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/link", self->dir);
	ASSERT_EQ(0, symlink("target", path));
	check_no_leak(_metadata, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW);
}

TEST_F(leak, fifo)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/fifo", self->dir);
	ASSERT_EQ(0, mknod(path, S_IFIFO | 0644, 0));
	check_no_leak(_metadata, AT_FDCWD, path, 0);
}

/*
 * The same as a caller without privilege, who may be refused fields that
 * root gets: those must then be zero too.  Each case runs in a process of
 * its own, so dropping privilege here is local to it.
 */
TEST_F(leak, unprivileged)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/file", self->dir);
	fd = open(path, O_CREAT | O_RDWR | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "data\n", 5));
	ASSERT_EQ(0, statx_become_nobody());
	check_no_leak(_metadata, AT_FDCWD, path, 0);
	check_no_leak(_metadata, fd, "", AT_EMPTY_PATH);
	check_no_leak(_metadata, AT_FDCWD, self->dir, 0);
	close(fd);
}

/*
 * The three sync modes are accepted and, for a file nobody changes, give
 * the same answer to the byte, for every field there is.
 */
TEST_F(leak, sync_modes)
{
	static const unsigned int modes[] = {
		AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC,
	};
	const unsigned int mask = statx_known_mask();
	struct statx as_stat, other;
	const char *diff;
	char path[128];
	unsigned int i;

	snprintf(path, sizeof(path), "%s/file", self->dir);
	ASSERT_EQ(0, statx_put_file(path, "data\n", 5));
	memset(&as_stat, STATX_POISON, sizeof(as_stat));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, AT_STATX_SYNC_AS_STAT, mask,
			       &as_stat));
	EXPECT_EQ(5, as_stat.stx_size);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		memset(&other, STATX_POISON, sizeof(other));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, path, modes[i], mask, &other));
		diff = statx_stx_diff(&as_stat, &other);
		EXPECT_TRUE(!diff) {
			TH_LOG("flags %#x: %s", modes[i], diff);
		}
	}
}

/*
 * Pseudo files, device nodes and a loop device, on filesystems the case
 * mounts in its own namespace.
 */
FIXTURE(pseudo) {
	struct statx_pseudo ps;
	int loop_nr;
};

FIXTURE_SETUP(pseudo)
{
	char why[160];
	int ret;

	self->loop_nr = -1;
	if (!statx_private_tmp(_metadata))
		return;
	ret = statx_pseudo_make(&self->ps, &self->loop_nr, why, sizeof(why));
	if (ret > 0)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(0, ret) {
		TH_LOG("%s", why);
	}
}

FIXTURE_TEARDOWN_PARENT(pseudo)
{
	statx_loop_remove(self->loop_nr);
}

TEST_F(pseudo, pseudo_files)
{
	unsigned int i;

	for (i = 0; i < self->ps.n; i++)
		check_no_leak(_metadata, AT_FDCWD, self->ps.paths[i], 0);
}

/* Read /tmp/sys/dev/block/MA:MI/ATTR as a number. */
static unsigned long sysfs_block(struct __test_metadata *_metadata,
				 const struct statx *stx, const char *attr)
{
	unsigned long val = 0;
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/sys/dev/block/%u:%u/%s",
		 stx->stx_rdev_major, stx->stx_rdev_minor, attr);
	f = fopen(path, "r");
	EXPECT_TRUE(f && fscanf(f, "%lu", &val) == 1) {
		TH_LOG("%s: %s", path, strerror(errno));
	}
	if (f)
		fclose(f);
	return val;
}

/*
 * The node of a block device: STATX_DIOALIGN is the device's own
 * alignment (bdev_statx()), whatever filesystem holds the node, and only
 * when asked for.
 */
TEST_F(pseudo, block_device_node)
{
	struct statx stx;

	memset(&stx, STATX_POISON, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->ps.bdev, 0,
			       STATX_BASIC_STATS | STATX_DIOALIGN, &stx));
	EXPECT_EQ(S_IFBLK, stx.stx_mode & S_IFMT);
	ASSERT_EQ(STATX_DIOALIGN, stx.stx_mask & STATX_DIOALIGN);
	/* The loop device was given 4096-byte blocks. */
	EXPECT_EQ(4096, stx.stx_dio_offset_align);
	EXPECT_EQ(sysfs_block(_metadata, &stx, "queue/logical_block_size"),
		  stx.stx_dio_offset_align);
	EXPECT_EQ(sysfs_block(_metadata, &stx, "queue/dma_alignment") + 1,
		  stx.stx_dio_mem_align);

	memset(&stx, STATX_POISON, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->ps.bdev, 0, STATX_BASIC_STATS,
			       &stx));
	EXPECT_EQ(0, stx.stx_mask & STATX_DIOALIGN);
	EXPECT_EQ(0, stx.stx_dio_offset_align);
	EXPECT_EQ(0, stx.stx_dio_mem_align);

	check_no_leak(_metadata, AT_FDCWD, self->ps.bdev, 0);
}

TEST_HARNESS_MAIN
