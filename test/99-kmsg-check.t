#!/bin/bash
# The kernel printed no BUG, WARNING or Oops while the suite ran (liburing's
# runner does the same after every test).
. "$(dirname "$0")/lib.sh"

mark=$BUILD/test/kmsg.mark
[ -s "$mark" ] || skip_all "no kernel log mark (00-kmsg-mark.t skipped or not run)"
plan 1
since=$(cat "$mark")
bad=$(dmesg | awk -v since="$since" '
	match($0, /^\[ *[0-9.]+\]/) {
		t = substr($0, 2, RLENGTH - 2) + 0
		if (t > since + 0 && $0 ~ /BUG|WARNING|Oops|general protection|Call Trace/)
			print
	}')
[ -z "$bad" ]
ok $? "no BUG/WARNING/Oops in the kernel log since $since s"
[ -n "$bad" ] && diag "$bad"
done_testing
