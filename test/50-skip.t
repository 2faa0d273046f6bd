#!/bin/bash
# The skip mechanism: when the stack path cannot create a single thread, its
# group ends at once with 0 bogo-ops and one SKIP line, another group in the
# same run goes on, and --plugin-ops without -t still returns.
#
# The binding limit is RLIMIT_NPROC. The kernel does not enforce it for
# root (copy_process() exempts INIT_USER), so stress-ng runs as nobody,
# where it binds the capability-less worker: stress-ng's own processes
# (main, stressor, worker, and the cpu worker) fit, the first thread does
# not.
. "$(dirname "$0")/lib.sh"
need_stress_ng
[ "$(id -u)" -eq 0 ] || skip_all "needs root to run stress-ng as nobody"
command -v setpriv >/dev/null && command -v prlimit >/dev/null ||
	skip_all "setpriv/prlimit missing (util-linux)"
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
[ -z "$(pgrep -u nobody)" ] || skip_all "processes of nobody exist: RLIMIT_NPROC counts them"
chmod 777 "$TMPD"
# A copy that nobody can read, wherever the build directory lives.
cp "$SO" "$TMPD/stress-mm.so" && chmod 644 "$TMPD/stress-mm.so"
SO=$TMPD/stress-mm.so

as_nobody() { # NPROC stress-ng args...
	n=$1
	shift
	(cd "$TMPD" && timeout 60 setpriv --reuid=nobody --regid=nogroup \
		--clear-groups prlimit --nproc="$n" stress-ng "$@")
}

plan 7

start=$(date +%s)
as_nobody 4 --plugin 1 --plugin-so "$SO" --plugin-method vmalloc_order_stack \
	--cpu 1 -t 3s --metrics --yaml "$TMPD/skip.yaml" > "$TMPD/log" 2>&1
rc=$?
diag "$(grep -v '^stress-ng: info' "$TMPD/log")"
ok $rc "stress-ng exits 0"
[ "$(grep -c 'vmalloc-order: SKIP: stack: cannot create a thread' "$TMPD/log")" -eq 1 ]
ok $? "exactly one SKIP line, with the reason"
[ "$(yaml_stressor "$TMPD/skip.yaml" 1)" = plugin ] &&
	[ "$(yaml_bogo_ops "$TMPD/skip.yaml" 1)" = 0 ]
ok $? "the plugin group has 0 bogo-ops"
[ "$(yaml_stressor "$TMPD/skip.yaml" 2)" = cpu ] &&
	[ "$(yaml_bogo_ops "$TMPD/skip.yaml" 2)" -gt 0 ]
ok $? "the cpu group in the same run goes on ($(yaml_bogo_ops "$TMPD/skip.yaml" 2) bogo-ops)"
! grep -q "FAIL:" "$TMPD/log"
ok $? "a skip is not a failure"

# Alone, with --plugin-ops and no -t: main, stressor and worker fit in 3.
as_nobody 3 --plugin 1 --plugin-so "$SO" --plugin-method vmalloc_order_stack \
	--plugin-ops 5 --metrics --yaml "$TMPD/ops.yaml" > "$TMPD/log2" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "SKIP:" "$TMPD/log2" &&
	[ "$(yaml_bogo_ops "$TMPD/ops.yaml" 1)" = 0 ]
ok $? "--plugin-ops 5 without -t returns after a skip (exit $rc)"
[ $rc -eq 0 ] || diag "$(cat "$TMPD/log2")"

wait_no_plugin 5
ok $? "no plugin process is left"
done_testing
