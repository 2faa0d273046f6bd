#!/bin/bash
# lab/ab.sh - one kernel source, with and without a change: does the suite
# reproduce the regression, by how much, and why.
#
#   make lab-ab [KERNEL_SRC=7.2] [PATCHES="lab/patches/vfree-per-page.patch ..."]
#               [GUEST_CPUS="2 8 16"] [RUNS=5] [ROUNDS=1] [DURATION=15]
#               [GUEST_MEM=4G]
#               [AB_WORKLOADS="ng-shm shm-pcp-none shm-pcp-spin shm-pcp-stack"]
#               [AB_EXTRA="stress-mm options added to the shm-pcp workloads"]
#               [AB_WORKLOADS_FILE=lab/ab-conditions.workloads]
#               [AB_OUT=build/lab-ab] [AB_ZL_CPU=max,hypervisor=off]
#
# 1. lab/kbuild.sh builds KERNEL_SRC unpatched (built-X, the base) and with
#    each patch of PATCHES (built-X+VARIANT; default: the vfree patches
#    this project ships), cached by the hash of source, fragment and patch.
# 2. For each vCPU count of GUEST_CPUS, each kernel boots once (lab/lab.sh,
#    TCG; kernels alternate so that the host's load drifts over both) and
#    runs, RUNS times DURATION seconds each (stress-mm --repeat):
#      ng-shm          stress-ng --shm 0 (one worker per vCPU), the kernel
#                      test robot's reference, with the counters around it
#                      (stress-mm -- --shm 0);
#      shm-pcp-<churn> shm-pcp, one worker per vCPU, churn none, spin
#                      (CPU-matched control) and stack.
#    Every guest also fingerprints its kernel (allocation and free order of
#    thread stacks, lab/fingerprint.awk). ROUNDS > 1 boots every kernel
#    ROUNDS times, in alternating order (base first, then last), RUNS runs
#    each time, so that a drift of the host's speed during the lab run
#    falls on both sides; the table pools the rounds' runs (stress-mm
#    compare A.yaml,B.yaml ...).
# 3. lab/ab-table.sh prints, per vCPU count and per variant against the
#    base, each figure's median [min, max], the change, the verdict of
#    stress-mm compare, and the effect divided by the noise;
#    lab/ab-plot.sh draws the changes with their intervals (ab.svg).
# The zone-lock waits by side (doc/counters.md) count only where the
# guest's spinlock waits reach lock:contention_begin: LAB_CPU=max,
# hypervisor=off (lab/lab.sh), which also slows an 8-vCPU guest on 2
# host cores (fair spinlocks under vCPU preemption; doc/counters.md).
# AB_ZL_CPU=max,hypervisor=off keeps it out of the timed rounds: after
# them each kernel boots once more per vCPU count with that CPU model
# (AB_OUT/cpus-<n>/zl/), and the table takes the zone-lock rows from those
# boots and every other row from the timed ones. LAB_ZL_PROOF=1 adds the
# proof, to the zone-lock boots when there are some.
# Results: AB_OUT/cpus-<n>/[round-<r>/]<kernel>/{run-<workload>.yaml,
# fingerprint,console.log}, AB_OUT/table.txt, AB_OUT/ab.tsv (the table's
# comparisons, tab-separated) and AB_OUT/ab.svg. TCG runs vCPUs as host threads: counts
# stay valid at any vCPU count, timings compare only within one lab run,
# and with more vCPUs than host cores a preempted lock holder inflates the
# timing effects; the table says how many vCPUs each host core carried.
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-$TOP/build}
KERNEL_SRC=${KERNEL_SRC:-7.2}
PATCHES=${PATCHES:-lab/patches/vfree-per-page.patch lab/patches/short-runs-order0.patch}
GUEST_CPUS_LIST=${GUEST_CPUS:-2 8 16}
RUNS=${RUNS:-5}
ROUNDS=${ROUNDS:-1}
DURATION=${DURATION:-15}
AB_WORKLOADS=${AB_WORKLOADS:-ng-shm shm-pcp-none shm-pcp-spin shm-pcp-stack}
AB_EXTRA=${AB_EXTRA:-}
AB_OUT=${AB_OUT:-$BUILD/lab-ab}
AB_ZL_CPU=${AB_ZL_CPU:-}
export GUEST_MEM=${GUEST_MEM:-4G}
START=$(date +%s)
LAB_WHO=lab-ab
. "$TOP/lab/lib.sh"
. "$TOP/lab/progress.sh"

[ "$RUNS" -ge 1 ] 2> /dev/null || die "RUNS=$RUNS: a count of runs, 1 or more (5 or more for a verdict)"
[ "$ROUNDS" -ge 1 ] 2> /dev/null || die "ROUNDS=$ROUNDS: boots per kernel and vCPU count, 1 or more"
[ "$DURATION" -ge 1 ] 2> /dev/null || die "DURATION=$DURATION: seconds, 1 or more"
for n in $GUEST_CPUS_LIST; do
	[ "$n" -ge 1 ] 2> /dev/null || die "GUEST_CPUS=$GUEST_CPUS_LIST: vCPU counts, 1 or more"
done
for p in $PATCHES; do
	[ -f "$p" ] || die "PATCHES: $p: no such patch"
done
mkdir -p "$AB_OUT"

# 1. The kernels.
say "building $KERNEL_SRC and its variants (cached ones are skipped)"
KERNEL_SRC=$KERNEL_SRC PATCHES="$PATCHES" lab/kbuild.sh build >&2 ||
	die "the kernel build failed (above)"
base=built-${KERNEL_SRC%%=*}
kernels=$base
for p in $PATCHES; do
	v=${p##*/}
	kernels="$kernels $base+${v%.patch}"
done

# 2. The workloads, one line each for the guest.
common="-t $DURATION --repeat $RUNS --vmallocinfo-interval 0"
wl=$AB_OUT/workloads
: > "$wl"
# AB_WORKLOADS_FILE: lines "name [sysctl:KEY=VALUE] stress-mm arguments"
# (lab/guest-init), with @COMMON@ for -t, --repeat and the sampling.
if [ -n "${AB_WORKLOADS_FILE:-}" ]; then
	grep -v '^#' "$AB_WORKLOADS_FILE" | grep . | sed "s|@COMMON@|$common|" > "$wl" ||
		die "AB_WORKLOADS_FILE=$AB_WORKLOADS_FILE: no workload in it"
	AB_WORKLOADS=
fi
for w in $AB_WORKLOADS; do
	case $w in
	ng-shm) echo "$w $common -- --shm 0" ;;
	shm-pcp-*) echo "$w --shm-pcp 0 --shm-pcp-mode ${w#shm-pcp-} $AB_EXTRA $common" ;;
	*) die "AB_WORKLOADS: unknown workload $w (ng-shm, shm-pcp-<churn>)" ;;
	esac >> "$wl"
done
say "kernels: $kernels; vCPUs: $GUEST_CPUS_LIST; $ROUNDS round(s) of $RUNS runs of $DURATION s per workload"
reversed=$(echo "$kernels" | tr ' ' '\n' | tac | tr '\n' ' ')

# Progress: boot b of all; what is left after it, from the mean of the
# boots done (the estimate from the workloads before the first is done).
progress_plan "$wl"
boots=$(($(echo "$GUEST_CPUS_LIST" | wc -w) * ROUNDS * $(echo "$kernels" | wc -w)))
b=0
t_boots=$(date +%s)
failed=0
for n in $GUEST_CPUS_LIST; do
	for r in $(seq 1 "$ROUNDS"); do
		out=$AB_OUT/cpus-$n
		order=$kernels
		if [ "$ROUNDS" -gt 1 ]; then
			out=$out/round-$r
			[ $((r % 2)) -eq 0 ] && order=$reversed
		fi
		mkdir -p "$out"
		for k in $order; do
			per=$PROGRESS_EST
			[ "$b" -gt 0 ] && per=$((($(date +%s) - t_boots) / b))
			b=$((b + 1))
			say "$n vCPUs, round $r of $ROUNDS: $k (boot $b of $boots; lab elapsed $(mmss $(($(date +%s) - START))), about $(mmss $(((boots - b + 1) * per))) left)"
			LAB_LEFT_AFTER=$(((boots - b) * per)) LAB_BOOT_OF="boot $b of $boots" \
			LAB_OUT=$out KERNELS=$k GUEST_CPUS=$n LAB_WORKLOADS=$wl \
				LAB_ZL_PROOF=$([ -n "$AB_ZL_CPU" ] && echo 0 || echo "${LAB_ZL_PROOF:-0}") \
				GUEST_TIMEOUT=$((RUNS * DURATION * 6 * $(wc -l < "$wl") + 900)) \
				lab/lab.sh || failed=1
		done
	done
	[ -n "$AB_ZL_CPU" ] || continue
	out=$AB_OUT/cpus-$n/zl
	mkdir -p "$out"
	echo "$AB_ZL_CPU" > "$out/cpu"
	for k in $kernels; do
		say "$n vCPUs, zone-lock boot (-cpu $AB_ZL_CPU): $k"
		LAB_CPU=$AB_ZL_CPU LAB_OUT=$out KERNELS=$k GUEST_CPUS=$n \
			LAB_WORKLOADS=$wl LAB_ZL_PROOF=${LAB_ZL_PROOF:-0} \
			GUEST_TIMEOUT=$((RUNS * DURATION * 12 * $(wc -l < "$wl") + 1800)) \
			lab/lab.sh || failed=1
	done
done

# 3. The table and the picture.
lab/ab-table.sh "$AB_OUT" | tee "$AB_OUT/table.txt"
lab/ab-table.sh --tsv "$AB_OUT" > "$AB_OUT/ab.tsv"
lab/ab-plot.sh "$AB_OUT/ab.tsv" "$AB_OUT/ab.svg" \
	"TCG; vCPUs $GUEST_CPUS_LIST; $ROUNDS boot(s) per kernel and vCPU count, $RUNS runs of $DURATION s each; $(date +%F)" ||
	failed=1
say "done in $(($(date +%s) - START)) s; table in $AB_OUT/table.txt, picture in $AB_OUT/ab.svg"
exit $failed
