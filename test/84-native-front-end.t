#!/bin/bash
# The front end and the stress-ng built with our stressors (runner-native.c,
# sng-pick.h): it finds build/stress-ng/stress-ng by itself and runs the
# plugin in it by default (its workers keep the records); --integration
# native runs the built-in stressors with the parameters as their own
# options and no STRESS_MM_* parameter variable, has no record and says so
# in the figures, and says in the YAML which integration ran; a stress-ng
# without the stressors runs the plugin and --integration native refuses
# it; stress-ng's own lists of stressors that passed name ours, never
# plugin; compare takes a plugin run against a native one and names the
# difference; a skip natively keeps stress-ng's status, a failure fails,
# churn module is the plugin's; installed, the native stress-ng is found
# and run from lib/stress-mm/.
. "$(dirname "$0")/lib.sh"
need_native
SMM=$BUILD/stress-mm
[ -x "$SMM" ] || skip_all "$SMM not built"

plan 19

# fe NAME ARGS...: the front end in $TMPD, log NAME.log, report NAME.yaml.
fe() {
	local name=$1
	shift
	(cd "$TMPD" && timeout 120 "$SMM" "$@" --counters none \
		--vmallocinfo-interval 0 --yaml "$TMPD/$name.yaml" \
		> "$TMPD/$name.log" 2>&1)
}
# key FILE STRESSOR KEY: a key of the stressor's section of the report.
key() {
	awk -v s="    $2:" -v k="      $3:" '$0 == s { f = 1; next }
		f && /^    [^ ]/ { f = 0 } f && index($0, k) == 1 {
		sub(/^ *[^:]*: */, ""); gsub(/^'"'"'|'"'"'$/, ""); print; exit }' "$1"
}

fe auto --vmalloc-order 1 --vmalloc-order-method stack -t 3
rc=$?
sng=$(sed -n 's/^  stress-ng: //p' "$TMPD/auto.yaml")
[ $rc -eq 0 ] && [ "$sng" = "$NATIVE" ] &&
	[ "$(key "$TMPD/auto.yaml" vmalloc-order integration)" = plugin ] &&
	grep -q "dispatching hogs: 1 vmalloc-order" "$TMPD/auto.log"
ok $? "without --stress-ng the front end runs $sng, by default with the plugin (exit $rc)"
# stress-ng from 0.17 lists the stressors that passed by name
grep -q "\] passed: 1: vmalloc-order (1)$" "$TMPD/auto.log" &&
	! grep -Eq "\] (passed|failed|skipped|metrics untrustworthy): .* plugin \(" "$TMPD/auto.log"
ok $? "stress-ng's list of stressors that passed names vmalloc-order, never plugin: $(grep -m1 '] passed: ' "$TMPD/auto.log")"
ops=$(yaml_bogo_ops "$TMPD/auto.yaml")
files=$(key "$TMPD/auto.yaml" vmalloc-order records)
calls=$(key "$TMPD/auto.yaml" vmalloc-order calls)
[ "$(yaml_stressor "$TMPD/auto.yaml" 1)" = vmalloc-order ] && [ "${ops:-0}" -gt 0 ] &&
	[ "${files:-0}" -ge 1 ] && [ "${calls:-0}" -gt 0 ]
ok $? "its metrics entry is vmalloc-order with $ops bogo-ops; $files record(s) read, $calls calls"

# The command line and environment of the stress-ng it ran.
(cd "$TMPD" && STRESS_MM_SHM_PCP_MODE=spin exec timeout 120 "$SMM" --shm-pcp 1 \
	--shm-pcp-bytes 1M -t 4 --counters none --vmallocinfo-interval 0 --integration native \
	> "$TMPD/argv.log" 2>&1) &
fe_pid=$!
argv=''
envs=''
# Until the run ends: this run's stress-ng is a child of its stress-mm,
# itself the child of timeout (another test's stress-ng may run the same
# binary), and the one with our stressor on its command line (the front
# end's `stress-ng --stressors` probe runs the same binary first).
while kill -0 "$fe_pid" 2> /dev/null && [ -z "$argv" ]; do
	sleep 0.05
	for p in $(pgrep -P "$(pgrep -P "$fe_pid" | head -n 1)" 2> /dev/null); do
		[ "$(readlink "/proc/$p/exe")" = "$NATIVE" ] || continue
		a=$(tr '\0' ' ' 2> /dev/null < "/proc/$p/cmdline")
		case " $a " in *" --shm-pcp 1 "*) ;; *) continue ;; esac
		envs=$(tr '\0' '\n' 2> /dev/null < "/proc/$p/environ" | grep '^STRESS_MM_' | cut -d= -f1 | paste -sd' ')
		argv=$a
		break
	done
done
wait $fe_pid
rc=$?
case " $argv " in
*" --shm-pcp 1 "*"--shm-pcp-bytes 1M "*) true ;;
*) false ;;
esac && case " $argv " in *" --shm-pcp-mode spin "*) true ;; *) false ;; esac &&
	[ "$envs" = STRESS_MM_STATS_DIR ] && [ $rc -eq 0 ]
ok $? "parameters as options, the STRESS_MM_ variable's too, none in its environment: ${argv:-not seen}; STRESS_MM_*: ${envs:-none} (exit $rc)"

fe plugin --vmalloc-order 1 --vmalloc-order-method stack -t 3 --integration plugin
rc=$?
ops=$(yaml_bogo_ops "$TMPD/plugin.yaml")
[ $rc -eq 0 ] && [ "$(key "$TMPD/plugin.yaml" vmalloc-order integration)" = plugin ] &&
	[ "$(sed -n 's/^  stress-ng: //p' "$TMPD/plugin.yaml")" = "$NATIVE" ] &&
	[ "$(yaml_stressor "$TMPD/plugin.yaml" 1)" = vmalloc-order ] && [ "${ops:-0}" -gt 0 ]
ok $? "--integration plugin: the plugin in the same stress-ng, $ops bogo-ops (exit $rc)"
fe native --vmalloc-order 1 --vmalloc-order-method stack -t 3 --integration native
rc=$?
ops=$(yaml_bogo_ops "$TMPD/native.yaml")
[ $rc -eq 0 ] && [ "$(key "$TMPD/native.yaml" vmalloc-order integration)" = native ] &&
	[ "${ops:-0}" -gt 0 ] && [ "$(key "$TMPD/native.yaml" vmalloc-order records)" = 0 ] &&
	grep -q "allocations-per-second *absent *(built into stress-ng, the stressor keeps no record" "$TMPD/native.log"
ok $? "--integration native: the built-in stressor, $ops bogo-ops, no record, the figures that need one absent saying why (exit $rc)"
grep -qx "stress-mm: info: vmalloc-order: integration native, built into $NATIVE" "$TMPD/native.log" &&
	grep -qx "stress-mm: info: vmalloc-order: integration plugin ($BUILD/stress-mm.so) in $NATIVE" "$TMPD/plugin.log"
ok $? "the console names the integration and the stress-ng: $(grep -h 'integration' "$TMPD/native.log" "$TMPD/plugin.log" | paste -sd';')"

sys=$(command -v stress-ng)
if [ -n "$sys" ] && ! "$sys" --stressors 2> /dev/null | tr ' ' '\n' | grep -qx vmalloc-order; then
	fe sys --vmalloc-order 1 --vmalloc-order-method stack -t 2 --stress-ng "$sys"
	rc=$?
	[ $rc -eq 0 ] && [ "$(key "$TMPD/sys.yaml" vmalloc-order integration)" = plugin ]
	ok $? "--stress-ng $sys (no built-in stressors): the plugin (exit $rc)"
	out=$(cd "$TMPD" && "$SMM" --vmalloc-order 1 -t 1 --stress-ng "$sys" --integration native 2>&1)
	rc=$?
	[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -eq 1 ] &&
		case $out in "stress-mm: --integration=native: $sys has no vmalloc-order"*) true ;; *) false ;; esac
	ok $? "--integration native on it: exit $rc, $out"
else
	skip "a stress-ng without the stressors runs the plugin" "no such stress-ng in PATH"
	skip "--integration native refuses it" "no such stress-ng in PATH"
fi

# compare: the same configuration, plugin against native (whatever the
# verdict: 0, 1, or 2 for too few runs; never "not comparable").
fe cmp-p --shm-pcp 1 --shm-pcp-bytes 1M --shm-pcp-mode none -t 1 --repeat 3 --integration plugin &&
	fe cmp-n --shm-pcp 1 --shm-pcp-bytes 1M --shm-pcp-mode none -t 1 --repeat 3 --integration native
rc=$?
(cd "$TMPD" && "$SMM" compare cmp-p.yaml cmp-n.yaml > cmp.out 2> cmp.err)
crc=$?
[ $rc -eq 0 ] &&
	grep -qx "stress-mm compare: differs (the integration: allowed): base shm-pcp.integration=plugin" "$TMPD/cmp.err" &&
	grep -qx "stress-mm compare: differs (the integration: allowed): candidate shm-pcp.integration=native" "$TMPD/cmp.err" &&
	! grep -q "not comparable" "$TMPD/cmp.err"
ok $? "compare plugin vs native: compared (exit $crc), the integration named: $(grep -m1 integration "$TMPD/cmp.err")"
(cd "$TMPD" && sed 's/^      integration: native$/      integration: plugin/' cmp-n.yaml > cmp-n2.yaml &&
	sed -i 's/^\(        shm-pcp-bytes:\) 1M$/\1 2M/' cmp-n2.yaml &&
	"$SMM" compare cmp-p.yaml cmp-n2.yaml > /dev/null 2> cmp2.err)
crc=$?
[ $crc -eq 2 ] && grep -q "not comparable" "$TMPD/cmp2.err" && ! grep -q "integration" "$TMPD/cmp2.err"
ok $? "a parameter that differs is still refused (exit $crc), no integration named when both ran the plugin"

# A path that cannot run here, natively: no record says so, stress-ng's
# log does, and its status stands (0: stress-ng's own for a skip).
if [ "$(ulimit -Hn)" -lt 500000 ]; then
	fe fd --vmalloc-order 1 --vmalloc-order-method fdtable -t 2 --integration native
	rc=$?
	[ $rc -eq 0 ] && grep -q "vmalloc-order: fdtable: .*skipping stressor" "$TMPD/fd.log" &&
		grep -q "stress-mm: vmalloc-order: 0 bogo-ops; built into stress-ng, the stressor keeps no record .*stress-ng's status 0 stands" "$TMPD/fd.log" &&
		! grep -q "the run was cut" "$TMPD/fd.log"
	ok $? "path fdtable natively: exit $rc, stress-ng's skip and status, no cut claimed"
else
	skip "path fdtable natively" "RLIMIT_NOFILE allows vmalloc'ed fd tables here"
fi

# churn module: the front end prepares the device as for path module; the
# plugin adds the module path to the core's path table, which the
# stressor takes as its mode "module" (plugin/shm-pcp.c).
fe cmod --shm-pcp 1 --shm-pcp-mode module --shm-pcp-churn-bytes 12K -t 2
rc=$?
reason=$(key "$TMPD/cmod.yaml" shm-pcp skipped)
serr=$(key "$TMPD/cmod.yaml" shm-pcp skip-errno)
if [ ! -e /proc/modules ]; then
	grep -q "^stress-mm: module: this kernel has no module support (no /proc/modules); path module and churn module will skip$" "$TMPD/cmod.log" &&
		grep -q "^shm-pcp: SKIP: churn: module: no /dev/stress-mm-vmalloc: " "$TMPD/cmod.log"
	ok $? "churn module: the front end says why the module cannot load, the stressor's companions why the module path cannot run"
	[ $rc -eq 4 ] && [ "$serr" = 95 ] &&
		case $reason in "churn: module: no /dev/stress-mm-vmalloc: "*"errno=95 (Operation not supported)"*) true ;; *) false ;; esac
	ok $? "churn module (the plugin's) without module support: a skip with errno $serr and the reason (exit $rc): $reason"
else
	[ $rc -eq 0 ] || [ $rc -eq 4 ]
	ok $? "churn module with module support: ran or skipped (exit $rc) # the lab proves it (make lab-native: lab/native.workloads)"
	skip "churn module without module support" "this kernel has module support"
fi

# A failure natively: SysV segments above shmmax, in an IPC namespace.
if command -v unshare > /dev/null && [ "$(id -u)" = 0 ]; then
	(cd "$TMPD" && unshare --ipc sh -c 'echo 65536 > /proc/sys/kernel/shmmax &&
		exec "$0" --shm-pcp 1 --shm-pcp-method sysv --shm-pcp-bytes 1M \
		--shm-pcp-mode none -t 2 --counters none --vmallocinfo-interval 0 \
		--integration native --yaml "$1"' "$SMM" "$TMPD/fail.yaml" > "$TMPD/fail.log" 2>&1)
	rc=$?
	[ $rc -eq 2 ] && grep -q "stress-mm: shm-pcp failed:" "$TMPD/fail.log" &&
		[ "$(key "$TMPD/fail.yaml" shm-pcp integration)" = native ]
	ok $? "a failing cycle natively exits 2 (exit $rc): $(grep -m1 'shm-pcp failed' "$TMPD/fail.log")"
else
	skip "a failing cycle natively exits 2" "needs root and unshare"
fi

out=$(cd "$TMPD" && "$SMM" --vmalloc-order 1 --integration natve 2>&1)
rc=$?
[ $rc -eq 1 ] && [ "$out" = "stress-mm: --integration='natve' is not an integration; valid: auto, plugin, native" ]
ok $? "a bad --integration: exit $rc, $out"

# Installed (make install, staged): the native stress-ng goes to
# lib/stress-mm/ beside the plugin, the staged front end finds it with no
# build tree on its way and runs it; uninstall removes it.
STAGE=$TMPD/stage
P=$STAGE/usr/local
make -C "$TOP" --no-print-directory BUILD="$BUILD" install DESTDIR="$STAGE" > "$TMPD/install.log" 2>&1 &&
	cmp -s "$NATIVE" "$P/lib/stress-mm/stress-ng" &&
	[ "$(stat -c %a "$P/lib/stress-mm/stress-ng")" = 755 ]
ok $? "make install puts the native stress-ng down beside the plugin, mode 755"
ver=$(cd / && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$P/bin/stress-mm" --version)
(cd / && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$P/bin/stress-mm" --vmalloc-order 1 -t 2 \
	--counters none --vmallocinfo-interval 0 --integration native \
	--yaml "$TMPD/inst.yaml" > "$TMPD/inst.log" 2>&1)
rc=$?
echo "$ver" | grep -qx "native stress-ng: $P/lib/stress-mm/stress-ng (installed, ../lib/stress-mm from the front end)" &&
	[ $rc -eq 0 ] && [ "$(sed -n 's/^  stress-ng: //p' "$TMPD/inst.yaml")" = "$P/lib/stress-mm/stress-ng" ] &&
	[ "$(key "$TMPD/inst.yaml" vmalloc-order integration)" = native ]
ok $? "the staged front end names and runs its installed native stress-ng (exit $rc): $(echo "$ver" | grep '^native')"
make -C "$TOP" --no-print-directory BUILD="$BUILD" uninstall DESTDIR="$STAGE" > "$TMPD/uninstall.log" 2>&1 &&
	grep -qx "  RM      $P/lib/stress-mm/stress-ng" "$TMPD/uninstall.log" && [ ! -e "$P/lib/stress-mm" ]
ok $? "make uninstall removes it and lib/stress-mm"

done_testing
