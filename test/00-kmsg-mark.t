#!/bin/bash
# Mark the kernel log before the suite: 99-kmsg-check.t reports any BUG,
# WARNING or Oops the kernel printed after this point. The mark is a line
# of our own, written to /dev/kmsg, so that it is found whatever
# printk.time says; without a writable /dev/kmsg, the timestamp of the
# newest record (needs timestamps in dmesg). The mark must read back.
. "$(dirname "$0")/lib.sh"

mark=$BUILD/test/kmsg.mark
mkdir -p "$BUILD/test"
rm -f "$mark"
if ! dmesg >/dev/null 2>&1; then
	skip_all "dmesg unreadable here (needs CAP_SYSLOG or dmesg_restrict=0)"
fi
plan 1
line="stress-mm: test suite starts, mark $$.$RANDOM.$(date +%s%N)"
if printf '%s\n' "$line" > /dev/kmsg 2> /dev/null; then
	for i in 1 2 3 4 5 6 7 8 9 10; do
		dmesg --notime | grep -qxF "$line" && break
		sleep 0.1
	done
	dmesg --notime | grep -qxF "$line" && echo "line:$line" > "$mark"
	[ -s "$mark" ]
	ok $? "kernel log marked with a line of ours, which reads back: $line"
else
	t=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p' | tail -n 1)
	[ -n "$t" ] && echo "time:$t" > "$mark"
	[ -s "$mark" ]
	ok $? "kernel log marked at ${t:-no timestamp} s (/dev/kmsg not writable)"
fi
done_testing
