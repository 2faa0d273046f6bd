#!/bin/bash
# lab/modbuild.sh - build our kernel module (module/, stress_mm_vmalloc.ko)
# for a lab kernel, and print the path of the .ko on stdout.
#
#   make module [KERNEL=built-7.2]
#   lab/modbuild.sh KERNEL
#   lab/modbuild.sh release KERNEL   print the kernel release only
#   lab/modbuild.sh chroot SUITE     make (or reuse) the chroot only and
#                                    print its path: CHROOT_DIR (default
#                                    build/module/chroot-SUITE) and
#                                    CHROOT_INCLUDE (default
#                                    gcc,make,libc6-dev; empty: minbase
#                                    alone) say where and what
#
# KERNEL is what lab.sh's KERNELS takes:
#   built-X[+VARIANT]  a kernel built by lab/kbuild.sh from Debian's
#                      linux-source-X: the module is built against its
#                      configured, built tree (LAB_KCACHE/trees/...), so the
#                      vermagic matches; every image of a tree shares one
#                      release and one .ko (unless a variant's patch
#                      changes headers: then it refuses, naming the patch).
#                      The tree is read under a shared lock of
#                      LAB_KCACHE/lock, so that kbuild.sh never patches it
#                      meanwhile.
#   sid, trixie, or a Debian kernel version (7.2.13+deb14, 6.12.117+deb13):
#                      Debian's linux-headers-<version>-$FLAVOUR in a chroot
#                      of the kernel's suite (debootstrap, minbase + gcc,
#                      make, libc6-dev), made from the host's mirror
#                      settings and cached under build/module/chroot-<suite>
#                      (the kernel's kbuild binaries need that suite's C
#                      library: sid's and trixie's are newer than
#                      bookworm's). Acquire::Check-Valid-Until is off there,
#                      as in the lab's private apt configuration.
#
# The module's sources are copied to build/module/<release>/src and built
# there (module/ stays clean); the result is
# build/module/<release>/stress_mm_vmalloc.ko, with build.log beside it.
# Times go to stderr. Building needs no module support in the running
# kernel: only loading does (lab guests, make lab-module).
set -u
cd "$(dirname "$0")/.." || exit 2
TOP=$PWD
BUILD=${BUILD:-$TOP/build}
LAB=$BUILD/lab
LAB_KCACHE=${LAB_KCACHE:-$BUILD/lab-kernels}
FLAVOUR=${FLAVOUR:-cloud-amd64}
MODOUT=$BUILD/module
START=$(date +%s)
LAB_WHO=modbuild
. "$TOP/lab/lib.sh"
KO=stress_mm_vmalloc.ko

# copy_src DIR: the module's sources into DIR (fresh).
copy_src() {
	rm -rf "$1"
	mkdir -p "$1"
	cp "$TOP/module/Kbuild" "$TOP/module/Makefile" "$TOP"/module/*.c \
		"$TOP"/module/*.h "$1/"
}

# --- built kernels ---------------------------------------------------------
# built_tree NAME: sets TREE, REL from the image's info (kbuild.sh image
# builds the kernel first when it is not cached).
built_tree() {
	local img kdir
	img=$(LAB_KCACHE=$LAB_KCACHE lab/kbuild.sh image "$1") || die "$1: lab/kbuild.sh image failed"
	[ -s "$img/info" ] || die "$1: no info in $img"
	REL=$(sed -n 's/^release: //p' "$img/info")
	kdir=$(sed -n 's/^kdir: //p' "$img/info")
	case $kdir in
	*"the patch changes headers"*)
		die "$1: its patch changes headers ($kdir): a module built against the unpatched tree may not match" ;;
	esac
	TREE=${kdir%% (*}
	if [ ! -s "$TREE/Module.symvers" ] || [ ! -s "$TREE/.config" ]; then
		die "$1: $TREE is not a configured, built tree"
	fi
}

build_built() {
	local out t0 rc
	built_tree "$1"
	out=$MODOUT/$REL
	copy_src "$out/src"
	t0=$(date +%s)
	exec 9> "$LAB_KCACHE/lock"
	flock -s -w 1800 9 || die "$LAB_KCACHE/lock: held for 30 min by a kernel build"
	[ -e "$TREE/.smm-applied" ] && die "$TREE has $(cat "$TREE/.smm-applied.name") applied: run lab/kbuild.sh to restore it"
	make -C "$TREE" M="$out/src" modules > "$out/build.log" 2>&1
	rc=$?
	flock -u 9
	[ $rc -eq 0 ] || { tail -n 20 "$out/build.log" >&2; die "$1: module build failed: see $out/build.log"; }
	cp "$out/src/$KO" "$out/$KO"
	say "$1: $out/$KO for $REL built against $TREE in $(($(date +%s) - t0)) s"
	echo "$out/$KO"
}

# --- Debian's kernels --------------------------------------------------------
# deb_version KERNEL: sid/trixie to the newest version of that suite's
# kernel packages (as lab.sh resolves them); a version stays as is.
deb_version() {
	case $1 in
	trixie)
		apt-cache search --names-only "^linux-image-6\.12\..*-$FLAVOUR\$" |
			sed -n "s/^linux-image-\(6\.12\.[^ ]*\)-$FLAVOUR .*/\1/p" | sort -V | tail -1 ;;
	sid)
		apt-cache search --names-only "^linux-binary-[0-9].*-$FLAVOUR\$" |
			sed -n "s/^linux-binary-\([^ ]*\)-$FLAVOUR .*/\1/p" | sort -V | tail -1 ;;
	*) echo "$1" ;;
	esac
}

# suite_of PKG: trixie or sid, whichever of the private lists has PKG
# (sid when both have it: its kbuild is the newer one).
suite_of() {
	local s
	# "pkg | version | http://mirror/debian sid/main amd64 Packages"
	s=$(apt-cache madison "$1" 2>/dev/null | awk -F'|' '{
		n = split($3, w, " ")
		for (i = 1; i <= n; i++)
			if (w[i] ~ /\// && w[i] !~ /:\/\//) { split(w[i], a, "/"); print a[1] }
	}' | sort -u)
	case $s in
	*sid*) echo sid ;;
	*trixie*) echo trixie ;;
	esac
}

# chroot_make SUITE: the cached chroot's path (made the first time).
chroot_make() {
	local suite=$1 dir=${CHROOT_DIR:-$MODOUT/chroot-$1} uri t0 log
	local inc=${CHROOT_INCLUDE-gcc,make,libc6-dev}
	if [ -e "$dir/.smm-ready" ]; then
		say "chroot $suite: cached ($dir, made in $(cat "$dir/.smm-ready") s)"
		echo "$dir"
		return 0
	fi
	[ "$(id -u)" = 0 ] || die "making a chroot needs root"
	command -v debootstrap > /dev/null || {
		say "installing debootstrap"
		(unset APT_CONFIG
			export DEBIAN_FRONTEND=noninteractive
			apt-get install -y -q --no-install-recommends debootstrap) \
			> "$MODOUT/debootstrap-install.log" 2>&1 ||
			die "apt-get install debootstrap failed: see $MODOUT/debootstrap-install.log"
	}
	uri=$(awk '{ print $2; exit }' "$LAB/apt/sources.list")
	t0=$(date +%s)
	log=$(dirname "$dir")/debootstrap-$(basename "$dir").log
	say "chroot $suite: debootstrap --variant=minbase${inc:+ --include=$inc} into $dir (a few minutes)"
	chroot_umount "$dir"
	rm -rf "$dir"
	mkdir -p "$dir"
	debootstrap --variant=minbase ${inc:+--include=$inc} "$suite" "$dir" "$uri" \
		> "$log" 2>&1 || die "debootstrap $suite failed: see $log"
	echo 'Acquire::Check-Valid-Until "false";' > "$dir/etc/apt/apt.conf.d/99smm-valid-until"
	echo "$(($(date +%s) - t0))" > "$dir/.smm-ready"
	say "chroot $suite: made in $(($(date +%s) - t0)) s"
	echo "$dir"
}

chroot_umount() {
	mountpoint -q "$1/proc" 2> /dev/null && umount "$1/proc"
	return 0
}

build_debian() {
	local k=$1 ver pkg suite dir rel out t0 hdr rc
	apt_setup
	ver=$(deb_version "$k")
	[ -n "$ver" ] || die "$k: no kernel version found in the private package lists"
	pkg=linux-headers-$ver-$FLAVOUR
	suite=$(suite_of "$pkg")
	[ -n "$suite" ] || die "$k: no package $pkg in trixie or sid"
	dir=$(chroot_make "$suite") || exit 2
	rel=$ver-$FLAVOUR
	out=$MODOUT/$rel
	mkdir -p "$out"
	trap 'chroot_umount "$dir"' EXIT
	mount -t proc proc "$dir/proc" || die "cannot mount proc in $dir"
	hdr=/usr/src/linux-headers-$rel
	t0=$(date +%s)
	if [ ! -e "$dir$hdr/Makefile" ]; then
		say "$k: installing $pkg in the $suite chroot"
		chroot "$dir" sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -q &&
			apt-get install -y -q --no-install-recommends $pkg" > "$out/headers.log" 2>&1 ||
			die "$k: apt-get install $pkg in the chroot failed: see $out/headers.log"
		say "$k: $pkg installed in $(($(date +%s) - t0)) s"
	else
		say "$k: $pkg already in the chroot"
	fi
	copy_src "$dir/tmp/smm-module-$rel"
	t0=$(date +%s)
	chroot "$dir" make -C "$hdr" M="/tmp/smm-module-$rel" modules > "$out/build.log" 2>&1
	rc=$?
	chroot_umount "$dir"
	trap - EXIT
	[ $rc -eq 0 ] || { tail -n 20 "$out/build.log" >&2; die "$k: module build failed: see $out/build.log"; }
	rm -rf "$out/src"
	cp -a "$dir/tmp/smm-module-$rel" "$out/src"
	cp "$out/src/$KO" "$out/$KO"
	say "$k: $out/$KO for $rel built in the $suite chroot in $(($(date +%s) - t0)) s"
	echo "$out/$KO"
}

main() {
	local what=build k
	case ${1:-} in
	release | chroot)
		what=$1
		shift
		;;
	esac
	k=${1:-built-7.2}
	mkdir -p "$MODOUT" "$LAB"
	case $what-$k in
	release-built-*) built_tree "$k"; echo "$REL" ;;
	release-*) apt_setup; echo "$(deb_version "$k")-$FLAVOUR" ;;
	chroot-*) apt_setup; chroot_make "$k" ;;
	build-built-*) build_built "$k" ;;
	*) build_debian "$k" ;;
	esac
}

main "$@"
