#!/bin/sh
# lab/mmtests-guest.sh TREE CONFIG... - in a lab guest (busybox sh, run by
# lab/guest-init when lab.sh has LAB_MMTESTS): mmtests' own run-mmtests.sh
# with each CONFIG, in the host's root filesystem.
#
# lab.sh shares the host's / read-only (9p tag "host") and a directory of
# the kernel's results read-write (tag "out"). The guest mounts the host's
# root at /host with its own proc, sys, dev and a tmpfs /tmp over it,
# copies TREE (an mmtests tree with our patches and its stress-ng built,
# a host path: lab/mmtests-ab.sh makes it) to /tmp/mmtests, and runs
# run-mmtests.sh --no-monitor --config TREE/configs/CONFIG CONFIG chrooted
# there (bash, perl, gawk and the stress-ng mmtests built are the host's).
# Each run's mmtests layout, work/log/CONFIG, goes to out/CONFIG with its
# console output in out/CONFIG.log. Prints "SMM-PROGRESS mmtests ..."
# lines for lab.sh and "mmtests: CONFIG: exit N" per run; exits 1 when a
# share cannot be mounted or a run fails.
tree=$1
shift
H=/host
say() { echo "SMM-PROGRESS mmtests $*"; }

mkdir -p "$H" /out
opts=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o "$opts,ro" host "$H" || { echo "mmtests: cannot mount the host's root (9p tag host)"; exit 1; }
mount -t 9p -o "$opts" out /out || { echo "mmtests: cannot mount the results share (9p tag out)"; exit 1; }
mount -t proc proc "$H/proc"
mount -t sysfs sys "$H/sys"
mount -t devtmpfs dev "$H/dev"
mount -t devpts devpts "$H/dev/pts"
mount -t tmpfs tmpfs "$H/dev/shm"
mount -t tracefs tracefs "$H/sys/kernel/tracing" 2> /dev/null
mount -t tmpfs tmpfs "$H/tmp"
mount -t tmpfs tmpfs "$H/run"
mkdir -p "$H/tmp/out"
mount -o bind /out "$H/tmp/out"
say "copying $tree"
cp -a "$H$tree" "$H/tmp/mmtests" || { echo "mmtests: cannot copy $tree"; exit 1; }

rc=0
for c in "$@"; do
	say "$c: run-mmtests.sh --config configs/$c"
	chroot "$H" /bin/bash -c "cd /tmp/mmtests && HOME=/tmp PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		ASSUME_PACKAGE_INSTALLED=yes ./run-mmtests.sh --no-monitor --config configs/$c $c" \
		> "/out/$c.log" 2>&1 < /dev/null &
	pid=$!
	# mmtests' "Running N stressng NAME iteration I" as progress
	last=""
	while kill -0 $pid 2> /dev/null; do
		sleep 5
		l=$(grep "^Running " "/out/$c.log" | tail -n 1)
		[ -n "$l" ] && [ "$l" != "$last" ] && say "$c: $l"
		last=$l
	done
	wait $pid
	st=$?
	echo "mmtests: $c: exit $st"
	[ $st -eq 0 ] || { rc=1; tail -n 5 "/out/$c.log"; }
	cp -a "$H/tmp/mmtests/work/log/$c" "$H/tmp/out/" || rc=1
done
sync
exit $rc
