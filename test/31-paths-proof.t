#!/bin/bash
# Proof of path for every vmalloc-order method besides stack (30-stack-
# proof.t): the real stress-ng runs it for 2 s while /proc/vmallocinfo is
# sampled, from before it starts until it has ended; areas of the path's kernel callers and kind must appear, bogo-ops
# must be > 0, the plugin must say once what it achieved, and nothing may
# fail. test/required-paths says which paths must run on this machine's
# kernel features: a required path that SKIPs fails every assertion; any
# other path may SKIP with its reason (as fdtable does with RLIMIT_NOFILE
# 20000), which is reported as a TAP skip. The io-uring buffers kind may
# skip only with the reason and errno its limits give here.
. "$(dirname "$0")/lib.sh"
need_stress_ng
[ -r /proc/vmallocinfo ] || skip_all "/proc/vmallocinfo unreadable (needs uid 0)"

# symbol  callers  kind  bytes (doc/plugin.md, Methods; re-checked here;
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
	# sampled from before stress-ng starts until it has ended
	watch_start "$TMPD/$sym.watch" 0 "$callers"
	(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_BATCH=16 \
		STRESS_MM_VMALLOC_ORDER_BYTES=$bytes \
		STRESS_MM_VMALLOC_ORDER_IO_URING=rings timeout 60 stress-ng \
		--plugin 1 --plugin-so "$SO" --plugin-method "vmalloc_order_$sym" \
		-t 2s --metrics --yaml "$TMPD/$sym.yaml" > "$TMPD/$sym.log" 2>&1)
	rc=$?
	watch_stop "$TMPD/$sym.watch"
	skipline=$(grep -m1 "vmalloc-order: SKIP:" "$TMPD/$sym.log")
	if [ -n "$skipline" ]; then
		diag "$skipline"
		if need=$(path_required "${sym//_/-}"); then
			for what in "bogo-ops" "areas of $kind" "achieved" "no FAIL"; do
				ok 1 "$sym: $what: must run here ($need) but skipped"
			done
		else
			for what in "bogo-ops" "areas of $kind" "achieved" "no FAIL"; do
				skip "$sym: $what" "$need: ${skipline#vmalloc-order: SKIP: }"
			done
		fi
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

# pty: two fixed 3-page areas per open (doc/plugin.md, vmalloc_order_pty).
if [ "$(sed -n 's/^size: //p' "$TMPD/pty.watch")" = 16384 ] &&
	[ "$(sed -n 's/^pages: //p' "$TMPD/pty.watch")" = 3 ]; then
	ok 0 "pty: n_tty_open areas are 16384 bytes, pages=3"
else
	ok 1 "pty: n_tty_open areas are 16384 bytes, pages=3 ($(tr '\n' ' ' < "$TMPD/pty.watch"))"
fi

# io-uring registered buffers: vmalloc only for page tables above 4 MiB,
# which needs RLIMIT_MEMLOCK above 1 GiB. Below that, one SKIP only: with
# room for a buffer, "the page tables ... came from kmalloc" (EOPNOTSUPP);
# without, "RLIMIT_MEMLOCK ... leaves no room" (ENOMEM). The errno is read
# from the worker's stats file.
watch_start "$TMPD/buf.watch" 0 io_alloc_imu,io_sqe_buffer_register,io_sqe_buffers_register,io_pin_pages
mkdir -p "$TMPD/buf.stats"
(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_IO_URING=buffers \
	STRESS_MM_STATS_DIR="$TMPD/buf.stats" \
	STRESS_MM_VMALLOC_ORDER_BYTES=8M timeout 60 stress-ng --plugin 1 \
	--plugin-so "$SO" --plugin-method vmalloc_order_io_uring -t 2s \
	--metrics --yaml "$TMPD/buf.yaml" > "$TMPD/buf.log" 2>&1)
watch_stop "$TMPD/buf.watch"
skipline=$(grep -m1 "vmalloc-order: SKIP:" "$TMPD/buf.log")
if [ -n "$skipline" ]; then
	diag "$skipline"
	errnos=$("$BUILD/test/stats-dump" "$TMPD"/buf.stats/*.stats |
		sed -n 's/^skip_errno: //p' | sort -u | tr '\n' ' ')
	page_kib=$(($(getconf PAGESIZE) / 1024))
	lock=$(ulimit -l)
	if need=$(path_required io-uring-buffers); then
		ok 1 "io-uring buffers: must run here ($need) but skipped"
	elif [ "$lock" != unlimited ] && [ "$lock" -lt $((2 * page_kib)) ]; then
		case $skipline in
		"vmalloc-order: SKIP: io-uring buffers: RLIMIT_MEMLOCK "*" leaves no room for a registered buffer"*)
			[ "$errnos" = "12 " ] ;;
		*) false ;;
		esac
		ok $? "io-uring buffers: the only SKIP without room is RLIMIT_MEMLOCK's, ENOMEM (skip_errno $errnos)"
	else
		case $skipline in
		"vmalloc-order: SKIP: io-uring buffers: "*" registered buffers added no io_alloc_imu area to /proc/vmallocinfo: the page tables of a "*" registered buffer came from kmalloc; "*)
			[ "$errnos" = "95 " ] ;;
		*) false ;;
		esac
		ok $? "io-uring buffers: the only SKIP here is 'tables came from kmalloc', EOPNOTSUPP (skip_errno $errnos)"
	fi
else
	[ "$(sed -n 's/^kind: //p' "$TMPD/buf.watch")" = vmalloc ] &&
		[ "$(yaml_bogo_ops "$TMPD/buf.yaml")" -gt 0 ]
	ok $? "io-uring buffers: vmalloc page-table areas and bogo-ops > 0"
fi

wait_no_plugin 5
ok $? "no plugin process is left"
done_testing
