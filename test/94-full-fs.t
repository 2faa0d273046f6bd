#!/bin/bash
# Full filesystems and unusable places, each made by the test in a mount
# namespace of its own (isolate): /dev/shm without room for one object
# per worker is refused before anything starts (exit 3, one line naming
# it); /dev/shm filled, and kept full, under a running worker ends it
# with a SKIP naming /dev/shm, ENOSPC in its record (exit 3), never SIGBUS; TMPDIR is where
# the run's directory goes, and a full one, or one where the owner file
# cannot be made, is refused with exit 3 and nothing left; a relative
# TMPDIR, a FIFO or a device as --yaml, STRESS_MM_STATS_DIR=/proc and an
# unwritable working directory are refused before the run (exit 1); a full
# STRESS_MM_STATS_DIR before the plugin's first worker (exit 3); a report
# that does not fit is said, exit 2, and no half of it is left.
. "$(dirname "$0")/lib.sh"
isolate
need_stress_ng
SMM=$BUILD/stress-mm
[ -x "$SMM" ] || skip_all "$SMM not built"
[ -n "${SMM_TEST_ISOLATED:-}" ] || skip_all "needs root and unshare (util-linux): it mounts small tmpfs"
plan 16

RUN=(--counters none --vmallocinfo-interval 0)
lines() { grep -c . "$1"; }
left() { find "$1" -maxdepth 1 -name 'stress-mm.*' | wc -l; }

# 1. /dev/shm of 4 MiB, 2 workers of 8 MiB objects
umount /dev/shm && mount -t tmpfs -o size=4M smm-test-shm /dev/shm
(cd "$TMPD" && "$SMM" --shm-pcp 2 --shm-pcp-bytes 8M -t 1 "${RUN[@]}" > "$TMPD/room.log" 2>&1)
rc=$?
[ $rc -eq 3 ] && [ "$(lines "$TMPD/room.log")" -eq 1 ] &&
	grep -q "^stress-mm: /dev/shm .* has 4096 KiB free, the run needs 16384 KiB" "$TMPD/room.log" &&
	[ "$(left "$TMPDIR")" -eq 0 ]
ok $? "/dev/shm without room: exit $rc, before anything: $(head -1 "$TMPD/room.log")"

# 2. /dev/shm of 24 MiB filled while a worker faults 8 MiB objects
umount /dev/shm && mount -t tmpfs -o size=24M smm-test-shm /dev/shm
(cd "$TMPD" && exec "$SMM" --shm-pcp 1 --shm-pcp-bytes 8M --shm-pcp-mode none -t 6 \
	"${RUN[@]}" --yaml "$TMPD/full.yaml" > "$TMPD/full.log" 2>&1) &
pid=$!
for i in $(seq 300); do
	grep -q "dispatching hogs" "$TMPD/full.log" && break
	sleep 0.1
done
sleep 1
# Filled, and kept full until the run ends: a worker that frees its
# object at the end of a cycle would otherwise find exactly the room for
# the next one.
(while kill -0 "$pid" 2> /dev/null; do
	dd if=/dev/zero of=/dev/shm/fill bs=64K count=1024 oflag=append conv=notrunc 2> /dev/null
	sleep 0.01
done) &
filler=$!
wait $pid
rc=$?
kill "$filler" 2> /dev/null
wait "$filler" 2> /dev/null
rm -f /dev/shm/fill
[ $rc -eq 3 ] && grep -q "^stress-mm: shm-pcp skipped: /dev/shm is full" "$TMPD/full.log"
ok $? "/dev/shm filled under a worker: exit $rc, $(grep -m1 'skipped:' "$TMPD/full.log")"
grep -q "^      skip-errno: 28$" "$TMPD/full.yaml" &&
	! grep -q "Caught unexpected signal\|crashed with signal" "$TMPD/full.log"
ok $? "/dev/shm filled: ENOSPC from the worker's record, no SIGBUS"
umount /dev/shm && mount -t tmpfs -o mode=1777 smm-test-shm /dev/shm

# 3. TMPDIR honoured: the run's directory is there while it runs, gone after
mkdir -p "$TMPD/t"
(cd "$TMPD" && TMPDIR="$TMPD/t" exec "$SMM" --shm-pcp 1 --shm-pcp-bytes 1M -t 2 \
	"${RUN[@]}" > "$TMPD/t.log" 2>&1) &
pid=$!
seen=0
for i in $(seq 100); do
	[ "$(left "$TMPD/t")" -gt 0 ] && seen=1 && break
	sleep 0.1
done
wait $pid
rc=$?
[ $rc -eq 0 ] && [ $seen -eq 1 ] && [ "$(left "$TMPD/t")" -eq 0 ] && [ "$(left "$TMPDIR")" -eq 0 ]
ok $? "TMPDIR: the run's directory is made there and removed (exit $rc)"

# 4. a full TMPDIR
mkdir -p "$TMPD/full"
mount -t tmpfs -o size=1M smm-test-full "$TMPD/full"
dd if=/dev/zero of="$TMPD/full/fill" bs=64K count=64 2> /dev/null
(cd "$TMPD" && TMPDIR="$TMPD/full" "$SMM" --shm-pcp 1 --shm-pcp-bytes 1M -t 1 "${RUN[@]}" \
	> "$TMPD/tfull.log" 2>&1)
rc=$?
[ $rc -eq 3 ] && [ "$(lines "$TMPD/tfull.log")" -eq 1 ] &&
	grep -q "^stress-mm: $TMPD/full (the run's directory goes there) has 0 KiB free" "$TMPD/tfull.log" &&
	[ "$(left "$TMPD/full")" -eq 0 ]
ok $? "a full TMPDIR: exit $rc, one line, nothing left: $(head -1 "$TMPD/tfull.log")"
umount "$TMPD/full"

# 5. a TMPDIR with room but no inode left: the owner file cannot be made
mount -t tmpfs -o size=8M,nr_inodes=3 smm-test-full "$TMPD/full"
(cd "$TMPD" && TMPDIR="$TMPD/full" "$SMM" --shm-pcp 1 --shm-pcp-bytes 1M -t 1 "${RUN[@]}" \
	> "$TMPD/inode.log" 2>&1)
rc=$?
[ $rc -eq 3 ] && grep -q "^stress-mm: cannot set up the run's directory in $TMPD/full: No space left on device$" "$TMPD/inode.log" &&
	! grep -q "dispatching hogs" "$TMPD/inode.log" && [ "$(left "$TMPD/full")" -eq 0 ]
ok $? "no inode for the owner file: the run does not start (exit $rc): $(tail -1 "$TMPD/inode.log")"
umount "$TMPD/full"

# 5b. a report that does not fit where --yaml puts it: room for the check
# before the run (a free block), not for the whole report; the run says
# so, exits 2 and leaves no half a report
mount -t tmpfs -o size=64K smm-test-full "$TMPD/full"
dd if=/dev/zero of="$TMPD/full/fill" bs=4K count=14 2> /dev/null
(cd "$TMPD" && "$SMM" --shm-pcp 1 --shm-pcp-bytes 1M -t 1 "${RUN[@]}" \
	--yaml "$TMPD/full/r.yaml" > "$TMPD/yfull.log" 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "^stress-mm: cannot write $TMPD/full/r.yaml: No space left on device$" "$TMPD/yfull.log" &&
	[ ! -e "$TMPD/full/r.yaml" ]
ok $? "a report that does not fit: exit $rc, said, no file left ($(ls "$TMPD/full" | paste -sd' '))"
umount "$TMPD/full"

# 6. refused before the run, exit 1 and one line each
mkfifo "$TMPD/fifo"
touch "$TMPD/afile"
for c in "TMPDIR=relative|TMPDIR='relative' is not usable" \
	"TMPDIR=$TMPD/afile|TMPDIR='$TMPD/afile' is not usable (not a directory)" \
	"--yaml $TMPD/fifo|is not a regular file (a FIFO)" \
	"--yaml /dev/full|is not a regular file (a device or socket)"; do
	arg=${c%%|*}
	case $arg in
	TMPDIR=*) out=$(cd "$TMPD" && env "$arg" timeout 20 "$SMM" --shm-pcp 1 -t 1 "${RUN[@]}" 2>&1) ;;
	*) out=$(cd "$TMPD" && timeout 20 "$SMM" --shm-pcp 1 -t 1 "${RUN[@]}" $arg 2>&1) ;;
	esac
	rc=$?
	[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -eq 1 ] &&
		case $out in *"${c#*|}"*) true ;; *) false ;; esac
	ok $? "$arg: exit $rc: $out"
done

# 7. STRESS_MM_STATS_DIR where no record can be made, the plugin alone
out=$(cd "$TMPD" && STRESS_MM_STATS_DIR=/proc timeout 20 stress-ng --plugin 1 \
	--plugin-so "$SO" --plugin-method shm_pcp -t 1 2>&1)
rc=$?
[ $rc -eq 1 ] && ! printf '%s\n' "$out" | grep -q "dispatching hogs" &&
	case $out in *"STRESS_MM_STATS_DIR='/proc' is not usable"*) true ;; *) false ;; esac
ok $? "STRESS_MM_STATS_DIR=/proc: stress-ng exits $rc before any worker: $(printf '%s\n' "$out" | grep -m1 STATS_DIR)"
# a full one is no resource (3), not bad input
mount -t tmpfs -o size=64K smm-test-full "$TMPD/full"
dd if=/dev/zero of="$TMPD/full/fill" bs=4K count=32 2> /dev/null
out=$(cd "$TMPD" && STRESS_MM_STATS_DIR="$TMPD/full" timeout 20 stress-ng --plugin 1 \
	--plugin-so "$SO" --plugin-method shm_pcp -t 1 2>&1)
rc=$?
[ $rc -eq 3 ] && ! printf '%s\n' "$out" | grep -q "dispatching hogs" &&
	case $out in *"STRESS_MM_STATS_DIR='$TMPD/full' has no room for a record (No space left on device)"*) true ;; *) false ;; esac
ok $? "a full STRESS_MM_STATS_DIR: stress-ng exits $rc before any worker: $(printf '%s\n' "$out" | grep -m1 STATS_DIR)"
umount "$TMPD/full"

# 8. a working directory the user cannot write, as a user of its own
if command -v setpriv > /dev/null; then
	mkdir -p "$TMPD/ro" && chmod 0711 "$TMPD" && chmod 0711 "$TMPD/ro"
	out=$(cd "$TMPD/ro" && timeout 20 setpriv --reuid 54321 --regid 54321 --clear-groups -- \
		"$SMM" --shm-pcp 1 -t 1 "${RUN[@]}" --yaml "$TMPDIR/ro.yaml" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -eq 1 ] && [ ! -e "$TMPDIR/ro.yaml" ] &&
		case $out in *"working directory $TMPD/ro is not readable and writable"*) true ;; *) false ;; esac
	ok $? "an unwritable working directory: exit $rc, no report: $out"
	if ! setpriv --reuid 54321 --regid 54321 --clear-groups -- test -r "$SO"; then
		# a build tree under a directory only root may enter (a clone
		# in mktemp -d): that user cannot load the plugin at all
		skip "an unwritable working directory with --temp-path" "uid 54321 cannot read $SO (a parent directory is closed to it)"
	else
		out=$(cd "$TMPD/ro" && timeout 30 setpriv --reuid 54321 --regid 54321 --clear-groups -- \
			"$SMM" --shm-pcp 1 --shm-pcp-bytes 1M -t 1 "${RUN[@]}" -- --temp-path /tmp 2>&1)
		rc=$?
		[ $rc -eq 0 ]
		ok $? "an unwritable working directory with -- --temp-path /tmp: exit $rc"
		[ $rc -eq 0 ] || diag "$out"
	fi
else
	skip "an unwritable working directory" "setpriv (util-linux) missing"
	skip "an unwritable working directory with --temp-path" "setpriv (util-linux) missing"
fi

# 9. nothing of ours is left in the test's own /dev/shm
[ "$("$BUILD/test/shm-sweep" --count)" = "leftovers: 0" ] && [ "$(left "$TMPDIR")" -eq 0 ]
ok $? "no shm object and no run directory left"
done_testing
