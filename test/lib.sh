# test/lib.sh - TAP for the shell tests, and the stress-ng runs they share.
#
# Sourced by test/*.t. Output is TAP version 13; a test that cannot run
# prints "1..0 # SKIP reason" and exits 0 (never 4: prove counts that as a
# failure). Failures are sticky: done_testing exits 1 if any test failed.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SO=$BUILD/stress-mm.so
SO_REAL=$(readlink -m "$SO")
TAP_N=0
TAP_FAILED=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/smm-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT

plan() { echo "TAP version 13"; echo "1..$1"; }
skip_all() { echo "TAP version 13"; echo "1..0 # SKIP $*"; exit 0; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
ok() { # ok COND_STATUS DESC
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		# on stderr too: prove shows it without -v (a CI log)
		echo "${0##*/}: not ok $TAP_N - $2" >&2
		# A "# TODO" test may fail without failing the file (TAP).
		case $2 in *"# TODO"*) ;; *) TAP_FAILED=$((TAP_FAILED + 1)) ;; esac
	fi
}
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP $2"; }
done_testing() { [ "$TAP_FAILED" -eq 0 ] && exit 0; exit 1; }

need_stress_ng() {
	command -v stress-ng >/dev/null 2>&1 ||
		skip_all "stress-ng not installed (make deps)"
	[ -f "$SO" ] || skip_all "$SO not built (make)"
}

# yaml_bogo_ops FILE [INDEX]: bogo-ops of the INDEX-th (1-based) metrics
# entry of a stress-ng --yaml file; empty when absent.
yaml_bogo_ops() {
	awk -v want="${2:-1}" '
		/^ *- stressor:/ { n++ }
		/^ *bogo-ops:/ && n == want { print $2; exit }' "$1"
}

# yaml_stressor FILE INDEX: stressor name of the INDEX-th metrics entry.
yaml_stressor() {
	awk -v want="$2" '/^ *- stressor:/ { if (++n == want) { print $3; exit } }' "$1"
}

# plugin_pids: processes that have this build's shared object mapped (its
# exact path; another build's copy, e.g. another worktree's, is not ours).
# A rebuilt .so still mapped shows as "PATH (deleted)": field 6 is PATH.
plugin_pids() {
	awk -v so="$SO_REAL" 'BEGIN {
		for (i = 1; i < ARGC; i++) {
			while ((getline l < ARGV[i]) > 0) {
				split(l, f, " ")
				if (f[6] == so) { print ARGV[i]; break }
			}
			close(ARGV[i])
		}
		exit }' /proc/[0-9]*/maps 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/maps|\1|' | sort -n | tr '\n' ' '
}

# session_left SID...: "pid sid stat comm" of every process, zombies
# included, still in one of the sessions SID (tests start each run with
# setsid, so a session is one run and nothing else).
session_left() {
	ps -eo pid=,sid=,stat=,comm= | awk -v s="$*" '
		BEGIN { n = split(s, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		$2 in want { print $1, $2, $3, $4 }'
}

# wait_no_plugin SECONDS: wait until no process maps the plugin; 0 if so.
no_plugin() { [ -z "$(plugin_pids)" ]; }
wait_no_plugin() { within "$1" no_plugin; }

# watch_start FILE SIZE CALLERS: sample /proc/vmallocinfo for those
# callers (test/helpers/vmallocinfo-watch) from now until watch_stop, its
# output in FILE; returns once the baseline is taken. watch_stop FILE:
# end it and wait; FILE then holds the watcher's key: value lines.
watch_start() {
	"$BUILD/test/vmallocinfo-watch" -1 100 "$2" "$3" > "$1" &
	WATCHER=$!
	within 30 grep -q "^watching: " "$1"
}
watch_stop() {
	kill -TERM "$WATCHER" 2> /dev/null
	wait "$WATCHER"
}

# within SECONDS CMD...: run CMD every 0.1 s until it succeeds or SECONDS
# have passed; 0 if it did. WITHIN_MS is then how long it took (ms), for
# the test's message: a condition that must come true "soon" is polled to
# a generous bound, so that a busy machine is not a failure.
within() {
	local limit=$(($1 * 1000)) start now
	shift
	start=$(date +%s%N)
	while :; do
		now=$(date +%s%N)
		WITHIN_MS=$(((now - start) / 1000000))
		"$@" && return 0
		[ "$WITHIN_MS" -ge "$limit" ] && return 1
		sleep 0.1
	done
}

# isolate: run this test again in mount and IPC namespaces of its own, with
# a fresh tmpfs on /dev/shm and one on a directory of its own that becomes
# TMPDIR (the run directories go there): shm names, SysV segments, run
# directories and tracefs mounts are then the test's alone, whatever else
# the machine runs. Call it right after sourcing lib.sh. Without root or
# unshare (util-linux) the test runs as it is.
isolate() {
	[ -n "${SMM_TEST_ISOLATED:-}" ] && return 0
	[ "$(id -u)" = 0 ] && command -v unshare > /dev/null || return 0
	exec env SMM_TEST_ISOLATED=1 unshare --mount --ipc --propagation private \
		sh -c 'mount -t tmpfs -o mode=1777 smm-test-shm /dev/shm &&
			mount -t tmpfs -o mode=1777 smm-test-tmp "$0" &&
			t=$1; shift; TMPDIR=$0 "$t" "$@"; rc=$?
			umount "$0"; rmdir "$0"; exit $rc' "$TMPD" "$0" "$@"
}

# kernel_at_least X.Y: 0 when the running kernel's version is X.Y or later.
kernel_at_least() {
	local want=$1 have
	have=$(uname -r | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	awk -v a="$have" -v b="$want" 'BEGIN {
		split(a, x, "."); split(b, y, ".")
		exit !(x[1] > y[1] || (x[1] == y[1] && x[2] >= y[2])) }'
}

# has_feature NAME: 0 when this machine has the feature (test/required-paths
# says what each one means).
has_feature() {
	case $1 in
	x86_64) [ "$(uname -m)" = x86_64 ] ;;
	kernel\>=*) kernel_at_least "${1#kernel>=}" ;;
	vmap_stack)
		grep -qE " (kernel_clone|copy_process|dup_task_struct|alloc_thread_stack_node)\+" \
			/proc/vmallocinfo 2>/dev/null ;;
	io_uring)
		grep -qE " (__x64_sys|__arm64_sys|__do_sys|sys)_io_uring_setup$" /proc/kallsyms &&
			[ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" = 0 ] ;;
	modify_ldt) grep -qE " (__x64_sys|__do_sys|sys)_modify_ldt$" /proc/kallsyms ;;
	devpts) [ -e /dev/ptmx ] && grep -q " devpts " /proc/mounts ;;
	no_seccomp) grep -q "^Seccomp:[[:space:]]*0$" /proc/self/status ;;
	memlock\>1G)
		l=$(ulimit -l)
		[ "$l" = unlimited ] || [ "$l" -gt 1048576 ] ;;
	nofile\>512K)
		n=$(ulimit -n)
		[ "$n" = unlimited ] || [ "$n" -gt 524288 ] &&
			[ "$(cat /proc/sys/fs/nr_open)" -gt 524288 ] ;;
	*) return 1 ;;
	esac
}

# path_required NAME: 0 when test/required-paths says NAME must run on this
# machine (its features on stdout); 1 otherwise (the first missing feature
# on stdout).
path_required() {
	local feats f
	feats=$(awk -v n="$1" '!/^#/ && $1 == n { $1 = ""; print; exit }' \
		"$TOP/test/required-paths")
	if [ -z "$feats" ]; then
		echo "not listed in test/required-paths"
		return 1
	fi
	for f in $feats; do
		[ "$f" = - ] && continue
		if ! has_feature "$f"; then
			echo "no $f"
			return 1
		fi
	done
	echo "features:${feats}"
	return 0
}

# The stress-ng with stress-mm's stressors built in (make stress-ng).
NATIVE=$BUILD/stress-ng/stress-ng

# need_native: skip the whole test when there is no stress-ng source to
# build it from (native/build.sh --source says why); a source without the
# binary is a failure. While make check builds it (scripts/check), wait
# for that build, at most 45 minutes; its failure is a failure.
need_native() {
	local src pid st=$BUILD/stress-ng/check-build.status
	local pidf=$BUILD/stress-ng/check-build.pid waited=0
	# make check builds it while the other tests run (scripts/check).
	while pid=$(cat "$pidf" 2> /dev/null) && kill -0 "$pid" 2> /dev/null &&
		[ $waited -lt 2700 ]; do
		[ $waited -eq 0 ] && diag "waiting for make check's build of $NATIVE"
		sleep 2
		waited=$((waited + 2))
	done
	if [ -s "$st" ] && [ "$(cat "$st")" != 0 ]; then
		plan 1
		ok 1 "make stress-ng (make check's build) exit $(cat "$st"): $BUILD/stress-ng/check-build.log"
		exit 1
	fi
	[ -x "$NATIVE" ] && return 0
	src=$("$TOP/native/build.sh" --source 2>&1) || skip_all "$src"
	plan 1
	ok 1 "$NATIVE built from $src (make stress-ng)"
	exit 1
}
