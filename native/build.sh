#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# native/build.sh BUILD: stress-ng with stress-mm's stressors built in,
# into BUILD/stress-ng/ (stress-ng, stress-ng.1). Run by `make stress-ng`.
# native/build.sh --source: print the stress-ng source it would use; exit
# 1, saying why, when there is none (make check and the tests ask).
#
# STRESS_NG_SRC: a stress-ng release tarball or a stress-ng tree (a git
# checkout or not; never written to), 0.22.00 or later: the stressor
# files use stress-ng's helpers of that release (stress_setting_get(),
# exercises[]). Default: the fixture ../shared/fixtures/stress-ng-0.22.00.tar.xz
# next to this repository.
#
# What is built is what upstream gets (doc/upstream.md): the top-level
# stressor files (the list in stressor-files), linked into the tree
# unchanged, registered by
# upstream/register.sh as the patch series registers them, with the
# series' fixes to stress-ng's core (upstream/core/*.diff) where they
# apply. Nothing of
# stress-mm's own libraries is linked in: the built-in stressors keep no
# record (stats.h), and the front end takes their figures from
# stress-ng's YAML (doc/native.md).
#
# The tree is copied to BUILD/stress-ng/src and registered there only when
# the source, the registration (register.sh, the man sections) or an
# option row of the stressor files changes: then everything is compiled
# again, as stress-ng's Makefile rebuilds every object when its headers or
# Makefile change. Otherwise stress-ng's own make rebuilds what depends on
# what changed: a stressor file's object and the link. stress-ng's build
# output goes to BUILD/stress-ng/build.log.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 BUILD|--source" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
make=${MAKE:-make}
default=$root/../shared/fixtures/stress-ng-0.22.00.tar.xz
src=${STRESS_NG_SRC:-$default}

die() { echo "native: $*" >&2; exit 1; }

# stress-ng drops its plugin workers' capabilities and sets no_new_privs
# (stress_drop_capabilities(), core-capabilities.c) only where its
# configuration found <sys/capability.h>: without it the plugin's workers
# of this stress-ng would run with every capability of root's
capability_h=/usr/include/sys/capability.h

[ "$1" = --source ] || [ -e "$capability_h" ] ||
	die "no $capability_h (Debian package libcap-dev; make deps installs it): without it stress-ng builds with no way to drop its plugin workers' capabilities, which would then keep root's"

if [ ! -e "$src" ]; then
	[ -n "${STRESS_NG_SRC:-}" ] && die "STRESS_NG_SRC=$src does not exist"
	die "no stress-ng source: $src does not exist (the default: the fixture stress-ng-0.22.00.tar.xz in ../shared/fixtures next to this repository); give one: make stress-ng STRESS_NG_SRC=DIR|TARBALL"
fi
src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
if [ "$1" = --source ]; then
	echo "$src"
	exit 0
fi
build=$(cd "$1" && pwd)
out=$build/stress-ng
tree=$out/src
files=$("$root/scripts/stressor-files")
mkdir -p "$out"

# The files of a tree to copy: a git checkout's tracked and untracked
# files (not its .git, not what it ignores), else every file.
tree_files() {
	if git -C "$1" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		git -C "$1" ls-files -z -co --exclude-standard
	else
		(cd "$1" && find . -path ./.git -prune -o -type f -print0)
	fi
}

# What the copied and registered tree depends on, in one line.
identity() {
	if [ -d "$src" ]; then
		head=$(git -C "$src" rev-parse HEAD 2> /dev/null || echo no-git)
		newest=$(tree_files "$src" | (cd "$src" && xargs -0 stat -c '%Y %n') |
			sort -n | tail -n 1)
		nfiles=$(tree_files "$src" | tr -cd '\0' | wc -c)
		echo "dir $src $head $nfiles $newest"
	else
		echo "tarball $src $(stat -c '%s %Y' "$src")"
	fi
	cat "$root/stressor-files" "$root/upstream/register.sh" "$root"/upstream/*.man \
		"$root"/upstream/core/*.diff | cksum
	(cd "$root" && grep -h '{ *OPT_' stress-vmalloc-order.c stress-shm-pcp.c) | cksum
	# stress-ng's configuration probes the system's headers once, at the
	# first build of a tree: a tree configured without libcap's is made
	# again once it is there
	echo "libcap $(ls "$capability_h" 2> /dev/null)"
}

copy_tree() {
	rm -rf "$tree"
	mkdir -p "$tree"
	if [ -d "$src" ]; then
		tree_files "$src" | (cd "$src" && tar --null -T - -cf -) |
			tar -C "$tree" -xf -
		if rev=$(git -C "$src" rev-parse HEAD 2> /dev/null); then
			echo "#define STRESS_GIT_COMMIT_ID \"$rev\"" > "$tree/git-commit-id.h"
		fi
		if [ -e "$tree/config.h" ] || ls "$tree"/*.o > /dev/null 2>&1; then
			"$make" -C "$tree" -s clean > /dev/null 2>&1 || true
		fi
	else
		tar -C "$tree" --strip-components=1 -xf "$src" ||
			die "$src: not a tar archive of a stress-ng tree"
	fi
}

id=$(identity)
if [ ! -f "$out/source.id" ] || [ "$id" != "$(cat "$out/source.id")" ]; then
	rm -f "$out/source.id"
	echo "  NATIVE  copy $src to $tree"
	copy_tree
	if ! grep -q 'stress_setting_get(' "$tree/core-setting.h" 2> /dev/null ||
		! grep -q 'stress_exercises_t' "$tree/stress-ng.h" 2> /dev/null; then
		die "$src: a stress-ng older than 0.22.00 (no stress_setting_get(), no exercises[]): the stressor files need 0.22.00 or later; the plugin runs in any stress-ng from 0.14.04 (doc/plugin.md)"
	fi
	for f in $files; do
		[ ! -e "$tree/$f" ] ||
			die "$tree/$f: this stress-ng has a $f of its own already"
		ln -s "$root/$f" "$tree/$f"
	done
	"$root/upstream/register.sh" "$tree" vmalloc-order
	"$root/upstream/register.sh" "$tree" shm-pcp
	# the series' fixes to stress-ng's core (upstream/core/), where they
	# apply: strict size options, long options' help
	for d in "$root"/upstream/core/*.diff; do
		if patch -d "$tree" -p1 -s -f --dry-run < "$d" > /dev/null 2>&1; then
			patch -d "$tree" -p1 -s -f < "$d"
			echo "  NATIVE  applied upstream/core/${d##*/}"
		else
			echo "  NATIVE  upstream/core/${d##*/} does not apply to this stress-ng: built without it" >&2
		fi
	done
	echo "$id" > "$out/source.id"
fi

# stress-ng's own make decides what to rebuild. Under a make -j the
# jobserver is inherited; run alone, use every CPU.
jobs=
case " ${MAKEFLAGS:-} " in
*jobserver* | *" -j"*) ;;
*) jobs=-j$(nproc) ;;
esac
if ! "$make" -C "$tree" -q stress-ng > /dev/null 2>&1; then
	echo "  NATIVE  make stress-ng in $tree (log: $out/build.log)"
	# shellcheck disable=SC2086
	if ! "$make" -C "$tree" $jobs stress-ng > "$out/build.log" 2>&1; then
		tail -n 30 "$out/build.log" >&2
		die "stress-ng did not build: see $out/build.log"
	fi
fi
for f in stress-ng stress-ng.1; do
	cmp -s "$tree/$f" "$out/$f" ||
		{ cp "$tree/$f" "$out/$f.tmp" && mv "$out/$f.tmp" "$out/$f"; }
done
echo "  NATIVE  $out/stress-ng ($("$out/stress-ng" --version 2> /dev/null | head -n 1))"
