#!/bin/bash
# Our kernel module (module/) where this host can take it: the UAPI header
# in user space, a build against a lab kernel tree (when one is there:
# KDIR, or LAB_KCACHE/trees from make lab-kernels), the static in-guest
# programs, tv-summary and lab/modtable.sh on recorded input (checkpatch.pl,
# the programs' lint and shellcheck of the lab scripts: make lint);
# without the device, the plugin's module kind (plugin/vmalloc-module.c) is
# a SKIP with EOPNOTSUPP and its reason. Loading needs a kernel with module
# support: this host's has none (CONFIG_MODULES=n), so that part is a
# SKIP with the reason, and make lab-module runs it in guests. No QEMU.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
plan 10

# --- the UAPI header ---------------------------------------------------------
cat > "$TMPD/uapi.c" << 'EOF'
#include <stddef.h>
#include "stress-mm-vmalloc.h"
/* No implicit padding: every size is the sum of its fields, and the
 * ioctl numbers carry those sizes (32-bit compat needs the same layout). */
_Static_assert(sizeof(struct smm_vmalloc_info) == 6 * 4 + 3 * 8 + 4 * 8, "info");
_Static_assert(sizeof(struct smm_vmalloc_req) == 4 * 4 + 8 + 2 * 4 + 3 * 8 + 2 * 8, "req");
_Static_assert(sizeof(struct smm_vmalloc_stats) == 2 * 4 + 11 * 8 + 4 * 8, "stats");
_Static_assert(offsetof(struct smm_vmalloc_req, nr_pages) % 8 == 0, "req align");
_Static_assert(_IOC_SIZE(SMM_VMALLOC_IOC_ALLOC) == sizeof(struct smm_vmalloc_req), "nr");
int main(void) { return SMM_VMALLOC_ABI_VERSION == 1 ? 0 : 1; }
EOF
gcc -std=gnu11 -Wall -Wextra -Werror -Wpedantic -Imodule -o "$TMPD/uapi" "$TMPD/uapi.c" 2> "$TMPD/uapi.log" &&
	"$TMPD/uapi"
ok $? "the UAPI header builds alone in user space (-Wall -Wextra -Wpedantic), structs without padding, ABI 1"
diag "$(cat "$TMPD/uapi.log")"

# --- a kernel tree ------------------------------------------------------------------
# KDIR, else a lab tree (LAB_KCACHE, default build/lab-kernels).
tree=""
for d in ${KDIR:-} "${LAB_KCACHE:-$BUILD/lab-kernels}"/trees/*/linux-source-*; do
	[ -f "$d/scripts/checkpatch.pl" ] && [ -s "$d/Module.symvers" ] && { tree=$d; break; }
done
notree="no configured, built kernel tree with scripts/checkpatch.pl (set KDIR, or LAB_KCACHE to the cache of make lab-kernels)"

if [ -n "$tree" ]; then
	mkdir -p "$TMPD/mod"
	cp module/Kbuild module/Makefile module/*.c module/*.h "$TMPD/mod/"
	t0=$(date +%s)
	# A lab tree is read under a shared lock of its cache: lab/kbuild.sh
	# patches it (exclusively) while it builds a variant.
	lock=$(dirname "$(dirname "$(dirname "$tree")")")/lock
	[ -e "$lock" ] || lock=/dev/null
	flock -s -w 600 "$lock" make -C "$tree" M="$TMPD/mod" W=1 modules > "$TMPD/build.log" 2>&1
	rc=$?
	ok $rc "the module builds against $tree with W=1 ($(($(date +%s) - t0)) s)"
	[ $rc -eq 0 ] || tail -n 20 "$TMPD/build.log" | sed 's/^/# /'
	! grep -q "warning:" "$TMPD/build.log"
	ok $? "no compiler warning (W=1)"
	grep "warning:" "$TMPD/build.log" | head -5 | sed 's/^/# /'
	rel=$(cat "$tree/include/config/kernel.release" 2>/dev/null)
	info=$(modinfo "$TMPD/mod/stress_mm_vmalloc.ko" 2>/dev/null)
	echo "$info" | grep -q "^license: *GPL$" &&
		echo "$info" | grep -q "^vermagic: *$rel " &&
		echo "$info" | grep -q "^parm: *file_max_mb:" &&
		echo "$info" | grep -q "^parm: *total_max_mb:"
	ok $? "modinfo: licence GPL, vermagic $rel, parameters file_max_mb and total_max_mb"
else
	skip "the module builds against a kernel tree" "$notree"
	skip "no compiler warning" "$notree"
	skip "modinfo of the built module" "$notree"
fi

# --- loading ----------------------------------------------------------------------
if [ ! -e /proc/modules ]; then
	skip "the module loads and unloads on this host" "this kernel ($(uname -r)) has no module support: /proc/modules is missing (CONFIG_MODULES=n); make lab-module loads it in lab guests"
else
	skip "the module loads and unloads on this host" "a module built here is for a lab kernel, not for this one ($(uname -r)); make lab-module loads it in lab guests"
fi

# --- the in-guest programs ---------------------------------------------------------
static_bins() {
	local p
	for p in smm-vmctl tv-summary; do
		[ -x "$BUILD/module-tools/$p" ] || return 1
		readelf -l "$BUILD/module-tools/$p" | grep -q "INTERP" && return 1
	done
	return 0
}
make --no-print-directory module-tools BUILD="$BUILD" > "$TMPD/tools.log" 2>&1 && static_bins
ok $? "smm-vmctl and tv-summary build static (no interpreter) with -Wall -Wextra -Werror"
diag "$(grep -v "^  CC" "$TMPD/tools.log")"

# Without the device, smm-vmctl says so and fails: it never passes
# silently where the module is missing.
out=$("$BUILD/module-tools/smm-vmctl" checks 2>&1)
rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "^not ok - open /dev/stress-mm-vmalloc"
ok $? "smm-vmctl checks without the device: not ok, exit $rc"

# --- the plugin's module kind without the device ---------------------------------
# A SKIP that says why, errno and reason in the line and in the record.
if [ -e /dev/stress-mm-vmalloc ]; then
	skip "the plugin's method module without the device" "/dev/stress-mm-vmalloc exists here"
elif ! command -v stress-ng > /dev/null || [ ! -f "$SO" ]; then
	skip "the plugin's method module without the device" "no stress-ng or $SO"
else
	mkdir -p "$TMPD/rec"
	(cd "$TMPD" && STRESS_MM_STATS_DIR=$TMPD/rec timeout 60 stress-ng --plugin 1 \
		--plugin-so "$SO" --plugin-method vmalloc_order_module -t 10 > "$TMPD/mod.log" 2>&1)
	rc=$?
	line=$(grep -m1 "^vmalloc-order: SKIP: " "$TMPD/mod.log")
	dump=$("$BUILD/test/stats-dump" "$TMPD"/rec/vmalloc-order.*.stats 2> /dev/null)
	[ $rc -eq 0 ] &&
		case $line in "vmalloc-order: SKIP: module: no /dev/stress-mm-vmalloc: stress_mm_vmalloc is not loaded, errno=95 (Operation not supported); "*) true ;; *) false ;; esac &&
		echo "$dump" | grep -qx "skip_errno: 95" && echo "$dump" | grep -qx "exit_status: 4" &&
		echo "$dump" | grep -qx "calls: 0"
	ok $? "without the device the plugin's method module SKIPs with EOPNOTSUPP and why (exit $rc): ${line:-no SKIP line}"
	[ -n "$line" ] || diag "$(tail -n 5 "$TMPD/mod.log")"
fi

# --- tv-summary and the table on recorded input -------------------------------------
cat > "$TMPD/dmesg" << 'EOF'
[    9.1] smm-tv 1 nr_pages=4
[    9.5] Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 200 avg: 1157 usec
[    9.5] Summary: long_busy_list_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 200 avg: 268715 usec
[    9.5] All test took worker0=3127846 cycles
[    9.6] Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 200 avg: 1407 usec
[    9.6] Summary: long_busy_list_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 200 avg: 327173 usec
[    9.6] All test took worker1=3349012 cycles
EOF
"$BUILD/module-tools/tv-summary" < "$TMPD/dmesg" > "$TMPD/tv.out"
grep -q "^test=fix_size_alloc_test workers=2 passed=2 failed=0 xfailed=0 repeat=1 loops=200 avg_usec_min=1157 avg_usec_max=1407 ns_per_loop=6410$" "$TMPD/tv.out" &&
	grep -q "^lines=6 tests=2 workers_with_cycles=2 malformed=0 dropped=0$" "$TMPD/tv.out"
ok $? "tv-summary reads a recorded test_vmalloc log (2 tests x 2 workers, 6410 ns per loop)"
diag "$(cat "$TMPD/tv.out")"

mkdir -p "$TMPD/a" "$TMPD/b"
for r in 1 2 3; do
	echo "bench rep=$r order=0 loops=1 batch=1 module_b1_ns=$((1000 + r)) module_all_ns=2000 tv_ns=$((990 + r * 10))" >> "$TMPD/a/bench.txt"
	echo "bench rep=$r order=0 loops=1 batch=1 module_b1_ns=$((1500 + r * 100)) module_all_ns=4000 tv_ns=none" >> "$TMPD/b/bench.txt"
done
lab/modtable.sh "$TMPD/a" "$TMPD/b" > "$TMPD/table" 2>&1
grep -q "^    0 *1002 \[1001, 1003\] *2000 \[2000, 2000\] *1010 \[1000, 1020\] *0.992$" "$TMPD/table" &&
	grep -q "^    0 *1700 \[1600, 1800\] *4000 \[4000, 4000\] *n/a *n/a$" "$TMPD/table" &&
	grep -q "^    0 *1.697 *2.000 *n/a$" "$TMPD/table"
ok $? "lab/modtable.sh: medians, ranges, b1/tv and the ratio between kernels"
diag "$(cat "$TMPD/table")"

done_testing
