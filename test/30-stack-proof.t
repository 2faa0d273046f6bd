#!/bin/bash
# Proof of path for vmalloc_order_stack: the real stress-ng runs the method
# for 3 s while /proc/vmallocinfo is sampled, from before it starts until
# it has ended. Thread-stack areas (caller kernel_clone or its older names)
# of THREAD_SIZE + guard page must appear, bogo-ops must be > 0 in the
# YAML, nothing may fail, and afterwards no plugin process is left.
. "$(dirname "$0")/lib.sh"
need_stress_ng
[ -r /proc/vmallocinfo ] || skip_all "/proc/vmallocinfo unreadable (needs uid 0)"

CALLERS=kernel_clone,copy_process,dup_task_struct,_do_fork,alloc_thread_stack_node
BATCH=64
plan 9

watch_start "$TMPD/watch" 0 "$CALLERS"
(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_BATCH=$BATCH timeout 60 stress-ng \
	--plugin 2 --plugin-so "$SO" --plugin-method vmalloc_order_stack \
	-t 3s --metrics --yaml "$TMPD/out.yaml" > "$TMPD/log" 2>&1)
rc=$?
watch_stop "$TMPD/watch"
diag "$(cat "$TMPD/watch")"

ok $rc "stress-ng exits 0"
ops=$(yaml_bogo_ops "$TMPD/out.yaml")
[ "${ops:-0}" -gt 0 ]
ok $? "bogo-ops > 0 in the YAML (${ops:-none})"
! grep -E "FAIL:|SKIP:|Caught unexpected signal" "$TMPD/log" >/dev/null
ok $? "no FAIL, SKIP or unexpected signal"
grep "vmalloc-order: FAIL\|SKIP\|signal" "$TMPD/log" | head -5 | while read -r l; do diag "$l"; done

new=$(sed -n 's/^new: //p' "$TMPD/watch")
size=$(sed -n 's/^size: //p' "$TMPD/watch")
pages=$(sed -n 's/^pages: //p' "$TMPD/watch")
kind=$(sed -n 's/^kind: //p' "$TMPD/watch")
[ "${new:-0}" -ge $BATCH ]
ok $? "at least $BATCH new thread-stack areas appeared (${new:-0})"
page=$(getconf PAGESIZE)
[ "$kind" = vmalloc ] && [ $((size - page)) -eq $((pages * page)) ]
ok $? "they are vmalloc areas of pages=$pages plus a guard page ($size bytes)"
if [ "$(uname -m)" = x86_64 ]; then
	# THREAD_SIZE_ORDER 2 (16 KiB), or 3 with KASAN (32 KiB).
	[ "$pages" -eq 4 ] || [ "$pages" -eq 8 ]
	ok $? "x86_64: THREAD_SIZE is order 2 (or 3 with KASAN): pages=$pages"
else
	skip "x86_64 THREAD_SIZE check" "$(uname -m): no fixed expectation"
fi

achieved=$(grep "vmalloc-order: stack: kernel thread stacks are vmalloc areas of $size bytes" "$TMPD/log")
[ -n "$achieved" ] && [ "$(echo "$achieved" | wc -l)" -eq 1 ]
ok $? "the plugin reports once what it achieved, matching vmallocinfo"
diag "$achieved"

# No thread of the run is left (each thread's stack goes with it); the
# machine's count of stack areas afterwards is not the run's to judge: a
# busy machine's own processes move it.
wait_no_plugin 5
ok $? "no plugin process is left"

# --plugin-ops without -t returns after N bogo-ops.
(cd "$TMPD" && timeout 60 stress-ng --plugin 1 --plugin-so "$SO" \
	--plugin-method vmalloc_order_stack --plugin-ops 5 --metrics \
	--yaml "$TMPD/ops.yaml" > "$TMPD/log2" 2>&1)
rc=$?
ops=$(yaml_bogo_ops "$TMPD/ops.yaml")
[ $rc -eq 0 ] && [ "${ops:-0}" -ge 5 ]
ok $? "--plugin-ops 5 without -t returns (exit $rc, bogo-ops ${ops:-none})"
done_testing
