// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the VFS side of statx(): which results reach the caller
 * (statx_restrict_result()) and who may see the inode generation
 * (statx_gen_permitted()).  The inode is a real one, made on the kernel's
 * internal tmpfs mount, and the permission checks run under real
 * credentials.
 */

#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/shmem_fs.h>
#include <linux/stat.h>

#include "internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NOBODY		65534
#define DAC_READ	BIT_ULL(CAP_DAC_READ_SEARCH)
#define DAC_OVERRIDE	BIT_ULL(CAP_DAC_OVERRIDE)

static int statx_kunit_init(struct kunit *test)
{
	struct file *file;

	file = shmem_kernel_file_setup("statx-kunit", 0, VM_NORESERVE);
	if (IS_ERR(file))
		return PTR_ERR(file);
	test->priv = file;
	return 0;
}

static void statx_kunit_exit(struct kunit *test)
{
	fput(test->priv);
}

static struct path *statx_kunit_path(struct kunit *test)
{
	return &((struct file *)test->priv)->f_path;
}

/* Give the test inode an owner and a mode, as chown and chmod would. */
static void statx_kunit_set_owner(struct kunit *test, umode_t mode,
				  uid_t uid, gid_t gid)
{
	struct inode *inode = file_inode(test->priv);

	inode->i_mode = S_IFREG | mode;
	inode->i_uid = make_kuid(&init_user_ns, uid);
	inode->i_gid = make_kgid(&init_user_ns, gid);
}

/* Act as @fsuid:@fsgid holding only the capabilities in @caps. */
static const struct cred *statx_kunit_become(struct kunit *test, uid_t fsuid,
					     gid_t fsgid, u64 caps)
{
	const struct cred *old;
	struct cred *cred;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cred->fsuid = make_kuid(&init_user_ns, fsuid);
	cred->fsgid = make_kgid(&init_user_ns, fsgid);
	cred->cap_effective.val = caps;
	old = override_creds(cred);
	put_cred(cred);
	return old;
}

/* statx_restrict_result(): what reaches the caller, for a caller who may. */
struct statx_mask_case {
	const char *name;
	u32 request;
	u32 result;
	u64 attributes;
	u64 attributes_mask;
	u64 cookie;
	u32 gen;
	u32 want_result;
	u64 want_attributes;
	u64 want_attributes_mask;
	u64 want_cookie;
	u32 want_gen;
};

#define MONO	STATX_ATTR_CHANGE_MONOTONIC
#define BASIC	STATX_BASIC_STATS
#define COOKIE	STATX_CHANGE_COOKIE

static const struct statx_mask_case statx_mask_cases[] = {
	{
		.name = "old request, old answer",
		.request = BASIC | STATX_BTIME,
		.result = BASIC | STATX_BTIME | STATX_MNT_ID,
		.attributes = STATX_ATTR_IMMUTABLE,
		.attributes_mask = STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND,
		.want_result = BASIC | STATX_BTIME | STATX_MNT_ID,
		.want_attributes = STATX_ATTR_IMMUTABLE,
		.want_attributes_mask = STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND,
	}, {
		.name = "cookie not asked for is dropped",
		.request = BASIC,
		.result = BASIC | COOKIE,
		.attributes = MONO,
		.attributes_mask = MONO,
		.cookie = 42,
		.want_result = BASIC,
		.want_attributes_mask = MONO,
	}, {
		.name = "cookie asked for and returned",
		.request = BASIC | COOKIE,
		.result = BASIC | COOKIE,
		.cookie = 42,
		.want_result = BASIC | COOKIE,
		.want_attributes_mask = MONO,
		.want_cookie = 42,
	}, {
		.name = "monotonic cookie keeps its attribute",
		.request = COOKIE,
		.result = BASIC | COOKIE,
		.attributes = MONO | STATX_ATTR_APPEND,
		.attributes_mask = MONO | STATX_ATTR_APPEND,
		.cookie = 1ULL << 40,
		.want_result = BASIC | COOKIE,
		.want_attributes = MONO | STATX_ATTR_APPEND,
		.want_attributes_mask = MONO | STATX_ATTR_APPEND,
		.want_cookie = 1ULL << 40,
	}, {
		.name = "cookie asked for, not returned",
		.request = BASIC | COOKIE,
		.result = BASIC,
		.attributes = MONO,
		.cookie = 42,
		.want_result = BASIC,
	}, {
		.name = "generation asked for and returned",
		.request = BASIC | STATX_GEN,
		.result = BASIC | STATX_GEN,
		.gen = 0xdeadbeef,
		.want_result = BASIC | STATX_GEN,
		.want_gen = 0xdeadbeef,
	}, {
		.name = "generation not asked for is dropped",
		.request = BASIC,
		.result = BASIC | STATX_GEN,
		.gen = 7,
		.want_result = BASIC,
	}, {
		.name = "generation asked for, not returned",
		.request = STATX_GEN,
		.result = BASIC,
		.gen = 7,
		.want_result = BASIC,
	}, {
		.name = "both asked for and returned",
		.request = COOKIE | STATX_GEN,
		.result = BASIC | COOKIE | STATX_GEN,
		.cookie = 3,
		.gen = 5,
		.want_result = BASIC | COOKIE | STATX_GEN,
		.want_attributes_mask = MONO,
		.want_cookie = 3,
		.want_gen = 5,
	},
};

KUNIT_ARRAY_PARAM_DESC(statx_mask, statx_mask_cases, name);

static void statx_restrict_result_test(struct kunit *test)
{
	const struct statx_mask_case *c = test->param_value;
	struct kstat stat = {
		.result_mask = c->result,
		.attributes = c->attributes,
		.attributes_mask = c->attributes_mask,
		.change_cookie = c->cookie,
		.gen = c->gen,
		.ino = 1234,
		.size = 5678,
	};

	/* Readable by anyone: the generation gate is not what is tested. */
	statx_kunit_set_owner(test, 0644, 0, 0);
	statx_restrict_result(&stat, c->request, statx_kunit_path(test));

	KUNIT_EXPECT_EQ(test, stat.result_mask, c->want_result);
	KUNIT_EXPECT_EQ(test, stat.attributes, c->want_attributes);
	KUNIT_EXPECT_EQ(test, stat.attributes_mask, c->want_attributes_mask);
	KUNIT_EXPECT_EQ(test, stat.change_cookie, c->want_cookie);
	KUNIT_EXPECT_EQ(test, stat.gen, c->want_gen);
	KUNIT_EXPECT_EQ(test, stat.ino, 1234);
	KUNIT_EXPECT_EQ(test, stat.size, 5678);
}

/* statx_gen_permitted(): who may see the generation. */
struct statx_gate_case {
	const char *name;
	umode_t mode;
	uid_t uid;
	gid_t gid;
	uid_t fsuid;
	gid_t fsgid;
	u64 caps;
	bool permitted;
};

static const struct statx_gate_case statx_gate_cases[] = {
	{ "0600 root file, nobody", 0600, 0, 0, NOBODY, NOBODY, 0, false },
	{ "0644 root file, nobody", 0644, 0, 0, NOBODY, NOBODY, 0, true },
	{ "0640 file of nobody's group", 0640, 0, NOBODY, NOBODY, NOBODY, 0,
	  true },
	{ "0604 file of nobody's group", 0604, 0, NOBODY, NOBODY, NOBODY, 0,
	  false },
	{ "0400 file of nobody", 0400, NOBODY, 0, NOBODY, NOBODY, 0, true },
	{ "0044 file of nobody", 0044, NOBODY, NOBODY, NOBODY, NOBODY, 0,
	  false },
	{ "0222 write-only root file, nobody", 0222, 0, 0, NOBODY, NOBODY, 0,
	  false },
	{ "0000 root file, CAP_DAC_READ_SEARCH", 0, 0, 0, NOBODY, NOBODY,
	  DAC_READ, true },
	{ "0000 root file, CAP_DAC_OVERRIDE", 0, 0, 0, NOBODY, NOBODY,
	  DAC_OVERRIDE, true },
	{ "0600 root file, uid 0 without capabilities", 0600, 0, 0, 0, 0, 0,
	  true },
	{ "0000 root file, uid 0 without capabilities", 0, 0, 0, 0, 0, 0,
	  false },
};

KUNIT_ARRAY_PARAM_DESC(statx_gate, statx_gate_cases, name);

static void statx_gen_permitted_test(struct kunit *test)
{
	const struct statx_gate_case *c = test->param_value;
	struct path *path = statx_kunit_path(test);
	const struct cred *old;
	struct kstat stat = {
		.result_mask = STATX_BASIC_STATS | STATX_CHANGE_COOKIE |
			       STATX_GEN,
		.change_cookie = 99,
		.gen = 0x1234,
		.ino = 42,
	};
	bool permitted;

	statx_kunit_set_owner(test, c->mode, c->uid, c->gid);
	old = statx_kunit_become(test, c->fsuid, c->fsgid, c->caps);
	permitted = statx_gen_permitted(mnt_idmap(path->mnt),
					file_inode(test->priv));
	statx_restrict_result(&stat, STATX_BASIC_STATS | STATX_CHANGE_COOKIE |
			      STATX_GEN, path);
	revert_creds(old);

	KUNIT_EXPECT_EQ(test, permitted, c->permitted);
	/* The gate takes the generation away, and nothing else. */
	KUNIT_EXPECT_EQ(test, stat.result_mask,
			STATX_BASIC_STATS | STATX_CHANGE_COOKIE |
			(c->permitted ? STATX_GEN : 0));
	KUNIT_EXPECT_EQ(test, stat.gen, c->permitted ? 0x1234 : 0);
	KUNIT_EXPECT_EQ(test, stat.change_cookie, 99);
	KUNIT_EXPECT_EQ(test, stat.ino, 42);
}

/* vfs_getattr_nosec() answers STATX_GEN for a filesystem that opts in. */
static void statx_getattr_gen_test(struct kunit *test)
{
	struct path *path = statx_kunit_path(test);
	struct inode *inode = d_inode(path->dentry);
	struct kstat stat;

	KUNIT_ASSERT_EQ(test, vfs_getattr_nosec(path, &stat,
						STATX_BASIC_STATS, 0), 0);
	KUNIT_EXPECT_FALSE(test, stat.result_mask & STATX_GEN);
	KUNIT_EXPECT_EQ(test, stat.gen, 0);
	KUNIT_EXPECT_EQ(test, stat.ino, inode->i_ino);

	KUNIT_ASSERT_EQ(test, vfs_getattr_nosec(path, &stat,
						STATX_BASIC_STATS | STATX_GEN,
						0), 0);
	if (!(inode->i_sb->s_iflags & SB_I_STABLE_GENERATION)) {
		/* shmem_kernel_file_setup() falls back to ramfs */
		KUNIT_EXPECT_FALSE(test, stat.result_mask & STATX_GEN);
		KUNIT_EXPECT_EQ(test, stat.gen, 0);
		kunit_skip(test, "%s keeps no stable generation",
			   inode->i_sb->s_type->name);
	}
	KUNIT_EXPECT_TRUE(test, stat.result_mask & STATX_GEN);
	KUNIT_EXPECT_EQ(test, stat.gen, inode->i_generation);
	KUNIT_EXPECT_EQ(test, stat.ino, inode->i_ino);
}

static struct kunit_case statx_result_cases[] = {
	KUNIT_CASE_PARAM(statx_restrict_result_test, statx_mask_gen_params),
	KUNIT_CASE_PARAM(statx_gen_permitted_test, statx_gate_gen_params),
	KUNIT_CASE(statx_getattr_gen_test),
	{}
};

static struct kunit_suite statx_result_suite = {
	.name = "statx_result",
	.init = statx_kunit_init,
	.exit = statx_kunit_exit,
	.test_cases = statx_result_cases,
};

kunit_test_suite(statx_result_suite);

MODULE_DESCRIPTION("KUnit tests for the statx() result mask and generation gate");
MODULE_LICENSE("GPL");
