#!/bin/bash
# The kernel printed no BUG, WARNING or Oops for the suite's tasks while
# the suite ran (liburing's runner does the same after every test): the
# lines after the mark of 00-kmsg-mark.t, report by report, each by the
# task it names. A mark that is no longer in the log (the ring buffer
# wrapped) fails: the check could not be made.
. "$(dirname "$0")/lib.sh"

mark=$BUILD/test/kmsg.mark
[ -s "$mark" ] || skip_all "no kernel log mark (00-kmsg-mark.t skipped or not run)"
plan 5
BAD='BUG|WARNING|Oops|general protection|Call Trace'
m=$(cat "$mark")
case $m in
line:*)
	want=${m#line:}
	after=$(dmesg --notime | awk -v w="$want" 'seen { print } $0 == w { seen = 1 }')
	dmesg --notime | grep -qxF "$want"
	ok $? "the mark is still in the kernel log: $want"
	;;
time:*)
	since=${m#time:}
	after=$(dmesg | awk -v since="$since" '
		match($0, /^\[ *[0-9.]+\]/) {
			if (substr($0, 2, RLENGTH - 2) + 0 > since + 0) print
		}')
	dmesg | grep -q '^\[ *[0-9.]*\]'
	ok $? "the kernel log has timestamps to compare with the mark at $since s"
	;;
*)
	ok 1 "a mark 00-kmsg-mark.t wrote: $m"
	after=""
	;;
esac
# Each report (a line of BAD, or a hung task's "INFO: task") and the task
# it names: "Comm: X", "[X:pid]" (soft lockup) or "task X:pid" (hung task).
# The suite's own tasks, or our module in the report, make it ours: a
# failure. A report naming only other tasks (the machine is shared) cannot
# be told from the suite's: a skip that shows it.
classify() {
	awk -v bad="$BAD" '
	function flush() { if (n) print (owner == "" ? "?" : owner) "\t" first; n = 0 }
	# a header line opens a report (and closes the one before: hung
	# tasks and lockups print no end-of-trace line); a Call Trace line
	# belongs to the report it is in
	(/(BUG|WARNING|Oops|general protection)/ || /INFO: task /) && !/Call Trace/ {
		flush(); n = 1; first = $0; owner = ""
	}
	$0 ~ bad && !n { n = 1; first = $0; owner = "" }
	n && owner == "" {
		if (match($0, /Comm: [^ ]+/)) owner = substr($0, RSTART + 6, RLENGTH - 6)
		else if (match($0, /task [^ ]+:[0-9]+ blocked/)) {
			owner = substr($0, RSTART + 5, RLENGTH - 13); sub(/:[0-9]+$/, "", owner)
		} else if (match($0, /\[[^] ]+:[0-9]+\]/)) {
			owner = substr($0, RSTART + 1, RLENGTH - 2); sub(/:[0-9]+$/, "", owner)
		}
	}
	n && /\[stress_mm_vmalloc\]/ { owner = "module:stress_mm" }
	n && /^---\[ end trace/ { flush() }
	END { flush() }'
}
# the classification on recorded reports in the kernel's formats: a hung
# kworker (another task's) and a WARNING in a stress-ng worker (ours)
REC=$(dirname "$0")/recorded
[ "$(classify < "$REC/kmsg-other.txt")" = "kworker/u8:3	INFO: task kworker/u8:3:123 blocked for more than 120 seconds." ]
ok $? "recorded: a hung kworker is another task's ($(classify < "$REC/kmsg-other.txt" | cut -f1))"
classify < "$REC/kmsg-ours.txt" | grep -qE "^stress-ng-vmall	WARNING: "
ok $? "recorded: a WARNING with Comm: stress-ng-vmall is the suite's ($(classify < "$REC/kmsg-ours.txt" | cut -f1))"
# one after the other (a hung task prints no end of trace): two reports,
# each with its own task
both=$(cat "$REC/kmsg-other.txt" "$REC/kmsg-ours.txt" | classify | cut -f1 | tr '\n' ' ')
[ "$both" = "kworker/u8:3 stress-ng-vmall " ]
ok $? "recorded: a hung kworker, then a WARNING of ours, are two reports ($both)"
reports=$(printf '%s\n' "$after" | classify)
OURS='^(stress-ng|stress-mm|smm-|module:stress_mm|zl-proof|engines|unit-|vmallocinfo-wat|shm-sweep|stats-dump|qemu)'
ours=$(printf '%s\n' "$reports" | grep . | grep -E "$OURS")
others=$(printf '%s\n' "$reports" | grep . | grep -vE "$OURS")
if [ -z "$ours" ] && [ -n "$others" ]; then
	skip "no BUG/WARNING/Oops of the suite's tasks in the kernel log since the mark" \
		"$(printf '%s\n' "$others" | grep -c .) report(s) of other tasks only: $(printf '%s\n' "$others" | head -1 | tr '\t' ' ')"
	diag "$others"
else
	[ -z "$ours" ]
	ok $? "no BUG/WARNING/Oops of the suite's tasks in the kernel log since the mark ($(printf '%s\n' "$after" | grep -c .) lines)"
	[ -n "$ours" ] && diag "$ours"
fi
done_testing
