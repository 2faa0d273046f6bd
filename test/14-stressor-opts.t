#!/bin/bash
# The ranges and defaults of the stressors' size and count options, and
# the words of their methods, are written once, in the stressor files:
# scripts/stressor-opts turns their opts[] rows, MIN_/MAX_/DEFAULT_ macros
# and the tables their name functions return from into
# build/stressor-opts.h, which the front end's parameter table uses.
# Here: the header of this tree is what the script makes of the stressor
# files; the table stress-mm prints (test/helpers/tables) has those very
# numbers and words; a range or a word changed in a copy of a stressor
# file changes the header; a row, a macro or a name function the script
# cannot read stops it with the file named and exit 1.
. "$(dirname "$0")/lib.sh"
GEN=$TOP/scripts/stressor-opts
SRCS=$("$TOP/scripts/stressor-files" '' 'stress-*.c')

plan 10

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

# every choice of the table begins with the header's words, in their
# order: what stress-mm adds (module, test-vmalloc) comes after them
same=0 rows=0
while IFS=$'\t' read -r _ type _ range _ _ name; do
	[ "$type" = choice ] || continue
	sym=$(echo "$name" | tr a-z- A-Z_)
	words=$(sed -n "s/^#define SMM_OPT_${sym}_WORDS //p" "$TMPD/opts.h" | sed 's/"//g; s/, /|/g')
	rows=$((rows + 1))
	case "$range|" in "$words|"*) [ -n "$words" ] ;; *) false ;; esac ||
		{ same=1; diag "$name: table $range, stressor file $words"; }
done < <("$BUILD/test/tables" params)
[ $rows -eq 5 ] || same=1
ok $same "the parameter table's $rows choices begin with the stressor files' words, in order"

# every parameter's and stressor's line of stress-mm --help begins with
# the stressor file's help[] text for it (the table adds only what that
# line has no room for)
"$BUILD/stress-mm" --help > "$TMPD/help.txt" 2>&1
same=0 rows=0
while IFS=$'\t' read -r _ _ _ _ _ _ name; do
	sym=$(echo "$name" | tr a-z- A-Z_)
	text=$(sed -n "s/^#define SMM_OPT_${sym}_HELP \"\(.*\)\"$/\1/p" "$TMPD/opts.h")
	[ -n "$text" ] || continue
	rows=$((rows + 1))
	line=$(grep -A1 -- "^  --$name [BNM]\$" "$TMPD/help.txt" | tail -n 1)
	case $line in "      $text"*) ;; *) same=1; diag "--$name: help '$line', stressor file '$text'" ;; esac
done < <("$BUILD/test/tables" params; printf 'x\tx\tx\tx\tx\tx\t%s\n' vmalloc-order shm-pcp)
[ $rows -eq 13 ] || { same=1; diag "$rows lines compared, 13 expected"; }
ok $same "stress-mm --help gives the $rows parameters and stressors the stressor files' help[] text"

# a range changed in a copy of the stressor file is the header's
mkdir -p "$TMPD/copy"
sed 's/^#define MAX_VMALLOC_ORDER_BATCH\([[:space:]]*\)(4096)/#define MAX_VMALLOC_ORDER_BATCH\1(2048)/' \
	"$TOP/stress-vmalloc-order.c" > "$TMPD/copy/stress-vmalloc-order.c"
"$GEN" "$TMPD/copy/stress-vmalloc-order.c" 2>&1 | grep -qx '#define SMM_OPT_VMALLOC_ORDER_BATCH_MAX 2048ULL'
ok $? "a MAX_ macro changed in the stressor file changes the range (4096 to 2048)"

# a row added to a copy of a method table is a word of the header's
sed 's/^\t{ "fdtable",\tstress_vmalloc_order_fdtable },/&\n\t{ "extra",\tstress_vmalloc_order_all },/' \
	"$TOP/stress-vmalloc-order.c" > "$TMPD/copy/stress-vmalloc-order.c"
"$GEN" "$TMPD/copy/stress-vmalloc-order.c" 2>&1 |
	grep -qx '#define SMM_OPT_VMALLOC_ORDER_METHOD_WORDS "all", "stack", "io-uring", "bpf", "ldt", "pty", "fdtable", "extra"'
ok $? "a row added to the method table is the header's eighth word"

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
stops "a name function without a table" \
	's/SIZEOF_ARRAY(stress_vmalloc_order_io_uring_names)/3/' \
	"opts[] row vmalloc-order-io-uring: no table found in its name function stress_vmalloc_order_io_uring_name()"
stops "a table without a word" \
	's/^\t"both", "buffers", "rings",$/\tNULL,/' \
	"opts[] row vmalloc-order-io-uring: table stress_vmalloc_order_io_uring_names of stress_vmalloc_order_io_uring_name() holds no word"
