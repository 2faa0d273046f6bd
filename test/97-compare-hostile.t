#!/bin/bash
# stress-mm compare under AddressSanitizer and UBSan (build/asan/, no
# recovery, leaks checked) over hostile input: every report of
# test/compare-corpus/hostile/ (named EXIT-what: the exit status against
# test/compare-corpus/base.yaml) in both orders, then reports made here:
# 101 and 10,000 runs a side, 10,000 runs past the 8 MiB bound, a file
# over 8 MiB, 3.5M nodes under it, an endless stream, 17 reports on a side;
# and the libFuzzer corpora of test/fuzz/ replayed through both targets.
# Each must give its exit status, one error line when it refuses (exit
# 2), and no sanitizer finding.
. "$(dirname "$0")/lib.sh"
ASAN=$BUILD/asan
C=$TOP/test/compare-corpus
for b in stress-mm replay-report replay-opts; do
	[ -x "$ASAN/$b" ] || skip_all "$ASAN/$b not built (make)"
done
hostile=$(cd "$C/hostile" && ls -- *.yaml)
plan $(($(echo "$hostile" | wc -l) + 12))
export ASAN_OPTIONS=exitcode=99:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=98:print_stacktrace=1
SMM=$ASAN/stress-mm

# run WANT ARGS...: compare ARGS; 0 when it exits WANT (a list: "0 1"),
# says nothing of a sanitizer, and refusing, says one line.
run() {
	local want=$1 rc lines
	shift
	"$SMM" compare "$@" > "$TMPD/out" 2> "$TMPD/err"
	rc=$?
	echo "$rc" > "$TMPD/rc"
	if grep -q "Sanitizer\|runtime error" "$TMPD/err"; then
		diag "$(head -30 "$TMPD/err")"
		return 1
	fi
	case " $want " in *" $rc "*) ;; *) diag "exit $rc, wanted $want: $(tail -2 "$TMPD/err")"; return 1 ;; esac
	[ "$rc" -ne 2 ] && return 0
	lines=$(grep -vc "^stress-mm compare: differs" "$TMPD/err")
	[ "$lines" -eq 1 ] && grep -v "^stress-mm compare: differs" "$TMPD/err" |
		grep -q "^stress-mm compare: ." || { diag "$(cat "$TMPD/err")"; return 1; }
}

cd "$C" || exit 1
for f in $hostile; do
	want=${f%%-*}
	back=$want
	[ "$want" = 2 ] || back="0 1"
	run "$want" base.yaml "hostile/$f" && run "$back" "hostile/$f" base.yaml
	ok $? "$f: exit $want against base.yaml, $back the other way, no finding: $(grep -v differs "$TMPD/err" | head -1 | cut -c1-110)"
done

cd "$TMPD" || exit 1
HB=shm-pcp.bogo-ops-per-second-real-time
# runs N FIRST [lean]: base.yaml with N runs (test/compare-corpus/many-runs)
runs() { "$C/many-runs" "$C/base.yaml" "$1" "$2" 1 "${3:-}"; }
runs 101 100 > r101a.yaml
{ runs 101 101; echo "# b"; } > r101b.yaml
run "0 1" r101a.yaml r101b.yaml && head -1 out | grep -q "(.*, 101 runs) vs .*(.*, 101 runs)"
ok $? "101 runs a side (past the old 100-entry array): every run counted, no finding"
runs 10000 100 lean > r10ka.yaml
runs 10000 50 lean > r10kb.yaml
start=$(date +%s)
run 1 r10ka.yaml r10kb.yaml && grep -q "^$HB .*(10000) .*(10000) .*regression$" out
ok $? "10,000 runs a side ($(wc -c < r10ka.yaml) bytes each): a 50% drop is a regression, $(($(date +%s) - start)) s, no finding"
runs 10000 100 > r10kfull.yaml
run 2 r10ka.yaml r10kfull.yaml && grep -q "more than the 8388608 bytes a report may have" err
ok $? "10,000 full runs ($(wc -c < r10kfull.yaml) bytes) are refused at the byte bound"
{ cat "$C/base.yaml"; head -c $((8 << 20)) /dev/zero | tr '\0' '#'; } > big.yaml
run 2 "$C/base.yaml" big.yaml && grep -q "more than the 8388608 bytes" err
ok $? "a file of more than 8 MiB is refused"
{ printf 'stress-mm: ['; head -c 3500000 /dev/zero | tr '\0' 'a' | sed 's/a/a,/g'; printf 'a]\n'; } > nodes.yaml
run 2 "$C/base.yaml" nodes.yaml && grep -q "more than 2097152 YAML nodes" err
ok $? "3.5M nodes in $(($(wc -c < nodes.yaml) >> 20)) MiB are refused before a tree is built"
run 2 "$C/base.yaml" <(yes "a: b")
ok $? "an endless stream stops at the byte bound: $(cat err)"
list=
for i in $(seq 17); do
	{ cat "$C/base.yaml"; echo "# $i"; } > "s$i.yaml"
	list=$list${list:+,}s$i.yaml
done
run 2 "$list" "$C/hostile/0-comment-copy.yaml" && grep -q "more than 16 reports on one side" err
ok $? "17 reports on a side are refused, naming the limit"
run 2 "$C/base.yaml,$C/base.yaml" "$C/hostile/0-comment-copy.yaml"
ok $? "the same report twice on a side is refused"
run 2 --junit "$TMPD/j.xml" --threshold x "$C/base.yaml" "$C/base.yaml" &&
	grep -q "comparable" j.xml
ok $? "a usage error writes --junit, no finding"
run 2 --junit /nonexistent/dir/j.xml "$C/base.yaml" "$C/hostile/0-comment-copy.yaml"
ok $? "an unwritable --junit is an error, no finding: $(cat err)"

out=$("$ASAN/replay-report" "$TOP/test/fuzz/corpus-report" "$C" "$C/hostile" 2>&1)
rc=$?
[ $rc -eq 0 ] && ! printf '%s\n' "$out" | grep -q "Sanitizer\|runtime error"
ok $? "the report reader's fuzz corpus and the hostile reports replay clean ($(printf '%s\n' "$out" | tail -1))"
[ $rc -eq 0 ] || diag "$(printf '%s\n' "$out" | head -30)"
out=$("$ASAN/replay-opts" "$TOP/test/fuzz/corpus-opts" 2>&1)
rc=$?
[ $rc -eq 0 ] && ! printf '%s\n' "$out" | grep -q "Sanitizer\|runtime error"
ok $? "the option parser's fuzz corpus replays clean ($(printf '%s\n' "$out" | tail -1))"
[ $rc -eq 0 ] || diag "$(printf '%s\n' "$out" | head -30)"
done_testing
