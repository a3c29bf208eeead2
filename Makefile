# SPDX-License-Identifier: GPL-2.0
# The statx series: see README.md.  'make apply' needs only git and python3;
# every other target runs as root on Debian 12 and installs what it needs.

H := harness

.PHONY: apply run run-base check check-base check-stock bench profile assemble regen export b4 bisect matrix skips-list clean help

help:
	@awk '/^## Commands/ { p = 1; next } p && /^- / { sub(/^- /, ""); gsub(/`/, ""); print } p && /^The test command/ { exit }' README.md

apply:		## the series as git am commits onto the HEAD of TREE, a 7.3 kernel tree of your own
	$(if $(TREE),,$(error usage: make apply TREE=DIR, DIR a kernel git tree at the 7.3 base))
	$(H)/series.py apply "$(TREE)"
run:		## build, boot, print test-statx on each filesystem
	$(H)/run.sh series
run-base:
	$(H)/run.sh base
check:		## every check; ends with "N passed, N failed, N skipped"
	$(H)/check.sh series
check-base:	## the selftests on the unpatched 7.3 kernel
	$(H)/check.sh base
check-stock:	## the selftests on Debian's own 6.12 and 7.2 kernel packages, bare and with disks
	$(H)/stock.sh
bench:		## statx cost, patched vs the unpatched base, under -icount
	$(H)/bench.sh
profile:	## directory listing's instructions per entry, by kernel function (after make bench)
	$(H)/profile.sh
assemble:	## repository -> kernel tree (branch 'series')
	$(H)/base.sh && $(H)/series.py assemble $(if $(FORCE),--force)
regen:		## kernel tree commits -> patches/ and the root files
	$(H)/series.py regen
export:		## git format-patch --cover-letter to out/export, From and Signed-off-by POSTER_NAME <POSTER_EMAIL>
	$(H)/poster.py ident >/dev/null && $(H)/base.sh && $(H)/series.py assemble && $(H)/export.sh && $(H)/export.sh --am
b4:		## one small series (SERIES=name, patches/groups) as b4 prep/send --dry-run take it, as the poster
	$(H)/poster.py ident >/dev/null && $(H)/deps.sh && $(H)/base.sh && $(H)/series.py assemble && $(H)/b4-series.sh $(SERIES)
bisect:		## build after every patch
	$(H)/base.sh && $(H)/series.py assemble && $(H)/bisect.sh
matrix:		## the tip as build robots build it: no-block, options off, i386, clang, arm64, W=1
	$(H)/deps.sh && $(H)/base.sh && $(H)/series.py assemble && $(H)/matrix.sh $(CONFIGS)
skips-list:	## rewrite harness/expected-skips from the last make check's skips
	$(H)/skips.py --write $(H)/expected-skips \
		$(foreach k,series sanitizers,$(if $(wildcard out/check-series/$(k)/selftests.tap.skipped),$(k)=out/check-series/$(k)/selftests.tap.skipped))
clean:
	rm -rf out
