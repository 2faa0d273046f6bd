#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# native/apply.sh TREE GEN-NATIVE GENDIR ROOT BUILD
# native/apply.sh --man TREE GEN-NATIVE
#
# Registers stress-mm's stressors in a fresh stress-ng tree TREE, as a
# stress-ng developer would by hand: the stressor files (symbolic links to
# native/stress-*.c of ROOT), a MACRO() line each in core-stressors.h,
# their OPT_* entries in core-opts.h, their long options in core-opts.c,
# the files in the Makefile's STRESS_SRC and CORE_SRC, an include of
# stress-mm.mk (our headers and libraries, from ROOT and BUILD) at the
# Makefile's end, and a section each in stress-ng.1. What is inserted comes
# from GEN-NATIVE (native/gen-native.c), i.e. from the parameter tables.
# GENDIR receives stress-mm-sng.h: the names of the stress-ng functions
# that differ between the versions this was built against (0.19, 0.22).
#
# --man writes TREE's stress-ng.1 again from the copy of the original that
# the first run kept (stress-ng.1.orig), with the sections as GEN-NATIVE
# makes them now: a help text that changes rewrites the man page, not
# the tree (no object depends on stress-ng.1).
#
# Every step checks the line it anchors on and stops with the file, the
# line it expected and exit 1 when the tree has moved on; nothing is
# guessed. A tree without table-driven options (stress_opt_t with
# TYPE_ID_CALLBACK: Debian bookworm's 0.15.06 among them) is refused in
# one line: the plugin is the way to run stress-mm with it.
set -eu

usage() {
	echo "usage: $0 TREE GEN-NATIVE GENDIR ROOT BUILD | --man TREE GEN-NATIVE" >&2
	exit 1
}
die() { echo "native: $*" >&2; exit 1; }
moved() { die "$1: expected $2; this stress-ng tree has moved on (stress-mm's native/apply.sh knows 0.19.02 and 0.22.00)"; }

frag=$(mktemp -d)
trap 'rm -rf "$frag"' EXIT

# count FILE ERE: lines of FILE matching the awk regular expression ERE.
# (ERE travels in the environment: awk -v would eat its backslashes.)
count() { SMM_RE=$2 awk '$0 ~ ENVIRON["SMM_RE"] { n++ } END { print n + 0 }' "$1"; }

# man TREE GEN-NATIVE: stress-ng.1 from stress-ng.1.orig, a section per
# stressor before the '.LP' that precedes '.SH EXAMPLES'.
man() {
	f=$1/stress-ng.1
	[ -f "$f.orig" ] || cp "$f" "$f.orig"
	[ "$(count "$f.orig" '^\.SH EXAMPLES$')" -eq 1 ] || moved "$f" "one line '.SH EXAMPLES'"
	awk '/^\.SH EXAMPLES$/ { exit !(prev == ".LP") } { prev = $0 }' "$f.orig" ||
		moved "$f" "'.LP' right before '.SH EXAMPLES'"
	"$2" man > "$frag/man"
	awk -v frag="$frag/man" '
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				if (line[i + 1] ~ /^\.SH EXAMPLES$/)
					while ((getline l < frag) > 0) print l
				print line[i]
			}
		}' "$f.orig" > "$frag/stress-ng.1"
	cmp -s "$frag/stress-ng.1" "$f" || cp "$frag/stress-ng.1" "$f"
}

if [ "${1:-}" = --man ]; then
	[ $# -eq 3 ] || usage
	man "$2" "$3"
	exit 0
fi
[ $# -eq 5 ] || usage
tree=$1 gen=$2 gendir=$3 root=$4 build=$5

[ -f "$tree/Makefile" ] || die "$tree: no Makefile: not a stress-ng tree"
version=$(sed -n 's/^VERSION=//p' "$tree/Makefile" | head -n 1)
[ -n "$version" ] || moved "$tree/Makefile" "a line 'VERSION=x.y.z'"
if ! grep -q 'TYPE_ID_CALLBACK' "$tree/core-setting.h" 2>/dev/null ||
	! grep -q '} stress_opt_t;' "$tree/core-parse-opts.h" 2>/dev/null; then
	die "stress-ng $version ($tree) has no table-driven options (stress_opt_t with TYPE_ID_CALLBACK, as 0.19.02 and 0.22.00 have): its stressors cannot be added to it; run stress-mm's plugin with that stress-ng instead (make; stress-ng --plugin-so build/stress-mm.so, or build/stress-mm)"
fi
grep -q 'MACRO(vmalloc_order)' "$tree/core-stressors.h" &&
	die "$tree: stress-mm's stressors are registered already (apply.sh runs on a fresh tree only)"

# insert FILE ERE WHERE FRAGMENT WHAT: FRAGMENT's lines before or after
# (WHERE) the one line of FILE matching ERE, described as WHAT.
insert() {
	f=$tree/$1
	[ "$(count "$f" "$2")" -eq 1 ] || moved "$f" "exactly one line $4"
	SMM_RE=$2 awk -v where="$3" -v frag="$frag/$5" '
		function put(  l) { while ((getline l < frag) > 0) print l }
		$0 ~ ENVIRON["SMM_RE"] && where == "before" { put() }
		{ print }
		$0 ~ ENVIRON["SMM_RE"] && where == "after" { put() }' "$f" > "$f.smm"
	mv "$f.smm" "$f"
}

# 1. The stressor files: links, so that a change in native/ rebuilds them.
for f in stress-vmalloc-order.c stress-shm-pcp.c stress-mm-native.c; do
	[ -e "$tree/$f" ] && die "$tree/$f exists already: this stress-ng has a file of that name"
	ln -s "$root/native/$f" "$tree/$f"
done

# 2. core-stressors.h: one MACRO(name) line each, in the list's order
# (stress-ng sorts it ignoring '_': vm, vma, vm_addr, vm_rw).
f=$tree/core-stressors.h
[ "$(count "$f" '^#define STRESSORS\(MACRO\)')" -eq 1 ] ||
	moved "$f" "one line '#define STRESSORS(MACRO)	\\'"
"$gen" macros > "$frag/macros"
awk -v frag="$frag/macros" '
	function key(s) { gsub(/_/, "", s); return s }
	BEGIN { while ((getline l < frag) > 0) ours[++n] = l }
	/^#define STRESSORS\(MACRO\)/ { inlist = 1; print; next }
	inlist && match($0, /MACRO\([a-z0-9_]+\)/) {
		name = substr($0, RSTART + 6, RLENGTH - 7)
		for (i = 1; i <= n; i++)
			if (!done[i] && key(ours[i]) < key(name)) {
				printf "\tMACRO(%s)\t\\\n", ours[i]; done[i] = 1; put++
			}
		if ($0 !~ /\\$/) inlist = 0
	}
	{ print }
	END { if (put != n) exit 1 }' "$f" > "$f.smm" ||
	moved "$f" "MACRO(name) lines after '#define STRESSORS(MACRO)' sorting after ours"
mv "$f.smm" "$f"
while read -r s; do
	[ "$(count "$f" "MACRO\\($s\\)")" -eq 1 ] || moved "$f" "MACRO($s) once after the edit"
done < "$frag/macros"

# 3. core-opts.h: the OPT_* entries, last in enum stress_op_t.
"$gen" enum > "$frag/enum"
insert core-opts.h '^} stress_op_t;$' before \
	"'} stress_op_t;' ending the option enum" enum

# 4. core-opts.c: the long options, before stress_long_options[]'s end.
"$gen" longopts > "$frag/longopts"
insert core-opts.c '^[ \t]*\{ NULL,[ \t]*0,[ \t]*(NULL|0),[ \t]*0 \}' before \
	"'{ NULL, 0, NULL, 0 }' ending stress_long_options[]" longopts

# 5. Makefile: the files, and stress-mm.mk for our headers and libraries.
printf '\tstress-shm-pcp.c \\\n\tstress-vmalloc-order.c \\\n' > "$frag/stress-src"
insert Makefile '^STRESS_SRC = \\$' after "'STRESS_SRC = \\'" stress-src
printf '\tstress-mm-native.c \\\n' > "$frag/core-src"
insert Makefile '^CORE_SRC = \\$' after "'CORE_SRC = \\'" core-src
[ "$(count "$tree/Makefile" '^stress-ng: config\.h \$\(OBJS\)$')" -eq 1 ] ||
	moved "$tree/Makefile" "one rule 'stress-ng: config.h \$(OBJS)' linking \$(OBJS) \$(LDFLAGS)"
printf '\n# stress-mm: its stressors%s headers and libraries\ninclude stress-mm.mk\n' "'" >> "$tree/Makefile"

uring=
grep -q '^#define HAVE_LIBURING 1' "$build/config.h" && uring=-luring
cat > "$tree/stress-mm.mk" <<EOF
# Written by stress-mm's native/apply.sh: where stress-mm's stressors find
# their headers (stress-mm's tree) and libraries (its build). Unlike the
# Makefile, no object depends on this file.
SMM_ROOT := $root
SMM_BUILD := $build
SMM_GEN := $gendir
SMM_OBJS := stress-shm-pcp.o stress-vmalloc-order.o stress-mm-native.o
SMM_LIBS := \$(SMM_BUILD)/libworker.a \$(SMM_BUILD)/libcommon.a
SMM_HDRS := \$(wildcard \$(SMM_ROOT)/core-helpers/common/*.h \\
	\$(SMM_ROOT)/core-helpers/worker/*.h \\
	\$(SMM_ROOT)/core-helpers/worker/paths/*.h) \\
	\$(SMM_ROOT)/module/stress-mm-vmalloc.h \\
	\$(SMM_ROOT)/native/stress-mm-native.h \\
	\$(SMM_GEN)/stress-mm-opts.h \$(SMM_GEN)/stress-mm-sng.h

# Our files keep stress-ng's warnings quiet: -Werror for them only.
\$(SMM_OBJS): override CFLAGS += -Werror -I\$(SMM_GEN) -I\$(SMM_ROOT)/native \\
	-I\$(SMM_ROOT)/core-helpers/common -I\$(SMM_ROOT)/core-helpers/worker \\
	-I\$(SMM_ROOT)/core-helpers/worker/paths -I\$(SMM_ROOT)/module
\$(SMM_OBJS): \$(SMM_HDRS)
override LDFLAGS += \$(SMM_LIBS) -lbsd -lpthread $uring
stress-ng: \$(SMM_LIBS)
EOF

# 6. stress-ng.1: a section each, after the last stressor's.
man "$tree" "$gen"

# 7. The names of the functions that changed between versions.
# pick FILE WHAT NAME...: the first NAME declared in FILE.
pick() {
	file=$1 what=$2
	shift 2
	for n in "$@"; do
		grep -q "[ *]$n(" "$tree/$file" && { echo "$n"; return; }
	done
	moved "$tree/$file" "a declaration of $what ($*)"
}
get=$(pick core-setting.h "the setting getter" stress_setting_get stress_get_setting)
state=$(pick core-helper.h "the process state setter" stress_proc_state_set stress_set_proc_state)
if grep -q 'define stress_metrics_set(args, idx,' "$tree/stress-ng.h"; then
	metric='stress_metrics_set(args, idx, desc, value, STRESS_METRIC_GEOMETRIC_MEAN)'
elif grep -q 'void stress_metrics_set(stress_args_t \*args, const char \*description' "$tree/stress-ng.h"; then
	metric='stress_metrics_set(args, desc, value, STRESS_METRIC_GEOMETRIC_MEAN)'
else
	moved "$tree/stress-ng.h" "stress_metrics_set() with or without a metric index"
fi
mkdir -p "$gendir"
cat > "$gendir/stress-mm-sng.h" <<EOF
/* Written by stress-mm's native/apply.sh for stress-ng $version: the
 * stress-ng functions whose names or arguments changed between versions. */
#ifndef STRESS_MM_SNG_H
#define STRESS_MM_SNG_H
#define smm_sng_setting_get $get
#define smm_sng_proc_state $state
/* One metric per worker; stress-ng shows their geometric mean. */
#define smm_sng_metric(args, idx, desc, value) \\
	$metric
#endif
EOF
echo "native: stress-ng $version ($tree): vmalloc-order and shm-pcp registered"
