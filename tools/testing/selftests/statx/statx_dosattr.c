// SPDX-License-Identifier: GPL-2.0
/*
 * statx() DOS attributes (hidden, system, archive, read-only) and foreign
 * ownership, checked against the filesystems' own interfaces and against
 * the attribute bytes other systems' tools wrote into images.
 *
 * The images mkimages.sh makes with other systems' tools when the
 * selftests are built carry files named ATTR-XX whose attribute byte is
 * 0xXX, so the name is the truth those tools wrote.
 * On a kernel that does not report DOS attributes every case that needs
 * them is skipped.
 */
#include "statx_caps.h"

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/xattr.h>
#include <linux/msdos_fs.h>

#include "../kselftest_harness.h"

/* The flags, for headers that predate them. */
#ifndef STATX_ATTR_HIDDEN
#define STATX_ATTR_HIDDEN		0x00800000ULL
#define STATX_ATTR_SYSTEM		0x01000000ULL
#define STATX_ATTR_ARCHIVE		0x02000000ULL
#define STATX_ATTR_DOS_READONLY		0x04000000ULL
#endif
#ifndef STATX_ATTR_FOREIGN_OWNER
#define STATX_ATTR_FOREIGN_OWNER	0x08000000ULL
#endif

#define DOS_FLAGS	(STATX_ATTR_HIDDEN | STATX_ATTR_SYSTEM | \
			 STATX_ATTR_ARCHIVE | STATX_ATTR_DOS_READONLY)
#define ALL_FLAGS	(DOS_FLAGS | STATX_ATTR_FOREIGN_OWNER)

/* The attribute bits as FAT, exFAT and NTFS store them. */
#define DOS_RO		0x01
#define DOS_HIDDEN	0x02
#define DOS_SYSTEM	0x04
#define DOS_DIR		0x10
#define DOS_ARCHIVE	0x20
#define DOS_BITS	(DOS_RO | DOS_HIDDEN | DOS_SYSTEM | DOS_ARCHIVE)

/* What statx must report for the attribute byte @dos. */
static uint64_t dos_to_statx(unsigned int dos)
{
	return (dos & DOS_RO ? STATX_ATTR_DOS_READONLY : 0) |
	       (dos & DOS_HIDDEN ? STATX_ATTR_HIDDEN : 0) |
	       (dos & DOS_SYSTEM ? STATX_ATTR_SYSTEM : 0) |
	       (dos & DOS_ARCHIVE ? STATX_ATTR_ARCHIVE : 0);
}

/* How the filesystem itself reads and sets the attribute bits. */
enum dos_iface { FAT_IOCTL, NTFS_XATTR };

static int dos_get(int fd, enum dos_iface how, unsigned int *dos)
{
	uint32_t v;

	if (how == FAT_IOCTL) {
		if (ioctl(fd, FAT_IOCTL_GET_ATTRIBUTES, &v))
			return -1;
	} else if (fgetxattr(fd, "system.ntfs_attrib", &v, sizeof(v)) != sizeof(v)) {
		return -1;
	}
	*dos = v;
	return 0;
}

/* Set the DOS bits of @fd to @dos, keeping its other attribute bits. */
static int dos_set(int fd, enum dos_iface how, unsigned int dos)
{
	unsigned int old;
	uint32_t v;

	if (dos_get(fd, how, &old))
		return -1;
	v = (old & ~DOS_BITS) | dos;
	if (how == FAT_IOCTL)
		return ioctl(fd, FAT_IOCTL_SET_ATTRIBUTES, &v);
	return fsetxattr(fd, "system.ntfs_attrib", &v, sizeof(v), 0);
}

/*
 * Must the kernel report DOS attributes for @fstype?  statx_caps.h decides,
 * not the kernel's answer, so that a filesystem that stops reporting them
 * fails the checks that follow instead of skipping them; only a kernel
 * that predates the table (statx_caps_kernel()) is not asked.
 */
static bool dos_expected(const char *fstype)
{
	return statx_caps_kernel() && statx_caps_attr(fstype, CAPS_DOS);
}

/* Does @fd carry the EA in which ntfs3 stores the owner ("$LXUID")? */
static bool has_lxuid(int fd)
{
	char list[4096];
	ssize_t len = flistxattr(fd, list, sizeof(list));
	ssize_t i;

	for (i = 0; i < len; i += strlen(list + i) + 1)
		if (!strcmp(list + i, "$LXUID"))
			return true;
	return false;
}

/* Parse "ATTR-XX" (any case) into the attribute byte 0xXX. */
static bool parse_attr_name(const char *name, unsigned int *dos)
{
	char *end;

	if (strncasecmp(name, "attr-", 5) || !isxdigit(name[5]) ||
	    !isxdigit(name[6]) || name[7])
		return false;
	*dos = strtoul(name + 5, &end, 16);
	return true;
}

/*
 * Files whose attributes other systems' tools set: statx reports exactly the
 * bits in their names, the filesystem's own interface agrees, and their
 * ownership is reported as synthesized.
 */
FIXTURE(host_image) {
	char dir[128];
};

FIXTURE_VARIANT(host_image) {
	const char *image;
	const char *fstype;
	enum dos_iface how;
	int files;	/* how many ATTR-XX mkimages.sh made */
};

FIXTURE_VARIANT_ADD(host_image, vfat) {
	.image = "vfat-attr", .fstype = "vfat", .how = FAT_IOCTL, .files = 23,
};

FIXTURE_VARIANT_ADD(host_image, msdos) {
	.image = "msdos-attr", .fstype = "msdos", .how = FAT_IOCTL, .files = 23,
};

FIXTURE_VARIANT_ADD(host_image, exfat) {
	.image = "exfat-attr", .fstype = "exfat", .how = FAT_IOCTL, .files = 16,
};

FIXTURE_VARIANT_ADD(host_image, ntfs3) {
	.image = "ntfs3-attr", .fstype = "ntfs3", .how = NTFS_XATTR, .files = 16,
};

FIXTURE_SETUP(host_image)
{
	enum statx_verdict v;
	char why[160];

	v = statx_fs_given(variant->image, variant->fstype, false, self->dir,
			   sizeof(self->dir), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	if (!statx_caps_kernel())
		STATX_SKIP(return, "the kernel predates the DOS attributes");
	ASSERT_TRUE(dos_expected(variant->fstype));
}

FIXTURE_TEARDOWN(host_image)
{
}

TEST_F(host_image, attributes_match_host)
{
	struct dirent *de;
	int seen = 0;
	DIR *d;

	d = opendir(self->dir);
	ASSERT_TRUE(!!d);
	while ((de = readdir(d))) {
		unsigned int dos, got;
		struct statx stx;
		int fd;

		if (!parse_attr_name(de->d_name, &dos))
			continue;
		seen++;
		TH_LOG("%s/%s: host attribute byte %#04x", self->dir, de->d_name, dos);

		memset(&stx, 0xbf, sizeof(stx));
		ASSERT_EQ(0, sys_statx(dirfd(d), de->d_name, AT_SYMLINK_NOFOLLOW,
				       STATX_BASIC_STATS, &stx));
		EXPECT_EQ(ALL_FLAGS, stx.stx_attributes_mask & ALL_FLAGS);
		EXPECT_EQ(dos_to_statx(dos), stx.stx_attributes & DOS_FLAGS);
		EXPECT_EQ(!!(dos & DOS_DIR), !!S_ISDIR(stx.stx_mode));
		/* Nothing on the host stored a Unix owner for these files. */
		EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_FOREIGN_OWNER);

		/* The filesystem's own interface tells the same. */
		fd = openat(dirfd(d), de->d_name, O_RDONLY);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, dos_get(fd, variant->how, &got));
		EXPECT_EQ(dos & (DOS_BITS | DOS_DIR), got & (DOS_BITS | DOS_DIR));
		if (variant->how == NTFS_XATTR)
			EXPECT_FALSE(has_lxuid(fd));
		close(fd);
	}
	closedir(d);
	ASSERT_EQ(variant->files, seen);
}

/*
 * Attributes set through the filesystem's own interface
 * show in the next statx, on a file and on a directory, as do the
 * read-only bit set by chmod and the archive bit set by a write.
 */
FIXTURE(guest_set) {
	char root[64];
	char dir[128];
	char file[160];
	char subdir[160];
};

FIXTURE_VARIANT(guest_set) {
	const struct statx_fs *fs;
	enum dos_iface how;
	bool stored_owner;	/* ownership of new files is stored */
};

FIXTURE_VARIANT_ADD(guest_set, vfat) {
	.fs = STATX_FS(VFAT), .how = FAT_IOCTL,
};

FIXTURE_VARIANT_ADD(guest_set, msdos) {
	.fs = STATX_FS(MSDOS), .how = FAT_IOCTL,
};

FIXTURE_VARIANT_ADD(guest_set, exfat) {
	.fs = STATX_FS(EXFAT), .how = FAT_IOCTL,
};

FIXTURE_VARIANT_ADD(guest_set, ntfs3) {
	.fs = STATX_FS(NTFS3), .how = NTFS_XATTR, .stored_owner = true,
};

FIXTURE_SETUP(guest_set)
{
	enum statx_verdict v;
	char why[160];
	int fd;

	v = statx_fs_mkdtemp(variant->fs, "dosattr", self->dir,
			     sizeof(self->dir), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	statx_fs_root(variant->fs, self->root, sizeof(self->root));
	/* 8.3 names, for msdos. */
	snprintf(self->file, sizeof(self->file), "%s/DOSATTR.TST", self->dir);
	snprintf(self->subdir, sizeof(self->subdir), "%s/DOSATTR.DIR", self->dir);
	if (!statx_caps_kernel())
		STATX_SKIP(return, "the kernel predates the DOS attributes");
	ASSERT_TRUE(dos_expected(variant->fs->fstype));
	if (geteuid())
		STATX_SKIP(return, "setting the system attribute needs CAP_LINUX_IMMUTABLE");

	fd = open(self->file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dos_set(fd, variant->how, 0));
	close(fd);
	ASSERT_TRUE(!mkdir(self->subdir, 0755) || errno == EEXIST);
}

FIXTURE_TEARDOWN(guest_set)
{
	int fd;

	fd = open(self->file, O_RDONLY);
	if (fd >= 0) {
		dos_set(fd, variant->how, 0);
		close(fd);
	}
	unlink(self->file);
	fd = open(self->subdir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		dos_set(fd, variant->how, 0);
		close(fd);
	}
	rmdir(self->subdir);
	statx_rmtree(self->dir);
}

/* Walk all 16 combinations of the four bits on @path. */
static void walk_dos_bits(struct __test_metadata *_metadata,
			  const char *path, enum dos_iface how, bool is_dir)
{
	unsigned int combo, got;
	int fd;

	fd = open(path, O_RDONLY | (is_dir ? O_DIRECTORY : 0));
	ASSERT_LE(0, fd);
	for (combo = 0; combo < 16; combo++) {
		unsigned int dos = (combo & 7) | (combo & 8 ? DOS_ARCHIVE : 0);
		struct statx stx;

		ASSERT_EQ(0, dos_set(fd, how, dos)) {
			TH_LOG("%s: setting %#04x: %s", path, dos, strerror(errno));
		}
		ASSERT_EQ(0, dos_get(fd, how, &got));
		ASSERT_EQ(dos, got & DOS_BITS);

		memset(&stx, 0xbf, sizeof(stx));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx));
		EXPECT_EQ(dos_to_statx(dos), stx.stx_attributes & DOS_FLAGS) {
			TH_LOG("%s: attribute byte %#04x", path, dos);
		}
		EXPECT_EQ(ALL_FLAGS, stx.stx_attributes_mask & ALL_FLAGS);
		/* A file's read-only attribute is also its write permission. */
		if (!is_dir)
			EXPECT_EQ(!(dos & DOS_RO), !!(stx.stx_mode & 0222));
	}
	ASSERT_EQ(0, dos_set(fd, how, 0));
	close(fd);
}

TEST_F(guest_set, file_attributes)
{
	walk_dos_bits(_metadata, self->file, variant->how, false);
}

TEST_F(guest_set, dir_attributes)
{
	walk_dos_bits(_metadata, self->subdir, variant->how, true);
}

TEST_F(guest_set, chmod_sets_readonly)
{
	unsigned int got;
	struct statx stx;
	mode_t mode;
	int fd;

	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	/* Only the w bits: FAT ignores a chmod() that changes r or x. */
	mode = stx.stx_mode & 07777;
	ASSERT_NE(0, mode & 0222);

	ASSERT_EQ(0, fchmod(fd, mode & ~0222));
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(0, stx.stx_mode & 0222);
	EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_DOS_READONLY);
	ASSERT_EQ(0, dos_get(fd, variant->how, &got));
	EXPECT_EQ(DOS_RO, got & DOS_RO);

	ASSERT_EQ(0, fchmod(fd, mode));
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	EXPECT_FALSE(stx.stx_attributes & STATX_ATTR_DOS_READONLY);
	ASSERT_EQ(0, dos_get(fd, variant->how, &got));
	EXPECT_EQ(0, got & DOS_RO);

	/* The attribute set by the filesystem's interface, cleared by chmod(). */
	ASSERT_EQ(0, dos_set(fd, variant->how, DOS_RO));
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_DOS_READONLY);
	ASSERT_EQ(0, fchmod(fd, mode));
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	EXPECT_NE(0, stx.stx_mode & 0222);
	EXPECT_FALSE(stx.stx_attributes & STATX_ATTR_DOS_READONLY);
	ASSERT_EQ(0, dos_get(fd, variant->how, &got));
	EXPECT_EQ(0, got & DOS_RO);
	close(fd);
}

/*
 * The archive bit means "written since the last backup cleared it": every
 * one of these filesystems sets it on a write, and statx() reports the bit
 * the filesystem stores.
 */
TEST_F(guest_set, write_sets_archive)
{
	unsigned int got;
	struct statx stx;
	int fd;

	fd = open(self->file, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dos_set(fd, variant->how, 0));
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	ASSERT_FALSE(stx.stx_attributes & STATX_ATTR_ARCHIVE);
	ASSERT_EQ(5, pwrite(fd, "data\n", 5, 0));
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	ASSERT_EQ(0, dos_get(fd, variant->how, &got));
	EXPECT_EQ(!!(got & DOS_ARCHIVE), !!(stx.stx_attributes & STATX_ATTR_ARCHIVE));
	EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_ARCHIVE);
	close(fd);
}

/*
 * FAT and exFAT cannot store an owner: chown to anything but the mount's
 * uid fails and the ownership is reported as synthesized.  ntfs3 stores
 * the owner of a file it creates in the $LXUID EA, takes a chown, and
 * reports the ownership as stored; the volume's root directory, made by
 * mkntfs on the host, has no $LXUID and is reported as synthesized.
 */
TEST_F(guest_set, foreign_owner)
{
	struct statx stx;
	int fd, ret;

	fd = open(self->file, O_RDWR);
	ASSERT_LE(0, fd);
	ret = fchown(fd, 4321, 4321);
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(STATX_ATTR_FOREIGN_OWNER,
		  stx.stx_attributes_mask & STATX_ATTR_FOREIGN_OWNER);
	if (variant->stored_owner) {
		ASSERT_EQ(0, ret);
		EXPECT_EQ(4321, stx.stx_uid);
		EXPECT_TRUE(has_lxuid(fd));
		EXPECT_FALSE(stx.stx_attributes & STATX_ATTR_FOREIGN_OWNER);
	} else {
		ASSERT_EQ(-1, ret);
		EXPECT_EQ(EPERM, errno);
		EXPECT_NE(4321, stx.stx_uid);
		EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_FOREIGN_OWNER);
	}
	close(fd);

	/* The root: ntfs3 stores no owner for it. */
	fd = open(self->root, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	if (variant->stored_owner)
		ASSERT_FALSE(has_lxuid(fd));
	EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_FOREIGN_OWNER);
	close(fd);
}

/*
 * Filesystems with Unix ownership and no DOS attributes report none of
 * the flags and do not claim to know them.
 */
FIXTURE(native) {
	char dir[128];
};

FIXTURE_VARIANT(native) {
	const struct statx_fs *fs;
};

FIXTURE_VARIANT_ADD(native, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(native, xfs) { .fs = STATX_FS(XFS) };
FIXTURE_VARIANT_ADD(native, btrfs) { .fs = STATX_FS(BTRFS) };
FIXTURE_VARIANT_ADD(native, tmpfs) { .fs = STATX_FS(TMPFS) };

FIXTURE_SETUP(native)
{
	enum statx_verdict v;
	char why[160];

	v = statx_fs_mkdtemp(variant->fs, "native", self->dir,
			     sizeof(self->dir), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
}

FIXTURE_TEARDOWN(native)
{
	statx_rmtree(self->dir);
}

TEST_F(native, no_dos_flags)
{
	static const char * const names[] = { ".", "dosattr-native" };
	struct statx stx;
	unsigned int i;
	int dfd, fd;

	dfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dfd);
	fd = openat(dfd, names[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	close(fd);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		memset(&stx, 0xbf, sizeof(stx));
		ASSERT_EQ(0, sys_statx(dfd, names[i], 0, STATX_BASIC_STATS, &stx));
		EXPECT_EQ(0, stx.stx_attributes & ALL_FLAGS) {
			TH_LOG("%s/%s", self->dir, names[i]);
		}
		EXPECT_EQ(0, stx.stx_attributes_mask & ALL_FLAGS) {
			TH_LOG("%s/%s", self->dir, names[i]);
		}
	}
	ASSERT_EQ(0, unlinkat(dfd, names[1], 0));
	close(dfd);
}

int main(int argc, char **argv)
{
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
