// SPDX-License-Identifier: GPL-2.0
/*
 * profile_plugin.c: a QEMU TCG plugin that counts the guest instructions
 * executed per translation block, between two markers the guest program
 * executes, for harness/profile.sh.
 *
 *	qemu-system-x86_64 ... -plugin file=profile_plugin.so,arg=out=PREFIX
 *
 * Every translation block gets a counter, keyed by its first and end
 * address (the end being the address after its last instruction), and an
 * inline "add n_insns" at its start: the cheapest instrumentation TCG has,
 * so that a boot with the plugin runs nearly as fast as without it.
 * Kernel and user blocks alike are counted (the report tells them apart by
 * address), so that the total can be checked against the -icount figures
 * of harness/bench.sh, which count both.
 *
 * The markers: "mov $MAGIC, %eax" (b8 imm32) followed by "cpuid" (0f a2)
 * in user space, with MAGIC PROFILE_MAGIC_START or PROFILE_MAGIC_END.  The
 * plugin recognizes them by their bytes when it translates a block, and
 * registers a callback on that one instruction: the first snapshots every
 * counter, the second writes the counters that grew since to
 * PREFIX.N (N = 0, 1, ... for each window in turn):
 *
 *	# window N
 *	# slots S
 *	START END N_INSNS INSNS		(hexadecimal addresses)
 *
 * one line per block that ran in the window.  cpuid is emulated by TCG
 * without the kernel's help, so the markers themselves cost the guest two
 * instructions each.  (QEMU's syscall callbacks would be the obvious
 * marker, but they fire only for user-mode emulation, never under
 * qemu-system.)  At exit PREFIX.summary says how many blocks were
 * counted, how many windows were written and whether the table overflowed.
 *
 * Arguments (each "KEY=VALUE", or "arg=KEY=VALUE" in QEMU's older syntax):
 *	out=PREFIX	where to write (required)
 *	user_top=ADDR	markers are recognized only below ADDR (default
 *			0x800000000000, the x86-64 user half; 0 for anywhere)
 *
 * Debian's QEMU packages ship no qemu-plugin.h, so the part of the API this
 * uses is declared below, as QEMU 7.2 defines it (plugin API version 1):
 * the types, the enum values and the callback signatures must match
 * QEMU's exactly.  Build: gcc -shared -fPIC -O2 -o profile_plugin.so
 * profile_plugin.c
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- QEMU 7.2's plugin API, the part used here ---- */
#define PLUGIN_EXPORT __attribute__((visibility("default")))
#define PLUGIN_API_VERSION 1

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

PLUGIN_EXPORT int qemu_plugin_version = PLUGIN_API_VERSION;
/* ---- end of the API ---- */

/* The marker leaves; harness/guest/statx_profile.c has the same. */
#define PROFILE_MAGIC_START	0x5a9e1f01u
#define PROFILE_MAGIC_END	0x5a9e1f02u

/*
 * The counters: an open-addressed table that never moves (the translated
 * code holds the counters' addresses).  Slot 0 is the overflow counter,
 * for blocks that find the table full.
 */
#define SLOTS_LOG	21
#define SLOTS		(1u << SLOTS_LOG)
#define SLOTS_MAX	(SLOTS / 4 * 3)

struct slot {
	uint64_t start, end;	/* end == 0: a free slot */
	uint64_t insns;		/* instructions executed in the block */
	uint32_t n_insns;
};

static struct slot *slots;
static uint64_t *snap;		/* each slot's insns at the window's start */
static uint32_t *used;		/* indexes of the slots in use */
static uint32_t n_used, n_full;
static char *prefix;
static uint64_t user_top = 0x800000000000ull;
static bool in_window;
static unsigned int windows, bad_markers;

static struct slot *slot_of(uint64_t start, uint64_t end, uint32_t n)
{
	uint64_t h = (start ^ (end << 7)) * 0x9e3779b97f4a7c15ull;
	uint32_t i = (uint32_t)(h >> (64 - SLOTS_LOG));

	for (;;) {
		struct slot *s;

		if (!i)		/* slot 0 is the overflow's */
			i = 1;
		s = &slots[i];
		if (s->end == 0) {
			if (n_used >= SLOTS_MAX) {
				n_full++;
				return &slots[0];
			}
			s->start = start;
			s->end = end;
			s->n_insns = n;
			used[n_used++] = i;
			return s;
		}
		if (s->start == start && s->end == end)
			return s;
		i = (i + 1) & (SLOTS - 1);
	}
}

static void window_start(void)
{
	uint32_t k;

	for (k = 0; k < n_used; k++)
		snap[used[k]] = slots[used[k]].insns;
	snap[0] = slots[0].insns;
	in_window = true;
}

static void window_end(void)
{
	char path[4096];
	uint64_t total = 0;
	uint32_t k, lines = 0;
	FILE *f;

	in_window = false;
	snprintf(path, sizeof(path), "%s.%u", prefix, windows);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "profile_plugin: cannot write %s\n", path);
		windows++;
		return;
	}
	fprintf(f, "# window %u\n# slots %u\n", windows, n_used);
	for (k = 0; k < n_used; k++) {
		const struct slot *s = &slots[used[k]];
		uint64_t d = s->insns - snap[used[k]];

		if (!d)
			continue;
		fprintf(f, "%" PRIx64 " %" PRIx64 " %u %" PRIu64 "\n",
			s->start, s->end, s->n_insns, d);
		total += d;
		lines++;
	}
	if (slots[0].insns != snap[0])
		fprintf(f, "# overflow %" PRIu64 "\n", slots[0].insns - snap[0]);
	fprintf(f, "# blocks %u insns %" PRIu64 "\n", lines, total);
	fclose(f);
	windows++;
}

static void marker(unsigned int vcpu, void *kind)
{
	(void)vcpu;
	if ((uintptr_t)kind == PROFILE_MAGIC_START) {
		if (in_window)
			bad_markers++;	/* a start without an end: restart */
		window_start();
	} else if (in_window) {
		window_end();
	} else {
		bad_markers++;		/* an end without a start */
	}
}

/* The leaf of a marker's "mov $leaf, %eax" at @insn, followed by cpuid */
static uint32_t marker_leaf(const struct qemu_plugin_insn *insn,
			    const struct qemu_plugin_insn *next)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);
	uint32_t leaf;

	if (qemu_plugin_insn_size(insn) != 5 || p[0] != 0xb8)
		return 0;
	leaf = p[1] | p[2] << 8 | p[3] << 16 | (uint32_t)p[4] << 24;
	if (leaf != PROFILE_MAGIC_START && leaf != PROFILE_MAGIC_END)
		return 0;
	/* The cpuid, unless the block ends between the two */
	if (next) {
		const uint8_t *q = qemu_plugin_insn_data(next);

		if (qemu_plugin_insn_size(next) != 2 || q[0] != 0x0f ||
		    q[1] != 0xa2)
			return 0;
	}
	return leaf;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uint64_t start = qemu_plugin_tb_vaddr(tb);
	struct qemu_plugin_insn *last;
	uint64_t end;

	(void)id;
	if (!n)
		return;
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	end = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &slot_of(start, end, n)->insns,
						 n);
	if (user_top && start >= user_top)
		return;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t leaf = marker_leaf(insn, i + 1 < n ?
					    qemu_plugin_tb_get_insn(tb, i + 1) :
					    NULL);

		if (leaf)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)leaf);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	char path[4096];
	FILE *f;

	(void)id;
	(void)p;
	snprintf(path, sizeof(path), "%s.summary", prefix);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "slots %u\nwindows %u\nbad_markers %u\nopen_window %d\n"
		"overflowed_translations %u\n", n_used, windows, bad_markers,
		in_window, n_full);
	fclose(f);
}

PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				      const qemu_info_t *info, int argc,
				      char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "arg=", 4))
			a += 4;
		if (!strncmp(a, "out=", 4)) {
			prefix = strdup(a + 4);
		} else if (!strncmp(a, "user_top=", 9)) {
			user_top = strtoull(a + 9, NULL, 0);
		} else {
			fprintf(stderr, "profile_plugin: unknown argument %s\n",
				argv[i]);
			return 1;
		}
	}
	if (!prefix) {
		fprintf(stderr, "profile_plugin: out=PREFIX is required\n");
		return 1;
	}
	slots = calloc(SLOTS, sizeof(*slots));
	snap = calloc(SLOTS, sizeof(*snap));
	used = calloc(SLOTS, sizeof(*used));
	if (!slots || !snap || !used)
		return 1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
