// SPDX-License-Identifier: GPL-2.0
/*
 * The STATX_ATTR_* flags statx() has had from the start, each with its bit
 * in stx_attributes_mask, on filesystems the test makes for itself in a
 * private mount namespace (statx_scratch.h):
 *
 *  - IMMUTABLE, APPEND, NODUMP and COMPRESSED, set and cleared with
 *    FS_IOC_SETFLAGS on a file and a directory of ext4, xfs and btrfs,
 *    against FS_IOC_GETFLAGS and (IMMUTABLE, APPEND) what the flag forbids.
 *    A filesystem that takes a flag must report it; xfs refuses FS_COMPR_FL
 *    (EOPNOTSUPP) and so never reports COMPRESSED;
 *  - ENCRYPTED on an ext4 directory with a v2 fscrypt policy and a key the
 *    test adds, and on what is made in it, also once the key is removed;
 *    not on a file outside it;
 *  - VERITY on an ext4 file once FS_IOC_ENABLE_VERITY (SHA-256) has built
 *    its Merkle tree, not before;
 *  - AUTOMOUNT on debugfs's "tracing", the automount point that mounts
 *    tracefs, asked with AT_NO_AUTOMOUNT; without it, the tracefs root;
 *  - MOUNT_ROOT on the root of each mount made and on bind mounts of a
 *    directory and a file, not on what is below them, nor on a btrfs
 *    subvolume, which is no mount.
 *
 * The test skips only where the kernel lacks a filesystem, fscrypt or
 * fs-verity (ext4 lists its "encryption" and "verity" features in sysfs
 * when it has them), tracefs, or where a mkfs is missing.
 */
#include "statx_helpers.h"
#include "statx_scratch.h"

#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>
#include <linux/fsverity.h>
#include <linux/magic.h>

#include "../kselftest_harness.h"

#define MIB		(1024 * 1024)
#define KEY_SIZE	64	/* FSCRYPT_MAX_KEY_SIZE: an AES-256-XTS key */

static const char *const mkfs_ext4[] = {
	"mkfs.ext4", "-q", "-F", "-b", "4096", NULL
};

static const char *const mkfs_ext4_encrypt[] = {
	"mkfs.ext4", "-q", "-F", "-b", "4096", "-O", "encrypt", NULL
};

static const char *const mkfs_ext4_verity[] = {
	"mkfs.ext4", "-q", "-F", "-b", "4096", "-O", "verity", NULL
};

static const char *const mkfs_xfs[] = { "mkfs.xfs", "-q", "-f", NULL };
static const char *const mkfs_btrfs[] = { "mkfs.btrfs", "-q", "-f", NULL };

/* Does the running kernel know filesystem type @type? */
static bool fs_type_known(const char *type)
{
	char line[128], name[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/filesystems", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "nodev %63s", name) == 1 ||
		    sscanf(line, "%63s", name) == 1)
			found |= !strcmp(name, type);
	fclose(f);
	return found;
}

static int put_file(const char *path, size_t len)
{
	char buf[4096];
	size_t done = 0;
	ssize_t n = 0;
	int fd;

	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	memset(buf, 'x', sizeof(buf));
	while (done < len) {
		n = write(fd, buf, len - done < sizeof(buf) ?
			  len - done : sizeof(buf));
		if (n <= 0)
			break;
		done += n;
	}
	if (close(fd) || done != len)
		return -1;
	return 0;
}

/*
 * statx() of @path, or of @fd with AT_EMPTY_PATH if it is open (@path
 * then only names it), with @flags; the attributes it returns are among
 * those its mask knows.
 */
static void get_stx(struct __test_metadata *_metadata, int fd,
		    const char *path, unsigned int flags, struct statx *stx)
{
	const char *by = fd >= 0 ? " (by fd)" : "";

	memset(stx, STATX_POISON, sizeof(*stx));
	if (fd >= 0) {
		ASSERT_EQ(0, sys_statx(fd, "", flags | AT_EMPTY_PATH,
				       STATX_BASIC_STATS, stx))
			TH_LOG("statx %s%s: %s", path, by, strerror(errno));
	} else {
		ASSERT_EQ(0, sys_statx(AT_FDCWD, path, flags,
				       STATX_BASIC_STATS, stx))
			TH_LOG("statx %s: %s", path, strerror(errno));
	}
	EXPECT_EQ(0, stx->stx_attributes & ~stx->stx_attributes_mask)
		TH_LOG("%s%s: attributes %#llx outside the mask %#llx", path,
		       by, (unsigned long long)stx->stx_attributes,
		       (unsigned long long)stx->stx_attributes_mask);
}

/*
 * @attr is set in stx_attributes of @path (and of @fd if it is open)
 * exactly when @set is, and stx_attributes_mask has it.
 */
static void expect_attr(struct __test_metadata *_metadata, int fd,
			const char *path, unsigned int flags, __u64 attr,
			const char *name, bool set)
{
	struct statx stx;
	int i;

	for (i = 0; i < 2; i++) {
		if (i == 1 && fd < 0)
			break;
		get_stx(_metadata, i ? fd : -1, path, flags, &stx);
		EXPECT_EQ(attr, stx.stx_attributes_mask & attr)
			TH_LOG("%s%s: %s not in stx_attributes_mask %#llx",
			       path, i ? " (by fd)" : "", name,
			       (unsigned long long)stx.stx_attributes_mask);
		EXPECT_EQ(set ? attr : 0, stx.stx_attributes & attr)
			TH_LOG("%s%s: %s %s in stx_attributes %#llx", path,
			       i ? " (by fd)" : "", name,
			       set ? "missing" : "wrongly set",
			       (unsigned long long)stx.stx_attributes);
	}
}

/* MOUNT_ROOT is set on @path exactly where mountinfo has a mount point. */
static void expect_mount_root(struct __test_metadata *_metadata,
			      const char *path, bool root)
{
	struct statx_mount m;
	int fd;

	EXPECT_EQ(root, statx_mountinfo(path, &m))
		TH_LOG("%s: mountinfo lists %s mount there", path,
		       root ? "no" : "a");
	fd = open(path, O_PATH | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	expect_attr(_metadata, fd, path, AT_SYMLINK_NOFOLLOW,
		    STATX_ATTR_MOUNT_ROOT, "STATX_ATTR_MOUNT_ROOT", root);
	close(fd);
}

/* The inode flags FS_IOC_SETFLAGS sets, and the attribute of each. */
enum { FL_IMMUTABLE, FL_APPEND, FL_NODUMP, FL_COMPR, FL_NR };

#define IFLAG(_fl, _attr) { #_fl, _fl, #_attr, _attr }

static const struct {
	const char *flname;
	int fl;
	const char *name;
	__u64 attr;
} iflags[FL_NR] = {
	[FL_IMMUTABLE] = IFLAG(FS_IMMUTABLE_FL, STATX_ATTR_IMMUTABLE),
	[FL_APPEND] = IFLAG(FS_APPEND_FL, STATX_ATTR_APPEND),
	[FL_NODUMP] = IFLAG(FS_NODUMP_FL, STATX_ATTR_NODUMP),
	[FL_COMPR] = IFLAG(FS_COMPR_FL, STATX_ATTR_COMPRESSED),
};

FIXTURE(iflags) {
	struct statx_scratch s;
	char dir[96];		/* a directory of its own */
	char file[128];		/* a regular file in it */
	char other[128];	/* and one whose flags the test leaves alone */
};

/* @refuses: the FS_*_FL flags the filesystem refuses with EOPNOTSUPP */
FIXTURE_VARIANT(iflags) {
	const char *fstype;
	const char *const *mkfs;
	off_t size;
	bool refuses[FL_NR];
};

FIXTURE_VARIANT_ADD(iflags, ext4) {
	.fstype = "ext4", .mkfs = mkfs_ext4, .size = 64 * MIB,
};

/* xfs_fileattr_set() takes no FS_COMPR_FL: xfs compresses nothing. */
FIXTURE_VARIANT_ADD(iflags, xfs) {
	.fstype = "xfs", .mkfs = mkfs_xfs, .size = 320 * MIB,
	.refuses = { [FL_COMPR] = true },
};

FIXTURE_VARIANT_ADD(iflags, btrfs) {
	.fstype = "btrfs", .mkfs = mkfs_btrfs, .size = 256 * MIB,
};

FIXTURE_SETUP(iflags)
{
	enum statx_scratch_rc rc;

	rc = statx_scratch_make(&self->s, variant->fstype, variant->mkfs,
				variant->size, 0, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->s.why);
	snprintf(self->dir, sizeof(self->dir), "%s/dir", self->s.mnt);
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	ASSERT_EQ(0, put_file(self->file, 8192));
	snprintf(self->other, sizeof(self->other), "%s/other", self->dir);
	ASSERT_EQ(0, put_file(self->other, 8192));
}

FIXTURE_TEARDOWN(iflags)
{
	statx_scratch_umount(&self->s);
}

/* What IMMUTABLE and APPEND forbid, and what APPEND allows, on @file. */
static void expect_enforced(struct __test_metadata *_metadata,
			    const char *file, int which, bool set)
{
	int fd, err;

	if (which != FL_IMMUTABLE && which != FL_APPEND)
		return;
	fd = open(file, O_WRONLY | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(set ? EPERM : 0, err)
		TH_LOG("%s: open(O_WRONLY) with %s %s: %s", file,
		       iflags[which].flname, set ? "set" : "cleared",
		       err ? strerror(err) : "succeeded");
	fd = open(file, O_WRONLY | O_APPEND | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(set && which == FL_IMMUTABLE ? EPERM : 0, err)
		TH_LOG("%s: open(O_WRONLY | O_APPEND) with %s %s: %s", file,
		       iflags[which].flname, set ? "set" : "cleared",
		       err ? strerror(err) : "succeeded");
}

/*
 * Set flag @which on @path with FS_IOC_SETFLAGS, then clear it: statx()
 * reports it exactly when FS_IOC_GETFLAGS does, and a filesystem that
 * takes it reports it.  @other never has it.
 */
static void check_iflag(struct __test_metadata *_metadata, const char *path,
			bool is_dir, const char *other, int which,
			bool refuses)
{
	const char *flname = iflags[which].flname;
	const char *name = iflags[which].name;
	const __u64 attr = iflags[which].attr;
	const int fl = iflags[which].fl;
	int fd, old, now, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | (is_dir ? O_DIRECTORY : 0));
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &old))
		TH_LOG("FS_IOC_GETFLAGS %s: %s", path, strerror(errno));
	ASSERT_EQ(0, old & fl) TH_LOG("%s: new, but has %s", path, flname);
	if (refuses) {
		struct statx stx;

		/* Not reported, whether the mask knows it or not. */
		get_stx(_metadata, -1, path, 0, &stx);
		EXPECT_EQ(0, stx.stx_attributes & attr);
	} else {
		expect_attr(_metadata, fd, path, 0, attr, name, false);
	}

	now = old | fl;
	ret = ioctl(fd, FS_IOC_SETFLAGS, &now) ? errno : 0;
	if (ret) {
		struct statx stx;

		/* Only with EOPNOTSUPP, only where expected, and unset. */
		EXPECT_TRUE(refuses)
			TH_LOG("%s: FS_IOC_SETFLAGS %#x (%s): %s", path, now,
			       flname, strerror(ret));
		EXPECT_EQ(EOPNOTSUPP, ret);
		ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &now));
		EXPECT_EQ(0, now & fl);
		get_stx(_metadata, -1, path, 0, &stx);
		EXPECT_EQ(0, stx.stx_attributes & attr);
		close(fd);
		if (refuses)
			TH_LOG("%s: %s refused, as expected", path,
			       flname);
		return;
	}
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &now));
	/* A filesystem that takes the flag keeps it. */
	if (!refuses) {
		EXPECT_EQ(fl, now & fl)
			TH_LOG("%s: FS_IOC_GETFLAGS %#x after setting %s",
			       path, now, flname);
	}
	/*
	 * Whatever the filesystem was thought to do, it must report what
	 * FS_IOC_GETFLAGS says it has.
	 */
	expect_attr(_metadata, fd, path, 0, attr, name, now & fl);
	expect_attr(_metadata, -1, other, 0, attr, name, false);
	if (!is_dir)
		expect_enforced(_metadata, path, which, now & fl);

	now = old;
	ASSERT_EQ(0, ioctl(fd, FS_IOC_SETFLAGS, &now))
		TH_LOG("FS_IOC_SETFLAGS %s back to %#x: %s", path, old,
		       strerror(errno));
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &now));
	EXPECT_EQ(0, now & fl);
	expect_attr(_metadata, fd, path, 0, attr, name, now & fl);
	if (!is_dir)
		expect_enforced(_metadata, path, which, false);
	close(fd);
}

/* On a file, then on a directory */
static void check_iflag_both(struct __test_metadata *_metadata,
			     const char *file, const char *dir,
			     const char *other, int which, bool refuses)
{
	check_iflag(_metadata, file, false, other, which, refuses);
	check_iflag(_metadata, dir, true, other, which, refuses);
}

TEST_F_TIMEOUT(iflags, immutable, 120)
{
	check_iflag_both(_metadata, self->file, self->dir, self->other,
			 FL_IMMUTABLE, variant->refuses[FL_IMMUTABLE]);
}

TEST_F_TIMEOUT(iflags, append, 120)
{
	check_iflag_both(_metadata, self->file, self->dir, self->other,
			 FL_APPEND, variant->refuses[FL_APPEND]);
}

TEST_F_TIMEOUT(iflags, nodump, 120)
{
	check_iflag_both(_metadata, self->file, self->dir, self->other,
			 FL_NODUMP, variant->refuses[FL_NODUMP]);
}

TEST_F_TIMEOUT(iflags, compressed, 120)
{
	check_iflag_both(_metadata, self->file, self->dir, self->other,
			 FL_COMPR, variant->refuses[FL_COMPR]);
}

/* An ext4 filesystem with @feature, which the kernel lists in sysfs. */
static void ext4_feature_setup(struct __test_metadata *_metadata,
			       struct statx_scratch *s, const char *feature,
			       const char *const *mkfs, const char *config)
{
	enum statx_scratch_rc rc;
	char path[96];

	if (access("/sys/fs/ext4", F_OK))
		STATX_SKIP(return, "the kernel has no ext4");
	snprintf(path, sizeof(path), "/sys/fs/ext4/features/%s", feature);
	if (access(path, F_OK))
		STATX_SKIP(return, "the kernel has no %s (no %s)", config, path);
	rc = statx_scratch_make(s, "ext4", mkfs, 64 * MIB, 0, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", s->why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", s->why);
}

FIXTURE(encrypted) {
	struct statx_scratch s;
	__u8 id[FSCRYPT_KEY_IDENTIFIER_SIZE];
};

/* Add a v2 key to the filesystem at @mnt; its identifier in @id. */
static void add_key(struct __test_metadata *_metadata, const char *mnt,
		    __u8 *id)
{
	struct fscrypt_add_key_arg *arg;
	int fd, i;

	arg = calloc(1, sizeof(*arg) + KEY_SIZE);
	ASSERT_TRUE(!!arg);
	arg->key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	arg->raw_size = KEY_SIZE;
	for (i = 0; i < KEY_SIZE; i++)
		arg->raw[i] = 0x5a ^ (i * 7);
	fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, arg))
		TH_LOG("FS_IOC_ADD_ENCRYPTION_KEY: %s", strerror(errno));
	close(fd);
	memcpy(id, arg->key_spec.u.identifier, FSCRYPT_KEY_IDENTIFIER_SIZE);
	free(arg);
}

/* @path has FS_ENCRYPT_FL by FS_IOC_GETFLAGS exactly when @set. */
static void expect_encrypt_fl(struct __test_metadata *_metadata,
			      const char *path, bool set)
{
	int fd, flags;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &flags));
	close(fd);
	EXPECT_EQ(set ? FS_ENCRYPT_FL : 0, flags & FS_ENCRYPT_FL)
		TH_LOG("%s: FS_IOC_GETFLAGS %#x", path, flags);
}

/* fscrypt's default v2 policy, but for the key's identifier */
static const struct fscrypt_policy_v2 default_v2 = {
	.version = FSCRYPT_POLICY_V2,
	.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS,
	.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS,
	.flags = FSCRYPT_POLICY_FLAGS_PAD_32,
};

/*
 * Make a file in a directory under the default v2 policy, then remove both
 * and the key: 0, or the errno that stopped the file (ENOPKG: the kernel
 * lacks a crypto algorithm of the policy and could not load it).
 */
static int try_encryption(struct __test_metadata *_metadata, const char *mnt)
{
	struct fscrypt_policy_v2 policy = default_v2;
	struct fscrypt_remove_key_arg rm;
	char dir[128], file[160];
	int fd, err = 0;

	snprintf(dir, sizeof(dir), "%s/probe", mnt);
	snprintf(file, sizeof(file), "%s/file", dir);
	memset(&rm, 0, sizeof(rm));
	rm.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	add_key(_metadata, mnt, rm.key_spec.u.identifier);
	memcpy(policy.master_key_identifier, rm.key_spec.u.identifier,
	       FSCRYPT_KEY_IDENTIFIER_SIZE);
	ASSERT_EQ(0, mkdir(dir, 0755));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &policy))
		TH_LOG("FS_IOC_SET_ENCRYPTION_POLICY: %s", strerror(errno));
	close(fd);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = errno;
	} else {
		close(fd);
		ASSERT_EQ(0, unlink(file));
	}
	ASSERT_EQ(0, rmdir(dir));
	fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_REMOVE_ENCRYPTION_KEY, &rm))
		TH_LOG("FS_IOC_REMOVE_ENCRYPTION_KEY: %s", strerror(errno));
	close(fd);
	return err;
}

FIXTURE_SETUP(encrypted)
{
	int err;

	ext4_feature_setup(_metadata, &self->s, "encryption",
			   mkfs_ext4_encrypt, "CONFIG_FS_ENCRYPTION");
	if (_metadata->exit_code)
		return;
	err = try_encryption(_metadata, self->s.mnt);
	if (err == ENOPKG)
		STATX_SKIP(return,
			   "the kernel cannot load the ciphers of fscrypt's default v2 policy (AES-256-XTS, AES-256-CTS)");
	ASSERT_EQ(0, err) TH_LOG("a file in an encrypted directory: %s",
				 strerror(err));
}

FIXTURE_TEARDOWN(encrypted)
{
	statx_scratch_umount(&self->s);
}

#define ENC	STATX_ATTR_ENCRYPTED, "STATX_ATTR_ENCRYPTED"

/*
 * A v2 policy (AES-256-XTS contents, AES-256-CTS names) on an empty
 * directory: it, and the file, directory and symlink made in it, are
 * ENCRYPTED; a file outside is not.  Once the key is removed, the locked
 * directory still is.
 */
TEST_F_TIMEOUT(encrypted, policy_v2, 120)
{
	struct fscrypt_policy_v2 policy = default_v2;
	struct fscrypt_get_policy_ex_arg got;
	struct fscrypt_remove_key_arg rm;
	char dir[128], file[160], sub[160], link[160], plain[128];
	int fd, mfd;

	snprintf(dir, sizeof(dir), "%s/secret", self->s.mnt);
	snprintf(file, sizeof(file), "%s/file", dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(plain, sizeof(plain), "%s/plain", self->s.mnt);
	ASSERT_EQ(0, put_file(plain, 4096));
	ASSERT_EQ(0, mkdir(dir, 0755));
	expect_attr(_metadata, -1, dir, 0, ENC, false);
	expect_encrypt_fl(_metadata, dir, false);

	add_key(_metadata, self->s.mnt, self->id);
	memcpy(policy.master_key_identifier, self->id, sizeof(self->id));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &policy))
		TH_LOG("FS_IOC_SET_ENCRYPTION_POLICY: %s", strerror(errno));
	memset(&got, 0, sizeof(got));
	got.policy_size = sizeof(got.policy);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY_EX, &got));
	EXPECT_EQ(FSCRYPT_POLICY_V2, got.policy.version);
	EXPECT_EQ(0, memcmp(&got.policy.v2, &policy, sizeof(policy)));
	expect_attr(_metadata, fd, dir, 0, ENC, true);
	close(fd);
	expect_encrypt_fl(_metadata, dir, true);

	ASSERT_EQ(0, put_file(file, 10000));
	ASSERT_EQ(0, mkdir(sub, 0755));
	ASSERT_EQ(0, symlink("file", link));
	expect_attr(_metadata, -1, file, 0, ENC, true);
	expect_encrypt_fl(_metadata, file, true);
	expect_attr(_metadata, -1, sub, 0, ENC, true);
	expect_encrypt_fl(_metadata, sub, true);
	expect_attr(_metadata, -1, link, AT_SYMLINK_NOFOLLOW, ENC, true);
	expect_attr(_metadata, -1, plain, 0, ENC, false);
	expect_encrypt_fl(_metadata, plain, false);
	expect_attr(_metadata, -1, self->s.mnt, 0, ENC, false);

	/* Lock the directory: its inodes are evicted and read back. */
	memset(&rm, 0, sizeof(rm));
	rm.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	memcpy(rm.key_spec.u.identifier, self->id, sizeof(self->id));
	mfd = open(self->s.mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, mfd);
	ASSERT_EQ(0, ioctl(mfd, FS_IOC_REMOVE_ENCRYPTION_KEY, &rm))
		TH_LOG("FS_IOC_REMOVE_ENCRYPTION_KEY: %s", strerror(errno));
	close(mfd);
	EXPECT_EQ(0, rm.removal_status_flags);
	expect_attr(_metadata, -1, dir, 0, ENC, true);
	expect_encrypt_fl(_metadata, dir, true);
	/* The plaintext name is gone with the key. */
	EXPECT_NE(0, access(file, F_OK));
	expect_attr(_metadata, -1, plain, 0, ENC, false);
}

FIXTURE(verity) {
	struct statx_scratch s;
	char file[128];
	char other[128];
};

FIXTURE_SETUP(verity)
{
	ext4_feature_setup(_metadata, &self->s, "verity", mkfs_ext4_verity,
			   "CONFIG_FS_VERITY");
	if (_metadata->exit_code)
		return;
	snprintf(self->file, sizeof(self->file), "%s/file", self->s.mnt);
	snprintf(self->other, sizeof(self->other), "%s/other", self->s.mnt);
	ASSERT_EQ(0, put_file(self->file, 65536 + 100));
	ASSERT_EQ(0, put_file(self->other, 4096));
}

FIXTURE_TEARDOWN(verity)
{
	statx_scratch_umount(&self->s);
}

#define VER	STATX_ATTR_VERITY, "STATX_ATTR_VERITY"

/*
 * Measure @path with FS_IOC_MEASURE_VERITY: 0 for a SHA-256 digest, the
 * errno, or -1 for anything else.
 */
static int measure(const char *path)
{
	struct fsverity_digest *d;
	int fd, ret;

	d = calloc(1, sizeof(*d) + 64);
	if (!d)
		return -1;
	d->digest_size = 64;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ret = fd < 0 ? errno : 0;
	if (fd >= 0) {
		ret = ioctl(fd, FS_IOC_MEASURE_VERITY, d) ? errno : 0;
		close(fd);
	}
	if (!ret && (d->digest_algorithm != FS_VERITY_HASH_ALG_SHA256 ||
		     d->digest_size != 32))
		ret = -1;
	free(d);
	return ret;
}

TEST_F_TIMEOUT(verity, enable, 120)
{
	struct fsverity_enable_arg arg = {
		.version = 1,
		.hash_algorithm = FS_VERITY_HASH_ALG_SHA256,
		.block_size = 4096,
	};
	int fd, flags;

	expect_attr(_metadata, -1, self->file, 0, VER, false);
	EXPECT_EQ(ENODATA, measure(self->file));

	fd = open(self->file, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_ENABLE_VERITY, &arg))
		TH_LOG("FS_IOC_ENABLE_VERITY: %s", strerror(errno));
	expect_attr(_metadata, fd, self->file, 0, VER, true);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &flags));
	EXPECT_EQ(FS_VERITY_FL, flags & FS_VERITY_FL);
	close(fd);
	EXPECT_EQ(0, measure(self->file));
	/* fs-verity files are read-only */
	fd = open(self->file, O_WRONLY | O_CLOEXEC);
	EXPECT_EQ(-1, fd);
	if (fd >= 0)
		close(fd);
	expect_attr(_metadata, -1, self->other, 0, VER, false);
	expect_attr(_metadata, -1, self->s.mnt, 0, VER, false);
}

/*
 * debugfs's "tracing" directory is an automount point that mounts tracefs
 * (kernel/trace/trace.c: debugfs_create_automount()), on a debugfs the
 * test mounts in its own namespace.
 */
TEST(automount)
{
	char dir[64], trace[96];
	struct statx_mount m;
	struct statx stx;
	struct statfs sfs;
	__u64 dbg_mnt;
	int ret;

	if (geteuid())
		STATX_SKIP(return, "mounting debugfs needs root");
	if (!fs_type_known("debugfs"))
		STATX_SKIP(return, "the kernel has no debugfs");
	if (!fs_type_known("tracefs"))
		STATX_SKIP(return, "the kernel has no tracefs (CONFIG_TRACING)");
	ret = statx_private_ns();
	ASSERT_EQ(0, ret) TH_LOG("private mount namespace: %s",
				 strerror(-ret));
	snprintf(dir, sizeof(dir), "/tmp/statx-debugfs.XXXXXX");
	ASSERT_TRUE(!!mkdtemp(dir));
	ret = mount("debugfs", dir, "debugfs", 0, NULL) ? errno : 0;
	if (ret == EPERM)
		STATX_SKIP(return, "debugfs may not be mounted (debugfs=no-mount)");
	ASSERT_EQ(0, ret) TH_LOG("mount debugfs: %s", strerror(ret));
	ASSERT_EQ(0, statfs(dir, &sfs));
	ASSERT_EQ(DEBUGFS_MAGIC, sfs.f_type);
	expect_mount_root(_metadata, dir, true);
	get_stx(_metadata, -1, dir, 0, &stx);
	dbg_mnt = stx.stx_mnt_id;

	/* The automount point itself: nothing is mounted on it yet. */
	snprintf(trace, sizeof(trace), "%s/tracing", dir);
	ASSERT_FALSE(statx_mountinfo(trace, &m));
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT,
		    STATX_ATTR_AUTOMOUNT, "STATX_ATTR_AUTOMOUNT", true);
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT |
		    AT_SYMLINK_NOFOLLOW, STATX_ATTR_AUTOMOUNT,
		    "STATX_ATTR_AUTOMOUNT", true);
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT,
		    STATX_ATTR_MOUNT_ROOT, "STATX_ATTR_MOUNT_ROOT", false);
	get_stx(_metadata, -1, trace, AT_NO_AUTOMOUNT, &stx);
	EXPECT_TRUE(S_ISDIR(stx.stx_mode));
	EXPECT_EQ(dbg_mnt, stx.stx_mnt_id);
	/* Asking did not mount anything. */
	EXPECT_FALSE(statx_mountinfo(trace, &m));

	/* Without AT_NO_AUTOMOUNT: tracefs, mounted there now. */
	expect_attr(_metadata, -1, trace, 0, STATX_ATTR_AUTOMOUNT,
		    "STATX_ATTR_AUTOMOUNT", false);
	ASSERT_TRUE(statx_mountinfo(trace, &m))
		TH_LOG("%s: nothing mounted after statx()", trace);
	EXPECT_STREQ("tracefs", m.fstype);
	ASSERT_EQ(0, statfs(trace, &sfs));
	EXPECT_EQ(TRACEFS_MAGIC, sfs.f_type);
	expect_mount_root(_metadata, trace, true);
	get_stx(_metadata, -1, trace, 0, &stx);
	EXPECT_EQ(m.id, stx.stx_mnt_id);
	EXPECT_NE(dbg_mnt, stx.stx_mnt_id);
	/* Mounted, the automount point is crossed even with the flag. */
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT,
		    STATX_ATTR_AUTOMOUNT, "STATX_ATTR_AUTOMOUNT", false);
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT,
		    STATX_ATTR_MOUNT_ROOT, "STATX_ATTR_MOUNT_ROOT", true);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
}

FIXTURE(mount_root) {
	struct statx_scratch s;
	char bind[96];		/* on the private /tmp, outside the fs */
	char fbind[96];
};

FIXTURE_VARIANT(mount_root) {
	const char *fstype;
	const char *const *mkfs;
	off_t size;
	bool subvol;
};

FIXTURE_VARIANT_ADD(mount_root, tmpfs) {
	.fstype = "tmpfs",
};

FIXTURE_VARIANT_ADD(mount_root, ext4) {
	.fstype = "ext4", .mkfs = mkfs_ext4, .size = 64 * MIB,
};

FIXTURE_VARIANT_ADD(mount_root, xfs) {
	.fstype = "xfs", .mkfs = mkfs_xfs, .size = 320 * MIB,
};

FIXTURE_VARIANT_ADD(mount_root, btrfs) {
	.fstype = "btrfs", .mkfs = mkfs_btrfs, .size = 256 * MIB,
	.subvol = true,
};

FIXTURE_SETUP(mount_root)
{
	enum statx_scratch_rc rc;

	rc = statx_scratch_make(&self->s, variant->fstype, variant->mkfs,
				variant->size, 0, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->s.why);
	snprintf(self->bind, sizeof(self->bind), "%s/bind", self->s.dir);
	snprintf(self->fbind, sizeof(self->fbind), "%s/fbind", self->s.dir);
}

FIXTURE_TEARDOWN(mount_root)
{
	if (self->bind[0]) {
		umount2(self->bind, MNT_DETACH);
		umount2(self->fbind, MNT_DETACH);
		rmdir(self->bind);
		unlink(self->fbind);
	}
	statx_scratch_umount(&self->s);
}

TEST_F_TIMEOUT(mount_root, roots_and_binds, 120)
{
	char sub[128], deeper[160], file[160], vol[128];
	struct btrfs_ioctl_vol_args args;
	struct statx a, b;
	int fd;

	snprintf(sub, sizeof(sub), "%s/sub", self->s.mnt);
	snprintf(deeper, sizeof(deeper), "%s/deeper", sub);
	snprintf(file, sizeof(file), "%s/file", sub);
	ASSERT_EQ(0, mkdir(sub, 0755));
	ASSERT_EQ(0, mkdir(deeper, 0755));
	ASSERT_EQ(0, put_file(file, 100));

	/* the filesystem made, and the private /tmp it is made on */
	expect_mount_root(_metadata, self->s.mnt, true);
	expect_mount_root(_metadata, "/tmp", true);
	expect_mount_root(_metadata, self->s.dir, false);
	expect_mount_root(_metadata, sub, false);
	expect_mount_root(_metadata, deeper, false);
	expect_mount_root(_metadata, file, false);

	/* A bind mount of a directory and of a file */
	ASSERT_EQ(0, mkdir(self->bind, 0755));
	ASSERT_EQ(0, put_file(self->fbind, 0));
	ASSERT_EQ(0, mount(sub, self->bind, NULL, MS_BIND, NULL))
		TH_LOG("bind %s: %s", sub, strerror(errno));
	ASSERT_EQ(0, mount(file, self->fbind, NULL, MS_BIND, NULL))
		TH_LOG("bind %s: %s", file, strerror(errno));
	expect_mount_root(_metadata, self->bind, true);
	expect_mount_root(_metadata, self->fbind, true);
	/* The same inodes through the original mount are no roots. */
	get_stx(_metadata, -1, sub, 0, &a);
	get_stx(_metadata, -1, self->bind, 0, &b);
	EXPECT_EQ(a.stx_ino, b.stx_ino);
	EXPECT_EQ(a.stx_dev_major, b.stx_dev_major);
	EXPECT_EQ(a.stx_dev_minor, b.stx_dev_minor);
	EXPECT_NE(a.stx_mnt_id, b.stx_mnt_id);
	expect_mount_root(_metadata, sub, false);
	expect_mount_root(_metadata, file, false);
	snprintf(vol, sizeof(vol), "%s/deeper", self->bind);
	expect_mount_root(_metadata, vol, false);

	ASSERT_EQ(0, umount2(self->bind, 0));
	ASSERT_EQ(0, umount2(self->fbind, 0));
	expect_mount_root(_metadata, self->bind, false);
	expect_mount_root(_metadata, self->fbind, false);

	if (!variant->subvol)
		return;
	/* A btrfs subvolume has a device of its own, but is no mount. */
	fd = open(self->s.mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	memset(&args, 0, sizeof(args));
	snprintf(args.name, sizeof(args.name), "vol");
	ASSERT_EQ(0, ioctl(fd, BTRFS_IOC_SUBVOL_CREATE, &args))
		TH_LOG("BTRFS_IOC_SUBVOL_CREATE: %s", strerror(errno));
	close(fd);
	snprintf(vol, sizeof(vol), "%s/vol", self->s.mnt);
	get_stx(_metadata, -1, self->s.mnt, 0, &a);
	get_stx(_metadata, -1, vol, 0, &b);
	EXPECT_NE(a.stx_dev_minor, b.stx_dev_minor);
	EXPECT_EQ(a.stx_mnt_id, b.stx_mnt_id);
	expect_mount_root(_metadata, vol, false);
}

TEST_HARNESS_MAIN
