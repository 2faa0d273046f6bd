#!/bin/bash
# lkp-tests (the kernel test robot's suite, the fixture
# ../shared/fixtures/lkp-tests-*.tar.xz) runs the built-in stressors with
# its own programs/stress-ng/run, the native stress-ng first on PATH
# (test=vmalloc-order and test=shm-pcp, nr_threads=100%, a short
# testtime), and its own programs/stress-ng/parse turns the output into
# TEST.ops_per_sec and one key per metric. run adds --TEST-method all
# (both method options offer it); that must run, and a job's mode
# reaches shm-pcp as --shm-pcp-mode. The job file we ship (lkp/) is read
# by Ruby as lkp reads it; the patch for lkp's part files and kconfig
# include (lkp/lkp-tests.patch) applies to the fixture, and lkp's own
# split-job and job2sh make of it atom jobs for our two tests.
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
ruby -e 'require "tty-command"; require "git"' 2> /dev/null ||
	skip_all "ruby-tty-command or ruby-git missing, which lkp's split-job needs (make deps)"
[ "$(id -u)" -eq 0 ] && command -v unshare > /dev/null ||
	skip_all "needs root and unshare(1) to keep lkp's sysctl off the machine"

plan 13
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

# lkp/lkp-tests.patch: our two tests in lkp's part files and their
# kernel options in programs/stress-ng/include. lkp's own split-job makes
# one atom job per test of a part (for its vm-snb test box, 2 CPUs) and
# job2sh the script that runs it: an atom for each of ours, its
# need_kconfig from the include, the run_test line as for any test.
patched=$TMPD/patched
mkdir -p "$patched" "$TMPD/atoms"
tar -C "$patched" -xf "$lkp"
PATCHED=$(echo "$patched"/lkp-tests-*)
patch -d "$PATCHED" -p1 -s < "$TOP/lkp/lkp-tests.patch" > "$TMPD/patch.log" 2>&1
ok $? "lkp/lkp-tests.patch applies to $(basename "$lkp")"
diag "$(cat "$TMPD/patch.log")"
for part in 4 5; do
	(cd "$PATCHED" && LKP_SRC=$PATCHED ruby sbin/split-job -t vm-snb -o "$TMPD/atoms" \
		"jobs/stress-ng/stress-ng-part$part.yaml") > "$TMPD/split-$part.log" 2>&1 ||
		diag "split-job part$part: $(tail -n 3 "$TMPD/split-$part.log")"
done
# atom T: lkp's atom job file for test T, made by split-job
atom() { ls "$TMPD/atoms"/stress-ng-part[45]-100%-"$1"-60s.yaml 2> /dev/null; }
a=$(atom shm-pcp) v=$(atom vmalloc-order)
atoms=$(ls "$TMPD/atoms" | wc -l)
parts=$(cat "$PATCHED"/jobs/stress-ng/stress-ng-part[45].yaml | grep -c '^    - ')
[ -n "$a" ] && [ -n "$v" ] && [ "$atoms" -eq "$parts" ]
ok $? "lkp's split-job: $atoms atoms of $parts tests in parts 4 and 5, $(basename "${a:-no shm-pcp atom}") and $(basename "${v:-no vmalloc-order atom}")"
# kconfig T: the need_kconfig options of T's atom, one per line
kconfig() {
	ruby -ryaml -e 'puts (YAML.load_file(ARGV[0])["need_kconfig"] || []).map { |h| h.map { |k, x| "#{k}=#{x}" } }' "$1"
}
kconfig "$v" > "$TMPD/kc-vmalloc-order"
kconfig "$a" > "$TMPD/kc-shm-pcp"
kconfig "$(atom shm)" > "$TMPD/kc-shm"
has() { # has FILE OPTION...: every OPTION=y in FILE
	local f=$1 o
	shift
	for o in "$@"; do grep -qx "$o=y" "$f" || return 1; done
}
has "$TMPD/kc-vmalloc-order" IO_URING MODIFY_LDT_SYSCALL UNIX98_PTYS VMAP_STACK &&
	has "$TMPD/kc-shm-pcp" SHMEM SYSVIPC TMPFS VMAP_STACK &&
	! grep -q "VMAP_STACK\|SHMEM\|IO_URING" "$TMPD/kc-shm"
ok $? "need_kconfig of the atoms: vmalloc-order IO_URING, MODIFY_LDT_SYSCALL, UNIX98_PTYS, VMAP_STACK; shm-pcp SHMEM, SYSVIPC, TMPFS, VMAP_STACK; shm none of them"
for t in vmalloc-order shm-pcp; do
	(cd "$PATCHED" && LKP_SRC=$PATCHED ruby sbin/job2sh "$(atom "$t")") > "$TMPD/$t.sh" 2> /dev/null
done
grep -q "run_test test='vmalloc-order' \$LKP_SRC/bin/run-test stress-ng" "$TMPD/vmalloc-order.sh" &&
	grep -q "run_test test='shm-pcp' \$LKP_SRC/bin/run-test stress-ng" "$TMPD/shm-pcp.sh" &&
	grep -q "export testtime=60" "$TMPD/shm-pcp.sh"
ok $? "lkp's job2sh: each atom runs lkp's stress-ng program with its test, testtime 60"

done_testing
