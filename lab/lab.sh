#!/bin/bash
# lab/lab.sh - run stress-mm on other kernels under QEMU and compare them.
#
#   make lab [KERNELS="6.12.117+deb13 7.2.13+deb14"] [STRESS_MM_ARGS="..."]
#            [GUEST_CPUS=2] [GUEST_MEM=2G] [FLAVOUR=cloud-amd64]
#
# For each kernel (a Debian kernel package version; default: the newest 6.12
# in trixie and the newest kernel in sid):
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
#  4. writes build/lab/<kernel>/{run-<churn>.yaml,fingerprint,console.log}:
#     one stress-mm run per LAB_CHURNS setting (default none spin stack),
#     run.yaml pointing at the last; LAB_ACCEL=tcg forces TCG; LAB_PROVE=1
#     first proves the io-uring buffers and fdtable paths with the raised
#     limits (prove-<path>.log).
# A guest that panics, hangs (GUEST_TIMEOUT seconds) or prints
# BUG/WARNING/Oops is killed and reported with its last console lines; the
# lab goes on with the other kernel and exits non-zero at the end. With two
# kernels it ends with stress-mm compare on the pair.
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-$TOP/build}
LAB=$BUILD/lab
FLAVOUR=${FLAVOUR:-cloud-amd64}
GUEST_CPUS=${GUEST_CPUS:-2}
GUEST_MEM=${GUEST_MEM:-2G}
STRESS_MM_ARGS=${STRESS_MM_ARGS:---vmalloc-order 1 --shm-pcp 1 -t 30s --repeat 3}
# One stress-mm run per churn setting, each with STRESS_MM_ARGS.
LAB_CHURNS=${LAB_CHURNS:-none spin stack}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-900}
START=$(date +%s)

say() { echo "lab: [$(($(date +%s) - START))s] $*" >&2; }
die() { echo "lab: $*" >&2; exit 2; }

# --- private apt configuration -------------------------------------------
apt_setup() {
	local apt=$LAB/apt uri
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" \
		"$apt/parts" "$LAB/debs"
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	[ -n "$uri" ] || die "no Debian mirror in the host's apt sources"
	printf 'deb %s trixie main\ndeb %s sid main\n' "$uri" "$uri" > "$apt/sources.list"
	cat > "$apt/apt.conf" <<EOF
Dir::Etc::sourcelist "$apt/sources.list";
Dir::Etc::sourceparts "$apt/parts";
Dir::State::Lists "$apt/lists";
Dir::Cache "$apt/cache";
Acquire::Check-Valid-Until "false";
APT::Sandbox::User "root";
EOF
	export APT_CONFIG=$apt/apt.conf
	if [ ! -s "$apt/updated" ] || [ -n "$(find "$apt/updated" -mmin +720)" ]; then
		say "updating the private package lists (trixie, sid)"
		apt-get update -q > "$apt/update.log" 2>&1 ||
			die "apt-get update failed (archive unreachable?): see $apt/update.log"
		date > "$apt/updated"
	fi
}

default_kernels() {
	local k612 ksid
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

# fetch KVER: prints the path of its vmlinuz
fetch_kernel() {
	local k=$1 dir=$LAB/$1 pkg deb
	mkdir -p "$dir/pkg"
	if [ -z "$(find_vmlinuz "$dir/pkg")" ]; then
		for pkg in "linux-binary-$k-$FLAVOUR" "linux-image-$k-$FLAVOUR"; do
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
		dmesg ulimit uname tr wc head tail seq date env; do
		ln -sf busybox "$root/bin/$a"
	done
	copy_with_libs "$root" /usr/bin/stress-ng "$BUILD/stress-mm" \
		"$BUILD/stress-mm.so" "$BUILD/test/stats-dump"
	mkdir -p "$root/smm/build"
	cp "$BUILD/stress-mm" "$BUILD/stress-mm.so" "$root/smm/build/"
	ln -sf /usr/bin/stress-ng "$root/bin/stress-ng"
	echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
	sed -e "s|@STRESS_MM_ARGS@|$STRESS_MM_ARGS|" \
		-e "s|@LAB_CHURNS@|$LAB_CHURNS|" \
		-e "s|@LAB_PROVE@|${LAB_PROVE:-0}|" lab/guest-init > "$root/init"
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc 2> /dev/null | gzip -1) > "$out"
	echo "$out"
}

# --- boot ----------------------------------------------------------------
boot() { # KVER VMLINUZ INITRAMFS: console in build/lab/KVER/console.log
	local k=$1 dir=$LAB/$1
	if [ -w /dev/kvm ] && [ "${LAB_ACCEL:-}" != tcg ]; then
		qemu_run "$k" "$2" "$3" "-enable-kvm -cpu host" KVM
		# /dev/kvm can be there and still unusable (nested guests
		# that refuse MSRs, or panic): then software emulation.
		grep -aq "SMM-DONE" "$dir/console.log" &&
			! grep -aq "Kernel panic" "$dir/console.log" && return
		say "$k: KVM unusable here ($(grep -a -m1 -i 'error\|fail\|panic' "$dir/console.log" | tr -d '\r')); falling back to TCG"
	fi
	qemu_run "$k" "$2" "$3" "-cpu max" TCG
}

qemu_run() { # KVER VMLINUZ INITRAMFS ACCEL-ARGS NAME
	local k=$1 dir=$LAB/$1 last="" cur qpid
	say "$k: booting ($5, $GUEST_CPUS CPUs, $GUEST_MEM)"
	# shellcheck disable=SC2086
	(timeout --signal=KILL "$GUEST_TIMEOUT" qemu-system-x86_64 $4 \
		-smp "$GUEST_CPUS" -m "$GUEST_MEM" -nographic -no-reboot \
		-kernel "$2" -initrd "$3" -nic none \
		-append "console=ttyS0 panic=-1 oops=panic quiet" \
		< /dev/null > "$dir/console.log" 2>&1) 2> /dev/null &
	qpid=$!
	while kill -0 $qpid 2> /dev/null; do
		sleep 2
		cur=$(grep -a "SMM-PROGRESS" "$dir/console.log" | tail -1 |
			tr -d '\r' | sed 's/.*SMM-PROGRESS //')
		[ -n "$cur" ] && [ "$cur" != "$last" ] && say "$k: $cur"
		last=$cur
	done
	wait $qpid 2> /dev/null
}

extract() { # FILE BEGIN END
	tr -d '\r' < "$1" | awk -v b="$2" -v e="$3" '
		index($0, e) { p = 0 } p { print } index($0, b) { p = 1 }'
}

# --- main ----------------------------------------------------------------
command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 missing (make lab installs qemu-system-x86)"
[ -x /bin/busybox ] || die "busybox missing (apt-get install busybox-static)"
[ -x "$BUILD/stress-mm" ] || die "build first (make)"
mkdir -p "$LAB"
apt_setup
KERNELS=${KERNELS:-$(default_kernels)}
[ -n "${KERNELS// /}" ] || die "no kernel packages found for flavour $FLAVOUR"
say "kernels: $KERNELS"
INITRD=$(build_initramfs)
failed=0
done_dirs=()
for k in $KERNELS; do
	dir=$LAB/$k
	mkdir -p "$dir"
	vmlinuz=$(fetch_kernel "$k")
	if [ -z "$vmlinuz" ]; then
		say "$k: FAILED: no kernel image (see $dir/download.log)"
		failed=1
		continue
	fi
	boot "$k" "$vmlinuz" "$INITRD"
	extract "$dir/console.log" SMM-FINGERPRINT-BEGIN SMM-FINGERPRINT-END > "$dir/fingerprint"
	for c in $LAB_CHURNS; do
		extract "$dir/console.log" "SMM-YAML-BEGIN $c" SMM-YAML-END > "$dir/run-$c.yaml"
	done
	for p in io-uring fdtable; do
		extract "$dir/console.log" "SMM-PROOF-BEGIN $p" SMM-PROOF-END > "$dir/prove-$p.log"
		[ -s "$dir/prove-$p.log" ] || rm -f "$dir/prove-$p.log"
	done
	last=${LAB_CHURNS##* }
	ln -sf "run-$last.yaml" "$dir/run.yaml"
	if grep -aqE "Kernel panic|BUG:|WARNING:|Oops" "$dir/console.log" ||
		! grep -aq "^SMM-DONE" "$dir/console.log" || [ ! -s "$dir/run.yaml" ]; then
		say "$k: FAILED (panic, BUG/WARNING/Oops, timeout or no report); last console lines:"
		tail -n 15 "$dir/console.log" | tr -d '\r' | sed 's/^/    /' >&2
		failed=1
		continue
	fi
	say "$k: fingerprint: $(grep '^label:' "$dir/fingerprint" | cut -d' ' -f2-)"
	done_dirs+=("$dir")
done
if [ ${#done_dirs[@]} -eq 2 ]; then
	for c in $LAB_CHURNS; do
		say "churn $c: ${done_dirs[0]##*/} (base) against ${done_dirs[1]##*/}"
		"$BUILD/stress-mm" compare "${done_dirs[0]}/run-$c.yaml" \
			"${done_dirs[1]}/run-$c.yaml"
		[ $? -le 1 ] || failed=1
	done
fi
exit $failed
