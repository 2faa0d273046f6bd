#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmtests/check.sh BUILD: `make mmtests-check`. Runs our stressors the way
# distributions gate mm performance with mmtests
# (github.com/gormanm/mmtests), on this machine, with no network, and
# prints TAP:
#
#   1. mmtests/0*.patch apply, in order, to a copy of MMTESTS, a checkout
#      of mmtests (the commit they were made on, mmtests/BASE, or a later
#      one they apply to): two fixes to mmtests' stressng reports and our
#      configs and stressng-bench cases;
#   2. stress-ng with our stressors, the upstream series on stress-ng
#      master (make upstream: BUILD/upstream/tree), becomes mmtests' source
#      tarball work/sources/stressng-$VERSION.tar.gz, which its install
#      takes instead of cloning github, and which it builds itself;
#   3-4. run-mmtests.sh --no-monitor runs a short copy of
#      config-workload-stressng-vmalloc-order-stack (MMTESTS_RUNTIME s an
#      iteration, default 5, MMTESTS_ITERATIONS iterations, default 7 as
#      in mmtests' stressng configs, 1 and 2 workers) twice,
#      as runs A and B, into mmtests' own layout (work/log/NAME/iter-0);
#      every log has vmalloc-order's row of bogo-ops/s;
#   5. compare-kernels.sh over A and B reports vmalloc-order's Hmean for
#      both thread counts and highlights none (an A/A pair);
#   6-7. C, a copy of B whose every bogo-ops/s is 20% lower (the planted
#      drop), against B: compare-kernels.sh reports both Hmeans 20% lower
#      and highlights both (a skip naming B's spread when this host's
#      noise keeps mmtests' intervals from parting).
#
# compare-kernels.sh needs R, YAML::PP and File::Which, whose Debian
# names mmtests does not know: scripts/deps mmtests installs them first.
# "mmtests/check.sh BUILD tree" stops after 2 with stress-ng built by
# run-mmtests.sh --build-only: the tree lab/mmtests-ab.sh runs in guests.
#
# It installs what it needs: scripts/deps mmtests (Debian's packages for
# compare-kernels.sh), and run-mmtests.sh runs with AUTO_PACKAGE_INSTALL=yes
# (its own install-depends, apt-get). It needs stress-ng master for
# make upstream: the fixture ../shared/fixtures/stress-ng-master-*.tar.xz
# or STRESS_NG_MASTER=DIR|TARBALL. Network: only Debian's archive.
#
# MMTESTS unset, or not a directory with run-mmtests.sh and
# compare-kernels.sh: one line naming it, exit 2, nothing written. The
# copy, the runs and the reports stay in BUILD/mmtests/ (its tree/work/log
# holds the results; report-*.txt the comparisons).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { [ $# -eq 2 ] && [ "$2" = tree ]; } ||
	{ echo "usage: $0 BUILD [tree]" >&2; exit 1; }
base=$(cat "$root/mmtests/BASE")
src=${MMTESTS:-}
fail_input() { echo "mmtests-check: $*" >&2; exit 2; }
[ -n "$src" ] || fail_input "MMTESTS=DIR is not set: name a checkout of github.com/gormanm/mmtests ($base or later)"
[ -d "$src" ] || fail_input "MMTESTS=$src: no such directory"
if ! [ -x "$src/run-mmtests.sh" ] || ! [ -x "$src/compare-kernels.sh" ]; then
	fail_input "MMTESTS=$src: not an mmtests tree (no executable run-mmtests.sh and compare-kernels.sh)"
fi
mkdir -p "$1/mmtests"
build=$(cd "$1" && pwd)
out=$build/mmtests
tree=$out/tree
runtime=${MMTESTS_RUNTIME:-5}
iterations=${MMTESTS_ITERATIONS:-7}
version=series

n=0 failed=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
diag() { sed 's/^/# /'; }

echo "TAP version 13"

# 1. A copy of the tree with our patches, in order. mmtests' build of
# stress-ng (work/sources/stressng-$version-installed, minutes) is kept
# in $out/installed for the next run, which takes it when the source and
# the patches are the same ($out/installed.id).
rm -rf "$out/installed"
[ -d "$tree/work/sources/stressng-$version-installed" ] &&
	mv "$tree/work/sources/stressng-$version-installed" "$out/installed"
rm -rf "$tree"
if git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
	git clone -q --no-local "$src" "$tree"
	have=$(git -C "$tree" rev-parse --short=8 HEAD)
else
	cp -a "$src" "$tree"
	have="(not a git tree)"
fi
: > "$out/apply.log"
rc=0
for p in "$root"/mmtests/0*.patch; do
	echo "${p##*/}" >> "$out/apply.log"
	patch -d "$tree" -p1 -s --no-backup-if-mismatch < "$p" >> "$out/apply.log" 2>&1 || rc=1
done
patches=$(find "$root/mmtests" -name '0*.patch' | wc -l)
ok $rc "mmtests/0*.patch ($patches) apply to $src at $have (made on $base)"
[ $rc -eq 0 ] || { diag < "$out/apply.log"; echo "1..$n"; exit 1; }

# 2. The series' stress-ng as mmtests' source for VERSION.
(cd "$root" && ${MAKE:-make} --no-print-directory upstream BUILD="$build") > "$out/upstream.log" 2>&1 &&
	mkdir -p "$tree/work/sources" &&
	git -C "$build/upstream/tree" archive --format=tar --prefix="stressng-$version-installed/" HEAD |
	gzip -c > "$tree/work/sources/stressng-$version.tar.gz"
rc=$?
ok $rc "stress-ng master with the series (make upstream) as work/sources/stressng-$version.tar.gz"
[ $rc -eq 0 ] || { tail -n 5 "$out/upstream.log" | diag; echo "1..$n"; exit 1; }
id="$(git -C "$build/upstream/tree" rev-parse HEAD) $(cat "$root"/mmtests/0*.patch | md5sum)"
if [ -d "$out/installed" ] && [ "$(cat "$out/installed.id" 2> /dev/null)" = "$id" ]; then
	mv "$out/installed" "$tree/work/sources/stressng-$version-installed"
	echo "# mmtests' build of stress-ng kept from the last run (same source and patches)"
fi
# written again once a run has used the build: a build cut short is
# never kept
rm -f "$out/installed.id"

# "tree" (lab/mmtests-ab.sh): the tree with stress-ng built, no runs.
if [ "${2:-}" = tree ]; then
	(cd "$tree" && STRESSNG_VERSION=$version ./run-mmtests.sh --build-only \
		--config configs/config-workload-stressng-shm-pcp build) > "$out/build-only.log" 2>&1 &&
		[ -x "$tree/work/sources/stressng-$version-installed/stress-ng" ]
	rc=$?
	ok $rc "run-mmtests.sh --build-only: stress-ng built in $tree/work/sources/stressng-$version-installed"
	[ $rc -eq 0 ] && echo "$id" > "$out/installed.id"
	[ $rc -eq 0 ] || tail -n 10 "$out/build-only.log" | diag
	echo "1..$n"
	exit $rc
fi

# 3-4. Two runs of a short config, A and B.
config=$out/config-short
"$root/mmtests/short-config" "$tree/configs/config-workload-stressng-vmalloc-order-stack" \
	"$runtime" "$iterations" 1 2 "$version" > "$config"
for name in A B; do
	t0=$(date +%s)
	(cd "$tree" && AUTO_PACKAGE_INSTALL=yes ./run-mmtests.sh --no-monitor --config "$config" "$name") \
		> "$out/run-$name.log" 2>&1
	rc=$?
	logs=$(find "$tree/work/log/$name/iter-0/stressng/logs" -name 'stressng-*-*.log' 2> /dev/null | wc -l)
	got=$(cat "$tree/work/log/$name"/iter-0/stressng/logs/stressng-*-*.log 2> /dev/null |
		grep -c '^stress-ng: metrc: \[[0-9]*\] vmalloc-order  *[0-9]')
	# iterations at 1 and at 2 workers
	[ $rc -eq 0 ] && [ "$logs" -eq $((2 * iterations)) ] && [ "$got" -eq "$logs" ]
	r=$?
	[ $r -eq 0 ] && echo "$id" > "$out/installed.id"
	ok $r "run-mmtests.sh $name: exit $rc in $(($(date +%s) - t0)) s, $logs logs, $got with vmalloc-order's bogo-ops/s"
	if [ "$got" -ne "$logs" ] || [ "$logs" -eq 0 ]; then
		tail -n 15 "$out/run-$name.log" | diag
	fi
done

# compare BASE NAME: compare-kernels.sh of NAME against BASE, its text in
# report-BASE,NAME.txt
compare() {
	(cd "$tree/work/log" && ../../compare-kernels.sh --baseline "$1" --compare "$2") \
		> "$out/report-$1,$2.txt" 2>&1
}
# hmeans REPORT: its vmalloc-order Hmean rows. compare-kernels prints the
# compared side's difference as "(  -2.00%)", and as "* -20.00%*" where
# the confidence intervals of the two sides do not overlap (mmtests'
# cidiff, bin/lib/MMTests/Stat.pm): highlighted.
hmeans() { grep '^Hmean  *bops-vmalloc-order-[0-9]' "$1"; }
highlighted() { hmeans "$1" | grep -c '%\*$'; }

"$root/scripts/deps" mmtests > "$out/deps.log" 2>&1 ||
	{ echo "# scripts/deps mmtests failed:"; tail -n 3 "$out/deps.log" | diag; }

# 5. A against B: an A/A pair, nothing highlighted.
compare A B
rc=$?
rows=$(hmeans "$out/report-A,B.txt" | wc -l)
sig=$(highlighted "$out/report-A,B.txt")
[ $rc -eq 0 ] && [ "$rows" -eq 2 ] && [ "$sig" -eq 0 ]
ok $? "compare-kernels.sh A B (A/A): exit $rc, $rows Hmean rows of vmalloc-order, $sig highlighted"
hmeans "$out/report-A,B.txt" | diag

# 6. C: B with every bogo-ops/s 20% lower; against B it is highlighted.
# Against B, not A: the drop is then 20% whatever A and B differ by (an
# A/A pair differed by 14% at 2 workers here, which left B x 0.8 8.7%
# below A, inside the intervals), and B's own spread is the noise.
rm -rf "$tree/work/log/C"
cp -a "$tree/work/log/B" "$tree/work/log/C"
for f in "$tree/work/log/C"/iter-0/stressng/logs/stressng-*-*.log; do
	awk '/^stress-ng: metrc: \[[0-9]*\] vmalloc-order +[0-9]/ {
		for (i = 1; i <= NF; i++) if ($i == "vmalloc-order") break
		$(i + 5) = sprintf("%.2f", $(i + 5) * 0.8) }
		{ print }' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done
compare B C
rc=$?
# the change of each Hmean row, a number of percent
changes=$(hmeans "$out/report-B,C.txt" | sed 's/.*[(*] *\(-*[0-9.]*\)%[)*]$/\1/')
drops=$(echo "$changes" | awk '$1 >= -20.1 && $1 <= -19.9' | wc -l)
[ $rc -eq 0 ] && [ "$drops" -eq 2 ]
ok $? "compare-kernels.sh B C (C: B's bogo-ops/s 20% lower): exit $rc, $drops of 2 Hmean rows at -20%: $(echo "$changes" | tr "\n" " ")"
hmeans "$out/report-B,C.txt" | diag
# 7. Both drops highlighted. Whether mmtests' intervals can part at 20%
# depends on B's spread on this host: a row not highlighted is a skip
# naming that spread (its HCoeffVar, the harmonic coefficient of
# variation of B's iterations), not a failure of ours.
sig=$(highlighted "$out/report-B,C.txt")
if [ "$drops" -eq 2 ] && [ "$sig" -lt 2 ]; then
	n=$((n + 1))
	echo "ok $n - compare-kernels.sh B C highlights $sig of 2 drops # SKIP B too spread to part 20% here: HCoeffVar $(grep '^HCoeffVar  *bops-vmalloc-order-[0-9]' \
		"$out/report-B,C.txt" | awk '{ printf "%s%s %s%%", s, $2, $3; s = ", " }')"
else
	[ "$sig" -eq 2 ]
	ok $? "compare-kernels.sh B C highlights $sig of 2 drops"
fi
echo "1..$n"
echo "# mmtests-check: $((n - failed)) of $n passed; runs in $tree/work/log, reports in $out"
[ $failed -eq 0 ]
