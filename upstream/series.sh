#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# upstream/series.sh BUILD: `make upstream`. Writes the patch series that
# adds vmalloc-order and shm-pcp to stress-ng's master into BUILD/upstream/
# (0000-cover-letter.patch, 0001-..., one file a patch), from
#
#   - stress-ng master: the fixture stress-ng-master-291fc4341.tar.xz in
#     ../shared/fixtures next to this repository, or STRESS_NG_MASTER=PATH
#     (a tarball, a tree, or a git clone: then its HEAD is the base);
#   - the top-level stressor files of this repository (the list in
#     stressor-files: the stressor whose patch adds each), copied
#     unchanged;
#   - upstream/: the fixes to stress-ng's core (core/*.diff, applied
#     first, one patch each), the registration (register.sh), the man page sections
#     (*.man), the kernel-coverage.sh lines (*.coverage) and the commit
#     messages (messages/).
#
# BUILD/upstream/tree is a git tree: the base ("stress-ng master
# 291fc4341" when made from a tarball or a tree) and one commit a patch.
# Author, committer and dates are fixed (UPSTREAM_AUTHOR, UPSTREAM_EMAIL,
# UPSTREAM_DATE change them), and git runs without the user's config, so
# that the same inputs give the same series byte for byte. No
# Signed-off-by: whoever sends the series adds theirs (git am -s, or
# git format-patch -s when rewriting).
set -eu

[ $# -eq 1 ] || { echo "usage: $0 BUILD" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
here=$root/upstream
mkdir -p "$1/upstream"
out=$(cd "$1/upstream" && pwd)
tree=$out/tree
default=$root/../shared/fixtures/stress-ng-master-291fc4341.tar.xz
src=${STRESS_NG_MASTER:-$default}
# The stressor files: the top-level ones (UPSTREAM_FILES=DIR: another
# directory's, for the tests).
files=${UPSTREAM_FILES:-$root}
# stressor_files NAME: the files of stressor NAME's patch
stressor_files() { "$root/scripts/stressor-files" "$1"; }

die() { echo "upstream: $*" >&2; exit 1; }

if [ ! -e "$src" ]; then
	[ -n "${STRESS_NG_MASTER:-}" ] && die "STRESS_NG_MASTER=$src does not exist"
	die "no stress-ng master: $src does not exist (the fixture stress-ng-master-291fc4341.tar.xz in ../shared/fixtures next to this repository); give one: make upstream STRESS_NG_MASTER=DIR|TARBALL"
fi
for f in $(stressor_files vmalloc-order) $(stressor_files shm-pcp); do
	[ -f "$files/$f" ] || die "$files/$f: missing; the series is made from the top-level stressor files"
done

# git without the user's or the system's configuration (format.signoff,
# diff.algorithm, core.abbrev ... would change the output).
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
HOME=$out
GIT_AUTHOR_NAME=${UPSTREAM_AUTHOR:-The stress-mm authors}
GIT_AUTHOR_EMAIL=${UPSTREAM_EMAIL:-stress-mm@localhost}
GIT_AUTHOR_DATE=${UPSTREAM_DATE:-2026-12-02T12:00:00+0000}
GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME
GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL HOME GIT_AUTHOR_NAME \
	GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME \
	GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE
g() { git -C "$tree" -c core.abbrev=12 -c diff.algorithm=myers "$@"; }

# 1. The base: made once per source; a later run resets the kept tree
# to it (BUILD/upstream/tree/.git/upstream-source says what it was made
# from).
if [ -d "$src" ] && git -C "$src" rev-parse --verify -q HEAD > /dev/null 2>&1; then
	ident="git $src $(git -C "$src" rev-parse HEAD)"
elif [ -d "$src" ]; then
	ident="dir $src $(cd "$src" && find . -path ./.git -prune -o -type f -printf '%T@ %s %p\n' | sort | cksum)"
else
	ident="tarball $src $(stat -c '%s %Y' "$src")"
fi
if [ -f "$tree/.git/upstream-source" ] && [ "$(cat "$tree/.git/upstream-source")" = "$ident" ] &&
	g rev-parse -q --verify base > /dev/null; then
	g checkout -q -f -B upstream base
	g clean -q -f -d -x
else
	rm -rf "$tree"
	case $ident in
	git*)
		git clone -q --no-local "$src" "$tree"
		g checkout -q -B upstream
		;;
	*)
		mkdir -p "$tree"
		if [ -d "$src" ]; then
			(cd "$src" && tar --exclude=./.git -cf - .) | tar -C "$tree" -xf -
		else
			tar -C "$tree" --strip-components=1 -xf "$src"
		fi
		[ -f "$tree/core-stressors.h" ] || die "$src: not a stress-ng tree (no core-stressors.h)"
		g init -q -b upstream
		g add -A -f
		g commit -q -m "stress-ng master 291fc4341"
		;;
	esac
	g tag -f base > /dev/null
	echo "$ident" > "$tree/.git/upstream-source"
fi
base="$(g log -1 --format='%h %s' base)"

# commit MESSAGE PATH...: one patch of the series.
commit() {
	msg=$here/messages/$1
	shift
	[ -f "$msg" ] || die "$msg: missing"
	[ $# -eq 0 ] || g add -- "$@"
	g commit -q -F "$msg"
}

# 2. The fixes to stress-ng's core the stressors' options need, one patch
# each (upstream/core/NAME.diff, its message messages/core-NAME.txt).
for d in "$here"/core/*.diff; do
	name=$(basename "$d" .diff)
	g apply --index "$d" || die "upstream/core/$name.diff does not apply to $base"
	commit "core-$name.txt"
done

# 3. vmalloc-order: core-vmalloc, the stressor, its registration.
vmo=$(stressor_files vmalloc-order)
for f in $vmo; do
	cp "$files/$f" "$tree/$f"
done
"$here/register.sh" "$tree" vmalloc-order > /dev/null
# shellcheck disable=SC2086 # one word a file
commit 1-vmalloc-order.txt $vmo \
	core-stressors.h core-opts.h core-opts.c Makefile stress-ng.1 \
	bash-completion/stress-ng

# 4. shm-pcp.
shm=$(stressor_files shm-pcp)
for f in $shm; do
	cp "$files/$f" "$tree/$f"
done
"$here/register.sh" "$tree" shm-pcp > /dev/null
# shellcheck disable=SC2086 # one word a file
commit 2-shm-pcp.txt $shm core-stressors.h core-opts.h core-opts.c \
	Makefile stress-ng.1 bash-completion/stress-ng

# 5. kernel-coverage.sh.
"$here/register.sh" "$tree" kernel-coverage > /dev/null
commit 3-kernel-coverage.txt kernel-coverage.sh

[ -z "$(g status --porcelain)" ] || die "$tree: files left uncommitted: $(g status --porcelain | tr '\n' ' ')"

# 6. The series: the cover letter's subject and text from the branch
# description.
g config branch.upstream.description "$(cat "$here/messages/cover.txt")"
rm -f "$out"/*.patch
g format-patch -q --cover-letter --cover-from-description=subject \
	--no-signature -o "$out" base..upstream
n=0
for p in "$out"/0*.patch; do
	echo "  PATCH   ${p#"$root"/}"
	case $p in *-cover-letter.patch) ;; *) n=$((n + 1)) ;; esac
done
echo "upstream: $n patches on $base in $out"
