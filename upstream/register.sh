#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# upstream/register.sh TREE vmalloc-order|shm-pcp|kernel-coverage
#
# Registers one of stress-mm's stressors in a stress-ng tree, as stress-ng's
# own commits that add a stressor do, so that `make upstream` can commit
# each step as one patch (upstream/series.sh). The stressor's files (its
# lines of stressor-files: stress-NAME.c and its core-*.c and core-*.h)
# must be in TREE already. It edits,
# in the order each file keeps:
#
#   core-stressors.h  MACRO(name), sorted ignoring '_' as the list is
#   core-opts.h       an OPT_* block, before the next stressor's block
#   core-opts.c       a block of long options, likewise
#   Makefile          STRESS_SRC, and CORE_SRC and HEADERS for its core-*
#   stress-ng.1       the section upstream/NAME.man, before the next one's
#   bash-completion/stress-ng  the options with named values
#                     (TYPE_ID_SIZE_T_METHOD rows) in the label lists that
#                     ask stress-ng for them: --*-method ones in the list
#                     holding --vm-method, the others in --vm-madvise's
#
# and with kernel-coverage, kernel-coverage.sh: upstream/NAME.coverage of
# both stressors, each among its neighbours.
#
# The options come from the stressor's own opts[] table (stress_opt_t
# rows), so that the registration cannot drift from the file; the man
# section must name every one of them. Every anchor is one exact line that
# must occur once; a tree that moved on stops with the file, the line
# expected and exit 1. Nothing is guessed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: $0 TREE vmalloc-order|shm-pcp|kernel-coverage" >&2; exit 1; }
die() { echo "upstream: $*" >&2; exit 1; }
moved() { die "$1: expected $2; this stress-ng tree has moved on (upstream/register.sh knows master 291fc4341)"; }

[ $# -eq 2 ] || usage
tree=$1 what=$2
[ -f "$tree/core-stressors.h" ] || die "$tree: no core-stressors.h: not a stress-ng tree"

frag=$(mktemp -d)
trap 'rm -rf "$frag"' EXIT

# count FILE ERE: lines of FILE matching the awk regular expression ERE
# (ERE travels in the environment: awk -v would eat its backslashes).
count() { UP_RE=$2 awk '$0 ~ ENVIRON["UP_RE"] { n++ } END { print n + 0 }' "$1"; }

# insert FILE START before|after FRAGMENT: FRAGMENT's lines before or after
# the one line of TREE/FILE that starts with START.
insert() {
	f=$tree/$1
	[ -f "$f" ] || moved "$f" "a file"
	n=$(UP_LINE=$2 awk 'index($0, ENVIRON["UP_LINE"]) == 1 { n++ } END { print n + 0 }' "$f")
	[ "$n" -eq 1 ] || moved "$f" "exactly one line starting '$2' (found $n)"
	UP_LINE=$2 awk -v where="$3" -v frag="$4" '
		function put(  l) { while ((getline l < frag) > 0) print l; close(frag) }
		index($0, ENVIRON["UP_LINE"]) == 1 && where == "before" { put() }
		{ print }
		index($0, ENVIRON["UP_LINE"]) == 1 && where == "after" { put() }' "$f" > "$f.up"
	cat "$f.up" > "$f" && rm -f "$f.up"
}

# pad TEXT: TEXT and the tabs that take it to column 32 from column 8, as
# stress-ng aligns its tables; one space when it is past that.
pad() {
	awk -v s="$1" 'BEGIN {
		c = 8 + length(s); printf "%s", s
		if (c >= 32) { printf " "; exit }
		while (c < 32) { printf "\t"; c = int(c / 8) * 8 + 8 } }'
}

# options NAME: "option has_arg type" per option of stress-NAME.c: the
# stressor, its -ops and every row of its opts[] table.
options() {
	src=$tree/stress-$1.c
	[ -f "$src" ] || die "$src: the stressor file is not in the tree"
	{
		printf '%s 1 -\n%s-ops 1 -\n' "$1" "$1"
		tr '\n\t' '  ' < "$src" |
			grep -o '{ *OPT_[a-z0-9_]*, *"[a-z0-9-]*", *TYPE_ID_[A-Z0-9_]*' |
			sed 's/.*"\([a-z0-9-]*\)", *\(TYPE_ID_[A-Z0-9_]*\)$/\1 \2/' |
			awk '{ print $1, ($2 == "TYPE_ID_BOOL" ? 0 : 1), $2 }'
	} | LC_ALL=C sort -u > "$frag/opts"
	awk -v n="$1" 'index($1, n) != 1 { print; bad = 1 } END { exit bad }' "$frag/opts" > "$frag/bad" ||
		die "$src: opts[] has options not named $1-*: $(cut -d' ' -f1 "$frag/bad" | tr '\n' ' ')"
	[ "$(wc -l < "$frag/opts")" -gt 2 ] ||
		die "$src: no opts[] rows ({ OPT_x, \"name\", TYPE_ID_..., ... }) found"
}

# macro NAME: MACRO(sym) in core-stressors.h's list, sorted as the list is
# (ignoring '_': vm, vma, vm_addr, vm_rw).
macro() {
	f=$tree/core-stressors.h
	sym=$(echo "$1" | tr - _)
	[ "$(count "$f" '^#define STRESSORS\(MACRO\)')" -eq 1 ] ||
		moved "$f" "one line '#define STRESSORS(MACRO)	\\'"
	[ "$(count "$f" "MACRO\\($sym\\)")" -eq 0 ] || die "$f: MACRO($sym) is there already"
	printf '\t%s\\\n' "$(pad "MACRO($sym)")" > "$frag/macro"
	awk -v sym="$sym" -v frag="$frag/macro" '
		function key(s) { gsub(/_/, "", s); return s }
		/^#define STRESSORS\(MACRO\)/ { inlist = 1; print; next }
		inlist && match($0, /MACRO\([a-z0-9_]+\)/) {
			name = substr($0, RSTART + 6, RLENGTH - 7)
			if (!done && key(sym) < key(name)) {
				getline l < frag; print l; done = 1
			}
			if ($0 !~ /\\$/) inlist = 0
		}
		{ print }
		END { exit !done }' "$f" > "$f.up" ||
		moved "$f" "a MACRO(name) line after '#define STRESSORS(MACRO)' that sorts after MACRO($sym)"
	cat "$f.up" > "$f" && rm -f "$f.up"
}

# man NAME NEXT: upstream/NAME.man before the section of stressor NEXT
# (.TP, .B title, .RS 5, .TQ, .B \-\-NEXT N); it must name every option.
man() {
	f=$tree/stress-ng.1
	m=$here/$1.man
	[ -f "$m" ] || die "$m: no man page section for $1"
	while read -r o _ _; do
		grep -qF ".B \\-\\-$(echo "$o" | sed 's/-/\\-/g')" "$m" ||
			die "$m: no '.B \\-\\-$o' for the option $o of stress-$1.c"
	done < "$frag/opts"
	anchor=".B \\-\\-$(echo "$2" | sed 's/-/\\-/g') N"
	n=$(UP_LINE=$anchor awk '$0 == ENVIRON["UP_LINE"] { n++ } END { print n + 0 }' "$f")
	[ "$n" -eq 1 ] || moved "$f" "exactly one line '$anchor' (found $n)"
	UP_LINE=$anchor awk -v frag="$m" '
		{ line[NR] = $0 }
		$0 == ENVIRON["UP_LINE"] { at = NR - 4 }
		END {
			if (line[at] != ".TP" || line[at + 1] !~ /^\.B / ||
			    line[at + 2] != ".RS 5" || line[at + 3] != ".TQ")
				exit 1
			for (i = 1; i <= NR; i++) {
				if (i == at)
					while ((getline l < frag) > 0) print l
				print line[i]
			}
		}' "$f" > "$f.up" ||
		moved "$f" "'.TP', '.B <title>', '.RS 5', '.TQ' right before '$anchor'"
	cat "$f.up" > "$f" && rm -f "$f.up"
}

# add_label MEMBER OPTION: OPTION into the case-label list of
# bash-completion/stress-ng that holds MEMBER (lines of labels,
# "\t'--x' | \\" or "\t'--x' | '--y' | \\", the last ending in ")"), as a
# line of its own before the first line whose label sorts after it, or
# last.
add_label() {
	f=$tree/bash-completion/stress-ng
	awk -v member="'$1'" -v ours="'$2'" '
		function label(s) { return s ~ /^\t\x27--[a-z0-9-]+\x27( \| \x27--[a-z0-9-]+\x27)*( \| \\|\))$/ }
		function first_name(s) { sub(/^\t/, "", s); sub(/ .*/, "", s); sub(/\)$/, "", s); return s }
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++)
				if (label(line[i]) && index(line[i] " ", member " ") + index(line[i], member ")") > 0) { at = i; n++ }
			if (n != 1) exit 1
			for (first = at; first > 1 && label(line[first - 1]) && line[first - 1] ~ /\\$/; first--) ;
			for (last = at; last < NR && line[last] ~ /\\$/ && label(line[last + 1]); last++) ;
			if (line[last] !~ /\)$/) exit 1
			put = 0
			for (i = 1; i <= NR; i++) {
				if (i >= first && i <= last && !put && first_name(line[i]) > ours) {
					printf "\t%s | \\\n", ours; put = 1
				}
				if (i == last && !put) {
					sub(/\)$/, " | \\", line[i]); print line[i]
					printf "\t%s)\n", ours; put = 1
					continue
				}
				print line[i]
			}
		}' "$f" > "$f.up" ||
		moved "$f" "one case label list holding '$1', its last line ending with ')'"
	cat "$f.up" > "$f" && rm -f "$f.up"
}

# completion NAME: NAME's TYPE_ID_SIZE_T_METHOD options in bash-completion's
# list of --*-method options (completed from `stress-ng --X-method which`),
# the others in its list of value options (--vm-madvise's).
completion() {
	awk '$3 == "TYPE_ID_SIZE_T_METHOD" { print $1 }' "$frag/opts" > "$frag/values"
	while read -r o; do
		case $o in
		*-method) add_label --vm-method "--$o" ;;
		*) add_label --vm-madvise "--$o" ;;
		esac
	done < "$frag/values"
	# both lists ask stress-ng for the values: check that they still do
	[ "$(count "$tree/bash-completion/stress-ng" "local methods=\\\$\\(\\\$1 \\\$prev which")" -eq 1 ] ||
		moved "$tree/bash-completion/stress-ng" "one 'local methods=\$(\$1 \$prev which ...' completing the method list"
	return 0
}

# stressor NAME NEXT-OPT NEXT-SRC NEXT-STRESSOR
stressor() {
	name=$1 sym=$(echo "$1" | tr - _)
	options "$name"
	macro "$name"

	# core-opts.h: OPT_ block, a blank line after it.
	awk '{ o = $1; gsub(/-/, "_", o); printf "\tOPT_%s,\n", o } END { print "" }' \
		"$frag/opts" > "$frag/enum"
	insert core-opts.h "	OPT_$(echo "$2" | tr - _)," before "$frag/enum"

	# core-opts.c: long options, aligned as stress-ng aligns them.
	while read -r o arg _; do
		printf '\t%s%s,\tNULL,\tOPT_%s },\n' "$(pad "{ \"$o\",")" "$arg" "$(echo "$o" | tr - _)"
	done < "$frag/opts" > "$frag/longopts"
	echo >> "$frag/longopts"
	insert core-opts.c "	{ \"$2\"," before "$frag/longopts"

	# Makefile: the stressor in STRESS_SRC.
	printf '\tstress-%s.c \\\n' "$name" > "$frag/src"
	insert Makefile "	stress-$3.c \\" before "$frag/src"

	man "$name" "$4"
	completion "$name"
	[ "$(count "$tree/core-stressors.h" "MACRO\\($sym\\)")" -eq 1 ] ||
		moved "$tree/core-stressors.h" "MACRO($sym) once after the edit"
}

# core NAME NEXT: stressor NAME's core-* files (its lines of
# stressor-files), which must be in the tree: the .c in CORE_SRC, the .h
# in HEADERS (the objects depend on HEADERS), before core-NEXT's, in
# stressor-files' order (stress-ng's lists put core-cpu.c before
# core-cpu-cache.c).
core() {
	files=$("$here/../scripts/stressor-files" "$1" 'core-*')
	[ -n "$files" ] || die "$here/../stressor-files: no core file of $1"
	for f in $files; do
		[ -f "$tree/$f" ] || die "$tree/$f: not in the tree"
		printf '\t%s \\\n' "$f"
	done > "$frag/all"
	grep '\.c \\$' "$frag/all" > "$frag/core"
	grep '\.h \\$' "$frag/all" > "$frag/hdr"
	insert Makefile "	core-$2.c \\" before "$frag/core"
	insert Makefile "	core-$2.h \\" before "$frag/hdr"
}

case $what in
vmalloc-order)
	core vmalloc-order vmstat
	stressor vmalloc-order vmstat vnni vnni
	;;
shm-pcp)
	core shm-pcp signal
	stressor shm-pcp shm-sysv shm-sysv shm-sysv
	;;
kernel-coverage)
	for n in shm-pcp vmalloc-order; do
		[ -f "$here/$n.coverage" ] || die "$here/$n.coverage: missing"
	done
	# each after the paragraph of the stressor before it, a blank line after
	{ cat "$here/shm-pcp.coverage"; echo; } > "$frag/shm"
	insert kernel-coverage.sh "do_stress --shm-sysv -1 --shm-sysv-segs 128" before "$frag/shm"
	{ echo; cat "$here/vmalloc-order.coverage"; } > "$frag/vmo"
	insert kernel-coverage.sh "do_stress --vm-addr -1 --vm-addr-numa" after "$frag/vmo"
	;;
*)
	usage
	;;
esac
echo "upstream: $what registered in $tree"
