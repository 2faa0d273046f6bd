#!/bin/bash
# The ranges and defaults of the stressors' size and count options are
# written once, in the stressor files: scripts/stressor-opts turns their
# opts[] rows and MIN_/MAX_/DEFAULT_ macros into build/stressor-opts.h,
# which the front end's parameter table uses. Here: the header of this
# tree is what the script makes of the stressor files; the table stress-mm
# prints (test/helpers/tables) has those very numbers; a range changed in
# a copy of a stressor file changes the header; a row or a macro the
# script cannot read stops it with the file named and exit 1.
. "$(dirname "$0")/lib.sh"
GEN=$TOP/scripts/stressor-opts
SRCS=$("$TOP/scripts/stressor-files" '' 'stress-*.c')

plan 5

(cd "$TOP" && "$GEN" $SRCS) > "$TMPD/opts.h" 2> "$TMPD/gen.err"
cmp -s "$TMPD/opts.h" "$BUILD/stressor-opts.h"
ok $? "build/stressor-opts.h is what scripts/stressor-opts makes of $(echo $SRCS)"
[ -s "$TMPD/gen.err" ] && diag "$(cat "$TMPD/gen.err")"

# every size and count parameter of the table has the header's range and
# default (tables params: variable, type, default, range, min, max, option)
same=0 rows=0
while IFS=$'\t' read -r _ type def _ min max name; do
	case $type in size | count) ;; *) continue ;; esac
	sym=$(echo "$name" | tr a-z- A-Z_)
	hmin=$(sed -n "s/^#define SMM_OPT_${sym}_MIN \([0-9]*\)ULL$/\1/p" "$TMPD/opts.h")
	hmax=$(sed -n "s/^#define SMM_OPT_${sym}_MAX \([0-9]*\)ULL$/\1/p" "$TMPD/opts.h")
	hdef=$(sed -n "s/^#define SMM_OPT_${sym}_DEF \"\(.*\)\"$/\1/p" "$TMPD/opts.h")
	rows=$((rows + 1))
	[ "$min" = "$hmin" ] && [ "$max" = "$hmax" ] && [ "$def" = "$hdef" ] ||
		{ same=1; diag "$name: table $min..$max default $def, stressor file $hmin..$hmax default $hdef"; }
done < <("$BUILD/test/tables" params)
[ $rows -gt 0 ] || same=1
ok $same "the parameter table's $rows sizes and counts have the stressor files' ranges and defaults"

# a range changed in a copy of the stressor file is the header's
mkdir -p "$TMPD/copy"
sed 's/^#define MAX_VMALLOC_ORDER_BATCH\([[:space:]]*\)(4096)/#define MAX_VMALLOC_ORDER_BATCH\1(2048)/' \
	"$TOP/stress-vmalloc-order.c" > "$TMPD/copy/stress-vmalloc-order.c"
"$GEN" "$TMPD/copy/stress-vmalloc-order.c" 2>&1 | grep -qx '#define SMM_OPT_VMALLOC_ORDER_BATCH_MAX 2048ULL'
ok $? "a MAX_ macro changed in the stressor file changes the range (4096 to 2048)"

# stops WHAT SED-SCRIPT MESSAGE: the script on a copy edited by SED-SCRIPT
# exits 1 with MESSAGE (after the file's name), and prints no part of a
# header (make would keep it as the .tmp)
stops() {
	sed "$2" "$TOP/stress-vmalloc-order.c" > "$TMPD/copy/stress-vmalloc-order.c"
	"$GEN" "$TMPD/copy/stress-vmalloc-order.c" > "$TMPD/bad.out" 2> "$TMPD/bad.err"
	rc=$?
	[ $rc -eq 1 ] && grep -qF "stress-vmalloc-order.c: $3" "$TMPD/bad.err" && [ ! -s "$TMPD/bad.out" ]
	ok $? "$1 stops it, printing nothing: $(cat "$TMPD/bad.err")"
}
stops "a macro that is not a number" \
	's/^#define MIN_VMALLOC_ORDER_BYTES\([[:space:]]*\).*/#define MIN_VMALLOC_ORDER_BYTES\1(stress_page_size())/' \
	"MIN_VMALLOC_ORDER_BYTES is (stress_page_size()): not a number"
stops "a row whose range is not MIN_ and MAX_ macros" \
	's/MIN_VMALLOC_ORDER_BATCH, MAX_VMALLOC_ORDER_BATCH/1, MAX_VMALLOC_ORDER_BATCH/' \
	"opts[] row vmalloc-order-batch: its range is not MIN_ and MAX_ macros"
