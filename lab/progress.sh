# shellcheck shell=bash
# lab/progress.sh - elapsed time and an estimate of what is left, for a
# lab boot (lab/lab.sh) and for a lab of many boots (lab/ab.sh). Sourced
# after lab/lib.sh (mmss).
#
# A boot is estimated from what it will run: the guest's boot and
# fingerprint (PROGRESS_BOOT_S, default 90 s: 56 s to init and 39 s of
# fingerprint were measured under TCG on a busy host), then per workload
# --repeat R runs of -t T seconds plus PROGRESS_RUN_S (default 8 s: the
# start of stress-ng, the settling of vmalloc areas, the report) each.
# While a workload runs, stress-mm's own "remaining about Y s" replaces
# that workload's estimate. LAB_PROVE=1's proofs count PROGRESS_PROVE_S
# (default 60 s: the guest gives them 40 s). The module tests (make lab-module) count
# PROGRESS_MODULE_S (default 180 s, the longest measured); the module
# bench is timed by the share of its steps (repeat x order) done. An
# estimate is an estimate: once a boot runs past it, "overdue" says so.
#
#   progress_plan FILE     reads the workloads (lab.sh's format): sets
#                          PROGRESS_EST, the whole boot's estimate in s
#   progress_left CUR EL SINCE
#                          seconds left in a boot EL seconds after it
#                          started, SINCE seconds after its last progress
#                          line CUR
#   progress_note CUR EL SINCE
#                          "[boot 1m05s, about 4m10s left]" (and, with
#                          LAB_LEFT_AFTER set by ab.sh, the whole lab's)

PROGRESS_BOOT_S=${PROGRESS_BOOT_S:-90}
PROGRESS_RUN_S=${PROGRESS_RUN_S:-8}
PROGRESS_MODULE_S=${PROGRESS_MODULE_S:-180}
PROGRESS_PROVE_S=${PROGRESS_PROVE_S:-60}
PROGRESS_NAMES=()
PROGRESS_W=()
PROGRESS_EST=0

# seconds of "-t T[smhd]" and "--repeat R" in a workload's arguments
progress_workload_s() {
	awk -v run="$PROGRESS_RUN_S" '{
		t = 0; r = 1
		for (i = 1; i < NF; i++) {
			if ($i == "--") break
			if ($i == "-t" || $i == "--timeout") {
				v = $(i + 1); u = substr(v, length(v)); n = v + 0
				t = u == "m" ? n * 60 : u == "h" ? n * 3600 : u == "d" ? n * 86400 : n
			}
			if ($i == "--repeat") r = $(i + 1) + 0
		}
		print r * (t + run) }' <<< "$1"
}

progress_plan() {
	local name args s
	PROGRESS_NAMES=()
	PROGRESS_W=()
	PROGRESS_EST=$PROGRESS_BOOT_S
	[ "${LAB_PROVE:-0}" = 1 ] && PROGRESS_EST=$((PROGRESS_EST + PROGRESS_PROVE_S))
	case ${LAB_MODULE:-0} in
	0) ;;
	bench) PROGRESS_EST=$((PROGRESS_BOOT_S + ${BENCH_REPEATS:-5} * 60)); return ;;
	*) PROGRESS_EST=$((PROGRESS_BOOT_S + PROGRESS_MODULE_S)); return ;;
	esac
	while read -r name args; do
		[ -n "$name" ] || continue
		s=$(progress_workload_s "$args")
		PROGRESS_NAMES+=("$name")
		PROGRESS_W+=("$s")
		PROGRESS_EST=$((PROGRESS_EST + s))
	done < "$1"
}

# the estimates of workloads after index $1, summed
progress_after() {
	local i s=0
	for ((i = $1 + 1; i < ${#PROGRESS_W[@]}; i++)); do
		s=$((s + PROGRESS_W[i]))
	done
	echo "$s"
}

# max(A - B, 0)
progress_sub() { echo $(($1 > $2 ? $1 - $2 : 0)); }

progress_left() {
	local cur=$1 el=$2 since=${3:-0} i rem r o done_steps all
	case $cur in
	"bench repeat "*)
		# steps done so far: (repeat - 1) x 10 + order, of repeats x 10
		read -r _ _ r _ o <<< "$cur"
		done_steps=$(((r - 1) * 10 + o))
		all=$((${BENCH_REPEATS:-5} * 10))
		[ "$done_steps" -gt 0 ] || { echo $((PROGRESS_EST - el)); return; }
		echo $(((el - PROGRESS_BOOT_S) * (all - done_steps) / done_steps))
		return ;;
	esac
	for ((i = 0; i < ${#PROGRESS_NAMES[@]}; i++)); do
		case $cur in
		"${PROGRESS_NAMES[i]}: run "*"remaining about "*)
			rem=${cur##*remaining about }
			echo $(($(progress_sub "${rem%% *}" "$since") + $(progress_after "$i")))
			return ;;
		"${PROGRESS_NAMES[i]}: "*)
			echo $(($(progress_sub "${PROGRESS_W[i]}" "$since") + $(progress_after "$i")))
			return ;;
		esac
	done
	echo $((PROGRESS_EST - el))
}

progress_note() {
	local left lab=""
	left=$(progress_left "$1" "$2" "${3:-0}")
	[ "${left:-0}" -ge 0 ] 2> /dev/null || left=0
	if [ -n "${LAB_LEFT_AFTER:-}" ]; then
		lab="; ${LAB_BOOT_OF:+$LAB_BOOT_OF, }lab about $(mmss $((left + LAB_LEFT_AFTER))) left"
	fi
	if [ "$left" -le 0 ] && [ "$2" -gt "$PROGRESS_EST" ]; then
		echo "[boot $(mmss "$2"), overdue: estimated $(mmss "$PROGRESS_EST")$lab]"
	else
		echo "[boot $(mmss "$2"), about $(mmss "$left") left$lab]"
	fi
}
