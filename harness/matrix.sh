#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# matrix.sh [--if-changed] [CONFIG...]: build the series' tip the way the
# build robots build a posted series, each configuration out of tree in
# $BUILD/matrix-NAME, and fail on an error or on a warning the unpatched
# base does not give in the same configuration:
#
#   noblock      x86_64, the selftests' fragment with CONFIG_BLOCK=n
#   options-off  x86_64, the fragment with the options the series adds (its
#                KUnit tests) and KUnit off
#   i386         a 32-bit x86 kernel
#   arm64        arm64 by Debian's gcc-aarch64-linux-gnu (its build runs
#                scripts/checksyscalls.sh, which warns for a call the arm64
#                table lacks; without COMPAT, so the AArch32 table is not
#                built)
#   w1           x86_64 with modules and every subsystem the series changes
#                built (as modules where it can be, so that a missing export
#                fails modpost), then every C file the series changes
#                compiled again with W=1
#
# No clang build: Linux 7.3 needs LLVM 17 or newer, and Debian 12 has
# clang 14 to 16 only.
#
# Each configuration must keep the options it is about (a fragment line
# olddefconfig dropped fails it), and the kernels that have statx_dir(2)
# must have its syscall entry (System.map).  The base is built in the
# same configuration only when the series gives warnings, and only the
# objects that gave them.  Prints one "matrix-NAME passed failed skipped"
# line per configuration.
#
# patches/matrix-ok is a ledger: "NAME TREE" for each configuration that
# built the series' tip whose tree object is TREE, added as each one
# builds (the tree, not the patches: a change to commit messages only
# builds nothing again).  A configuration the ledger holds for this tip is
# not built again.  With --if-changed (make check) nothing is built unless
# MATRIX_BUDGET allows (0 seconds by default there): the configurations
# not yet built for this series are counted as skipped, and make matrix
# builds them.  Otherwise configurations not started within MATRIX_BUDGET
# seconds (default 900) are skipped.
. "$(dirname "$0")/lib.sh"

ledger=$REPO/patches/matrix-ok
sum=$(tgit rev-parse "$SERIES_BRANCH^{tree}")
check_only=0
if [ "${1:-}" = --if-changed ]; then
	shift
	check_only=1
fi
built() { grep -qxF "$1 $sum" "$ledger" 2>/dev/null; }
all=(noblock options-off i386 arm64 w1)
configs=("${all[@]}")
[ $# -eq 0 ] || configs=("$@")
for c in "${configs[@]}"; do
	[[ " ${all[*]} " == *" $c "* ]] || die "unknown configuration $c (${all[*]})"
done

base_wt=$("$HARNESS/worktree.sh" base)
frag=$TREE/tools/testing/selftests/statx/config
mdir=$OUT/matrix
mkdir -p "$mdir"

# The C files the series changes and the kernel compiles (not the
# selftests, samples or scripts).
changed_c=$(tgit diff --name-only --diff-filter=AM "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' |
	grep -Ev '^(tools|samples|scripts|Documentation)/' || true)

# Per configuration: ARCH, the make variables, the target, the options
# added to the fragment (KEY=VALUE, "n" to turn one off), the fragment
# lines that do not apply (a regular expression), and the symbol the
# statx_dir syscall entry has in System.map ("" when the kernel has none).
setup() {
	arch=x86_64 vars=() target=bzImage extra=() drop='^$' entry=__x64_sys_statx_dir
	case "$1" in
	noblock)
		extra=(CONFIG_BLOCK=n)
		# What needs a block device goes with it.
		drop='^CONFIG_(BLK_|BLOCK|VIRTIO_BLK|EXT4|XFS|BTRFS|MSDOS|VFAT|EXFAT|NTFS3|SQUASHFS|EROFS|FAT_KUNIT|EXFAT_KUNIT|NTFS3_KUNIT|STATX_KUNIT|FS_ENCRYPTION|FS_VERITY)' ;;
	options-off)
		extra=(CONFIG_KUNIT=n)
		drop='^CONFIG_[A-Z0-9_]*KUNIT' ;;
	i386)
		arch=i386 entry=__ia32_sys_statx_dir
		drop='^CONFIG_(64BIT|IA32_EMULATION)=' ;;
	arm64)
		arch=arm64 target=Image entry=__arm64_sys_statx_dir
		vars=(CROSS_COMPILE=aarch64-linux-gnu-)
		drop='^CONFIG_(64BIT|IA32_EMULATION|SERIAL_8250)' ;;
	w1)
		target="bzImage modules"
		extra=(CONFIG_MODULES=y CONFIG_MODULE_UNLOAD=y
		       CONFIG_EXT2_FS=m CONFIG_EXT4_FS=m CONFIG_XFS_FS=m CONFIG_BTRFS_FS=m
		       CONFIG_MSDOS_FS=m CONFIG_VFAT_FS=m CONFIG_EXFAT_FS=m CONFIG_NTFS3_FS=m
		       CONFIG_SQUASHFS=m CONFIG_EROFS_FS=m CONFIG_F2FS_FS=m
		       CONFIG_F2FS_FS_COMPRESSION=y CONFIG_CIFS=m CONFIG_FUSE_FS=m
		       CONFIG_NFS_FS=m CONFIG_NFSD=m CONFIG_OVERLAY_FS=m CONFIG_CONFIGFS_FS=m
		       CONFIG_BINFMT_MISC=m CONFIG_HUGETLBFS=y CONFIG_POSIX_MQUEUE=y
		       CONFIG_BPF_SYSCALL=y CONFIG_X86_CPU_RESCTRL=y CONFIG_SECURITY=y
		       CONFIG_SECURITY_NETWORK=y CONFIG_AUDIT=y CONFIG_SECURITY_SELINUX=y
		       CONFIG_SECURITY_SMACK=y
		       CONFIG_NFS_V4=m CONFIG_FAT_KUNIT_TEST=m CONFIG_EXFAT_KUNIT_TEST=m
		       CONFIG_NTFS3_KUNIT_TEST=m CONFIG_STATX_KUNIT_TEST=m)
		drop='^CONFIG_(EXT4_FS|XFS_FS|BTRFS_FS|MSDOS_FS|VFAT_FS|EXFAT_FS|NTFS3_FS|SQUASHFS|EROFS_FS|NFS_FS|NFS_V4|NFSD|OVERLAY_FS|CONFIGFS_FS|BINFMT_MISC|[A-Z0-9_]*KUNIT_TEST)=' ;;
	esac
}

kmake() {	# kmake SRC OBJ make-args...
	local src=$1 obj=$2 cc=gcc
	shift 2
	case "$name" in
	arm64) cc=aarch64-linux-gnu-gcc ;;
	esac
	command -v ccache >/dev/null && cc="ccache $cc"
	make -C "$src" O="$obj" ARCH="$arch" "${vars[@]}" CC="$cc" -j"$JOBS" "$@"
}

configure() {	# configure SRC OBJ
	local src=$1 obj=$2 want line sym val have
	want=$obj/.matrix-fragment
	mkdir -p "$obj"
	{ grep -Ev "$drop" "$frag"; printf '%s\n' "${extra[@]}"; } > "$want.new"
	if [ -f "$obj/.config" ] && cmp -s "$want" "$want.new"; then
		# The same fragment: bring the configuration up to the tree's
		# Kconfig, as the build would, and check it again below.
		rm "$want.new"
		kmake "$src" "$obj" -s olddefconfig > /dev/null
	else
		mv "$want.new" "$want"
		kmake "$src" "$obj" -s tinyconfig > /dev/null
		KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
			"$obj/.config" "$want" > /dev/null
		kmake "$src" "$obj" -s olddefconfig > /dev/null
	fi
	# The base lacks the series' own options; the series must keep them all.
	[ "$src" = "$base_wt" ] && return 0
	while IFS= read -r line; do
		sym=${line%%=*} val=${line#*=}
		have=$(grep -E "^$sym=|^# $sym is not set" "$obj/.config" || true)
		case "$val" in
		n) [ -z "$have" ] || [ "$have" = "# $sym is not set" ] && continue ;;
		*) [ "$have" = "$line" ] && continue ;;
		esac
		say "$name: $line did not stick (have: ${have:-nothing})"
		return 1
	done < "$want"
}

# warnings LOG...: the warnings and errors, without line numbers or the
# directory the tree is in, one per line (sorted, with repeats).
warnings() {
	perl -ne '
		s/^([^ :]+?)(?::\d+){0,2}: (warning|error): /$1: $2: / or
			/^(WARNING|ERROR): / or next;
		s{^\S*?/(?=(?:arch|block|certs|crypto|drivers|fs|include|init|io_uring|ipc|kernel|lib|mm|net|samples|scripts|security|usr|virt)/)}{};
		s{\S*/(?:tree|base-tree|matrix-[a-z0-9-]+)/}{}g;
		print' "$@" | sort
}

# numbered LOG: each warning with its occurrence ("text<TAB>2" for the
# second), so that comm compares counts.
numbered() {
	warnings "$1" | uniq -c |
		awk '{ c = $1; $1 = ""; for (i = 1; i <= c; i++) print substr($0, 2) "\t" i }' | sort
}

# new_warnings SERIESLOG BASELOG: what the series gives more often than
# the base.
new_warnings() {
	comm -23 <(numbered "$1") <(numbered "$2") | cut -f1
}

# The objects a warning names, as make targets (FILE.c -> FILE.o).
warned_objects() {
	warnings "$1" | sed -nE 's/^([a-z0-9_]+\/[^ :]*)\.c: .*/\1.o/p' | sort -u
}

# compare LOG BASELOG WHAT: pass when LOG has no warning, or none that the
# base gives fewer times; the base is built in the same configuration
# first: for "all", the objects that warned (the whole kernel for a
# warning outside a C file); for "w1", the changed files with W=1.  Those
# objects are deleted first, as build_one() does on the series' side: an
# object left from an earlier run is up to date, and make would compile
# nothing and show no warning (ccache gives them back when it compiles).
compare() {
	local log=$1 blog=$2 what=$3 bobj=$BUILD/matrix-$name-base new objs
	[ -n "$(warnings "$log")" ] || return 0
	: > "$blog"
	configure "$base_wt" "$bobj" >> "$blog" 2>&1 || return 1
	kmake "$base_wt" "$bobj" -s prepare >> "$blog" 2>&1 || true
	case "$what" in
	w1)
		objs=$(for f in $changed_c; do [ -e "$base_wt/$f" ] && echo "${f%.c}.o"; done)
		for o in $objs; do rm -f "$bobj/$o"; done
		# shellcheck disable=SC2086
		kmake "$base_wt" "$bobj" W=1 -k $objs >> "$blog" 2>&1 || true ;;
	*)
		if warnings "$log" | grep -qv '^[a-z0-9_]*/[^ :]*\.c: '; then
			# Warnings in headers, from linking or from modpost: the
			# whole base kernel, which builds the objects that warned too.
			find "$bobj" -name '*.o' -delete
			kmake "$base_wt" "$bobj" -k $target >> "$blog" 2>&1 || true
		else
			objs=$(warned_objects "$log" | while read -r o; do
				[ -e "$base_wt/${o%.o}.c" ] && echo "$o"; done)
			for o in $objs; do rm -f "$bobj/$o"; done
			# shellcheck disable=SC2086
			[ -z "$objs" ] || kmake "$base_wt" "$bobj" -k $objs >> "$blog" 2>&1 || true
		fi ;;
	esac
	new=$(new_warnings "$log" "$blog")
	if [ -n "$new" ]; then
		say "$name: warnings the base does not give:"
		printf '%s\n' "$new" >&2
		return 1
	fi
	say "$name: $(warnings "$log" | wc -l) warning(s) in $(basename "$log"), all also given by the base"
}

build_one() {	# build_one NAME: 0 clean, 1 failed
	local name=$1 sobj=$BUILD/matrix-$1
	local slog=$mdir/$1.log f
	setup "$name"
	: > "$slog"
	configure "$TREE" "$sobj" >> "$slog" 2>&1 || return 1
	# Compile everything again, so that the warnings of what built before
	# are seen (ccache gives them back with the objects).
	find "$sobj" -name '*.o' -delete
	# checksyscalls.sh reruns only when its inputs change: run it again.
	rm -f "$sobj"/.tmp_missing-syscalls*
	kmake "$TREE" "$sobj" $target >> "$slog" 2>&1 || { tail -30 "$slog" >&2; return 1; }
	if [ -n "$entry" ] && ! grep -q " $entry\$" "$sobj/System.map"; then
		say "$name: statx_dir(2) is not wired: no $entry in System.map"
		return 1
	fi
	compare "$slog" "$mdir/$1-base.log" all || return 1
	[ "$name" = w1 ] || return 0
	# Every changed C file, built above, compiled again with W=1.
	for f in $changed_c; do
		[ -e "$sobj/${f%.c}.o" ] && continue
		say "$name: $f is not built in this configuration"
		return 1
	done
	# shellcheck disable=SC2046
	kmake "$TREE" "$sobj" W=1 $(for f in $changed_c; do echo "${f%.c}.o"; done) \
		> "$mdir/w1-W1.log" 2>&1 || { tail -30 "$mdir/w1-W1.log" >&2; return 1; }
	compare "$mdir/w1-W1.log" "$mdir/w1-W1-base.log" w1
}

if [ $check_only = 1 ]; then
	budget=${MATRIX_BUDGET:-0}
else
	budget=${MATRIX_BUDGET:-900}
fi
t0=$(date +%s)
fail=0 left=0
for name in "${configs[@]}"; do
	if built "$name"; then
		say "matrix-$name: built this series before (patches/matrix-ok)"
		continue
	fi
	left=$((left + 1))
	if [ $(( $(date +%s) - t0 )) -ge "$budget" ]; then
		if [ $check_only = 1 ]; then
			say "matrix-$name: not built for this series yet: make matrix builds it"
		else
			say "matrix-$name: not built, the ${budget}s budget is spent"
		fi
		echo "matrix-$name 0 0 1"
		continue
	fi
	if step "matrix-$name" build_one "$name"; then
		echo "matrix-$name 1 0 0"
		# One line per configuration: this series' replaces any other.
		{ grep -v "^$name " "$ledger" 2>/dev/null || true
		  echo "$name $sum"; } | sort > "$ledger.new"
		mv "$ledger.new" "$ledger"
	else
		say "matrix-$name: FAILED, log in $mdir/$name.log"
		echo "matrix-$name 0 1 0"
		fail=1
	fi
done
[ $left -gt 0 ] || echo "matrix 0 0 1"
exit $fail
