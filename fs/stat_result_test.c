// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the VFS side of statx(): which results reach the caller
 * (statx_restrict_result()), and the inode generation vfs_statx_path()
 * answers for a real inode, made on the kernel's internal tmpfs mount.
 */

#include <kunit/test.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/shmem_fs.h>
#include <linux/stat.h>

#include "internal.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

static int statx_kunit_init(struct kunit *test)
{
	struct file *file;

	file = shmem_kernel_file_setup("statx-kunit", 0,
				       mk_vma_flags(VMA_NORESERVE_BIT));
	if (IS_ERR(file))
		return PTR_ERR(file);
	test->priv = file;
	return 0;
}

static void statx_kunit_exit(struct kunit *test)
{
	fput(test->priv);
}

static const struct path *statx_kunit_path(struct kunit *test)
{
	return &((struct file *)test->priv)->f_path;
}

/*
 * statx_restrict_result(): what reaches the caller.  @keeps: the filesystem
 * sets SB_I_CHANGE_COOKIE.
 */
struct statx_mask_case {
	const char *name;
	bool keeps;
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
		.keeps = true,
		.request = BASIC | STATX_BTIME,
		.result = BASIC | STATX_BTIME | STATX_MNT_ID,
		.attributes = STATX_ATTR_IMMUTABLE,
		.attributes_mask = STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND,
		.want_result = BASIC | STATX_BTIME | STATX_MNT_ID,
		.want_attributes = STATX_ATTR_IMMUTABLE,
		.want_attributes_mask = STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND,
	}, {
		.name = "cookie not asked for is dropped, with its attribute",
		.keeps = true,
		.request = BASIC,
		.result = BASIC | COOKIE,
		.attributes = MONO,
		.attributes_mask = MONO,
		.cookie = 42,
		.want_result = BASIC,
	}, {
		.name = "monotonic not known without the cookie",
		.keeps = false,
		.request = BASIC,
		.result = BASIC,
		.attributes_mask = MONO | STATX_ATTR_APPEND,
		.want_result = BASIC,
		.want_attributes_mask = STATX_ATTR_APPEND,
	}, {
		.name = "cookie asked for and returned",
		.keeps = true,
		.request = BASIC | COOKIE,
		.result = BASIC | COOKIE,
		.cookie = 42,
		.want_result = BASIC | COOKIE,
		.want_attributes_mask = MONO,
		.want_cookie = 42,
	}, {
		.name = "monotonic cookie keeps its attribute",
		.keeps = true,
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
		.keeps = true,
		.request = BASIC | COOKIE,
		.result = BASIC,
		.attributes = MONO,
		.attributes_mask = MONO,
		.cookie = 42,
		.want_result = BASIC,
	}, {
		.name = "cookie of a filesystem that does not keep it",
		.keeps = false,
		.request = BASIC | COOKIE,
		.result = BASIC | COOKIE,
		.attributes = MONO,
		.attributes_mask = MONO,
		.cookie = 42,
		.want_result = BASIC,
	}, {
		.name = "generation passes untouched",
		.keeps = false,
		.request = BASIC | STATX_GEN | COOKIE,
		.result = BASIC | STATX_GEN,
		.gen = 0xdeadbeef,
		.want_result = BASIC | STATX_GEN,
		.want_gen = 0xdeadbeef,
	}, {
		.name = "both asked for and returned",
		.keeps = true,
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
	struct super_block *sb;
	struct inode *inode;

	/* statx_restrict_result() looks at the superblock's flags only */
	sb = kunit_kzalloc(test, sizeof(*sb), GFP_KERNEL);
	inode = kunit_kzalloc(test, sizeof(*inode), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sb);
	KUNIT_ASSERT_NOT_NULL(test, inode);
	sb->s_iflags = c->keeps ? SB_I_CHANGE_COOKIE : 0;
	inode->i_sb = sb;
	statx_restrict_result(&stat, c->request, inode);

	KUNIT_EXPECT_EQ(test, stat.result_mask, c->want_result);
	KUNIT_EXPECT_EQ(test, stat.attributes, c->want_attributes);
	KUNIT_EXPECT_EQ(test, stat.attributes_mask, c->want_attributes_mask);
	KUNIT_EXPECT_EQ(test, stat.change_cookie, c->want_cookie);
	KUNIT_EXPECT_EQ(test, stat.gen, c->want_gen);
	KUNIT_EXPECT_EQ(test, stat.ino, 1234);
	KUNIT_EXPECT_EQ(test, stat.size, 5678);
}

/*
 * vfs_statx_path() answers STATX_GEN for a filesystem that opts in, and
 * only when asked for.  The file is on the kernel's internal tmpfs mount,
 * which is shmem, keeping a stable generation, with CONFIG_SHMEM, and
 * ramfs, keeping none, without it: the kernel's configuration decides what
 * is expected, not the superblock flag that the answer follows.
 */
static void statx_getattr_gen_test(struct kunit *test)
{
	const struct path *path = statx_kunit_path(test);
	struct inode *inode = d_inode(path->dentry);
	struct kstat stat;

	KUNIT_ASSERT_EQ(test, vfs_statx_path(path, 0, &stat,
					     STATX_BASIC_STATS), 0);
	KUNIT_EXPECT_FALSE(test, stat.result_mask & STATX_GEN);
	KUNIT_EXPECT_EQ(test, stat.ino, inode->i_ino);

	KUNIT_ASSERT_EQ(test, vfs_statx_path(path, 0, &stat,
					     STATX_BASIC_STATS | STATX_GEN), 0);
	if (IS_ENABLED(CONFIG_SHMEM)) {
		KUNIT_EXPECT_TRUE(test, stat.result_mask & STATX_GEN);
		KUNIT_EXPECT_EQ(test, stat.gen, inode->i_generation);
	} else {
		/* shmem_kernel_file_setup() falls back to ramfs */
		KUNIT_EXPECT_FALSE(test, stat.result_mask & STATX_GEN);
	}
	KUNIT_EXPECT_EQ(test, stat.ino, inode->i_ino);
}

static struct kunit_case statx_result_cases[] = {
	KUNIT_CASE_PARAM(statx_restrict_result_test, statx_mask_gen_params),
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

MODULE_DESCRIPTION("KUnit tests for the statx() result mask and generation");
MODULE_LICENSE("GPL");
