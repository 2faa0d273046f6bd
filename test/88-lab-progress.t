#!/bin/bash
# The lab's progress (lab/progress.sh): a boot's estimate from its
# workloads (-t, --repeat, the run overhead, a duration with a suffix,
# stress-ng's options after -- left alone), what is left at each kind of
# progress line the guest prints (LAB_PROVE's proofs, a workload starting, stress-mm's own
# "remaining about", the module bench's steps, the fingerprint), the time
# since that line counted off, the whole lab's remainder when lab/ab.sh
# gives it, and "overdue" past the estimate. No guest is booted here;
# test/85-lab-smoke.t checks that a real boot prints these notes.
. "$(dirname "$0")/lib.sh"
plan 11

START=$(date +%s)
LAB_WHO="test"
# the estimates below are for these (the defaults may be retuned)
PROGRESS_BOOT_S=60 PROGRESS_RUN_S=8 PROGRESS_MODULE_S=180 PROGRESS_PROVE_S=60
. "$TOP/lab/lib.sh"
. "$TOP/lab/progress.sh"

cat > "$TMPD/wl" <<'EOF'
ng-shm -t 15 --repeat 5 --vmallocinfo-interval 0 -- --shm 0 -t 99
shm-pcp-stack --shm-pcp 0 -t 2m --repeat 3

EOF
progress_plan "$TMPD/wl"
# 60 + 5 x (15 + 8) + 3 x (120 + 8)
[ "$PROGRESS_EST" -eq $((60 + 115 + 384)) ] &&
	[ "${PROGRESS_W[*]}" = "115 384" ] && [ "${PROGRESS_NAMES[*]}" = "ng-shm shm-pcp-stack" ]
ok $? "a boot's estimate: boot + R x (T + overhead) per workload, T with a suffix, -t after -- ignored ($PROGRESS_EST s: ${PROGRESS_W[*]})"

l=$(progress_left "kernel 6.12 up, 2 CPUs" 20 0)
[ "$l" -eq $((559 - 20)) ]
ok $? "before the workloads: the estimate less the time spent ($l s)"

l=$(progress_left "ng-shm: stress-mm -t 15 --repeat 5 -- --shm 0" 70 10)
[ "$l" -eq $((115 - 10 + 384)) ]
ok $? "a workload started 10 s ago: its estimate less 10 s, plus the next ($l s)"

l=$(progress_left "ng-shm: run 3 of 5, elapsed 46 s, remaining about 69 s" 130 5)
[ "$l" -eq $((69 - 5 + 384)) ]
ok $? "stress-mm's own 'remaining about' replaces the workload's estimate ($l s)"

l=$(progress_left "shm-pcp-stack: run 2 of 3, elapsed 128 s, remaining about 256 s" 400 300)
[ "$l" -eq 0 ]
ok $? "past its remaining time, the last workload has 0 s left, never less ($l s)"

LAB_MODULE=bench BENCH_REPEATS=2 progress_plan /dev/null
l=$(LAB_MODULE=bench BENCH_REPEATS=2 progress_left "bench repeat 2 order 0" 160 0)
# 10 of 20 steps in 100 s after boot: 100 s more
[ "$l" -eq 100 ] && [ "$PROGRESS_EST" -eq $((60 + 2 * 60)) ]
ok $? "the module bench: the share of steps done times the time they took ($l s)"

LAB_MODULE=1 progress_plan /dev/null
[ "$PROGRESS_EST" -eq $((60 + 180)) ]
ok $? "the module tests: a fixed estimate ($PROGRESS_EST s)"

LAB_PROVE=1 progress_plan "$TMPD/wl"
[ "$PROGRESS_EST" -eq $((559 + 60)) ]
ok $? "LAB_PROVE=1: the proofs' time is added ($PROGRESS_EST s)"

progress_plan "$TMPD/wl"
n=$(progress_note "ng-shm: run 3 of 5, elapsed 46 s, remaining about 69 s" 130 5)
[ "$n" = "[boot 2m10s, about 7m28s left]" ]
ok $? "the note: the boot's elapsed time and what is left ($n)"

n=$(LAB_LEFT_AFTER=600 LAB_BOOT_OF="boot 3 of 12" progress_note "ng-shm: run 3 of 5, elapsed 46 s, remaining about 69 s" 130 5)
[ "$n" = "[boot 2m10s, about 7m28s left; boot 3 of 12, lab about 17m28s left]" ]
ok $? "with the lab's remainder from lab/ab.sh ($n)"

n=$(progress_note "kernel up" 700 0)
[ "$n" = "[boot 11m40s, overdue: estimated 9m19s]" ]
ok $? "past the estimate it says overdue, not a negative time ($n)"
done_testing
