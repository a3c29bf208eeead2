// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ntfs3: how the file attributes of $STANDARD_INFORMATION
 * are reported through statx().
 */

#include <kunit/test.h>

#include "ntfs_fs.h"

struct ntfs_fa_testcase {
	const char *name;
	u8 bit;		/* bit number in the 32-bit file attributes */
	u64 statx;	/* STATX_ATTR_* flags it must map to */
};

/* One case per bit of the file attributes, named as Windows names them. */
static struct ntfs_fa_testcase fa_test_cases[] = {
	{ "bit 0 READONLY", 0, STATX_ATTR_DOS_READONLY },
	{ "bit 1 HIDDEN", 1, STATX_ATTR_HIDDEN },
	{ "bit 2 SYSTEM", 2, STATX_ATTR_SYSTEM },
	{ "bit 3 unused", 3, 0 },
	{ "bit 4 DIRECTORY (Win32)", 4, 0 },
	{ "bit 5 ARCHIVE", 5, STATX_ATTR_ARCHIVE },
	{ "bit 6 DEVICE", 6, 0 },
	{ "bit 7 NORMAL", 7, 0 },
	{ "bit 8 TEMPORARY", 8, 0 },
	{ "bit 9 SPARSE_FILE", 9, 0 },
	{ "bit 10 REPARSE_POINT", 10, 0 },
	{ "bit 11 COMPRESSED", 11, 0 },
	{ "bit 12 OFFLINE", 12, 0 },
	{ "bit 13 NOT_CONTENT_INDEXED", 13, 0 },
	{ "bit 14 ENCRYPTED", 14, 0 },
	{ "bit 15 INTEGRITY_STREAM", 15, 0 },
	{ "bit 16 VIRTUAL", 16, 0 },
	{ "bit 17 NO_SCRUB_DATA", 17, 0 },
	{ "bit 18 RECALL_ON_OPEN", 18, 0 },
	{ "bit 19 PINNED", 19, 0 },
	{ "bit 20 UNPINNED", 20, 0 },
	{ "bit 21 unused", 21, 0 },
	{ "bit 22 RECALL_ON_DATA_ACCESS", 22, 0 },
	{ "bit 23 unused", 23, 0 },
	{ "bit 24 unused", 24, 0 },
	{ "bit 25 unused", 25, 0 },
	{ "bit 26 unused", 26, 0 },
	{ "bit 27 unused", 27, 0 },
	{ "bit 28 DIRECTORY (NTFS $FILE_NAME)", 28, 0 },
	{ "bit 29 INDEX_VIEW", 29, 0 },
	{ "bit 30 unused", 30, 0 },
	{ "bit 31 unused", 31, 0 },
};

static void fa_testcase_desc(struct ntfs_fa_testcase *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ntfs_fa, fa_test_cases, fa_testcase_desc);

static enum FILE_ATTRIBUTE fa_of(u32 host)
{
	return (__force enum FILE_ATTRIBUTE)cpu_to_le32(host);
}

/* Each bit on its own maps to its statx flag and to nothing else. */
static void ntfs_fa_to_statx_bit_test(struct kunit *test)
{
	const struct ntfs_fa_testcase *testcase = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, ntfs_fa_to_statx(fa_of(1U << testcase->bit)),
			    testcase->statx, "file attributes %#x\n",
			    1U << testcase->bit);
}

/*
 * Combinations map to the union of their bits' flags, and never to a flag
 * that ntfs_getattr() leaves out of the mask: every value of the low 16
 * bits, each with and without all of the high 16 bits.
 */
static void ntfs_fa_to_statx_word_test(struct kunit *test)
{
	static const u32 high[] = { 0, 0xffff0000 };
	unsigned int low, h, i;

	for (h = 0; h < ARRAY_SIZE(high); h++) {
		for (low = 0; low <= 0xffff; low++) {
			u32 fa = high[h] | low;
			u64 want = 0, got = ntfs_fa_to_statx(fa_of(fa));

			for (i = 0; i < ARRAY_SIZE(fa_test_cases); i++)
				if (fa & (1U << fa_test_cases[i].bit))
					want |= fa_test_cases[i].statx;
			if (got != want || (got & ~NTFS_STATX_ATTRS)) {
				KUNIT_FAIL(test,
					   "file attributes %#x: got %#llx, want %#llx\n",
					   fa, got, want);
				return;
			}
		}
	}
}

static struct kunit_case ntfs3_test_cases[] = {
	KUNIT_CASE_PARAM(ntfs_fa_to_statx_bit_test, ntfs_fa_gen_params),
	KUNIT_CASE(ntfs_fa_to_statx_word_test),
	{},
};

static struct kunit_suite ntfs3_test_suite = {
	.name = "ntfs3",
	.test_cases = ntfs3_test_cases,
};

kunit_test_suites(&ntfs3_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ntfs3 filesystem");
MODULE_LICENSE("GPL");
