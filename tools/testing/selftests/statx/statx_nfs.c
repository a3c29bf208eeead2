// SPDX-License-Identifier: GPL-2.0
/*
 * statx() on NFS, where its three synchronisation modes differ, against a
 * server the test runs itself: knfsd, started through /proc/fs/nfsd and
 * given its export by writing the export caches' channels (no rpc.nfsd,
 * exportfs or rpc.mountd), and the kernel's NFSv4.2 client mounting it over
 * the loopback device, all in a private mount namespace and a network
 * namespace of its own, so that nfsd's settings, its export caches and the
 * loopback device it brings up go away with the test.  The exported
 * filesystem is one the test makes (statx_scratch.h), so every answer that
 * comes through NFS is compared with the exported file's own statx().
 *
 *  - AT_STATX_DONT_SYNC returns what the client cached, sending no GETATTR;
 *    AT_STATX_FORCE_SYNC returns the server's values, sending exactly one;
 *    AT_STATX_SYNC_AS_STAT follows the attribute cache (actimeo=3600: the
 *    cached values; noac: the server's); both flags together are EINVAL.
 *    The GETATTR counts come from /proc/self/mountstats.
 *  - the client returns no change cookie, in any mode (statx.rst says why);
 *  - STATX_BTIME is the exported file's birth time;
 *  - the DOS attributes of a vfat export reach the client; a tmpfs export
 *    has none to send.
 *
 * The test skips where the kernel has no nfsd, no NFSv4 client or no
 * network namespaces, and where it is not root.  An NFS server the machine
 * runs is in another network namespace and is not touched.  It stops nfsd
 * when each case ends.
 */
#include "statx_caps.h"
#include "statx_cookie.h"
#include "statx_scratch.h"

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/msdos_fs.h>

#include "../kselftest_harness.h"

#ifndef STATX_ATTR_HIDDEN
#define STATX_ATTR_HIDDEN		0x00800000ULL
#define STATX_ATTR_SYSTEM		0x01000000ULL
#define STATX_ATTR_ARCHIVE		0x02000000ULL
#endif
/* The DOS attributes NFSv4 has: it has no read-only attribute. */
#define NFS_DOS		(STATX_ATTR_HIDDEN | STATX_ATTR_SYSTEM | \
			 STATX_ATTR_ARCHIVE)

#define MASK		(STATX_BASIC_STATS | STATX_BTIME | STATX_CHANGE_COOKIE)
#define NFSD		"/proc/fs/nfsd"
#define DOMAIN		"statx-nfs"
/* The expiry rpc.mountd gives its answers: never. */
#define NEVER		"2147483647"
#define MIB		(1024 * 1024)

static const char *const mkfs_ext4[] = {
	"mkfs.ext4", "-q", "-F", "-I", "256", NULL
};

static const char *const mkfs_vfat[] = { "mkfs.vfat", NULL };

/* The server's filesystem, nfsd and the two client mounts of its export. */
struct nfs_env {
	struct statx_scratch exp;	/* the exported filesystem */
	char cached[96];		/* mounted with actimeo=3600 */
	char noac[96];			/* mounted with noac */
	bool nfsd_up, cached_up, noac_up;
	char why[200];
};

/* Write @text to @path in one write(), as the cache channels need. */
static int put(const char *path, const char *text)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(text))
		ret = -EIO;
	close(fd);
	return ret;
}

static int append(const char *path, const char *text)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Bring up the loopback device; 0 or -errno. */
static int loopback_up(void)
{
	struct ifreq ifr;
	int s, ret = 0;

	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr)) {
		ret = -errno;
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(s, SIOCSIFFLAGS, &ifr))
			ret = -errno;
	}
	close(s);
	return ret;
}

static enum statx_scratch_rc nfs_why(struct nfs_env *e,
				     enum statx_scratch_rc rc,
				     const char *what, int err)
{
	snprintf(e->why, sizeof(e->why), "%s: %s", what, strerror(err));
	return rc;
}

/*
 * Enter a private mount namespace and a new network namespace, check that
 * this kernel has an NFS server, and make and mount the filesystem to
 * export.  nfsd's files, the export caches and the loopback device are
 * those of the new network namespace (nfsd is mounted after entering it).
 */
static enum statx_scratch_rc nfs_export_fs(struct nfs_env *e,
					   const char *fstype,
					   const char *const *mkfs,
					   off_t size, const char *data)
{
	enum statx_scratch_rc rc;
	int ret;

	memset(e, 0, sizeof(*e));
	if (geteuid() != 0) {
		snprintf(e->why, sizeof(e->why), "running an NFS server needs root");
		return SCRATCH_LACKS;
	}
	ret = statx_private_ns();
	if (ret)
		return nfs_why(e, SCRATCH_BROKEN, "private mount namespace", -ret);
	if (unshare(CLONE_NEWNET)) {
		if (errno == EINVAL)
			return nfs_why(e, SCRATCH_LACKS,
				       "no network namespaces in this kernel (CONFIG_NET_NS)",
				       errno);
		return nfs_why(e, SCRATCH_BROKEN, "unshare(CLONE_NEWNET)", errno);
	}
	if (mount("nfsd", NFSD, "nfsd", 0, NULL)) {
		if (errno == ENODEV || errno == ENOENT)
			return nfs_why(e, SCRATCH_LACKS, "no NFS server (nfsd) in this kernel",
				       errno);
		return nfs_why(e, SCRATCH_BROKEN, "mount -t nfsd", errno);
	}
	ret = loopback_up();
	if (ret == -EAFNOSUPPORT)
		return nfs_why(e, SCRATCH_LACKS, "no IPv4", -ret);
	if (ret)
		return nfs_why(e, SCRATCH_BROKEN, "bringing up lo", -ret);
	rc = statx_scratch_mount(&e->exp, fstype, mkfs, size, 0, data);
	if (rc != SCRATCH_MOUNTED)
		snprintf(e->why, sizeof(e->why), "%s", e->exp.why);
	return rc;
}

static enum statx_scratch_rc nfs_mount(struct nfs_env *e, char *dir,
				       size_t len, const char *name,
				       const char *opts, bool *up)
{
	char data[160];

	snprintf(dir, len, "%s/%s", e->exp.dir, name);
	if (mkdir(dir, 0755))
		return nfs_why(e, SCRATCH_BROKEN, dir, errno);
	snprintf(data, sizeof(data), "vers=4.2,sec=sys,%s,addr=127.0.0.1", opts);
	if (mount("127.0.0.1:/", dir, "nfs4", 0, data)) {
		if (errno == ENODEV)
			return nfs_why(e, SCRATCH_LACKS, "no NFSv4 client in this kernel",
				       errno);
		if (errno == EPROTONOSUPPORT)
			return nfs_why(e, SCRATCH_LACKS, "no NFSv4.2 client in this kernel",
				       errno);
		return nfs_why(e, SCRATCH_BROKEN, "mount -t nfs4", errno);
	}
	*up = true;
	return SCRATCH_MOUNTED;
}

/*
 * Start nfsd (NFSv4 only, so that neither rpcbind nor lockd is needed, with
 * the shortest grace period: the test opens nothing through NFS, and
 * GETATTR is served during grace), export the filesystem as the NFSv4
 * root (fsid=0, which tmpfs needs anyway), and mount it twice.
 */
static enum statx_scratch_rc nfs_serve(struct nfs_env *e)
{
	enum statx_scratch_rc rc;
	char msg[256];
	int ret;

	ret = put(NFSD "/nfsv4gracetime", "10\n");
	if (!ret)
		ret = put(NFSD "/nfsv4leasetime", "10\n");
	if (!ret)
		ret = put(NFSD "/versions", "-3\n");
	if (ret)
		return nfs_why(e, SCRATCH_BROKEN, "configuring nfsd", -ret);
	ret = put(NFSD "/portlist", "tcp 2049\n");
	if (ret)
		return nfs_why(e, SCRATCH_BROKEN, NFSD "/portlist", -ret);
	ret = put(NFSD "/threads", "2\n");
	if (ret)
		return nfs_why(e, SCRATCH_BROKEN, "starting nfsd", -ret);
	e->nfsd_up = true;

	/* What rpc.mountd would answer: rw,no_root_squash,fsid=0,no_subtree_check. */
	snprintf(msg, sizeof(msg), "nfsd 127.0.0.1 " NEVER " " DOMAIN "\n");
	ret = put("/proc/net/rpc/auth.unix.ip/channel", msg);
	if (ret)
		return nfs_why(e, SCRATCH_BROKEN, "auth.unix.ip", -ret);
	snprintf(msg, sizeof(msg), DOMAIN " 1 \\x00000000 " NEVER " %s\n",
		 e->exp.mnt);
	ret = put("/proc/net/rpc/nfsd.fh/channel", msg);
	if (ret)
		return nfs_why(e, SCRATCH_BROKEN, "nfsd.fh", -ret);
	snprintf(msg, sizeof(msg), DOMAIN " %s " NEVER " 9216 0 0 0\n",
		 e->exp.mnt);
	ret = put("/proc/net/rpc/nfsd.export/channel", msg);
	if (ret)
		return nfs_why(e, SCRATCH_BROKEN, "nfsd.export", -ret);

	rc = nfs_mount(e, e->cached, sizeof(e->cached), "cached",
		       "actimeo=3600", &e->cached_up);
	if (rc != SCRATCH_MOUNTED)
		return rc;
	return nfs_mount(e, e->noac, sizeof(e->noac), "noac", "noac",
			 &e->noac_up);
}

/* Unmount the client first: it needs the server to say goodbye. */
static void nfs_stop(struct nfs_env *e)
{
	if (e->cached_up && !umount2(e->cached, 0))
		e->cached_up = false;
	if (e->noac_up && !umount2(e->noac, 0))
		e->noac_up = false;
	if (e->nfsd_up && !put(NFSD "/threads", "0\n"))
		e->nfsd_up = false;
	statx_scratch_umount(&e->exp);
}

/* The GETATTR calls the client made for the mount on @dir, or -1. */
static long getattrs(const char *dir)
{
	char line[512], want[160];
	bool in = false;
	long n = -1;
	FILE *f;

	f = fopen("/proc/self/mountstats", "re");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), " mounted on %s with fstype nfs", dir);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "device ", 7)) {
			in = !!strstr(line, want);
			continue;
		}
		if (in && sscanf(line, " GETATTR: %ld", &n) == 1)
			break;
	}
	fclose(f);
	return n;
}

static int fstx(int fd, int flags, struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	return sys_statx(fd, "", AT_EMPTY_PATH | flags, MASK, stx);
}

static int lstx(const char *path, struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	return sys_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, MASK, stx);
}

static void expect_ts(struct __test_metadata *_metadata, const char *what,
		      const struct statx_timestamp *want,
		      const struct statx_timestamp *got)
{
	EXPECT_EQ(want->tv_sec, got->tv_sec) TH_LOG("%s", what);
	EXPECT_EQ(want->tv_nsec, got->tv_nsec) TH_LOG("%s", what);
}

/* @got is what NFS returned, @want what the exported file says of itself. */
static void expect_same(struct __test_metadata *_metadata,
			const struct statx *got, const struct statx *want)
{
	EXPECT_EQ(want->stx_size, got->stx_size);
	EXPECT_EQ(want->stx_ino, got->stx_ino);
	EXPECT_EQ(want->stx_mode, got->stx_mode);
	EXPECT_EQ(want->stx_nlink, got->stx_nlink);
	EXPECT_EQ(want->stx_uid, got->stx_uid);
	EXPECT_EQ(want->stx_gid, got->stx_gid);
	EXPECT_EQ(want->stx_blocks, got->stx_blocks);
	expect_ts(_metadata, "mtime", &want->stx_mtime, &got->stx_mtime);
	expect_ts(_metadata, "ctime", &want->stx_ctime, &got->stx_ctime);
}

FIXTURE(nfs) {
	struct nfs_env e;
	char file[128];		/* the file, on the server's filesystem */
	int cfd, nfd;		/* O_PATH fds of it through each mount */
};

FIXTURE_VARIANT(nfs) {
	const char *fstype;
	const char *const *mkfs;
	off_t size;
	const char *data;
};

FIXTURE_VARIANT_ADD(nfs, tmpfs) {
	.fstype = "tmpfs",
	.data = "size=16m,mode=755",
};

FIXTURE_VARIANT_ADD(nfs, ext4) {
	.fstype = "ext4",
	.mkfs = mkfs_ext4,
	.size = 64 * MIB,
};

FIXTURE_SETUP(nfs)
{
	enum statx_scratch_rc rc;
	char path[160];
	int made;

	self->cfd = -1;
	self->nfd = -1;
	rc = nfs_export_fs(&self->e, variant->fstype, variant->mkfs,
			   variant->size, variant->data);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->e.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->e.why);

	/*
	 * Files are made on the server before the client mounts, so that no
	 * directory changes under the client's feet later: a changed
	 * directory makes the next path walk send a LOOKUP, whose reply would
	 * refresh the cached attributes behind the test's back.
	 */
	snprintf(self->file, sizeof(self->file), "%s/f", self->e.exp.mnt);
	made = open(self->file, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (made >= 0) {
		if (write(made, "hello\n", 6) != 6) {
			close(made);
			made = -1;
		} else {
			close(made);
		}
	}

	rc = nfs_serve(&self->e);
	if (rc == SCRATCH_LACKS) {
		nfs_stop(&self->e);
		STATX_SKIP(return, "%s", self->e.why);
	}
	if (rc != SCRATCH_MOUNTED || made < 0)
		nfs_stop(&self->e);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->e.why);
	ASSERT_LE(0, made) TH_LOG("%s: %s", self->file, strerror(errno));

	/* O_PATH: no NFS OPEN, so no delegation and no close-to-open. */
	snprintf(path, sizeof(path), "%s/f", self->e.cached);
	self->cfd = open(path, O_PATH | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/f", self->e.noac);
	self->nfd = open(path, O_PATH | O_CLOEXEC);
	if (self->cfd < 0 || self->nfd < 0)
		nfs_stop(&self->e);
	ASSERT_LE(0, self->cfd) TH_LOG("%s/f: %s", self->e.cached, strerror(errno));
	ASSERT_LE(0, self->nfd) TH_LOG("%s: %s", path, strerror(errno));
}

FIXTURE_TEARDOWN(nfs)
{
	if (self->cfd >= 0)
		close(self->cfd);
	if (self->nfd >= 0)
		close(self->nfd);
	nfs_stop(&self->e);
	EXPECT_FALSE(self->e.cached_up || self->e.noac_up || self->e.nfsd_up)
		TH_LOG("could not unmount the NFS mounts or stop nfsd");
}

/* Both modes at once are refused, and send nothing. */
TEST_F_TIMEOUT(nfs, dont_and_force_sync, 120)
{
	struct statx stx;
	long g = getattrs(self->e.cached);

	ASSERT_LE(0, g);
	EXPECT_EQ(-1, fstx(self->cfd, AT_STATX_DONT_SYNC | AT_STATX_FORCE_SYNC,
			   &stx));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(g, getattrs(self->e.cached));
}

/*
 * actimeo=3600: after a change on the server, DONT_SYNC and AS_STAT return
 * the cached values without asking the server; FORCE_SYNC asks once and
 * returns the server's, which the cache then holds.
 */
TEST_F_TIMEOUT(nfs, cached_mount, 120)
{
	struct statx prime, local, stx;
	long g;

	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_SYNC_AS_STAT, &prime));
	ASSERT_EQ(6, prime.stx_size);
	ASSERT_EQ(0, append(self->file, "world"));
	ASSERT_EQ(0, lstx(self->file, &local));
	g = getattrs(self->e.cached);
	ASSERT_LE(0, g);

	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_DONT_SYNC, &stx));
	EXPECT_EQ(g, getattrs(self->e.cached));
	expect_same(_metadata, &stx, &prime);

	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_SYNC_AS_STAT, &stx));
	EXPECT_EQ(g, getattrs(self->e.cached));
	expect_same(_metadata, &stx, &prime);

	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_FORCE_SYNC, &stx));
	EXPECT_EQ(g + 1, getattrs(self->e.cached));
	EXPECT_EQ(prime.stx_size + 5, stx.stx_size);
	expect_same(_metadata, &stx, &local);

	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_DONT_SYNC, &stx));
	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_SYNC_AS_STAT, &stx));
	EXPECT_EQ(g + 1, getattrs(self->e.cached));
	expect_same(_metadata, &stx, &local);
}

/*
 * noac: AS_STAT asks the server every time; DONT_SYNC still answers from
 * the cache, and FORCE_SYNC asks exactly once.
 */
TEST_F_TIMEOUT(nfs, noac_mount, 120)
{
	struct statx prime, local, stx;
	long g;

	ASSERT_EQ(0, fstx(self->nfd, AT_STATX_SYNC_AS_STAT, &prime));
	ASSERT_EQ(6, prime.stx_size);
	ASSERT_EQ(0, append(self->file, "world"));
	ASSERT_EQ(0, lstx(self->file, &local));
	g = getattrs(self->e.noac);
	ASSERT_LE(0, g);

	ASSERT_EQ(0, fstx(self->nfd, AT_STATX_DONT_SYNC, &stx));
	EXPECT_EQ(g, getattrs(self->e.noac));
	expect_same(_metadata, &stx, &prime);

	ASSERT_EQ(0, fstx(self->nfd, AT_STATX_SYNC_AS_STAT, &stx));
	EXPECT_EQ(g + 1, getattrs(self->e.noac));
	EXPECT_EQ(prime.stx_size + 5, stx.stx_size);
	expect_same(_metadata, &stx, &local);

	ASSERT_EQ(0, append(self->file, "again"));
	ASSERT_EQ(0, lstx(self->file, &local));
	ASSERT_EQ(0, fstx(self->nfd, AT_STATX_FORCE_SYNC, &stx));
	EXPECT_EQ(g + 2, getattrs(self->e.noac));
	EXPECT_EQ(prime.stx_size + 10, stx.stx_size);
	expect_same(_metadata, &stx, &local);
}

/*
 * The client keeps the server's change attribute for its attribute cache,
 * but returns no change cookie: a cached value may no longer be the
 * server's, changes made on the server take no lock this client can order
 * the value with, and the client cannot tell what the server counts
 * (statx.rst).  Asked for in each mode, before and after a change on the
 * server, the bit stays clear, the field zero, and the cookie's
 * monotonicity is neither claimed nor denied.  (Bit 63 is that flag only
 * where the uapi header defines STATX_ATTR_CHANGE_MONOTONIC; before, it
 * was an internal value that cp_statx() let through stx_attributes_mask.)
 */
TEST_F_TIMEOUT(nfs, no_change_cookie, 120)
{
	static const int modes[] = {
		AT_STATX_SYNC_AS_STAT, AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC,
	};
	bool series = statx_caps_kernel();
	struct statx stx;
	int round, i;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < ARRAY_SIZE(modes); i++) {
			ASSERT_EQ(0, fstx(self->cfd, modes[i], &stx));
			EXPECT_FALSE(stx.stx_mask & STATX_CHANGE_COOKIE)
				TH_LOG("flags %#x", modes[i]);
			EXPECT_EQ(0, cookie_of(&stx));
			if (!series)
				continue;
			EXPECT_FALSE(stx.stx_attributes_mask &
				     STATX_ATTR_CHANGE_MONOTONIC);
			EXPECT_FALSE(stx.stx_attributes &
				     STATX_ATTR_CHANGE_MONOTONIC);
		}
		ASSERT_EQ(0, append(self->file, "world"));
	}
}

/*
 * The birth time through NFS is the exported file's: the client asks for
 * time_create, and nfsd sends it for a filesystem whose row in
 * statx_caps.h has STATX_BTIME (both exports here have).
 */
TEST_F_TIMEOUT(nfs, btime, 120)
{
	struct statx local, stx;

	ASSERT_TRUE(statx_caps_field(variant->fstype, STATX_BTIME));
	ASSERT_EQ(0, lstx(self->file, &local));
	ASSERT_TRUE(local.stx_mask & STATX_BTIME)
		TH_LOG("%s reports no birth time", variant->fstype);
	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_FORCE_SYNC, &stx));
	ASSERT_TRUE(stx.stx_mask & STATX_BTIME)
		TH_LOG("the NFS client reports no STATX_BTIME");
	expect_ts(_metadata, "btime", &local.stx_btime, &stx.stx_btime);
	/* A change leaves it, and the cache has it without asking. */
	ASSERT_EQ(0, append(self->file, "world"));
	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_FORCE_SYNC, &stx));
	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_DONT_SYNC, &stx));
	EXPECT_TRUE(stx.stx_mask & STATX_BTIME);
	expect_ts(_metadata, "btime", &local.stx_btime, &stx.stx_btime);
	ASSERT_EQ(0, fstx(self->nfd, AT_STATX_SYNC_AS_STAT, &stx));
	expect_ts(_metadata, "btime", &local.stx_btime, &stx.stx_btime);
}

/* A filesystem without DOS attributes: none come through NFS either. */
TEST_F_TIMEOUT(nfs, no_dos_attributes, 120)
{
	struct statx local, stx;

	ASSERT_EQ(0, lstx(self->file, &local));
	ASSERT_EQ(0, fstx(self->cfd, AT_STATX_FORCE_SYNC, &stx));
	ASSERT_EQ(0, local.stx_attributes_mask & NFS_DOS);
	EXPECT_EQ(0, stx.stx_attributes_mask & NFS_DOS);
	EXPECT_EQ(0, stx.stx_attributes & NFS_DOS);
}

/* Files on a vfat export, by the DOS attribute bits set on the server. */
static const struct {
	const char *name;
	__u32 dos;
} dos_files[] = {
	{ "NONE", 0 },
	{ "HIDDEN", ATTR_HIDDEN },
	{ "SYSTEM", ATTR_SYS },
	{ "ARCHIVE", ATTR_ARCH },
	{ "ALL", ATTR_HIDDEN | ATTR_SYS | ATTR_ARCH },
};

FIXTURE(nfs_dos) {
	struct nfs_env e;
};

FIXTURE_SETUP(nfs_dos)
{
	enum statx_scratch_rc rc;
	char path[160];
	unsigned int i;
	int fd, bad = 0;

	rc = nfs_export_fs(&self->e, "vfat", mkfs_vfat, 32 * MIB, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->e.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->e.why);
	for (i = 0; i < ARRAY_SIZE(dos_files); i++) {
		snprintf(path, sizeof(path), "%s/%s", self->e.exp.mnt,
			 dos_files[i].name);
		fd = open(path, O_CREAT | O_EXCL | O_RDONLY | O_CLOEXEC, 0644);
		if (fd < 0 ||
		    ioctl(fd, FAT_IOCTL_SET_ATTRIBUTES, &dos_files[i].dos))
			bad = errno;
		if (fd >= 0)
			close(fd);
	}
	rc = nfs_serve(&self->e);
	if (rc == SCRATCH_LACKS) {
		nfs_stop(&self->e);
		STATX_SKIP(return, "%s", self->e.why);
	}
	if (rc != SCRATCH_MOUNTED || bad)
		nfs_stop(&self->e);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->e.why);
	ASSERT_EQ(0, bad) TH_LOG("making the files: %s", strerror(bad));
}

FIXTURE_TEARDOWN(nfs_dos)
{
	nfs_stop(&self->e);
	EXPECT_FALSE(self->e.cached_up || self->e.noac_up || self->e.nfsd_up)
		TH_LOG("could not unmount the NFS mounts or stop nfsd");
}

/*
 * nfsd sends hidden, system and archive as the exported file's statx()
 * reports them, and the client reports what it received.  On a kernel
 * that predates the DOS attributes vfat reports none, and the cases skip.
 */
TEST_F_TIMEOUT(nfs_dos, attributes, 120)
{
	struct statx local[ARRAY_SIZE(dos_files)], stx;
	char path[160];
	unsigned int i;

	if (!statx_caps_kernel())
		STATX_SKIP(return,
			   "the kernel predates the DOS attributes: vfat reports none");
	ASSERT_TRUE(statx_caps_attr("vfat", STATX_ATTR_HIDDEN));
	for (i = 0; i < ARRAY_SIZE(dos_files); i++) {
		snprintf(path, sizeof(path), "%s/%s", self->e.exp.mnt,
			 dos_files[i].name);
		ASSERT_EQ(0, lstx(path, &local[i]));
		ASSERT_EQ(NFS_DOS, local[i].stx_attributes_mask & NFS_DOS);
	}

	for (i = 0; i < ARRAY_SIZE(dos_files); i++) {
		/* The server's own answer is the truth the files were made with. */
		EXPECT_EQ((__u64)((dos_files[i].dos & ATTR_HIDDEN ? STATX_ATTR_HIDDEN : 0) |
				  (dos_files[i].dos & ATTR_SYS ? STATX_ATTR_SYSTEM : 0) |
				  (dos_files[i].dos & ATTR_ARCH ? STATX_ATTR_ARCHIVE : 0)),
			  local[i].stx_attributes & NFS_DOS);
		snprintf(path, sizeof(path), "%s/%s", self->e.cached,
			 dos_files[i].name);
		memset(&stx, 0, sizeof(stx));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, path, AT_STATX_FORCE_SYNC,
				       MASK, &stx));
		EXPECT_EQ(NFS_DOS, stx.stx_attributes_mask & NFS_DOS)
			TH_LOG("%s", dos_files[i].name);
		EXPECT_EQ(local[i].stx_attributes & NFS_DOS,
			  stx.stx_attributes & NFS_DOS)
			TH_LOG("%s", dos_files[i].name);
	}
}

/* A change of the attributes on the server reaches the client with FORCE_SYNC. */
TEST_F_TIMEOUT(nfs_dos, change, 120)
{
	struct statx local, stx;
	char path[160], npath[160];
	__u32 dos = ATTR_HIDDEN | ATTR_SYS;
	int fd, pfd;

	if (!statx_caps_kernel())
		STATX_SKIP(return,
			   "the kernel predates the DOS attributes: vfat reports none");
	snprintf(path, sizeof(path), "%s/NONE", self->e.exp.mnt);
	snprintf(npath, sizeof(npath), "%s/NONE", self->e.cached);
	ASSERT_EQ(0, lstx(path, &local));
	ASSERT_EQ(NFS_DOS, local.stx_attributes_mask & NFS_DOS);
	pfd = open(npath, O_PATH | O_CLOEXEC);
	ASSERT_LE(0, pfd);
	ASSERT_EQ(0, fstx(pfd, AT_STATX_FORCE_SYNC, &stx));
	EXPECT_EQ(NFS_DOS, stx.stx_attributes_mask & NFS_DOS);
	EXPECT_EQ(0, stx.stx_attributes & NFS_DOS);

	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FAT_IOCTL_SET_ATTRIBUTES, &dos));
	close(fd);
	ASSERT_EQ(0, lstx(path, &local));

	ASSERT_EQ(0, fstx(pfd, AT_STATX_DONT_SYNC, &stx));
	EXPECT_EQ(0, stx.stx_attributes & NFS_DOS);
	/*
	 * The attributes come with every answer: FORCE_SYNC asks the server
	 * for them also when the mask holds nothing else it would ask for.
	 */
	memset(&stx, 0, sizeof(stx));
	ASSERT_EQ(0, sys_statx(pfd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC,
			       STATX_TYPE | STATX_INO, &stx));
	EXPECT_EQ(STATX_ATTR_HIDDEN | STATX_ATTR_SYSTEM,
		  stx.stx_attributes & NFS_DOS);
	ASSERT_EQ(0, fstx(pfd, AT_STATX_FORCE_SYNC, &stx));
	EXPECT_EQ(STATX_ATTR_HIDDEN | STATX_ATTR_SYSTEM,
		  stx.stx_attributes & NFS_DOS);
	EXPECT_EQ(local.stx_attributes & NFS_DOS, stx.stx_attributes & NFS_DOS);
	close(pfd);
}

TEST_HARNESS_MAIN
