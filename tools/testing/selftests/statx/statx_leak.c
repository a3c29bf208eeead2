// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing leaks through struct statx.  For each request mask (see
 * statx_masks()) the buffer is filled with a poison byte first, and then:
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
 * A field added to the table is checked the same way.
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
	char dir[128];
};

FIXTURE_VARIANT(leak) {
	const struct statx_fs *fs;
};

FIXTURE_VARIANT_ADD(leak, tmpfs) { .fs = STATX_FS(TMPFS) };
FIXTURE_VARIANT_ADD(leak, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(leak, ext4_lbs4k) { .fs = STATX_FS(EXT4_LBS4K) };
FIXTURE_VARIANT_ADD(leak, xfs) { .fs = STATX_FS(XFS) };
FIXTURE_VARIANT_ADD(leak, btrfs) { .fs = STATX_FS(BTRFS) };
FIXTURE_VARIANT_ADD(leak, vfat) { .fs = STATX_FS(VFAT) };
FIXTURE_VARIANT_ADD(leak, msdos) { .fs = STATX_FS(MSDOS) };
FIXTURE_VARIANT_ADD(leak, exfat) { .fs = STATX_FS(EXFAT) };
FIXTURE_VARIANT_ADD(leak, ntfs3) { .fs = STATX_FS(NTFS3) };

FIXTURE_SETUP(leak)
{
	enum statx_verdict v;
	char why[160];

	v = statx_fs_mkdtemp(variant->fs, "leak", self->dir, sizeof(self->dir),
			     why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
}

/* In the parent: the unprivileged case cannot remove what root made. */
FIXTURE_TEARDOWN_PARENT(leak)
{
	statx_rmtree(self->dir);
}

TEST_F(leak, mount_root)
{
	char root[64];

	statx_fs_root(variant->fs, root, sizeof(root));
	check_no_leak(_metadata, AT_FDCWD, root, 0);
}

TEST_F(leak, regular_file)
{
	char path[256];
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
	char path[256];

	snprintf(path, sizeof(path), "%s/link", self->dir);
	if (symlink("target", path)) {
		ASSERT_EQ(variant->fs->symlink_errno, errno);
		STATX_SKIP(return, "%s cannot store symlinks",
			   variant->fs->fstype);
	}
	check_no_leak(_metadata, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW);
}

TEST_F(leak, fifo)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/fifo", self->dir);
	if (mknod(path, S_IFIFO | 0644, 0)) {
		ASSERT_EQ(variant->fs->special_errno, errno);
		STATX_SKIP(return, "%s cannot store fifos",
			   variant->fs->fstype);
	}
	check_no_leak(_metadata, AT_FDCWD, path, 0);
}

/*
 * The same as a caller without privilege, who may be refused fields that
 * root gets: those must then be zero too.  Each test runs in a process of
 * its own, so dropping privilege here is local to it.
 */
TEST_F(leak, unprivileged)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/file", self->dir);
	fd = open(path, O_CREAT | O_RDWR | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "data\n", 5));
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		STATX_SKIP(return, "cannot switch to uid 65534 (not root)");
	check_no_leak(_metadata, AT_FDCWD, path, 0);
	check_no_leak(_metadata, fd, "", AT_EMPTY_PATH);
	check_no_leak(_metadata, AT_FDCWD, self->dir, 0);
	close(fd);
}

/*
 * Files of filesystems without a disk, and device nodes.  Not /proc
 * itself: its link count follows the number of tasks.
 */
TEST(pseudo_files)
{
	static const char *const paths[] = {
		"/", "/proc/1", "/proc/self/status", "/proc/self/exe", "/sys",
		"/sys/kernel", "/dev", "/dev/null", "/sys/kernel/debug",
		"/sys/fs/cgroup", "/sys/kernel/config", "/tmp",
	};
	struct statx stx;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		if (sys_statx(AT_FDCWD, paths[i], 0, 0, &stx))
			continue;	/* not mounted here */
		check_no_leak(_metadata, AT_FDCWD, paths[i], 0);
	}
}

/* A block device node: STATX_DIOALIGN comes from the device itself. */
TEST(block_device_node)
{
	char node[64];
	struct stat st;

	snprintf(node, sizeof(node), "/dev/vda");
	if (stat(node, &st) || !S_ISBLK(st.st_mode))
		STATX_SKIP(return, "no virtio disk /dev/vda");
	check_no_leak(_metadata, AT_FDCWD, node, 0);
}

int main(int argc, char **argv)
{
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
