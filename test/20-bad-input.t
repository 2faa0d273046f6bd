#!/bin/bash
# Bad parameter values: stress-ng exits non-zero while loading the plugin,
# before any worker starts, with one line naming the variable, the value and
# the valid range; nothing is left running.
. "$(dirname "$0")/lib.sh"
need_stress_ng

size_bad=("" "abc" "-4K" "0" "4095" "2G" "1025M" "99999999999999999999999"
	"16KK" "16Kx" "1e3" "010" "0x1000" " 16K" "16K " "1.5K" "+16K" "16 K")
count_bad=("" "x" "-1" "0" "4097" "99999999999999999999" "16K" "016"
	"1e2" "+5" "5 ")
choice_bad=("" "Stack" "nope" "stack " "all,stack")

mapfile -t params < <("$BUILD/test/tables" params)
total=0
for p in "${params[@]}"; do
	IFS=$'\t' read -r _ type _ _ <<<"$p"
	case $type in
	size) total=$((total + ${#size_bad[@]})) ;;
	count) total=$((total + ${#count_bad[@]})) ;;
	choice) total=$((total + ${#choice_bad[@]})) ;;
	esac
done
plan $((total + 1))

for p in "${params[@]}"; do
	IFS=$'\t' read -r env type _ range <<<"$p"
	case $type in
	size) vals=("${size_bad[@]}") ;;
	count) vals=("${count_bad[@]}") ;;
	choice) vals=("${choice_bad[@]}") ;;
	esac
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
		"vmalloc-order: $env='$v' "*"; valid range $range") ;;
		*) good=0 ;;
		esac
		[ "$good" -eq 1 ]
		ok $? "$env='$v' is rejected (exit $rc, $lines line)"
		[ "$good" -eq 1 ] || diag "$out"
	done
done

wait_no_plugin 5
ok $? "no plugin process is left"
done_testing
