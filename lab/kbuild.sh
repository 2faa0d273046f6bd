#!/bin/bash
# lab/kbuild.sh - lab kernels built from Debian's linux-source-X, configured
# from this project's fragment, unpatched and with each variant patch.
#
#   make lab-kernels [KERNEL_SRC=7.2] [PATCHES="lab/patches/NAME.patch ..."]
#                    [LAB_KCACHE=dir] [JOBS=N]
#
#   lab/kbuild.sh [build]        fetch, configure, build the unpatched
#                                kernel, then each variant (cached)
#   lab/kbuild.sh image NAME     build NAME if it is not cached, print its
#                                cache directory (lab.sh: KERNELS=built-...)
#   lab/kbuild.sh fetch          print the path of the source package
#   lab/kbuild.sh partial DIR    extract into DIR only what configuring and
#                                the patches need (test/86-lab-patches.t)
#   lab/kbuild.sh configure TREE configure TREE from the fragment, check it
#   lab/kbuild.sh check-config CONFIG   is every line of the fragment there?
#   lab/kbuild.sh dry-run TREE PATCH   does PATCH apply to TREE?
#
# KERNEL_SRC is X of Debian's linux-source-X (default 7.2, the one in sid),
# or X=VERSION to pin a package version. PATCHES lists variant patches
# (default: every lab/patches/*.patch); each variant is the unpatched
# source plus that one patch, named after the file (vfree-per-page).
# NAME is built-X for the unpatched kernel and built-X+VARIANT for a
# variant; VARIANT is a file of PATCHES or lab/patches/VARIANT.patch.
#
# Under LAB_KCACHE (default $BUILD/lab-kernels):
#   debs/                 the source package (fetched once)
#   trees/<pkg>_<ver>/    one extracted, configured and built tree per
#                         version; after a run it holds the unpatched build
#   images/<ver>[+VARIANT]-<key>/   bzImage, System.map, config,
#                         modroot/lib/modules/<release>/ (test_vmalloc.ko),
#                         info, build.log
# <key> hashes the source package, the fragment, the patch and RECIPE: a
# change to any of them is a new image; an unchanged one is never rebuilt.
# Out-of-tree modules (module/, issue 14): make -C <tree> M=<dir> builds
# one module for every image of that tree, since all share one release
# (X.Y.Z-smm), one config and, as long as a patch touches no header, one
# ABI; "kdir:" in each image's info says so or says otherwise. The
# variant shows in the guest's uname -v (#smm-VARIANT).
set -u
cd "$(dirname "$0")/.." || exit 2
TOP=$PWD
BUILD=${BUILD:-$TOP/build}
LAB=$BUILD/lab
LAB_KCACHE=${LAB_KCACHE:-$BUILD/lab-kernels}
KERNEL_SRC=${KERNEL_SRC:-7.2}
FRAGMENT=${KCONFIG_FRAGMENT:-$TOP/lab/kconfig/stress-mm.config}
JOBS=${JOBS:-$(nproc)}
# Bump when the way a kernel is built changes: every cache key changes.
RECIPE=1
LAB_WHO=kbuild
START=$(date +%s)
. "$TOP/lab/lib.sh"

# What building a kernel needs beyond the project's own deps.
KBUILD_DEPS="gcc make libc6-dev flex bison libelf-dev bc libssl-dev kmod cpio xz-utils patch dwarves"

build_deps() {
	local p missing=""
	for p in $KBUILD_DEPS; do
		dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q " installed$" ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || die "kernel build dependencies missing:$missing (run as root, or apt-get install them)"
	say "installing kernel build dependencies:$missing"
	# The system's apt configuration, not the lab's private one.
	(unset APT_CONFIG
		export DEBIAN_FRONTEND=noninteractive
		# shellcheck disable=SC2086 # one word per package
		apt-get update -q && apt-get install -y -q --no-install-recommends $missing) \
		> "$LAB_KCACHE/deps.log" 2>&1 ||
		die "apt-get install$missing failed: see $LAB_KCACHE/deps.log"
}

sha() { sha256sum "$1" | cut -c1-64; }

# --- the source package --------------------------------------------------
# Sets PKG, VER and DEB.
source_pkg() {
	PKG=linux-source-${KERNEL_SRC%%=*}
	case $KERNEL_SRC in
	*=*) VER=${KERNEL_SRC#*=} ;;
	*)
		if [ "$LAB_OFFLINE" = 1 ]; then
			VER=$(cached_version "$PKG" "$LAB_KCACHE/debs" "$LAB/debs")
			[ -n "$VER" ] || die "LAB_OFFLINE=1: no $PKG package cached in $LAB_KCACHE/debs or $LAB/debs (lab/kbuild.sh fetch gets it)"
		else
			VER=$(pkg_version "$PKG")
		fi
		;;
	esac
	[ -n "$VER" ] || die "no package $PKG in trixie or sid (KERNEL_SRC=$KERNEL_SRC)"
	DEB=$(fetch_deb "$PKG" "$VER" "$LAB_KCACHE/debs")
	[ -s "$DEB" ] || die "no $PKG $VER package after download"
}

# The tarball's name inside the package (usr/src/linux-source-X.tar.xz).
tarball_of() { dpkg-deb -c "$1" | awk '{ print $NF }' | grep -m1 '^\./usr/src/linux-source-.*\.tar\.'; }

# extract_tree DEB DIR: the whole source, DIR/linux-source-X; atomic.
extract_tree() {
	local deb=$1 dir=$2 tb
	[ -e "$dir/.smm-extracted" ] && return 0
	say "extracting $(basename "$deb")"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	tb=$(tarball_of "$deb") || die "no source tarball in $deb"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tb" | tar -xJ -C "$dir.tmp" ||
		die "cannot extract $deb"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	date > "$dir/.smm-extracted"
}

# files_of PATCH: the paths a patch touches (its +++ lines, p1).
files_of() { sed -n 's|^+++ [^/]*/\([^	 ]*\).*|\1|p' "$1"; }

# partial DEB DIR PATCH...: only what "make x86_64_defconfig" with the
# fragment needs (Makefiles, Kconfig files, scripts/, the config
# fragments) and the files the patches touch, in a few seconds instead of
# a whole tree.
partial_tree() {
	local deb=$1 dir=$2 tb top
	shift 2
	local files=()
	# Each path once: tar reports a name given twice as not found.
	[ $# -gt 0 ] && mapfile -t files < <(for p in "$@"; do files_of "$p"; done | sort -u)
	tb=$(tarball_of "$deb") || die "no source tarball in $deb"
	rm -rf "$dir"
	mkdir -p "$dir"
	top=$(basename "${tb%.tar.*}")
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tb" | tar -xJ -C "$dir" --wildcards \
		"$top/Makefile" "$top/Kbuild" "$top/*Kconfig*" "$top/scripts/*" \
		"$top/arch/x86/Makefile*" "$top/arch/x86/configs/*" "$top/kernel/configs/*" \
		"$top/include/linux/compiler-version.h" "$top/include/linux/kconfig.h" \
		"${files[@]/#/$top/}" || die "cannot extract the partial tree from $deb"
	echo "$dir/$top"
}

# --- configuration ---------------------------------------------------------
# configure TREE: x86_64_defconfig + kvm_guest.config + our fragment (as
# kernel/configs/smm-lab.config, so that Kbuild merges it and runs
# olddefconfig), then every line of the fragment must be in the result.
configure() {
	local tree=$1 log=$1/.smm-configure.log
	cp "$FRAGMENT" "$tree/kernel/configs/smm-lab.config"
	make -C "$tree" LOCALVERSION= x86_64_defconfig kvm_guest.config smm-lab.config \
		> "$log" 2>&1 || { tail -n 20 "$log" >&2; die "configure failed: see $log"; }
	check_config "$tree/.config" || die "the fragment $FRAGMENT did not survive into $tree/.config (a missing dependency?)"
}

# check_config CONFIG: each "CONFIG_X=v" of the fragment is in CONFIG as is;
# each "# CONFIG_X is not set" has no CONFIG_X= there. Names all misses.
check_config() {
	local cfg=$1 bad=0 line sym want got
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			sym=${line%%=*}
			want=$line ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			want="" ;;
		*) continue ;;
		esac
		got=$(grep -m1 "^$sym=\|^# $sym is not set" "$cfg")
		if [ -n "$want" ] && [ "$got" != "$want" ]; then
			echo "$LAB_WHO: config: wanted $want, got ${got:-nothing (option unknown or dependency missing)}" >&2
			bad=1
		elif [ -z "$want" ] && [ "${got#"$sym="}" != "$got" ]; then
			echo "$LAB_WHO: config: wanted $sym not set, got $got" >&2
			bad=1
		fi
	done < "$FRAGMENT"
	return $bad
}

# --- patches ---------------------------------------------------------------
# dry_run TREE PATCH: 0 when PATCH applies to TREE cleanly; else names the
# patch, the file and each failing hunk with its @@ line, and returns 1.
dry_run() {
	local tree=$1 p=$2 out
	[ -s "$p" ] || { echo "$LAB_WHO: patch $p: no such file or empty" >&2; return 1; }
	[ -n "$(files_of "$p")" ] || { echo "$LAB_WHO: patch $p: not a unified diff (no +++ lines)" >&2; return 1; }
	out=$(patch -d "$tree" -p1 -N --dry-run -F0 < "$p" 2>&1) && return 0
	echo "$LAB_WHO: patch $p does not apply to $(basename "$tree"):" >&2
	echo "$out" | awk -v patch="$p" '
		/^checking file / { file = $3 }
		/^Hunk #[0-9]+ FAILED/ {
			n = substr($2, 2) + 0
			cmd = "awk -v f=\"" file "\" -v n=" n " '\''/^\\+\\+\\+ / { inf = (index($2, f) > 0); h = 0 } inf && /^@@/ && ++h == n { print; exit }'\'' \"" patch "\""
			cmd | getline hdr
			close(cmd)
			print "    " file ": " $0 "  " hdr
			next
		}
		{ print "    " $0 }' >&2
	return 1
}

# touches_headers PATCH: does the patch change a header (then a module
# built against the unpatched tree may not match the variant)?
touches_headers() { files_of "$1" | grep -q '\.h$\|^include/'; }

# A tree left with a patch applied (a run killed mid-variant) is put back.
restore_tree() {
	local tree=$1
	[ -s "$tree/.smm-applied" ] || return 0
	say "reverting $(head -1 "$tree/.smm-applied.name") left applied by an interrupted run"
	patch -d "$tree" -p1 -R -s < "$tree/.smm-applied" > /dev/null ||
		die "cannot revert the patch left in $tree: remove the tree and run again"
	rm -f "$tree/.smm-applied" "$tree/.smm-applied.name"
}

# --- build -----------------------------------------------------------------
# make_kernel TREE LABEL LOG: bzImage and modules, a progress line a minute.
make_kernel() {
	local tree=$1 label=$2 log=$3 t0 pid n=0 rc
	t0=$(date +%s)
	say "build $label: started ($JOBS jobs, log $log)"
	KBUILD_BUILD_VERSION="smm-$label" KBUILD_BUILD_TIMESTAMP="stress-mm lab" \
		KBUILD_BUILD_USER=stress-mm KBUILD_BUILD_HOST=lab \
		make -C "$tree" -j"$JOBS" LOCALVERSION= bzImage modules > "$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2> /dev/null; do
		sleep 1
		n=$((n + 1))
		[ $((n % 60)) -eq 0 ] &&
			say "build $label: $(mmss $(($(date +%s) - t0))) elapsed, $(grep -c '^  CC' "$log") files compiled"
	done
	wait "$pid"
	rc=$?
	BUILD_SECONDS=$(($(date +%s) - t0))
	if [ $rc -ne 0 ]; then
		grep -B2 -A8 -m3 'error' "$log" | tail -n 30 >&2
		die "build $label failed after $(mmss $BUILD_SECONDS): see $log"
	fi
	say "build $label: done in $(mmss $BUILD_SECONDS)"
}

# collect TREE IMG LABEL PATCH KEY: the build's results into IMG (via
# IMG.tmp, so that a half-collected image never looks cached).
collect() {
	local tree=$1 img=$2 label=$3 p=$4 key=$5 rel kdir
	rm -rf "$img.tmp"
	mkdir -p "$img.tmp"
	if ! cp "$tree/arch/x86/boot/bzImage" "$tree/System.map" "$img.tmp/" ||
		! cp "$tree/.config" "$img.tmp/config"; then
		die "cannot copy the build results of $label"
	fi
	rel=$(cat "$tree/include/config/kernel.release")
	make -C "$tree" LOCALVERSION= INSTALL_MOD_PATH="$img.tmp/modroot" INSTALL_MOD_STRIP=1 \
		modules_install > "$img.tmp/modules_install.log" 2>&1 ||
		die "modules_install of $label failed: see $img.tmp/modules_install.log"
	rm -f "$img.tmp/modroot/lib/modules/$rel/build" "$img.tmp/modroot/lib/modules/$rel/source"
	find "$img.tmp/modroot" -name 'test_vmalloc.ko*' | grep -q . ||
		die "$label: test_vmalloc.ko was not built (CONFIG_TEST_VMALLOC=m lost?)"
	kdir="$tree (make -C $tree M=DIR)"
	[ "$p" != none ] && touches_headers "$p" &&
		kdir="$tree with $(basename "$p") applied (the patch changes headers)"
	cat > "$img.tmp/info" << EOF
name: $label
source: $(basename "$DEB")
source-sha256: $(sha "$DEB")
fragment: $FRAGMENT
fragment-sha256: $(sha "$FRAGMENT")
patch: $p
patch-sha256: $(if [ "$p" = none ]; then echo none; else sha "$p"; fi)
recipe: $RECIPE
key: $key
release: $rel
uts-version: $(sed -n 's/.*UTS_VERSION "\(.*\)"/\1/p' "$tree/include/generated/utsversion.h")
build-seconds: $BUILD_SECONDS
built: $(date -u +%FT%TZ)
kdir: $kdir
EOF
	rm -rf "$img"
	mv "$img.tmp" "$img"
}

key_of() { # PATCH|none
	{
		echo "recipe $RECIPE"
		echo "source $DEB_SHA"
		echo "fragment $(sha "$FRAGMENT")"
		if [ "$1" = none ]; then echo "patch none"; else echo "patch $(sha "$1")"; fi
	} | sha256sum | cut -c1-16
}

variant_of() { basename "$1" .patch; }

# img_dir PATCH|none: where that kernel is (or will be) cached.
img_dir() {
	local v=""
	[ "$1" = none ] || v=+$(variant_of "$1")
	echo "$LAB_KCACHE/images/$VER$v-$(key_of "$1")"
}

cached() { [ -s "$1/bzImage" ] && [ -s "$1/info" ]; }

# build_all PATCH...: the unpatched kernel, then each variant; prints one
# "name dir" line per kernel on stdout.
build_all() {
	local tree img p todo=() label t0
	mkdir -p "$LAB_KCACHE/images" "$LAB_KCACHE/trees"
	DEB_SHA=$(sha "$DEB")
	for p in none "$@"; do
		img=$(img_dir "$p")
		if cached "$img"; then
			say "$(basename "$img"): cached, skipped ($(sed -n 's/^build-seconds: //p' "$img/info") s to build)"
		else
			todo+=("$p")
		fi
	done
	tree=$LAB_KCACHE/trees/${PKG}_$VER
	# Even with everything cached, a tree left patched by an interrupted
	# run is put back: out-of-tree modules are built against it.
	if [ ${#todo[@]} -eq 0 ] && ls "$tree"/linux-source-*/.smm-applied > /dev/null 2>&1; then
		exec 9> "$LAB_KCACHE/lock"
		flock 9
		restore_tree "$(dirname "$(ls "$tree"/linux-source-*/.smm-applied | head -1)")"
	fi
	if [ ${#todo[@]} -gt 0 ]; then
		build_deps
		exec 9> "$LAB_KCACHE/lock"
		flock -n 9 || { say "another kbuild holds $LAB_KCACHE/lock: waiting"; flock 9; }
		extract_tree "$DEB" "$tree"
		tree=$(ls -d "$tree"/linux-source-*/ | head -1)
		tree=${tree%/}
		restore_tree "$tree"
		# Every patch must apply before anything is built.
		for p in "${todo[@]}"; do
			[ "$p" = none ] || dry_run "$tree" "$p" || die "patch $p does not apply: nothing built"
		done
		if [ "$(cat "$tree/.smm-config-key" 2>/dev/null)" != "$(sha "$FRAGMENT") $RECIPE" ] ||
			[ ! -s "$tree/.config" ]; then
			say "configuring $(basename "$tree") from $(basename "$FRAGMENT")"
			rm -f "$tree/.smm-config-key"
			configure "$tree"
			echo "$(sha "$FRAGMENT") $RECIPE" > "$tree/.smm-config-key"
		else
			check_config "$tree/.config" || die "the configured tree no longer matches the fragment"
			say "configured already ($(basename "$FRAGMENT") unchanged)"
		fi
		for p in "${todo[@]}"; do
			img=$(img_dir "$p")
			if [ "$p" = none ]; then
				label=base
				make_kernel "$tree" "$label" "$LAB_KCACHE/build-$VER-$label.log"
			else
				label=$(variant_of "$p")
				cp "$p" "$tree/.smm-applied"
				echo "$p" > "$tree/.smm-applied.name"
				patch -d "$tree" -p1 -N -s < "$p" > /dev/null || die "patch $p failed to apply"
				make_kernel "$tree" "$label" "$LAB_KCACHE/build-$VER-$label.log"
			fi
			cp "$LAB_KCACHE/build-$VER-$label.log" "$tree/.smm-build-$label.log"
			collect "$tree" "$img" "$label" "$p" "$(key_of "$p")"
			cp "$LAB_KCACHE/build-$VER-$label.log" "$img/build.log"
			if [ "$p" != none ]; then
				patch -d "$tree" -p1 -R -s < "$p" > /dev/null || die "cannot revert $p in $tree"
				rm -f "$tree/.smm-applied" "$tree/.smm-applied.name"
			fi
			say "$(basename "$img"): built in $(mmss "$BUILD_SECONDS"), cached"
		done
		# Leave the tree as the unpatched build, so that make -C TREE M=...
		# builds against exactly what the base image is.
		if [ "${todo[*]}" != none ]; then
			t0=$(date +%s)
			make_kernel "$tree" base "$LAB_KCACHE/build-$VER-base-again.log"
			say "tree back to the unpatched build ($(mmss $(($(date +%s) - t0))))"
		fi
	fi
	for p in none "$@"; do
		img=$(img_dir "$p")
		label=built-${KERNEL_SRC%%=*}
		[ "$p" = none ] || label=$label+$(variant_of "$p")
		echo "$label $img"
	done
}

# patch_of VARIANT: the file of PATCHES named VARIANT, else the shipped one.
patch_of() {
	local p
	for p in ${PATCHES:-}; do
		[ "$(variant_of "$p")" = "$1" ] && { echo "$p"; return 0; }
	done
	[ -s "$TOP/lab/patches/$1.patch" ] && { echo "$TOP/lab/patches/$1.patch"; return 0; }
	die "no patch for variant $1 (not in PATCHES, no lab/patches/$1.patch)"
}

abs() { case $1 in /*) echo "$1" ;; *) echo "$TOP/$1" ;; esac; }

main() {
	local cmd=${1:-build} name src v p list=()
	mkdir -p "$LAB_KCACHE" "$LAB"
	case $cmd in
	build)
		apt_setup
		source_pkg
		for p in ${PATCHES-$(ls "$TOP"/lab/patches/*.patch 2> /dev/null)}; do
			p=$(abs "$p")
			[ -s "$p" ] || die "patch $p: no such file"
			list+=("$p")
		done
		say "source $PKG $VER; variants: $(for p in "${list[@]}"; do printf '%s ' "$(variant_of "$p")"; done)"
		build_all "${list[@]}"
		;;
	image)
		name=${2:?usage: kbuild.sh image built-X[+VARIANT]}
		name=${name#built-}
		src=${name%%+*}
		KERNEL_SRC=$src
		[ "$src" != "$name" ] && v=${name#*+} && list+=("$(abs "$(patch_of "$v")")")
		apt_setup
		source_pkg
		build_all "${list[@]}" | tail -n 1 | cut -d' ' -f2
		;;
	fetch)
		apt_setup
		source_pkg
		echo "$DEB"
		;;
	partial)
		apt_setup
		source_pkg
		list=()
		for p in ${PATCHES-$(ls "$TOP"/lab/patches/*.patch 2> /dev/null)}; do list+=("$(abs "$p")"); done
		partial_tree "$DEB" "${2:?usage: kbuild.sh partial DIR}" "${list[@]}"
		;;
	configure) configure "${2:?usage: kbuild.sh configure TREE}" ;;
	check-config) check_config "${2:?usage: kbuild.sh check-config CONFIG}" ;;
	dry-run) dry_run "${2:?usage: kbuild.sh dry-run TREE PATCH}" "$(abs "${3:?usage: kbuild.sh dry-run TREE PATCH}")" ;;
	*) die "unknown command $cmd (build, image, fetch, partial, configure, check-config, dry-run)" ;;
	esac
}

main "$@"
