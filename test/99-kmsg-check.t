#!/bin/bash
# The kernel printed no BUG, WARNING or Oops while the suite ran (liburing's
# runner does the same after every test): the lines after the mark of
# 00-kmsg-mark.t. A mark that is no longer in the log (the ring buffer
# wrapped) fails: the check could not be made.
. "$(dirname "$0")/lib.sh"

mark=$BUILD/test/kmsg.mark
[ -s "$mark" ] || skip_all "no kernel log mark (00-kmsg-mark.t skipped or not run)"
plan 2
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
bad=$(printf '%s\n' "$after" | grep -E "$BAD")
[ -z "$bad" ]
ok $? "no BUG/WARNING/Oops in the kernel log since the mark ($(printf '%s\n' "$after" | grep -c .) lines)"
[ -n "$bad" ] && diag "$bad"
done_testing
