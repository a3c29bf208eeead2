#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh [--if-changed]: build the kernel after every patch of the series
# (in the scratch worktree, one O= directory, incrementally).  Prints one
# "bisect-NNNN passed failed skipped" line per commit.  On success records
# the series' checksum in patches/bisect-ok; with --if-changed, does nothing
# when that checksum still matches.
. "$(dirname "$0")/lib.sh"

stamp=$REPO/patches/bisect-ok
sum=$(cd "$REPO" && cat patches/series $(grep -v '^#' patches/series | sed 's|^|patches/|') \
	$(grep -h '^ create mode' patches/*.patch | awk '{ print $4 }') | sha256sum | cut -c1-32)
if [ "${1:-}" = --if-changed ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
	say "bisect: the series is unchanged since it last built after every patch ($sum)"
	echo "bisect-build 0 0 1"
	exit 0
fi
wt=$("$HARNESS/worktree.sh" scratch)
# A tree that built before (same content, same config) need not build again.
done_dir=$STATX_CACHE/bisect-ok
mkdir -p "$done_dir"
cfg=$(cat "$REPO/tools/testing/selftests/statx/config" | sha256sum | cut -c1-16)
# A cold machine builds the first commit in full and every commit that
# changes a widely included header nearly so: stop starting builds after
# BISECT_BUDGET seconds and report the rest as skipped (no stamp then).
budget=${BISECT_BUDGET:-1200}
t0=$(date +%s)
fail=0
skipped=0
i=0
for c in $(tgit rev-list --reverse "$BASE_TAG..${BISECT_TIP:-$SERIES_BRANCH}"); do
	i=$((i + 1))
	name=$(printf 'bisect-%04d' $i)
	key=$done_dir/$(tgit rev-parse "$c^{tree}")-$cfg
	if [ -e "$key" ]; then
		say "$name: this tree built before"
		echo "$name 1 0 0"
		continue
	fi
	if [ $(( $(date +%s) - t0 )) -gt "$budget" ]; then
		say "$name: not built, the ${budget}s budget is spent"
		echo "$name 0 0 1"
		skipped=1
		continue
	fi
	git -C "$wt" checkout -q -f --detach "$c"
	if STATX_CONFIG_LENIENT=1 step "$name: build $(tgit log -1 --format=%s "$c")" \
			"$HARNESS/build.sh" bisect "$wt" > "$OUT/$name.log" 2>&1; then
		touch "$key"
		echo "$name 1 0 0"
	else
		say "FAIL: the kernel does not build after patch $i ($(tgit log -1 --format=%s "$c")):"
		tail -20 "$OUT/$name.log" >&2
		echo "$name 0 1 0"
		fail=1
	fi
done
# The stamp stands for the series in patches/, so only a run of it counts.
[ $fail -eq 0 ] && [ $skipped -eq 0 ] && [ -z "${BISECT_TIP:-}" ] && echo "$sum" > "$stamp"
exit $fail
