#!/bin/bash
# lab/lab.sh - run stress-mm on other kernels under QEMU and compare them.
#
#   make lab [KERNELS="6.12.117+deb13 7.2.13+deb14"] [STRESS_MM_ARGS="..."]
#            [GUEST_CPUS=2] [GUEST_MEM=2G] [FLAVOUR=cloud-amd64]
#   make lab KERNELS="built-7.2 built-7.2+vfree-per-page" [LAB_KCACHE=dir]
#
# For each kernel: a Debian kernel package version, or "trixie" for the
# newest 6.12 in trixie and "sid" for the newest kernel in sid (the
# default is both); or built-X[+VARIANT], built from Debian's
# linux-source-X by lab/kbuild.sh, unpatched or with
# lab/patches/VARIANT.patch (built first when not cached; its modules,
# test_vmalloc.ko among them, go into that guest's initramfs under
# /lib/modules/<release>):
#  1. fetch its package with apt-get download through a private apt
#     configuration made from the host's Debian mirror settings (the extra
#     suites trixie and sid, Acquire::Check-Valid-Until off; the system's apt
#     sources are not touched; no mirror name is written anywhere), cached
#     under build/lab/debs;
#  2. extract vmlinuz and build an initramfs: busybox-static, the host's
#     stress-ng and the shared libraries it needs, and this project's build/;
#  3. boot it with qemu-system-x86_64 (KVM when /dev/kvm is usable, else TCG
#     with -cpu max), serial console, no network; the guest mounts proc, sys,
#     devtmpfs, tracefs and /dev/shm, raises RLIMIT_MEMLOCK and
#     RLIMIT_NOFILE, fingerprints the kernel under thread-stack churn, runs
#     stress-mm with STRESS_MM_ARGS, and sends the YAML back on the serial
#     console between markers;
#  4. writes build/lab/<kernel>/{run-<churn>.yaml,fingerprint,console.log}
#     (LAB_OUT instead of build/lab): one stress-mm run per LAB_CHURNS
#     setting (default none spin stack; LAB_CHURNS="" or make
#     lab-fingerprint: the fingerprint only), run.yaml pointing at the
#     last; or, with LAB_WORKLOADS=FILE, one run per line of FILE ("name
#     stress-mm arguments", e.g. "ng-shm -t 15 --repeat 5 -- --shm 0"),
#     written to run-<name>.yaml; LAB_ACCEL=tcg forces TCG; LAB_PROVE=1
#     first proves the io-uring buffers and fdtable paths with the raised
#     limits (prove-<path>.log).
#  LAB_MODULE=1 (make lab-module): instead of all that, our kernel module
#     (module/) is built for each kernel by lab/modbuild.sh, put in the
#     initramfs with the static test programs (build/module-tools), and
#     lab/module-guest.sh tests it in the guest: module.tap (TAP).
#     LAB_MODULE=bench (make lab-module-bench): its benchmark by order
#     next to test_vmalloc, BENCH_REPEATS times: bench.txt (lab/modtable.sh
#     prints the table, lab/modplot.sh draws LAB_OUT/module-bench.svg).
#  LAB_MMTESTS="CONFIG..." (lab/mmtests-ab.sh): before the workloads, the
#     guest runs mmtests' run-mmtests.sh with each CONFIG of the mmtests
#     tree LAB_MMTESTS_TREE (a host path) in the host's root filesystem,
#     shared read-only over 9p (lab/mmtests-guest.sh); each run's mmtests
#     layout comes back through a second, writable share:
#     <kernel>/mmtests/CONFIG (and CONFIG.log).
#  LAB_QEMU_EXTRA: more QEMU arguments for the guest's boot (make
#     lab-module-bench: "-icount shift=0", with LAB_ACCEL=tcg).
#  LAB_CPU: TCG's CPU model (default max). "max,hypervisor=off" hides the
#     hypervisor from the guest: its spinlocks are then queued ones, as on
#     bare metal, whose waits lock:contention_begin shows; with the
#     hypervisor bit a guest without paravirt spinlocks (TCG) takes the
#     test-and-set virt_spin_lock(), which the tracepoint never sees, and
#     stress-mm reports the zone-lock waits absent with that reason.
#  LAB_ZL_PROOF=1: also run build/test/zl-proof free and alloc (zone-lock
#     waits on the expected side) in the guest: zl-proof-<mode>.txt.
#  LAB_NATIVE=1 (make lab-native): the stress-ng that make stress-ng built,
#     with our stressors built in, goes into the guest as
#     /smm/build/stress-ng/stress-ng (with its libraries), where the
#     guest's stress-mm finds it (sng-pick.h): the workloads run the
#     built-in stressors, or the plugin in it with --integration plugin.
#  A workload that asks for our module (--vmalloc-order-method module,
#     --shm-pcp-mode module) gets it: lab/modbuild.sh builds it for each
#     kernel and it goes where the guest's stress-mm loads it from.
# A guest that panics, hangs (GUEST_TIMEOUT seconds) or prints
# BUG/WARNING/Oops is killed and reported with its last console lines; the
# lab goes on with the other kernel and exits non-zero at the end. With two
# kernels it ends with stress-mm compare on the pair.
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-$TOP/build}
LAB=$BUILD/lab
# Where each kernel's results go (build/lab/<kernel>/ by default).
LAB_OUT=${LAB_OUT:-$LAB}
FLAVOUR=${FLAVOUR:-cloud-amd64}
GUEST_CPUS=${GUEST_CPUS:-2}
GUEST_MEM=${GUEST_MEM:-2G}
STRESS_MM_ARGS=${STRESS_MM_ARGS:---vmalloc-order 1 --shm-pcp 1 -t 20s --repeat 5}
# One stress-mm run per churn setting, each with STRESS_MM_ARGS; set but
# empty: no run, the fingerprint only.
LAB_CHURNS=${LAB_CHURNS-none spin stack}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-900}
START=$(date +%s)

LAB_WHO=lab
# say, die, apt_setup (the private apt configuration), fetch_deb
. "$TOP/lab/lib.sh"
# progress_plan, progress_note: elapsed and left, per boot and lab
. "$TOP/lab/progress.sh"

default_kernels() {
	local k612 ksid
	if [ "$LAB_OFFLINE" = 1 ]; then
		# the newest of each cached in $LAB/debs or extracted in $LAB/<version>/pkg
		k612=$(cached_kernels | grep '^6\.12\.' | sort -V | tail -n 1)
		ksid=$(cached_kernels | grep -v '^6\.12\.' | sort -V | tail -n 1)
		echo "$k612 $ksid"
		return 0
	fi
	k612=$(apt-cache search --names-only "^linux-image-6\.12\..*-$FLAVOUR\$" |
		sed -n "s/^linux-image-\(6\.12\.[^ ]*\)-$FLAVOUR .*/\1/p" | sort -V | tail -1)
	ksid=$(apt-cache search --names-only "^linux-binary-[0-9].*-$FLAVOUR\$" |
		sed -n "s/^linux-binary-\([^ ]*\)-$FLAVOUR .*/\1/p" | sort -V | tail -1)
	echo "$k612 $ksid"
}

# The image: /boot/vmlinuz-* (trixie) or /usr/lib/modules/*/vmlinuz (sid).
find_vmlinuz() {
	ls "$1"/boot/vmlinuz-* "$1"/usr/lib/modules/*/vmlinuz 2>/dev/null | head -1
}

# The kernel versions of FLAVOUR the lab has without fetching: packages in
# $LAB/debs and packages extracted in $LAB/<version>/pkg.
cached_kernels() {
	local d
	ls "$LAB"/debs/linux-binary-*-"$FLAVOUR"_*.deb "$LAB"/debs/linux-image-*-"$FLAVOUR"_*.deb 2> /dev/null |
		sed -n "s|.*/linux-[a-z]*-\([0-9][^_]*\)-${FLAVOUR}_.*|\1|p"
	for d in "$LAB"/*/pkg; do
		[ -n "$(find_vmlinuz "$d")" ] && basename "$(dirname "$d")"
	done
}

# fetch KVER: prints the path of its vmlinuz
fetch_kernel() {
	local k=$1 dir=$LAB/$1 pkg deb
	mkdir -p "$dir/pkg"
	if [ -z "$(find_vmlinuz "$dir/pkg")" ]; then
		for pkg in "linux-binary-$k-$FLAVOUR" "linux-image-$k-$FLAVOUR"; do
			deb=$(ls -t "$LAB"/debs/"${pkg}"_*.deb 2>/dev/null | head -1)
			if [ "$LAB_OFFLINE" = 1 ]; then
				# nothing fetched: a cached package or nothing
				echo "LAB_OFFLINE=1: ${deb:-no $LAB/debs/${pkg}_*.deb, nothing fetched}" >> "$dir/download.log"
				[ -n "$deb" ] && dpkg-deb -x "$deb" "$dir/pkg" && break
				continue
			fi
			apt-cache show "$pkg" > /dev/null 2>&1 || continue
			say "$k: downloading $pkg"
			(cd "$LAB/debs" && apt-get download -q "$pkg" > "$dir/download.log" 2>&1) || continue
			deb=$(ls -t "$LAB"/debs/"${pkg}"_*.deb 2>/dev/null | head -1)
			[ -n "$deb" ] && dpkg-deb -x "$deb" "$dir/pkg" && break
		done
	fi
	find_vmlinuz "$dir/pkg"
}

# --- initramfs -----------------------------------------------------------
copy_with_libs() { # ROOT BINARY...
	local root=$1
	shift
	for b in "$@"; do
		mkdir -p "$root$(dirname "$b")"
		cp -L "$b" "$root$b"
		ldd "$b" 2>/dev/null | awk '/=> \// { print $3 } /^\t\// { print $1 }' |
			while read -r lib; do
				[ -e "$root$lib" ] && continue
				mkdir -p "$root$(dirname "$lib")"
				cp -L "$lib" "$root$lib"
			done
	done
}

build_initramfs() {
	local root=$LAB/initramfs out=$LAB/initramfs.cpio.gz
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,run,mnt,smm,etc}
	cp /bin/busybox "$root/bin/busybox"
	for a in sh mount umount mkdir cat echo sleep poweroff ls grep sed awk \
		dmesg ulimit uname tr wc head tail seq date env sort cut find \
		insmod rmmod lsmod modprobe depmod; do
		ln -sf busybox "$root/bin/$a"
	done
	copy_with_libs "$root" /usr/bin/stress-ng "$BUILD/stress-mm" \
		"$BUILD/stress-mm.so" "$BUILD/test/stats-dump" "$BUILD/test/zl-proof"
	mkdir -p "$root/smm/build"
	cp "$BUILD/stress-mm" "$BUILD/stress-mm.so" "$BUILD/test/zl-proof" "$root/smm/build/"
	cp lab/fingerprint.awk "$root/smm/fingerprint.awk"
	if [ "${LAB_NATIVE:-0}" = 1 ]; then
		copy_with_libs "$root" "$BUILD/stress-ng/stress-ng"
		mkdir -p "$root/smm/build/stress-ng"
		cp "$BUILD/stress-ng/stress-ng" "$root/smm/build/stress-ng/"
	fi
	ln -sf /usr/bin/stress-ng "$root/bin/stress-ng"
	echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
	cp "$WORKLOADS" "$root/smm/workloads"
	if [ "${LAB_MODULE:-0}" != 0 ]; then
		mkdir -p "$root/smm/bin"
		cp "$BUILD/module-tools/smm-vmctl" "$BUILD/module-tools/tv-summary" "$root/smm/bin/"
		cp lab/module-guest.sh "$root/smm/module-guest.sh"
		for a in sync kill chown; do ln -sf busybox "$root/bin/$a"; done
	fi
	if [ -n "${LAB_MMTESTS:-}" ]; then
		cp lab/mmtests-guest.sh "$root/smm/mmtests-guest.sh"
		for a in chroot cp kill sync; do ln -sf busybox "$root/bin/$a"; done
	fi
	sed -e "s|@LAB_MODULE@|${LAB_MODULE:-0}|" \
		-e "s|@LAB_MMTESTS@|${LAB_MMTESTS:-}|" \
		-e "s|@LAB_MMTESTS_TREE@|${LAB_MMTESTS_TREE:-}|" \
		-e "s|@BENCH_REPEATS@|${BENCH_REPEATS:-5}|" \
		-e "s|@LAB_PROVE@|${LAB_PROVE:-0}|" \
		-e "s|@LAB_ZL_PROOF@|${LAB_ZL_PROOF:-0}|" lab/guest-init > "$root/init"
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc 2> /dev/null | gzip -1) > "$out"
	echo "$out"
}

# built_initramfs KERNEL IMAGE-DIR: the common initramfs with the built
# kernel's modules appended as a second archive (the kernel unpacks
# concatenated archives in turn), so /lib/modules/<release> is there.
built_initramfs() {
	local out=$LAB/$1/initramfs.cpio.gz
	[ -d "$2/modroot/lib/modules" ] || { echo "$INITRD"; return; }
	{ cat "$INITRD"
		(cd "$2/modroot" && find lib | cpio -o -H newc 2> /dev/null | gzip -1); } > "$out"
	echo "$out"
}

# module_initramfs KERNEL INITRD KO: INITRD with our module for KERNEL
# appended as one more archive, at /smm/module/<release>/ (the release is
# the .ko's directory under build/module, lab/modbuild.sh).
module_initramfs() {
	local out=$LAB/$1/initramfs-module.cpio.gz tmp=$LAB/$1/modroot rel
	rel=$(basename "$(dirname "$3")")
	rm -rf "$tmp"
	mkdir -p "$tmp/smm/module/$rel" "$tmp/smm/build/module/$rel"
	cp "$3" "$tmp/smm/module/$rel/"
	# where stress-mm looks for the tree's build (kmodule.h)
	cp "$3" "$tmp/smm/build/module/$rel/"
	{ cat "$2"
		(cd "$tmp" && find smm | cpio -o -H newc 2> /dev/null | gzip -1); } > "$out"
	echo "$out"
}

# module_report KERNEL: the guest's module section into module.tap
# (numbered, with its plan) or bench.txt; says what it holds; 1 when a
# test failed or the section is missing.
module_report() {
	local dir=$LAB/$1 raw=$LAB/$1/module.raw n nok nskip
	rm -f "$dir/module.tap" "$dir/bench.txt"
	save "$raw" SMM-MODULE-BEGIN SMM-MODULE-END "$why" || return 1
	sed -i '/^SMM-PROGRESS /d' "$raw"
	if [ "$LAB_MODULE" = bench ]; then
		grep "^bench " "$raw" > "$dir/bench.txt"
		say "$1: $(wc -l < "$dir/bench.txt") bench lines in $dir/bench.txt"
		# test_vmalloc may be missing (Debian's kernels); our module not
		[ -s "$dir/bench.txt" ] && ! grep -q "module_[a-z0-9]*_ns=none" "$dir/bench.txt"
		return $?
	fi
	awk '/^ok / { n++; sub(/^ok( -)?/, "ok " n " -") }
		/^not ok / { n++; sub(/^not ok( -)?/, "not ok " n " -") }
		{ print } END { print "1.." n }' "$raw" > "$dir/module.tap"
	n=$(grep -c "^ok \|^not ok " "$dir/module.tap")
	nok=$(grep -c "^not ok " "$dir/module.tap")
	nskip=$(grep -c "^ok .*# SKIP" "$dir/module.tap")
	say "$1: module tests: $n, $nok failed, $nskip skipped ($dir/module.tap)"
	grep "^not ok " "$dir/module.tap" | sed 's/^/    /' >&2
	[ "$n" -gt 0 ] && [ "$nok" -eq 0 ]
}

# --- boot ----------------------------------------------------------------
# A boot "reaches init" when the guest's /init prints its first
# SMM-PROGRESS line. About 1 TCG boot in 7 here dies before that ("Oops:
# int3" at an instruction being live-patched: multi-threaded TCG racing the
# kernel's text patching; Debian's 6.12 and a self-built 7.2 alike). Such a
# boot is retried up to LAB_BOOT_RETRIES times (default 2); every retry is
# reported with the failed boot's first console lines and counted in
# build/lab/<kernel>/boot-retries. The same race also strikes after init
# (an "Oops: int3" in the scheduler 14 s into an 8-vCPU guest was seen):
# under TCG a guest with an int3 Oops that did not finish is run again
# within the same count (console-int3-N.log keeps it). Any other failure
# after init is a real failure, never retried. LAB_INJECT_EARLY_DEATH=N makes the
# first N boots die before init (rdinit= names a missing file), so that
# the retry itself can be tested.
LAB_BOOT_RETRIES=${LAB_BOOT_RETRIES:-2}
LAB_INIT_TIMEOUT=${LAB_INIT_TIMEOUT:-240}
LAB_KVM_PROBE_TIMEOUT=${LAB_KVM_PROBE_TIMEOUT:-60}
INJECTED=0

reached_init() { grep -aq "SMM-PROGRESS kernel" "$1"; }

# The first console lines of a boot that died early, without the
# firmware's screen control codes and banner. The kernel's first line
# (often the "Oops: int3") shares a line with "Booting from ROM..": cut
# the banner, keep the line.
first_lines() {
	tr -d '\r' < "$1" | sed 's/\x1bc//g; s/\x1b\[[0-9;?]*[a-zA-Z]//g; s/^.*Booting from ROM\.*//' |
		grep -av '^$\|^SeaBIOS' | head -n "${2:-8}"
}

# KVM is usable when a short probe boot reaches init, runs its probe and
# powers off cleanly within LAB_KVM_PROBE_TIMEOUT seconds; on these
# machines it is not (-cpu host asserts on an MSR, or the guest hangs or
# oopses), and the probe says why without waiting for a whole guest run.
kvm_usable() { # KVER VMLINUZ INITRAMFS
	local dir=$LAB_OUT/$1 log
	[ -w /dev/kvm ] && [ "${LAB_ACCEL:-}" != tcg ] || return 1
	log=$dir/kvm-probe.log
	{ (exec timeout --signal=KILL "$LAB_KVM_PROBE_TIMEOUT" qemu-system-x86_64 \
		-enable-kvm -cpu host -smp "$GUEST_CPUS" -m "$GUEST_MEM" \
		-nographic -no-reboot -kernel "$2" -initrd "$3" -nic none \
		-append "console=ttyS0 panic=-1 oops=panic quiet smm.probe=1" \
		< /dev/null > "$log" 2>&1); } 2> /dev/null
	if grep -aq "SMM-PROBE-OK" "$log" &&
		! grep -aqE "Kernel panic|BUG:|WARNING:|Oops" "$log"; then
		return 0
	fi
	say "$1: KVM unusable here ($(tr -d '\r' < "$log" | grep -a -m1 -i 'error\|fail\|panic\|oops\|assert' || echo "no probe result in ${LAB_KVM_PROBE_TIMEOUT} s")); using TCG"
	return 1
}

boot() { # KVER VMLINUZ INITRAMFS: console in build/lab/KVER/console.log
	local k=$1 dir=$LAB_OUT/$1 accel="-cpu ${LAB_CPU:-max}" name=TCG try=0
	if kvm_usable "$@"; then
		accel="-enable-kvm -cpu host"
		name=KVM
	fi
	rm -f "$dir/boot-retries" "$dir"/console-died-*.log "$dir"/console-int3-*.log
	while :; do
		if qemu_run "$k" "$2" "$3" "$accel" "$name"; then
			# TCG emulates the kernel's cross-CPU code patching
			# (text_poke_bp's int3) with a race of its own: an Oops at
			# an int3 before the guest is done is the emulator's, and
			# the guest is run again (kept: console-int3-N.log)
			if [ "$name" = TCG ] && grep -aq "Oops: int3" "$dir/console.log" &&
				! grep -aq "^SMM-DONE" "$dir/console.log" &&
				[ "$try" -lt "$LAB_BOOT_RETRIES" ]; then
				try=$((try + 1))
				echo "$try" > "$dir/boot-retries"
				cp "$dir/console.log" "$dir/console-int3-$try.log"
				say "$k: an Oops at an int3 under TCG (its emulation of cross-CPU code patching); retry $try of $LAB_BOOT_RETRIES; its first lines:"
				grep -a -A4 "Oops: int3" "$dir/console.log" | head -5 | tr -d '\r' | sed 's/^/    /' >&2
				continue
			fi
			return 0
		fi
		[ "$try" -lt "$LAB_BOOT_RETRIES" ] || {
			say "$k: the guest died before init $((try + 1)) times: giving up"
			return 1
		}
		try=$((try + 1))
		echo "$try" > "$dir/boot-retries"
		cp "$dir/console.log" "$dir/console-died-$try.log"
		say "$k: boot died before init; retry $try of $LAB_BOOT_RETRIES; its first console lines:"
		first_lines "$dir/console.log" 8 | sed 's/^/    /' >&2
	done
}

# Returns 0 when the guest reached init, 1 when it died before (QEMU ended,
# or no init within LAB_INIT_TIMEOUT seconds: then it is killed).
qemu_run() { # KVER VMLINUZ INITRAMFS ACCEL-ARGS NAME
	local k=$1 dir=$LAB_OUT/$1 last="" cur qpid t0 extra=""
	if [ "$INJECTED" -lt "${LAB_INJECT_EARLY_DEATH:-0}" ]; then
		INJECTED=$((INJECTED + 1))
		extra=" rdinit=/smm-injected-early-death"
		say "$k: LAB_INJECT_EARLY_DEATH: this boot will die before init"
	fi
	say "$k: booting ($5, $GUEST_CPUS CPUs, $GUEST_MEM)"
	# LAB_MMTESTS: the host's root read-only, the results read-write
	local shares=""
	if [ -n "${LAB_MMTESTS:-}" ]; then
		rm -rf "$dir/mmtests"
		mkdir -p "$dir/mmtests"
		shares="-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap"
		shares="$shares -virtfs local,path=$dir/mmtests,mount_tag=out,security_model=none"
	fi
	t0=$(date +%s)
	# shellcheck disable=SC2086
	(exec timeout --signal=KILL "$GUEST_TIMEOUT" qemu-system-x86_64 $4 ${LAB_QEMU_EXTRA:-} $shares \
		-smp "$GUEST_CPUS" -m "$GUEST_MEM" -nographic -no-reboot \
		-kernel "$2" -initrd "$3" -nic none \
		-append "console=ttyS0 panic=-1 oops=panic quiet$extra" \
		< /dev/null > "$dir/console.log" 2>&1) 2> /dev/null &
	qpid=$!
	local tcur=$t0 tsay=$t0 now
	while kill -0 $qpid 2> /dev/null; do
		sleep 2
		now=$(date +%s)
		if ! reached_init "$dir/console.log" &&
			[ $((now - t0)) -ge "$LAB_INIT_TIMEOUT" ]; then
			say "$k: no init after $LAB_INIT_TIMEOUT s: stopping the guest"
			kill -TERM $qpid 2> /dev/null # timeout passes it on
			break
		fi
		cur=$(grep -a "SMM-PROGRESS" "$dir/console.log" | tail -1 |
			tr -d '\r' | sed 's/.*SMM-PROGRESS //')
		[ "$cur" != "$last" ] && tcur=$now
		# each new line, and every LAB_PROGRESS_EVERY s without one
		if [ -n "$cur" ] && { [ "$cur" != "$last" ] ||
			[ $((now - tsay)) -ge "${LAB_PROGRESS_EVERY:-60}" ]; }; then
			say "$k: $cur $(progress_note "$cur" $((now - t0)) $((now - tcur)))"
			tsay=$now
		fi
		last=$cur
	done
	wait $qpid 2> /dev/null
	reached_init "$dir/console.log"
}

# extract FILE BEGIN END: the lines between the markers; status 1 (and
# nothing printed) unless both markers are there, so that a guest that died
# while printing never leaves a truncated section.
extract() {
	tr -d '\r' < "$1" | awk -v b="$2" -v e="$3" '
		p && index($0, e) { done = 1; exit }
		p { buf = buf $0 "\n" }
		!p && index($0, b) { p = 1 }
		END { if (!done) exit 1; printf "%s", buf }'
}

# save FILE BEGIN END WHY: FILE gets the section; when the section is
# missing or empty, FILE is removed and FILE.missing says so (never an
# empty file that looks like a result).
save() {
	local out=$1 tmp=$1.tmp
	rm -f "$out.missing"
	if extract "$CONSOLE" "$2" "$3" > "$tmp" && [ -s "$tmp" ]; then
		mv "$tmp" "$out"
		return 0
	fi
	rm -f "$tmp" "$out"
	echo "missing: $4" > "$out.missing"
	return 1
}

# --- main ----------------------------------------------------------------
command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 missing (make lab installs qemu-system-x86)"
[ -x /bin/busybox ] || die "busybox missing (apt-get install busybox-static)"
[ -x "$BUILD/stress-mm" ] || die "build first (make)"
[ "${LAB_NATIVE:-0}" != 1 ] || [ -x "$BUILD/stress-ng/stress-ng" ] ||
	die "LAB_NATIVE=1: no $BUILD/stress-ng/stress-ng (make stress-ng)"
mkdir -p "$LAB/debs"
apt_setup
KERNELS=${KERNELS:-$(default_kernels)}
# The words "trixie" and "sid": the newest kernel of that suite.
ks=""
for k in $KERNELS; do
	case $k in
	trixie) k=$(default_kernels | awk '{ print $1 }') ;;
	sid) k=$(default_kernels | awk '{ print $2 }') ;;
	esac
	ks="$ks $k"
done
KERNELS=${ks# }
[ -n "${KERNELS// /}" ] || die "no kernel packages found for flavour $FLAVOUR"
say "kernels: $KERNELS"
# The guest's workloads, one per line: "name stress-mm arguments".
WORKLOADS=$LAB/workloads
if [ -n "${LAB_WORKLOADS:-}" ]; then
	grep -v '^#' "$LAB_WORKLOADS" | grep . > "$WORKLOADS" ||
		die "LAB_WORKLOADS=$LAB_WORKLOADS: no workload in it"
else
	: > "$WORKLOADS"
	for c in $LAB_CHURNS; do
		echo "$c $STRESS_MM_ARGS --shm-pcp-mode $c" >> "$WORKLOADS"
	done
fi
NAMES=$(awk '{ print $1 }' "$WORKLOADS" | tr '\n' ' ')
# Workloads that ask for our module get it in their guest.
WANT_KO=0
[ "${LAB_MODULE:-0}" = 0 ] &&
	grep -qE -- '--(vmalloc-order-method|shm-pcp-mode)[ =]module( |$)' "$WORKLOADS" &&
	WANT_KO=1
NAMES=${NAMES% }
progress_plan "$WORKLOADS"
INITRD=$(build_initramfs)
failed=0
done_dirs=()
nkernels=$(wc -w <<< "$KERNELS")
ki=0
AB_AFTER=${LAB_LEFT_AFTER:-}
for k in $KERNELS; do
	ki=$((ki + 1))
	# what the lab has left after this boot: the other kernels', at this
	# boot's estimate, and what lab/ab.sh says comes after this lab.sh
	if [ "$nkernels" -gt 1 ] || [ -n "$AB_AFTER" ]; then
		LAB_LEFT_AFTER=$(((nkernels - ki) * PROGRESS_EST + ${AB_AFTER:-0}))
		[ "$nkernels" -gt 1 ] && LAB_BOOT_OF="kernel $ki of $nkernels"
	fi
	say "$k: a boot of about $(mmss "$PROGRESS_EST") (estimated from its workloads)"
	dir=$LAB_OUT/$k
	mkdir -p "$LAB/$k"
	mkdir -p "$dir"
	initrd=$INITRD
	case $k in
	built-*)
		if ! img=$(lab/kbuild.sh image "$k") || [ ! -s "$img/bzImage" ]; then
			say "$k: FAILED: no built kernel (lab/kbuild.sh image $k failed)"
			failed=1
			continue
		fi
		vmlinuz=$img/bzImage
		initrd=$(built_initramfs "$k" "$img")
		say "$k: $(sed -n 's/^release: //p' "$img/info") from $img"
		;;
	*)
		vmlinuz=$(fetch_kernel "$k")
		if [ -z "$vmlinuz" ]; then
			say "$k: FAILED: no kernel image (see $dir/download.log)"
			failed=1
			continue
		fi
		;;
	esac
	if [ "${LAB_MODULE:-0}" != 0 ] || [ "$WANT_KO" = 1 ]; then
		if ! ko=$(lab/modbuild.sh "$k"); then
			say "$k: FAILED: our module did not build for it (lab/modbuild.sh $k)"
			failed=1
			continue
		fi
		initrd=$(module_initramfs "$k" "$initrd" "$ko")
	fi
	CONSOLE=$dir/console.log
	if boot "$k" "$vmlinuz" "$initrd"; then
		why="the guest reached init but did not print it (see $CONSOLE)"
	else
		why="the guest died before init $((LAB_BOOT_RETRIES + 1)) times (see $CONSOLE)"
	fi
	[ "${LAB_MODULE:-0}" = 0 ] &&
		save "$dir/fingerprint" SMM-FINGERPRINT-BEGIN SMM-FINGERPRINT-END "$why"
	for c in $NAMES; do
		save "$dir/run-$c.yaml" "SMM-YAML-BEGIN $c" SMM-YAML-END "$why" ||
			say "$k: workload $c: no report ($why)"
	done
	for p in io-uring fdtable; do
		save "$dir/prove-$p.log" "SMM-PROOF-BEGIN $p" SMM-PROOF-END "$why"
		[ "${LAB_PROVE:-0}" = 1 ] || rm -f "$dir/prove-$p.log.missing"
	done
	for p in free alloc; do
		save "$dir/zl-proof-$p.txt" "SMM-ZLPROOF-BEGIN $p" SMM-ZLPROOF-END "$why"
		[ "${LAB_ZL_PROOF:-0}" = 1 ] || rm -f "$dir/zl-proof-$p.txt.missing"
	done
	# The report a run must leave: the last churn's YAML, or with no
	# churn (fingerprint only) the fingerprint.
	report=$dir/fingerprint
	if [ "${LAB_MODULE:-0}" != 0 ]; then
		module_report "$k" || failed=1
		report=$dir/module.tap
		[ "$LAB_MODULE" = bench ] && report=$dir/bench.txt
	elif [ -n "$NAMES" ]; then
		last=${NAMES##* }
		rm -f "$dir/run.yaml"
		[ -s "$dir/run-$last.yaml" ] && ln -sf "run-$last.yaml" "$dir/run.yaml"
		report=$dir/run.yaml
	fi
	if grep -aqE "Kernel panic|BUG:|WARNING:|Oops" "$CONSOLE" ||
		! grep -aq "^SMM-DONE" "$CONSOLE" || [ ! -s "$report" ]; then
		say "$k: FAILED (panic, BUG/WARNING/Oops, timeout or no report); last console lines:"
		tail -n 15 "$CONSOLE" | tr -d '\r' | sed 's/^/    /' >&2
		failed=1
		continue
	fi
	[ -s "$dir/boot-retries" ] && say "$k: reached init after $(cat "$dir/boot-retries") retried boot(s)"
	[ "${LAB_MODULE:-0}" = 0 ] &&
		say "$k: fingerprint: $(grep '^label:' "$dir/fingerprint" | cut -d' ' -f2-)"
	if [ -n "${LAB_MMTESTS:-}" ]; then
		for c in $LAB_MMTESTS; do
			if grep -aq "^mmtests: $c: exit 0" "$CONSOLE" && [ -d "$dir/mmtests/$c" ]; then
				say "$k: mmtests $c: $dir/mmtests/$c"
			else
				say "$k: mmtests $c: FAILED ($(tr -d '\r' < "$CONSOLE" | grep -a -m1 "^mmtests: $c\|^mmtests: cannot" || echo "no result"); $dir/mmtests/$c.log)"
				failed=1
			fi
		done
	fi
	m=$(grep -a "^SMM-MODULES " "$CONSOLE" | tr -d '\r' | sed 's/^SMM-MODULES //')
	[ -n "$m" ] && say "$k: modules: $m"
	done_dirs+=("$dir")
done
if [ "${LAB_MODULE:-0}" = bench ] && [ ${#done_dirs[@]} -ge 1 ]; then
	lab/modtable.sh "${done_dirs[@]}"
	lab/modplot.sh "$LAB_OUT/module-bench.svg" "${done_dirs[@]}" \
		--caption "GUEST_CPUS=$GUEST_CPUS${LAB_QEMU_EXTRA:+, $LAB_QEMU_EXTRA}; $(date +%F)" ||
		failed=1
fi
if [ ${#done_dirs[@]} -eq 2 ]; then
	for c in $NAMES; do
		say "$c: ${done_dirs[0]##*/} (base) against ${done_dirs[1]##*/}"
		# The kernels differ by design (--allow-param-diff lets their
		# command lines differ too). A comparison that cannot decide
		# (too few runs) is reported, not a lab failure: the guests'
		# failures are.
		"$BUILD/stress-mm" compare --allow-param-diff \
			"${done_dirs[0]}/run-$c.yaml" "${done_dirs[1]}/run-$c.yaml"
		[ $? -le 1 ] || say "$c: stress-mm compare could not decide (see above)"
	done
fi
exit $failed
