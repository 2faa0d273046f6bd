#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# native/build.sh BUILD: stress-ng with stress-mm's stressors built in,
# into BUILD/stress-ng/ (stress-ng, stress-ng.1). Run by `make stress-ng`
# once build/libworker.a, build/libcommon.a and build/native/gen-native
# are up to date.
# native/build.sh --source: print the stress-ng source it would use; exit
# 1, saying why, when there is none (make check and the tests ask).
#
# STRESS_NG_SRC: a stress-ng release tarball or a stress-ng tree (a git
# checkout or not; never written to). Default: the fixture
# ../shared/fixtures/stress-ng-0.22.00.tar.xz next to this repository.
#
# The tree is copied to BUILD/stress-ng/src and registered there
# (native/apply.sh) only when the source, apply.sh or the generated
# registration (stressor and option names) change: then everything is compiled again, as stress-ng's
# Makefile rebuilds every object when its headers or Makefile change.
# Otherwise stress-ng's own make rebuilds what depends on what changed:
# our adapters when native/ or our headers or the generated option rows
# change, a relink when our libraries do, nothing when nothing did.
# stress-ng's build output goes to BUILD/stress-ng/build.log.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 BUILD|--source" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
make=${MAKE:-make}
default=$root/../shared/fixtures/stress-ng-0.22.00.tar.xz
src=${STRESS_NG_SRC:-$default}

die() { echo "native: $*" >&2; exit 1; }

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
gendir=$out/gen
gen=$build/native/gen-native
mkdir -p "$out" "$gendir"

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
	for m in macros enum longopts; do "$gen" "$m"; done | cksum
	cksum < "$root/native/apply.sh"
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
if [ ! -f "$out/source.id" ] || [ "$id" != "$(cat "$out/source.id")" ] ||
	[ ! -f "$tree/stress-mm.mk" ]; then
	rm -f "$out/source.id"
	echo "  NATIVE  copy $src to $tree"
	copy_tree
	"$root/native/apply.sh" "$tree" "$gen" "$gendir" "$root" "$build"
	echo "$id" > "$out/source.id"
fi

# The man page sections and the help and option rows: rewritten only
# when they change; no object of the tree depends on the man page.
"$root/native/apply.sh" --man "$tree" "$gen"
"$gen" header > "$gendir/stress-mm-opts.h.tmp"
if cmp -s "$gendir/stress-mm-opts.h.tmp" "$gendir/stress-mm-opts.h"; then
	rm -f "$gendir/stress-mm-opts.h.tmp"
else
	mv "$gendir/stress-mm-opts.h.tmp" "$gendir/stress-mm-opts.h"
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
