#!/bin/bash
# The vmalloc_order method follows STRESS_MM_VMALLOC_ORDER_METHOD: each
# path by name, and "all" cycling through the paths this kernel backs. A
# path that test/required-paths says must run here fails when it SKIPs;
# "all" must run when any path must. Each run ends after 4 bogo-ops (30 s
# at most): a busy machine slows it, never cuts it inside its set-up.
. "$(dirname "$0")/lib.sh"
need_stress_ng

mapfile -t paths < <("$BUILD/test/tables" paths | cut -f2)
plan $((${#paths[@]} + 2))

for m in all "${paths[@]}"; do
	(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_METHOD=$m timeout 60 stress-ng \
		--plugin 1 --plugin-so "$SO" --plugin-method vmalloc_order \
		--plugin-ops 4 -t 30s --metrics --yaml "$TMPD/$m.yaml" > "$TMPD/$m.log" 2>&1)
	rc=$?
	ops=$(yaml_bogo_ops "$TMPD/$m.yaml")
	if grep -q "vmalloc-order: SKIP:" "$TMPD/$m.log"; then
		line=$(grep -m1 'SKIP:' "$TMPD/$m.log")
		need=$(path_required "${m/#all/stack}")
		if [ $? -eq 0 ]; then
			ok 1 "METHOD=$m: must run here ($need) but skipped: $line"
		else
			skip "METHOD=$m" "$need: $line"
		fi
		continue
	fi
	[ $rc -eq 0 ] && [ "${ops:-0}" -gt 0 ] && ! grep -q "FAIL:" "$TMPD/$m.log"
	ok $? "METHOD=$m: bogo-ops ${ops:-none}, no FAIL"
	grep "FAIL:" "$TMPD/$m.log" | head -3 | while read -r l; do diag "$l"; done
done

wait_no_plugin 5
ok $? "no plugin process is left"
done_testing
