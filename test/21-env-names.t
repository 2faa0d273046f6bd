#!/bin/bash
# A misspelled STRESS_MM_* variable is not ignored in silence: stress-ng
# loading the plugin prints one warning per unknown variable, once per run
# (both stressors' constructors, any number of workers), naming the closest
# known variable, and the run goes on; known variables and other prefixes
# get none.
. "$(dirname "$0")/lib.sh"
need_stress_ng
plan 4

# sng LOG VAR=VALUE...: two groups, two workers each, 1 s.
sng() {
	local log=$1
	shift
	(cd "$TMPD" && env "$@" timeout 30 stress-ng --plugin 2 --plugin-so "$SO" \
		--plugin-method vmalloc_order_pty --plugin 2 --plugin-so "$SO" \
		--plugin-method shm_pcp -t 1 --metrics > "$TMPD/$log" 2>&1)
}

sng one.log STRESS_MM_SHM_PCP_BYTE=1M
rc=$?
n=$(grep -c "warning:" "$TMPD/one.log")
grep -qx "stress-mm: warning: STRESS_MM_SHM_PCP_BYTE is not a stress-mm variable and is ignored; did you mean STRESS_MM_SHM_PCP_BYTES?" "$TMPD/one.log"
ok $? "one misspelled variable: the warning names STRESS_MM_SHM_PCP_BYTES"
[ "$n" -eq 1 ] && [ $rc -eq 0 ]
ok $? "one warning in the whole run ($n), and the run goes on (exit $rc)"
grep "warning:" "$TMPD/one.log" | while read -r l; do diag "$l"; done

sng two.log STRESS_MM_VMALLOC_ORDER_BACTH=4 STRESS_MM_SHMPCP_CPU=same
[ "$(grep -c "warning:" "$TMPD/two.log")" -eq 2 ] &&
	grep -q "STRESS_MM_VMALLOC_ORDER_BACTH .*did you mean STRESS_MM_VMALLOC_ORDER_BATCH?" "$TMPD/two.log" &&
	grep -q "STRESS_MM_SHMPCP_CPU .*did you mean STRESS_MM_SHM_PCP_CPU?" "$TMPD/two.log"
ok $? "two misspelled variables: one warning each, each naming its own"

sng none.log STRESS_MM_SHM_PCP_BYTES=1M STRESS_MM_VMALLOC_ORDER_BATCH=4 STRESS_NG_OTHER=1
! grep -q "warning:" "$TMPD/none.log"
ok $? "known variables and other prefixes: no warning"
done_testing
