#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh [--prepare] [--no-fstests] NAME SRCDIR [FRAGMENT...]: configure
# (tinyconfig + the statx selftests' config fragment + harness/guest.config
# + harness/fstests.config + FRAGMENTs) and build bzImage, the modules and
# the uapi headers out of tree in $BUILD/NAME.  Incremental; ccache when
# present.  --prepare stops after 'make prepare' (enough to run sparse on
# single files); --no-fstests leaves fstests.config out, for a kernel that
# boots only for the selftests.
. "$(dirname "$0")/lib.sh"

target=bzImage fstests=$HARNESS/fstests.config
[ "$1" = --prepare ] && { target=prepare; shift; }
[ "$1" = --no-fstests ] && { fstests=; shift; }
name=$1 src=$2
shift 2
obj=$BUILD/$name
mkdir -p "$obj"
frags=("$REPO/tools/testing/selftests/statx/config" "$HARNESS/guest.config" ${fstests:+"$fstests"} "$@")
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 CC="$cc" HOSTCC="$cc" -j"$JOBS" "$@"; }

# Reconfigure only when a fragment changed, so rebuilds stay incremental.
sum=$(cat "${frags[@]}" | sha256sum | cut -c1-16)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.statx-frags" 2>/dev/null)" != "$sum" ]; then
	step "configure $name" bash -c '
		set -e
		make -s -C "$1" O="$2" ARCH=x86_64 tinyconfig >/dev/null
		shift 2
		KCONFIG_CONFIG="'"$obj"'/.config" "'"$src"'/scripts/kconfig/merge_config.sh" \
			-m -O "'"$obj"'" "'"$obj"'/.config" "$@" >/dev/null
		make -s -C "'"$src"'" O="'"$obj"'" ARCH=x86_64 olddefconfig >/dev/null
	' _ "$src" "$obj" "${frags[@]}"
	# Every option asked for must have survived olddefconfig.
	bad=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=n) opt=${line%=n}
			grep -q "^$opt=" "$obj/.config" && { say "$opt still set"; bad=1; } ;;
		CONFIG_*) grep -qx "$line" "$obj/.config" && continue
			sym=${line%%=*}
			# The base, or a commit while bisecting: an option for
			# code a later patch adds is expected to be missing.
			if [ -n "${STATX_CONFIG_LENIENT:-}" ] && ! grep -rqs --include='Kconfig*' \
					"^[[:space:]]*\(menu\)\?config ${sym#CONFIG_}\$" "$src"; then
				continue
			fi
			say "$line did not stick"; bad=1 ;;
		esac
	done < <(cat "${frags[@]}")
	[ $bad -eq 0 ] || die "config fragment not satisfied for $name"
	echo "$sum" > "$obj/.statx-frags"
fi
step "build $name kernel ($target)" kmake $target
[ $target = prepare ] || kmake headers >/dev/null
if [ $target != prepare ] && grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	step "build $name modules" kmake modules
fi
