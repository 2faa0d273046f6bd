# test/lib.sh - TAP for the shell tests, and the stress-ng runs they share.
#
# Sourced by test/*.t. Output is TAP version 13; a test that cannot run
# prints "1..0 # SKIP reason" and exits 0 (never 4: prove counts that as a
# failure). Failures are sticky: done_testing exits 1 if any test failed.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SO=$BUILD/stress-mm.so
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

# plugin_pids: processes that have our shared object (any copy) mapped.
plugin_pids() {
	grep -l "/stress-mm.so" /proc/[0-9]*/maps 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/maps|\1|' | sort -n | tr '\n' ' '
}

# wait_no_plugin SECONDS: wait until no process maps the plugin; 0 if so.
wait_no_plugin() {
	i=0
	while [ -n "$(plugin_pids)" ]; do
		i=$((i + 1))
		[ "$i" -gt $(($1 * 10)) ] && return 1
		sleep 0.1
	done
	return 0
}
