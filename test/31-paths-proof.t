#!/bin/bash
# Proof of path for every vmalloc-order method besides stack (30-stack-
# proof.t): the real stress-ng runs it for 2 s while /proc/vmallocinfo is
# sampled; areas of the path's kernel callers and kind must appear, bogo-ops
# must be > 0, the plugin must say once what it achieved, and nothing may
# fail. A path the kernel does not back here must SKIP with its reason (as
# fdtable does with RLIMIT_NOFILE 20000): that is reported as a TAP skip.
. "$(dirname "$0")/lib.sh"
need_stress_ng
[ -r /proc/vmallocinfo ] || skip_all "/proc/vmallocinfo unreadable (needs uid 0)"

# symbol  callers  kind  bytes (facts from KERNEL-PATHS, re-checked here;
# fdtable asks for the largest table RLIMIT_NOFILE allows)
expect=(
	"io_uring io_create_region,io_region_init_ptr,io_pin_pbuf_ring vmap 16K"
	"bpf bpf_prog_alloc_no_stats,bpf_prog_realloc vmalloc 16K"
	"ldt alloc_ldt_struct vmalloc 16K"
	"pty n_tty_open vmalloc 16K"
	"fdtable alloc_fdtable,dup_fd,expand_fdtable vmalloc 1G"
)
plan $((${#expect[@]} * 4 + 3))

for e in "${expect[@]}"; do
	read -r sym callers kind bytes <<<"$e"
	"$BUILD/test/vmallocinfo-watch" 3000 100 0 "$callers" > "$TMPD/$sym.watch" &
	watcher=$!
	sleep 0.2
	(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_BATCH=16 \
		STRESS_MM_VMALLOC_ORDER_BYTES=$bytes \
		STRESS_MM_VMALLOC_ORDER_IO_URING=rings timeout 60 stress-ng \
		--plugin 1 --plugin-so "$SO" --plugin-method "vmalloc_order_$sym" \
		-t 2s --metrics --yaml "$TMPD/$sym.yaml" > "$TMPD/$sym.log" 2>&1)
	rc=$?
	wait $watcher
	skipline=$(grep -m1 "vmalloc-order: SKIP:" "$TMPD/$sym.log")
	if [ -n "$skipline" ]; then
		diag "$skipline"
		for what in "bogo-ops" "areas of $kind" "achieved" "no FAIL"; do
			skip "$sym: $what" "${skipline#vmalloc-order: SKIP: }"
		done
		continue
	fi
	ops=$(yaml_bogo_ops "$TMPD/$sym.yaml")
	[ $rc -eq 0 ] && [ "${ops:-0}" -gt 0 ]
	ok $? "$sym: bogo-ops > 0 (${ops:-none})"
	new=$(sed -n 's/^new: //p' "$TMPD/$sym.watch")
	got=$(sed -n 's/^kind: //p' "$TMPD/$sym.watch")
	size=$(sed -n 's/^size: //p' "$TMPD/$sym.watch")
	[ "${new:-0}" -ge 16 ] && [ "$got" = "$kind" ]
	ok $? "$sym: ${new:-0} new $got areas of $callers (size $size)"
	achieved=$(grep -c "vmalloc-order: .*are $kind areas of $size bytes" "$TMPD/$sym.log")
	[ "$achieved" -eq 1 ]
	ok $? "$sym: the plugin says once what it achieved, as vmallocinfo shows"
	grep "are $kind areas" "$TMPD/$sym.log" | while read -r l; do diag "$l"; done
	! grep -q "FAIL:\|Caught unexpected signal" "$TMPD/$sym.log"
	ok $? "$sym: no FAIL"
done

# pty: two fixed 3-page areas per open (KERNEL-PATHS 1.1 e).
if [ "$(sed -n 's/^size: //p' "$TMPD/pty.watch")" = 16384 ] &&
	[ "$(sed -n 's/^pages: //p' "$TMPD/pty.watch")" = 3 ]; then
	ok 0 "pty: n_tty_open areas are 16384 bytes, pages=3"
else
	ok 1 "pty: n_tty_open areas are 16384 bytes, pages=3 ($(tr '\n' ' ' < "$TMPD/pty.watch"))"
fi

# io-uring registered buffers: vmalloc only for page tables above 4 MiB,
# which needs RLIMIT_MEMLOCK above 1 GiB; elsewhere a SKIP naming it.
"$BUILD/test/vmallocinfo-watch" 2500 100 0 io_alloc_imu,io_sqe_buffer_register,io_sqe_buffers_register,io_pin_pages > "$TMPD/buf.watch" &
watcher=$!
(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_IO_URING=buffers \
	STRESS_MM_VMALLOC_ORDER_BYTES=8M timeout 60 stress-ng --plugin 1 \
	--plugin-so "$SO" --plugin-method vmalloc_order_io_uring -t 2s \
	--metrics --yaml "$TMPD/buf.yaml" > "$TMPD/buf.log" 2>&1)
wait $watcher
skipline=$(grep -m1 "vmalloc-order: SKIP:" "$TMPD/buf.log")
if [ -n "$skipline" ]; then
	diag "$skipline"
	case $skipline in
	*RLIMIT_MEMLOCK*) ok 0 "io-uring buffers: SKIP names RLIMIT_MEMLOCK # SKIP ${skipline#vmalloc-order: SKIP: }" ;;
	*) ok 1 "io-uring buffers: SKIP names RLIMIT_MEMLOCK" ;;
	esac
else
	[ "$(sed -n 's/^kind: //p' "$TMPD/buf.watch")" = vmalloc ] &&
		[ "$(yaml_bogo_ops "$TMPD/buf.yaml")" -gt 0 ]
	ok $? "io-uring buffers: vmalloc page-table areas and bogo-ops > 0"
fi

wait_no_plugin 5
ok $? "no plugin process is left"
done_testing
