#!/bin/bash
# Bad parameter values (every entry of every parameter table, both
# stressors and the common STRESS_MM_STATS_DIR): stress-ng exits non-zero
# while loading the plugin,
# before any worker starts, with one line naming the variable, the value and
# the valid range; nothing is left running. A method only stress-mm's
# front end runs (test-vmalloc) is refused the same way, naming the option
# that runs it and the methods the plugin takes.
. "$(dirname "$0")/lib.sh"
need_stress_ng

# Grammar errors and overflow; out-of-range values (min - 1, max + 1) come
# from each parameter's own range.
size_bad=("" "abc" "-4K" "99999999999999999999999" "16KK" "16Kx" "1e3"
	"010" "0x1000" " 16K" "16K " "1.5K" "+16K" "16 K" "2T")
count_bad=("" "x" "-1" "99999999999999999999" "16K" "016" "1e2" "+5" "5 ")
choice_bad=("" "Stack" "nope" "stack " "all,stack")
dir_bad=("" "relative/dir" "/nonexistent-smm" "/etc/hostname")

mapfile -t params < <("$BUILD/test/tables" params)
# out_of_range MIN MAX: the values just outside the range
out_of_range() {
	[ "$1" -gt 0 ] && echo $(($1 - 1))
	echo $(($2 + 1))
}
# same_words A B: the |-lists A and B hold the same words, each as often.
# The plugin lists a choice's words from the stressor's name function
# (stress-*.c, and module once the plugin adds it), the table from the
# same rows at build time (stressor-opts.h) and its own words: they must
# agree as sets.
same_words() {
	[ "$(tr '|' '\n' <<<"$1" | sort)" = "$(tr '|' '\n' <<<"$2" | sort)" ]
}
total=0
for p in "${params[@]}"; do
	IFS=$'\t' read -r _ type _ _ min max _ <<<"$p"
	case $type in
	size | count)
		n=$(out_of_range "$min" "$max" | wc -l)
		[ "$type" = size ] && total=$((total + ${#size_bad[@]} + n))
		[ "$type" = count ] && total=$((total + ${#count_bad[@]} + n))
		;;
	choice) total=$((total + ${#choice_bad[@]})) ;;
	dir) total=$((total + ${#dir_bad[@]})) ;;
	esac
done
plan $((total + 2))

for p in "${params[@]}"; do
	IFS=$'\t' read -r env type _ range min max _ <<<"$p"
	case $type in
	size) vals=("${size_bad[@]}") ;;
	count) vals=("${count_bad[@]}") ;;
	choice) vals=("${choice_bad[@]}") ;;
	dir) vals=("${dir_bad[@]}") ;;
	esac
	case $type in
	size | count) mapfile -t -O "${#vals[@]}" vals < <(out_of_range "$min" "$max") ;;
	esac
	# the stressors list only the words they run: not the front end's
	range=${range%|test-vmalloc}
	for v in "${vals[@]}"; do
		out=$(cd "$TMPD" && env "$env=$v" timeout 30 stress-ng \
			--plugin 1 --plugin-so "$SO" \
			--plugin-method vmalloc_order_stack -t 2 --metrics 2>&1)
		rc=$?
		lines=$(printf '%s\n' "$out" | grep -c .)
		good=1
		[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || good=0
		[ "$lines" -eq 1 ] || good=0
		case $out in
		"vmalloc-order: $env='$v' "*"; valid range "*) ;;
		"shm-pcp: $env='$v' "*"; valid range "*) ;;
		"stress-mm: $env='$v' "*"; valid range "*) ;;
		*) good=0 ;;
		esac
		said=${out##*; valid range }
		if [ "$type" = choice ]; then
			same_words "$said" "$range" || good=0
		else
			[ "$said" = "$range" ] || good=0
		fi
		[ "$good" -eq 1 ]
		ok $? "$env='$v' is rejected (exit $rc, $lines line)"
		[ "$good" -eq 1 ] || diag "$out"
	done
done

methods=$("$BUILD/test/tables" params | awk -F'\t' '$1 == "STRESS_MM_VMALLOC_ORDER_METHOD" { print $4 }')
out=$(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_METHOD=test-vmalloc timeout 30 stress-ng \
	--plugin 1 --plugin-so "$SO" --plugin-method vmalloc_order -t 2 2>&1)
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -eq 1 ] &&
	[ "$out" = "vmalloc-order: STRESS_MM_VMALLOC_ORDER_METHOD='test-vmalloc' is run by stress-mm's front end only (--vmalloc-order-method test-vmalloc); valid here: ${methods%|test-vmalloc}" ]
ok $? "the front end's own method is refused by the plugin's constructor (exit $rc): $out"

wait_no_plugin 5
ok $? "no plugin process is left"
done_testing
