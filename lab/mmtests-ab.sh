#!/bin/bash
# lab/mmtests-ab.sh - the A/B of one kernel change through mmtests, as a
# distribution's kernel team would gate it, beside stress-mm compare on
# the same boots.
#
#   make lab-mmtests MMTESTS=DIR [KERNEL_SRC=7.2] [VARIANT=vfree-per-page]
#                    [GUEST_CPUS=2] [GUEST_MEM=4G] [MMTESTS_RUNTIME=10]
#                    [MMTESTS_ITERATIONS=5] [RUNS=5] [DURATION=10]
#                    [MMT_OUT=build/lab-mmtests]
#
# 1. mmtests/check.sh BUILD tree: a copy of the mmtests checkout MMTESTS
#    with mmtests/0*.patch applied and stress-ng (master with the series)
#    built by its run-mmtests.sh --build-only; copied to MMT_OUT/tree with
#    two short configs made from ours: config-lab-shm-pcp (churn stack)
#    and config-lab-shm-pcp-spin (its CPU-matched control), one worker per
#    vCPU, MMTESTS_ITERATIONS iterations of MMTESTS_RUNTIME s.
# 2. lab/lab.sh boots built-KERNEL_SRC and built-KERNEL_SRC+VARIANT
#    (lab/kbuild.sh builds what is not cached) under TCG with LAB_MMTESTS:
#    each guest runs mmtests' run-mmtests.sh with both configs in the
#    host's root filesystem (lab/mmtests-guest.sh), then stress-mm's own
#    shm-pcp-stack and shm-pcp-spin workloads (RUNS runs of DURATION s,
#    one worker per vCPU), then lab.sh's stress-mm compare of each pair.
# 3. compare-kernels.sh of mmtests, in MMT_OUT/tree/work/log, on each
#    config: base against the variant (MMT_OUT/compare-kernels-CONFIG.txt),
#    and the Hmean rows of both beside stress-mm compare's verdicts
#    (MMT_OUT/summary.txt).
# Under TCG counts are valid and timings compare only within one lab run
# (doc/lab.md); both kernels boot in the same run, one after the other.
# Exit 0 when both guests ran both configs and the workloads and both
# comparisons were made; 1 otherwise.
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD
BUILD=${BUILD:-$TOP/build}
KERNEL_SRC=${KERNEL_SRC:-7.2}
VARIANT=${VARIANT:-vfree-per-page}
MMT_OUT=${MMT_OUT:-$BUILD/lab-mmtests}
RUNTIME=${MMTESTS_RUNTIME:-10}
ITERATIONS=${MMTESTS_ITERATIONS:-5}
RUNS=${RUNS:-5}
DURATION=${DURATION:-10}
GUEST_CPUS=${GUEST_CPUS:-2}
export GUEST_CPUS
export GUEST_MEM=${GUEST_MEM:-4G}
export GUEST_TIMEOUT=${GUEST_TIMEOUT:-2400}
say() { echo "mmtests-ab: $*" >&2; }
die() { say "$*"; exit 1; }

[ -n "${MMTESTS:-}" ] || die "MMTESTS=DIR: a checkout of github.com/gormanm/mmtests ($(cat mmtests/BASE) or later)"
base=built-$KERNEL_SRC
cand=built-$KERNEL_SRC+$VARIANT
configs="config-lab-shm-pcp config-lab-shm-pcp-spin"

# 1. The tree, built once by mmtests/check.sh, copied for the guests.
mmtests/check.sh "$BUILD" tree | sed 's/^/mmtests-ab: /' >&2
[ "${PIPESTATUS[0]}" -eq 0 ] || die "mmtests/check.sh $BUILD tree failed"
rm -rf "$MMT_OUT"
mkdir -p "$MMT_OUT"
cp -a "$BUILD/mmtests/tree" "$MMT_OUT/tree"
tree=$MMT_OUT/tree
rm -rf "$tree/work/log"
mkdir -p "$tree/work/log"
for c in shm-pcp shm-pcp-spin; do
	# series: the source tarball mmtests/check.sh gives mmtests
	mmtests/short-config "$tree/configs/config-workload-stressng-$c" "$RUNTIME" \
		"$ITERATIONS" "$GUEST_CPUS" "$GUEST_CPUS" series > "$tree/configs/config-lab-$c"
done

# 2. Both kernels, mmtests then stress-mm in each guest.
cat > "$MMT_OUT/workloads" << EOF
shm-pcp-stack --shm-pcp @NCPU@ --shm-pcp-mode stack -t $DURATION --repeat $RUNS
shm-pcp-spin --shm-pcp @NCPU@ --shm-pcp-mode spin -t $DURATION --repeat $RUNS
EOF
LAB_OUT=$MMT_OUT KERNELS="$base $cand" LAB_ACCEL=tcg LAB_WORKLOADS=$MMT_OUT/workloads \
	LAB_MMTESTS=$configs LAB_MMTESTS_TREE=$tree lab/lab.sh 2>&1 |
	tee "$MMT_OUT/lab.log"
lab=${PIPESTATUS[0]}
[ "$lab" -eq 0 ] || say "lab/lab.sh exit $lab (see $MMT_OUT/lab.log)"

# 3. compare-kernels.sh per config, base against the variant.
failed=$lab
{
	echo "# $base (base) against $cand: mmtests compare-kernels.sh and stress-mm compare"
	echo "# $GUEST_CPUS vCPUs (TCG), mmtests: $ITERATIONS iterations of $RUNTIME s at $GUEST_CPUS workers;"
	echo "# stress-mm: $RUNS runs of $DURATION s at $GUEST_CPUS workers; the same boots"
} > "$MMT_OUT/summary.txt"
for c in $configs; do
	for k in "$base" "$cand"; do
		if [ -d "$MMT_OUT/$k/mmtests/$c" ]; then
			cp -a "$MMT_OUT/$k/mmtests/$c" "$tree/work/log/${k#built-}-$c"
		else
			say "$k: no mmtests results for $c"
			failed=1
		fi
	done
	(cd "$tree/work/log" && ../../compare-kernels.sh --baseline "${base#built-}-$c" \
		--compare "${cand#built-}-$c") > "$MMT_OUT/compare-kernels-$c.txt" 2>&1 || failed=1
	{
		echo "mmtests $c (compare-kernels.sh, bogo-ops/s of real time):"
		grep '^Hmean\|^BHmean' "$MMT_OUT/compare-kernels-$c.txt" | grep 'bops-shm-pcp'
	} >> "$MMT_OUT/summary.txt"
done
{
	echo "stress-mm compare (lab/lab.sh, the same boots):"
	sed -n '/(base) against/,$p' "$MMT_OUT/lab.log"
} >> "$MMT_OUT/summary.txt"
cat "$MMT_OUT/summary.txt"
exit "$failed"
