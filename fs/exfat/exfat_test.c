// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit tests for exFAT: how the attribute bits of a file directory entry
 * are kept in the inode and reported through statx().
 */

#include <kunit/test.h>

#include "exfat_raw.h"
#include "exfat_fs.h"

struct exfat_attr_testcase {
	const char *name;
	u8 bit;		/* bit number in the FileAttributes field */
	u64 statx;	/* STATX_ATTR_* flags it must map to */
};

/* One case per bit of FileAttributes, as the exFAT specification names them. */
static struct exfat_attr_testcase attr_test_cases[] = {
	{ "bit 0 ReadOnly", 0, STATX_ATTR_DOS_READONLY },
	{ "bit 1 Hidden", 1, STATX_ATTR_HIDDEN },
	{ "bit 2 System", 2, STATX_ATTR_SYSTEM },
	{ "bit 3 reserved (FAT volume label)", 3, 0 },
	{ "bit 4 Directory", 4, 0 },
	{ "bit 5 Archive", 5, STATX_ATTR_ARCHIVE },
	{ "bit 6 reserved", 6, 0 },
	{ "bit 7 reserved", 7, 0 },
	{ "bit 8 reserved", 8, 0 },
	{ "bit 9 reserved", 9, 0 },
	{ "bit 10 reserved", 10, 0 },
	{ "bit 11 reserved", 11, 0 },
	{ "bit 12 reserved", 12, 0 },
	{ "bit 13 reserved", 13, 0 },
	{ "bit 14 reserved", 14, 0 },
	{ "bit 15 reserved", 15, 0 },
};

static void attr_testcase_desc(struct exfat_attr_testcase *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(exfat_attr, attr_test_cases, attr_testcase_desc);

/* Each bit on its own maps to its statx flag and to nothing else. */
static void exfat_attr_to_statx_bit_test(struct kunit *test)
{
	const struct exfat_attr_testcase *testcase = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, exfat_attr_to_statx(1U << testcase->bit),
			    testcase->statx, "FileAttributes %#x\n",
			    1U << testcase->bit);
}

/* The inode and superblock of an exFAT file that no filesystem holds. */
struct exfat_test_inode {
	struct super_block sb;
	struct exfat_sb_info sbi;
	struct exfat_inode_info ei;
};

/* The fmask and dmask values that decide whether a mode can hold ReadOnly. */
static const unsigned short exfat_test_masks[] = { 0, 0022, 0077, 0222, 0777 };

/*
 * Load @attr into @inode the way exfat_fill_inode() and
 * FAT_IOCTL_SET_ATTRIBUTES do, and check that exfat_make_attr() gives back
 * each bit the inode keeps, ReadOnly included, that statx reports ReadOnly
 * exactly when it was set, and, where the mode holds the attribute, that
 * ReadOnly follows the write bits as chmod() changes them.
 */
static bool exfat_attr_round_trip(struct kunit *test, struct inode *inode,
				  unsigned short attr)
{
	struct exfat_sb_info *sbi = EXFAT_SB(inode->i_sb);
	unsigned short want, got;
	u64 statx;

	want = attr & (EXFAT_ATTR_RWMASK | EXFAT_ATTR_READONLY);
	inode->i_mode = exfat_make_mode(sbi, attr, 0777);
	exfat_save_attr(inode, attr);
	got = exfat_make_attr(inode);
	statx = exfat_attr_to_statx(got);
	KUNIT_EXPECT_EQ_MSG(test, got, want, "attr %#x\n", attr);
	KUNIT_EXPECT_EQ_MSG(test, !!(statx & STATX_ATTR_DOS_READONLY),
			    !!(attr & EXFAT_ATTR_READONLY), "attr %#x\n", attr);
	if (got != want)
		return false;
	if (!exfat_mode_can_hold_ro(inode))
		return true;

	inode->i_mode |= 0222 & ~sbi->options.fs_fmask;
	got = exfat_make_attr(inode);
	KUNIT_EXPECT_EQ_MSG(test, got & EXFAT_ATTR_READONLY, 0,
			    "attr %#x made writable\n", attr);
	inode->i_mode &= ~0222;
	got = exfat_make_attr(inode);
	KUNIT_EXPECT_EQ_MSG(test, got & EXFAT_ATTR_READONLY,
			    EXFAT_ATTR_READONLY, "attr %#x made read-only\n",
			    attr);
	return true;
}

/*
 * ReadOnly lives in the mode where the mode can hold it (a regular file
 * whose fmask leaves a write bit) and in exfat_inode_info.attr where it
 * cannot.  Every value of the FileAttributes bits exFAT defines makes the
 * round trip under every fmask and dmask.
 */
static void exfat_attr_round_trip_test(struct kunit *test)
{
	struct exfat_test_inode *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int f, d, attr;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->sb.s_fs_info = &t->sbi;
	t->ei.vfs_inode.i_sb = &t->sb;

	for (f = 0; f < ARRAY_SIZE(exfat_test_masks); f++) {
		for (d = 0; d < ARRAY_SIZE(exfat_test_masks); d++) {
			t->sbi.options.fs_fmask = exfat_test_masks[f];
			t->sbi.options.fs_dmask = exfat_test_masks[d];
			for (attr = 0; attr <= 0x3f; attr++)
				if (!exfat_attr_round_trip(test,
							   &t->ei.vfs_inode,
							   attr))
					goto fail;
		}
	}
	return;
fail:
	KUNIT_FAIL(test, "fmask %#o, dmask %#o\n", t->sbi.options.fs_fmask,
		   t->sbi.options.fs_dmask);
}

static struct kunit_case exfat_test_cases[] = {
	KUNIT_CASE_PARAM(exfat_attr_to_statx_bit_test, exfat_attr_gen_params),
	KUNIT_CASE(exfat_attr_round_trip_test),
	{},
};

static struct kunit_suite exfat_test_suite = {
	.name = "exfat",
	.test_cases = exfat_test_cases,
};

kunit_test_suites(&exfat_test_suite);

MODULE_DESCRIPTION("KUnit tests for the exFAT filesystem");
MODULE_LICENSE("GPL");
