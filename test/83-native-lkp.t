#!/bin/bash
# lkp-tests (the kernel test robot's suite, the fixture
# ../shared/fixtures/lkp-tests-*.tar.xz) runs the built-in stressors with
# its own programs/stress-ng/run, the native stress-ng first on PATH
# (test=vmalloc-order and test=shm-pcp, nr_threads=100%, a short
# testtime), and its own programs/stress-ng/parse turns the output into
# TEST.ops_per_sec and one key per metric. run adds --TEST-method all
# (both method options offer it); that must run, and a job's mode
# reaches shm-pcp as --shm-pcp-mode. The job file and kconfig
# lines we ship (lkp/) are read by Ruby and lkp's ERB as lkp reads them.
#
# run would set kernel.sched_autogroup_enabled=0 for the whole machine:
# it runs in a mount namespace where that file is read-only, so it leaves
# the machine as it was.
. "$(dirname "$0")/lib.sh"
need_native
lkp=$(ls "$TOP"/../shared/fixtures/lkp-tests-*.tar.xz 2> /dev/null | head -n 1)
[ -n "$lkp" ] || skip_all "no lkp-tests fixture in ../shared/fixtures"
command -v ruby > /dev/null || skip_all "ruby missing (make deps)"
ruby -e 'require "active_support/core_ext/string"' 2> /dev/null ||
	skip_all "ruby-activesupport missing (make deps)"
[ "$(id -u)" -eq 0 ] && command -v unshare > /dev/null ||
	skip_all "needs root and unshare(1) to keep lkp's sysctl off the machine"

plan 11
autogroup=$(cat /proc/sys/kernel/sched_autogroup_enabled)

tar -C "$TMPD" -xf "$lkp"
LKP_SRC=$(echo "$TMPD"/lkp-tests-*)
export LKP_SRC
mkdir -p "$TMPD/bin"
ln -s "$NATIVE" "$TMPD/bin/stress-ng"

# lkp_run TEST VAR=VALUE...: lkp's run with the native stress-ng first
# on PATH; its output in $TMPD/TEST.out, then lkp's parse's in TEST.stats.
lkp_run() {
	local t=$1
	shift
	(cd "$TMPD" && env PATH="$TMPD/bin:$PATH" test="$t" nr_threads=100% \
		testtime=4 "$@" timeout 120 unshare --mount sh -c '
		mount --bind -o ro /proc/sys/kernel/sched_autogroup_enabled \
			/proc/sys/kernel/sched_autogroup_enabled 2> /dev/null
		exec bash "$LKP_SRC/programs/stress-ng/run"') > "$TMPD/$t.out" 2>&1
	ruby "$LKP_SRC/programs/stress-ng/parse" < "$TMPD/$t.out" > "$TMPD/$t.stats" 2>&1
}
key() { sed -n "s/^$1: //p" "$TMPD/$2.stats"; }
positive() { awk -v v="${1:-0}" 'BEGIN { exit !(v > 0) }'; }

lkp_run vmalloc-order
grep -q "stress-ng .*--vmalloc-order-method all --vmalloc-order 100%" "$TMPD/vmalloc-order.out"
ok $? "lkp's run ran the native stress-ng with --vmalloc-order-method all: $(grep -m1 'stress-ng --' "$TMPD/vmalloc-order.out")"
v=$(key vmalloc-order.ops_per_sec vmalloc-order)
positive "$v" && [ "$(key vmalloc-order.pass vmalloc-order)" = 1 ]
ok $? "lkp's parse: vmalloc-order.ops_per_sec: ${v:-absent}, vmalloc-order.pass: 1"
v=$(key vmalloc-order.allocations_per_sec vmalloc-order)
positive "$v"
ok $? "lkp's parse: vmalloc-order.allocations_per_sec: ${v:-absent}"
diag "$(cat "$TMPD/vmalloc-order.stats")"

lkp_run shm-pcp mode=stack
grep -q "stress-ng .*--shm-pcp-method all --shm-pcp-mode stack --shm-pcp 100%" "$TMPD/shm-pcp.out" &&
	grep -q "churn stack x 1" "$TMPD/shm-pcp.out"
ok $? "lkp's run ran shm-pcp with --shm-pcp-method all and the job's mode as --shm-pcp-mode: $(grep -m1 'stress-ng --' "$TMPD/shm-pcp.out")"
v=$(key shm-pcp.ops_per_sec shm-pcp)
positive "$v" && [ "$(key shm-pcp.pass shm-pcp)" = 1 ]
ok $? "lkp's parse: shm-pcp.ops_per_sec: ${v:-absent}"
p=$(key shm-pcp.pages_faulted_per_sec shm-pcp)
c=$(key shm-pcp.churn_allocations_per_sec shm-pcp)
positive "$p" && positive "$c"
ok $? "lkp's parse: shm-pcp.pages_faulted_per_sec: ${p:-absent}, shm-pcp.churn_allocations_per_sec: ${c:-absent}"
grep -q "fail" "$TMPD/vmalloc-order.stats" "$TMPD/shm-pcp.stats"
[ $? -eq 1 ]
ok $? "no .fail key from either run"
diag "$(cat "$TMPD/shm-pcp.stats")"
[ "$(cat /proc/sys/kernel/sched_autogroup_enabled)" = "$autogroup" ]
ok $? "kernel.sched_autogroup_enabled of the machine left at $autogroup"

# The job file: both stressors, 100% threads, 60 s, the churn matrix.
ruby -ryaml -e '
	docs = YAML.load_stream(File.read(ARGV[0]))
	t = docs.map { |d| d["stress-ng"]["test"] }.flatten
	c = docs.map { |d| d["stress-ng"]["mode"] }.compact.flatten
	ok = t.sort == %w[shm-pcp vmalloc-order] && c == %w[stack spin none] &&
		docs.all? { |d| d["nr_threads"] == "100%" && d["testtime"] == ["60s"] &&
			d["suite"] == "stress-ng" }
	exit(ok ? 0 : 1)' "$TOP/lkp/jobs/stress-ng-mm.yaml"
ok $? "lkp/jobs/stress-ng-mm.yaml: both stressors, 100% threads, 60 s, churn stack, spin, none"

# The kconfig lines, put into lkp's include before its "% end" and
# expanded by lkp's own ERB for each test.
awk -v frag="$TOP/lkp/programs/stress-ng/include.stress-mm" '
	/^% end$/ { while ((getline l < frag) > 0) print l }
	{ print }' "$LKP_SRC/programs/stress-ng/include" > "$TMPD/include"
kc() {
	ruby -e '
		require "erb"
		require "ostruct"
		ctx = OpenStruct.new(test: ARGV[1])
		___ = ctx
		puts ERB.new(File.read(ARGV[0]), trim_mode: "%").result(binding)
	' "$TMPD/include" "$1" 2>&1
}
kc vmalloc-order | grep -q "^- VMAP_STACK: y$" &&
	kc vmalloc-order | grep -q "^- IO_URING: y$" && ! kc vmalloc-order | grep -q SHMEM
ok $? "include.stress-mm: vmalloc-order needs VMAP_STACK, IO_URING, ... ($(kc vmalloc-order | grep -c '^- ') lines)"
kc shm-pcp | grep -q "^- SHMEM: y$" && kc shm-pcp | grep -q "^- SYSVIPC: y$" &&
	[ -z "$(kc cpu | grep '^- ')" ]
ok $? "include.stress-mm: shm-pcp needs SHMEM, SYSVIPC, ...; other tests nothing"

done_testing
