#!/bin/bash
# Mark the kernel log before the suite: 99-kmsg-check.t reports any BUG,
# WARNING or Oops the kernel printed after this point.
. "$(dirname "$0")/lib.sh"

mark=$BUILD/test/kmsg.mark
mkdir -p "$BUILD/test"
if ! dmesg >/dev/null 2>&1; then
	rm -f "$mark"
	skip_all "dmesg unreadable here (needs CAP_SYSLOG or dmesg_restrict=0)"
fi
plan 1
# The timestamp of the newest record, in seconds since boot.
dmesg | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p' | tail -n 1 > "$mark"
[ -s "$mark" ] || echo 0 > "$mark"
ok 0 "kernel log marked at $(cat "$mark") s"
done_testing
