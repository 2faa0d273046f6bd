#!/bin/bash
# stress-mm --repeat (a run cut short by SIGINT is kept but left out of
# the summary) and stress-mm compare, from real runs' YAML, edited:
# a file against itself; a 20% drop and rise of a higher-is-better figure
# and of a lower-is-better one; a rise from a base of 0 (and one below the
# floor); one outlier among 7 runs; noise (inconclusive, --strict); too few
# runs for 95% and enough at 80%; a figure missing on one side or absent in
# one run; parameters and conditions that differ (-t, stress-ng's
# arguments, workers resolved the same way); numbers that are not finite
# decimals, quoted or duplicated; malformed, empty and foreign files;
# --junit and --format simple. Beyond 7 runs: 120 runs a side pooled from
# two reports each, 80 identical runs a side, 70 figures (a drop in the
# 70th), tags and "7.0" for an integer, reports read from a process
# substitution, an endless stream stopped at the byte bound, and --junit
# after a usage error, wherever --junit stands, and while compare waits;
# a --junit that cannot be written, said before comparing.
# The real runs are the plugin's (--integration plugin), so that the
# reports edited into the other integration differ from them whether or
# not the native stress-ng has been built by then (make check builds it
# meanwhile).
. "$(dirname "$0")/lib.sh"
need_stress_ng
SMM=$BUILD/stress-mm
[ -x "$SMM" ] || skip_all "$SMM not built"
plan 98

HB=shm-pcp.bogo-ops-per-second-real-time
LB=shm-pcp.movable-refills-per-1000-faults
cd "$TMPD" || exit 1
"$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1M --shm-pcp-mode none -t 1 --repeat 7 \
	--counters none --vmallocinfo-interval 0 --yaml real.yaml > run.log 2>&1
ok $? "--repeat 7 runs and exits 0"
[ "$(grep -c '^  - exit-status:' real.yaml)" -eq 7 ] &&
	grep -q "^  repeat: 7" real.yaml && grep -q "half-range-pct:" real.yaml
ok $? "the YAML keeps 7 runs and a summary with the half-range"
[ "$(grep -c 'stress-mm: run [1-7] of 7' run.log)" -eq 7 ]
ok $? "progress: run i of R"
grep -q "^  scope: run 7 of 7 (the last)" real.yaml
ok $? "the top-level figures say which run they are"
# A run cut short by SIGINT keeps its figures under runs, never in the
# medians: stopped in run 2 of 3, the summary is run 1's alone.
"$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1M --shm-pcp-mode none -t 3 --repeat 3 \
	--counters none --vmallocinfo-interval 0 --yaml cut.yaml > cut.log 2>&1 &
pid=$!
for _ in $(seq 200); do
	grep -q "stress-mm: run 2 of 3" cut.log && break
	sleep 0.1
done
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
n=$(awk -v f="    $HB:" '$0 == "  summary:" { s = 1; next } s && $0 == f { g = 1; next }
	g && /^      runs:/ { print $2; exit }' cut.yaml)
[ $rc -eq 130 ] && [ "$(grep -c '^  - exit-status:' cut.yaml)" -eq 2 ] &&
	grep -q "^  summary-leaves-out-interrupted: 1$" cut.yaml && [ "$n" = 1 ]
ok $? "SIGINT in run 2 of 3: exit $rc, 2 runs kept, the summary over ${n:-no} run(s), 1 left out"

# set_runs FILE KEY V1..V7: KEY in every run's metrics gets these values
set_runs() {
	local f=$1 key=$2
	shift 2
	awk -v key="$key" -v vals="$*" '
		BEGIN { split(vals, v, " ") }
		/^  - exit-status:/ { n++ }
		$0 == "    metrics:" { print; print "      " key ": " v[n]; next }
		$0 ~ "^      " key ":" { next }
		{ print }' "$f"
}
set_runs real.yaml $HB 1000 1010 990 1005 995 1002 998 > base.yaml
set_runs real.yaml $HB 800 808 792 804 796 801 799 > drop.yaml
set_runs real.yaml $HB 1200 1212 1188 1206 1194 1203 1197 > rise.yaml
set_runs real.yaml $HB 800 808 1200 804 796 801 799 > outlier.yaml
set_runs real.yaml $HB 700 1300 800 1250 650 1200 750 > noisy.yaml
set_runs base.yaml $LB 100 101 99 100 102 98 100 > lbase.yaml
set_runs base.yaml $LB 120 121 119 120 122 118 120 > lrise.yaml
set_runs base.yaml $LB 0 0 0 0 0 0 0 > zero.yaml
set_runs base.yaml $LB 151 193 170 160 180 175 165 > fromzero.yaml
set_runs base.yaml $LB 1510 1930 1700 1600 1800 1750 1650 > fromzero10.yaml
set_runs base.yaml $LB 1 2 1 2 1 2 1 > tiny.yaml
grep -v "^      $HB:" base.yaml > missing.yaml
sed 's/^        shm-pcp-bytes: 1M$/        shm-pcp-bytes: 2M/' base.yaml > param.yaml
awk -v k="      $HB:" 'index($0, k) == 1 && !done { done = 1; next } { print }' base.yaml > absent1.yaml

cmp_run() { # expected-exit description args...
	local want=$1 desc=$2
	shift 2
	"$SMM" compare "$@" > out 2> err
	rc=$?
	[ $rc -eq "$want" ]
	ok $? "$desc (exit $rc)"
	[ $rc -eq "$want" ] || diag "$(cat out err)"
}
verdict() { grep "^${1:-$HB} " out | sed 's/.*  //'; }

cmp_run 2 "the same report on both sides is refused (its runs against themselves)" real.yaml real.yaml
grep -q "is on both sides" err
ok $? "  said so"
# the same runs under another name (a comment added): same values, passes
{ cat real.yaml; echo "# a copy"; } > real2.yaml
cmp_run 0 "a report against a copy of itself passes" real.yaml real2.yaml
! grep -v "^#" out | grep -q "regression\|improvement\|inconclusive"
ok $? "  every verdict is no change"
cmp_run 1 "a 20% drop in bogo-ops/s is a regression" base.yaml drop.yaml
[ "$(verdict)" = regression ] && grep "^$HB " out | grep -q -- "-20.0%.*\[-2[0-9.]*%, -1[0-9.]*%\]"
ok $? "  verdict regression at -20.0% with an interval below 0"
cmp_run 0 "a 20% rise is an improvement, not a failure" base.yaml rise.yaml
[ "$(verdict)" = improvement ]
ok $? "  verdict improvement"
cmp_run 1 "one outlier among 7 runs does not hide a 20% drop" base.yaml outlier.yaml
cmp_run 0 "beyond the threshold in noise is inconclusive" base.yaml noisy.yaml
[ "$(verdict)" = inconclusive ]
ok $? "  verdict inconclusive"
cmp_run 1 "--strict makes inconclusive fail" --strict base.yaml noisy.yaml
cmp_run 1 "a lower-is-better figure rising 20% is a regression" lbase.yaml lrise.yaml
[ "$(verdict $LB)" = regression ]
ok $? "  verdict regression for $LB"
cmp_run 0 "a lower-is-better figure falling 20% is an improvement" lrise.yaml lbase.yaml
cmp_run 1 "a rise from a base of 0 is a regression" zero.yaml fromzero.yaml
[ "$(verdict $LB)" = regression ]
ok $? "  verdict regression from 0"
cmp_run 1 "a 10x larger rise from 0 is a regression too" zero.yaml fromzero10.yaml
"$SMM" compare --strict --junit zj.xml zero.yaml fromzero.yaml > /dev/null 2>&1
grep -q "<testcase classname=\"stress-mm\" name=\"$LB\"><failure" zj.xml
ok $? "  --strict --junit writes the failure"
cmp_run 0 "a rise from 0 below the figure's floor is no change" zero.yaml tiny.yaml
[ "$(verdict $LB)" = "no change" ]
ok $? "  verdict no change"
{ cat zero.yaml; echo "# a copy"; } > zero2.yaml
cmp_run 0 "0 against 0 is no change" zero.yaml zero2.yaml

"$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1M --shm-pcp-mode none -t 1 --repeat 3 \
	--counters none --vmallocinfo-interval 0 --yaml three.yaml > /dev/null 2>&1
{ cat three.yaml; echo "# a copy"; } > three2.yaml
cmp_run 2 "3 against 3 runs are too few for 95%" --junit few.xml three.yaml three2.yaml
grep -q "too few runs" out && grep -q "needs 4 runs per side" err
ok $? "  said so: the verdict and what would do"
grep -q 'message="too few runs: [+-][0-9.]*% (no interval)"' few.xml && ! grep -q '\[' few.xml
ok $? "  --junit gives the change and no interval, since none exists"
cmp_run 2 "  --format simple too" --format simple three.yaml three2.yaml
awk 'NF != 8 || $5 != "-" || $6 != "-" || $8 != "too-few-runs" { bad = 1 } END { exit bad || !NR }' out
ok $? "  --format simple prints - for the interval it does not have ($(head -1 out))"
cmp_run 0 "3 against 3 runs decide at --confidence 80" --confidence 80 three.yaml three2.yaml

{ cat base.yaml; echo "# boot 2"; } > base2.yaml
{ cat drop.yaml; echo "# boot 2"; } > drop2.yaml
cmp_run 1 "reports pooled on one side (runs of several boots)" base.yaml,base2.yaml drop.yaml,drop2.yaml
grep -q "(14)" out
ok $? "  the runs of both reports count (14 a side)"
cmp_run 2 "reports of one side that differ are refused" base.yaml,param.yaml drop.yaml
cp base.yaml basecopy.yaml
cmp_run 2 "a report pooled with itself or its copy is refused (runs counted twice)" base.yaml,basecopy.yaml drop.yaml
cmp_run 2 "an empty name in a side's list is refused" base.yaml, drop.yaml
cmp_run 2 "a figure missing on one side is incomparable" base.yaml missing.yaml
cmp_run 2 "a figure absent in one run is incomparable" base.yaml absent1.yaml
cmp_run 2 "a --metric missing on one side is incomparable" --metric "$HB" base.yaml missing.yaml
cmp_run 2 "mismatched parameters are incomparable" base.yaml param.yaml
grep -q "differs: .*shm-pcp-bytes=2M" err
ok $? "  the difference is listed"
sed 's/^\( *\)shm-pcp-mode:/\1shm-pcp-churn:/' base.yaml > oldname.yaml
grep -q "shm-pcp-churn: none" oldname.yaml &&
	sed 's/^\( *\)shm-pcp-mode: none/\1shm-pcp-mode: spin/' base.yaml > spin.yaml
ok $? "  a report that names the churn shm-pcp-churn, as before its rename"
cmp_run 1 "  it compares as shm-pcp-mode, the name it has now" oldname.yaml drop.yaml
cmp_run 2 "  and still differs from a report of another mode" oldname.yaml spin.yaml
cmp_run 2 "a --junit that cannot be written is said, comparable or not" --junit /nonexistent/x.xml base.yaml param.yaml
grep -qx "stress-mm compare: --junit /nonexistent/x.xml: No such file or directory" err
ok $? "  before any comparing: $(head -1 err)"
cmp_run 0 "--allow-param-diff compares two configurations" --allow-param-diff --junit pd.xml base.yaml param.yaml
grep -qx '    <property name="differs" value="base shm-pcp.shm-pcp-bytes=1M"/>' pd.xml &&
	grep -qx '    <property name="differs" value="candidate shm-pcp.shm-pcp-bytes=2M"/>' pd.xml &&
	xmllint --noout pd.xml 2> /dev/null
ok $? "  and its JUnit file names the differences ($(grep -c '<property' pd.xml) properties)"
sed 's/^    timeout-s: 1$/    timeout-s: 2/' base.yaml > t2.yaml
cmp_run 2 "a different -t is incomparable" base.yaml t2.yaml
grep -q "differs: candidate conditions.timeout-s=2" err
ok $? "  the timeout difference is listed"
sed 's/^    stress-ng-args: .*$/    stress-ng-args: --cpu 1/' base.yaml > args.yaml
cmp_run 2 "different arguments after -- are incomparable" base.yaml args.yaml
sed 's/^      workers: 1$/      workers: 0/' base.yaml > w0.yaml
grep -q '^      workers: 0$' w0.yaml &&
	cmp_run 0 "workers 0 and 1 resolved to the same count compare" base.yaml w0.yaml
sed 's/^  kernel-release: .*$/  kernel-release: 9.9.9-label/' base.yaml > label.yaml
cmp_run 0 "a top-level kernel-release edited alone changes nothing compared" base.yaml label.yaml
! grep -q "9.9.9-label" out
ok $? "  and the kernel named in the header is the compared condition's: $(head -1 out | grep -o '([^,]*, 7 runs)' | head -1)"
# What may differ between the sides and not within one: the kernel and
# the integration. Each row: the report, what it changes, the entry, why.
sed 's/^    kernel-release: .*$/    kernel-release: 9.9.9-other/' base.yaml > kernel.yaml
sed 's/^      integration: plugin$/      integration: native/' base.yaml > integ.yaml
while read -r file what entry why; do
	cmp_run 0 "another $what on the other side is compared" base.yaml "$file"
	grep -qx "stress-mm compare: differs (the $why: allowed): candidate $entry" err
	ok $? "  and its difference is listed as allowed"
	cmp_run 2 "another $what within one side is refused" "base.yaml,$file" drop.yaml
	grep -qx "stress-mm compare: differs: $file $entry" err && ! grep -q "allowed" err
	ok $? "  its difference is named by the report, not called allowed ($(grep -m1 "$entry" err))"
done <<'ROWS'
kernel.yaml kernel conditions.kernel-release=9.9.9-other kernel
integ.yaml integration shm-pcp.integration=native integration
ROWS

for bad in "1e400" "inf" ".nan" "0x10" "+5" "-0" "'7'" '"7"'; do
	sed "0,/^      $HB: .*/s//      $HB: $bad/" base.yaml > bad.yaml
	cmp_run 2 "value $bad is refused" base.yaml bad.yaml
done
awk '$0 == "    metrics:" && !d { print; print "      x: 1"; print "      x: 2"; d = 1; next } { print }' base.yaml > dup.yaml
cmp_run 2 "a duplicate key is refused" base.yaml dup.yaml
printf 'stress-mm: [runs\n' > malformed.yaml
cmp_run 2 "malformed YAML" base.yaml malformed.yaml
: > empty.yaml
cmp_run 2 "an empty file" base.yaml empty.yaml
stress-ng --cpu 1 -t 1 --metrics --yaml ng.yaml > /dev/null 2>&1
cmp_run 2 "a file written by stress-ng itself" ng.yaml base.yaml
awk '/^  - exit-status: 0/ && !done { sub(/0$/, "2"); done = 1 } { print }' base.yaml > failed.yaml
cmp_run 2 "a set with a failed run is not comparable" base.yaml failed.yaml
"$SMM" compare --junit stale.xml base.yaml param.yaml > /dev/null 2>&1
grep -q '<failure message="the parameters or conditions differ' stale.xml
ok $? "--junit is written, failing, when the comparison cannot be made"

"$SMM" compare --junit j.xml --format simple base.yaml drop.yaml > out
[ "$(grep -c '<testcase' j.xml)" -ge 2 ] && [ "$(grep -c '<failure' j.xml)" -ge 1 ] &&
	[ "$(awk 'NF != 8' out | wc -l)" -eq 0 ] &&
	grep -q "^$HB 1000 800 -20.00 -2[0-9.]* -1[0-9.]* 0.0[0-9]* regression$" out
ok $? "--junit writes the failure; --format simple prints 8 fields a line"
many_runs() { "$TOP/test/compare-corpus/many-runs" real.yaml "$@"; }
many_runs 60 1000 2 > b60a.yaml
{ many_runs 60 1001 2; echo "# boot 2"; } > b60b.yaml
many_runs 60 800 2 > c60a.yaml
{ many_runs 60 801 2; echo "# boot 2"; } > c60b.yaml
cmp_run 1 "120 runs a side, pooled from two reports each: a 20% drop is a regression" b60a.yaml,b60b.yaml c60a.yaml,c60b.yaml
head -1 out | grep -q "base b60a.yaml,b60b.yaml (.*, 120 runs) vs candidate .*(.*, 120 runs)" &&
	grep "^$HB " out | grep -q "(120) .* (120) .*regression$"
ok $? "  every one of the 120 runs is counted: the header and the row say 120"
diag "$(cat out)"
many_runs 80 1000 3 > a80.yaml
{ cat a80.yaml; echo "# a copy"; } > a80b.yaml
cmp_run 0 "80 identical runs a side" --format simple a80.yaml a80b.yaml
awk -v k="$HB" '$1 == k && $7 > 0.9 && $8 == "no-change" { f = 1 } END { exit !f }' out
ok $? "  no change with p above 0.9 ($(grep "^$HB " out | awk '{ print $7 }'))"
# 70 figures of stressors s1..s70 in every run; the candidate's 70th drops
figs70() {
	awk -v drop="$1" '$0 == "    metrics:" { print; for (i = 1; i <= 70; i++)
			printf "      s%d.bogo-ops-per-second-real-time: %d\n", i, (i == 70 ? drop : 1000) + n % 3
		n++; next } { print }' base.yaml
}
figs70 1000 > f70base.yaml
figs70 500 > f70drop.yaml
cmp_run 1 "a 50% drop in the 70th figure is a regression" f70base.yaml f70drop.yaml
grep -q "^s70.bogo-ops-per-second-real-time .*regression$" out &&
	[ "$(grep -c "^s[0-9]*.bogo-ops-per-second-real-time " out)" -eq 70 ]
ok $? "  all 70 figures are compared, the 70th a regression"
sed "0,/^      $HB: .*/s//      $HB: !!float 544.5/" base.yaml > tag.yaml
cmp_run 2 "a tagged value (!!float) is refused" base.yaml tag.yaml
grep -q "a tag (tag:yaml.org,2002:float) at line" err
ok $? "  naming the tag: $(cat err)"
sed 's/^  repeat-requested: 7$/  repeat-requested: 7.0/' base.yaml > int.yaml
cmp_run 2 "7.0 for an integer field is refused" base.yaml int.yaml
grep -q "repeat-requested '7.0' is not an integer" err
ok $? "  said so: $(cat err)"
cmp_run 1 "a report read from a process substitution" base.yaml <(cat drop.yaml)
"$SMM" compare base.yaml <(yes "a: b") > out 2> err
rc=$?
[ $rc -eq 2 ] && grep -q "more than the 8388608 bytes a report may have" err
ok $? "an endless stream stops at the byte bound (exit $rc): $(cat err)"
for args in "--threshold abc --junit j.xml" "--junit j.xml --threshold=abc" "--jun=j.xml --threshold abc"; do
	echo '<?xml version="1.0"?><testsuite name="last week"/>' > j.xml
	# shellcheck disable=SC2086
	"$SMM" compare $args base.yaml drop.yaml > /dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -q "<failure message=\"--threshold='abc' is not a percentage" j.xml &&
		! grep -q "last week" j.xml
	ok $? "a bad --threshold with $args: exit $rc, no stale j.xml"
done
for c in "--confidence 150|--confidence='150' is out of range; valid range 50..99.9" \
	"--confidence x|--confidence='x' is not a percentage; valid range 50..99.9"; do
	# shellcheck disable=SC2086
	out=$("$SMM" compare ${c%%|*} base.yaml drop.yaml 2>&1 > /dev/null)
	rc=$?
	[ $rc -eq 2 ] && [ "$out" = "stress-mm compare: ${c#*|}" ]
	ok $? "${c%%|*}: exit $rc: $out"
done
cp base.yaml keep.yaml
"$SMM" compare --junit base.yaml base.yaml drop.yaml > /dev/null 2> err
rc=$?
"$SMM" compare --junit base.yaml --threshold x base.yaml drop.yaml > /dev/null 2>&1
[ $rc -eq 2 ] && grep -q "holds something other than XML" err && cmp -s base.yaml keep.yaml
ok $? "--junit naming a report never overwrites it (exit $rc), usage error or not"
mkfifo never.fifo
echo '<?xml version="1.0"?><testsuite name="last week"/>' > w.xml
"$SMM" compare --junit w.xml base.yaml never.fifo > /dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q "did not finish" w.xml 2> /dev/null && break; sleep 0.1; done
grep -q '<failure message="stress-mm compare did not finish' w.xml
ok $? "--junit says 'did not finish' while compare waits for its input"
kill "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
done_testing
