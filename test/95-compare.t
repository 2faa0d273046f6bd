#!/bin/bash
# stress-mm --repeat and stress-mm compare, from real runs' YAML, edited:
# a file against itself, a 20% drop (regression), a rise (improvement),
# overlapping ranges (noisy), a metric missing on one side, mismatched
# parameters with and without --allow-param-diff, malformed YAML, an empty
# file, a file stress-ng wrote itself, single runs (unrepeated), --strict,
# --junit and --format simple.
. "$(dirname "$0")/lib.sh"
need_stress_ng
SMM=$BUILD/stress-mm
[ -x "$SMM" ] || skip_all "$SMM not built"
plan 26

KEY=shm-pcp.bogo-ops-per-second-real-time
cd "$TMPD" || exit 1
"$SMM" --shm-pcp 1 --shm-pcp-bytes 1M --shm-pcp-churn none -t 1 --repeat 3 \
	--counters none --vmallocinfo-interval 0 --yaml real.yaml > run.log 2>&1
ok $? "--repeat 3 runs and exits 0"
[ "$(grep -c '^  - exit-status:' real.yaml)" -eq 3 ] &&
	grep -q "^  repeat: 3" real.yaml && grep -q "half-range-pct:" real.yaml
ok $? "the YAML keeps 3 runs and a summary with the half-range"
[ "$(grep -c 'stress-mm: run [123] of 3' run.log)" -eq 3 ]
ok $? "progress: run i of R"

# set_runs FILE KEY V1 V2 V3: the KEY of runs 1..3 get these values
set_runs() {
	awk -v key="$2" -v vals="$3 $4 $5" '
		BEGIN { split(vals, v, " ") }
		$0 ~ "^      " key ":" { n++; print "      " key ": " v[n]; next }
		{ print }' "$1"
}
set_runs real.yaml "$KEY" 1000 1010 990 > base.yaml
set_runs real.yaml "$KEY" 800 808 792 > drop.yaml
set_runs real.yaml "$KEY" 1200 1212 1188 > rise.yaml
set_runs real.yaml "$KEY" 700 800 995 > overlap.yaml
grep -v "^      $KEY:" base.yaml > missing.yaml
sed 's/^        shm-pcp-bytes: 1M$/        shm-pcp-bytes: 2M/' base.yaml > param.yaml
printf 'stress-mm: [runs\n' > malformed.yaml
: > empty.yaml
stress-ng --cpu 1 -t 1 --metrics --yaml ng.yaml > /dev/null 2>&1

cmp_run() { # expected-exit description args...
	local want=$1 desc=$2
	shift 2
	"$SMM" compare "$@" > out 2> err
	rc=$?
	[ $rc -eq "$want" ]
	ok $? "$desc (exit $rc)"
	[ $rc -eq "$want" ] || diag "$(cat out err)"
}
verdict() { grep "^$KEY " out | sed 's/.*%  //'; }

cmp_run 0 "a file compared with itself passes" real.yaml real.yaml
! grep -v "^#" out | grep -q "regression\|improvement\|noisy"
ok $? "  every verdict is no change"
cmp_run 1 "a 20% drop in bogo-ops/s is a regression" base.yaml drop.yaml
[ "$(verdict)" = regression ] && grep -q "\-20.0%" out
ok $? "  verdict regression at -20.0%"
cmp_run 0 "a 20% rise is an improvement, not a failure" base.yaml rise.yaml
[ "$(verdict)" = improvement ]
ok $? "  verdict improvement"
cmp_run 0 "beyond the threshold with overlapping ranges is noisy" base.yaml overlap.yaml
[ "$(verdict)" = noisy ]
ok $? "  verdict noisy"
cmp_run 1 "--strict makes noisy fail" --strict base.yaml overlap.yaml
cmp_run 2 "a figure missing on one side is incomparable" base.yaml missing.yaml
grep -q "^$KEY .*missing" out
ok $? "  listed as missing"
cmp_run 2 "a --metric missing on one side is incomparable" --metric "$KEY" base.yaml missing.yaml
cmp_run 2 "mismatched parameters are incomparable" base.yaml param.yaml
grep -q "parameter differs: .*shm-pcp-bytes=2M" err
ok $? "  the difference is listed"
cmp_run 0 "--allow-param-diff compares two configurations" --allow-param-diff base.yaml param.yaml
cmp_run 2 "malformed YAML" base.yaml malformed.yaml
cmp_run 2 "an empty file" base.yaml empty.yaml
cmp_run 2 "a file written by stress-ng itself" ng.yaml base.yaml
awk '/^  - exit-status: 0/ && !done { sub(/0$/, "2"); done = 1 } { print }' base.yaml > failed.yaml
cmp_run 2 "a set with a failed run is not comparable" base.yaml failed.yaml
"$SMM" compare --junit stale.xml base.yaml param.yaml > /dev/null 2>&1
grep -q '<failure message="the parameters differ' stale.xml
ok $? "--junit is written, failing, when the comparison cannot be made"

"$SMM" --shm-pcp 1 --shm-pcp-bytes 1M --shm-pcp-churn none -t 1 \
	--counters none --vmallocinfo-interval 0 --yaml single.yaml > /dev/null 2>&1
cmp_run 0 "single runs: unrepeated, no verdict" single.yaml single.yaml
cmp_run 1 "single runs with --strict fail" --strict single.yaml single.yaml

"$SMM" compare --junit j.xml --format simple base.yaml drop.yaml > out
[ "$(grep -c '<testcase' j.xml)" -ge 3 ] && [ "$(grep -c '<failure' j.xml)" -eq 1 ] &&
	[ "$(awk 'NF != 5' out | wc -l)" -eq 0 ] && grep -q "^$KEY 1000 800 -20.00 regression$" out
ok $? "--junit writes one failure; --format simple prints 5 fields a line"
done_testing
