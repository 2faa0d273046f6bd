#!/bin/bash
# The tree is laid out by where code runs (doc/layout.md), and the
# build proves it: the plugin needs no libyaml and holds no front-end code;
# worker and common code include only their own world's headers; the front
# end's parts include only their own and lower parts' headers; no source
# file outgrows one job (600 lines).
. "$(dirname "$0")/lib.sh"

[ -f "$SO" ] || skip_all "$SO not built"
command -v nm > /dev/null && command -v readelf > /dev/null ||
	skip_all "nm/readelf not installed (binutils)"
plan 10

needed=$(readelf -d "$SO" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
case " $needed" in
*" libyaml"*) ok 1 "the plugin's NEEDED entries have no libyaml ($needed)" ;;
*) ok 0 "the plugin's NEEDED entries have no libyaml ($needed)" ;;
esac

fe_syms=$(nm --defined-only "$BUILD/libfrontend.a" 2>/dev/null |
	awk '$2 ~ /^[TDBR]$/ { print $3 }' | sort -u)
so_syms=$(nm --defined-only "$SO" | awk '{ print $3 }' | sort -u)
both=$(comm -12 <(echo "$fe_syms") <(echo "$so_syms"))
[ -n "$fe_syms" ] && [ -z "$both" ]
ok $? "the plugin defines no symbol of the front-end archive"
[ -n "$both" ] && diag "in both: $both"

# stressor_file NAME: NAME is one the plugin may include of the stressor
# files: "../" and a stress-*.c with a stressor record (stressor_info_t),
# which its glue compiles in, or a top-level header of the stressor files
# (stressor-files): the core's declared interface (core-vmalloc-kind.h
# for the module's kind). The core's .c files are objects of their own.
stressor_file() {
	case $1 in
	../stress-*.c) grep -q 'stressor_info_t stress_' "$TOP/${1#../}" 2>/dev/null ;;
	*/* | *..*) false ;;
	*.h) "$TOP/scripts/stressor-files" | grep -qx "$1" ;;
	*) false ;;
	esac
}

# plain_stressor_header NAME: NAME is a top-level header of the stressor
# files (stressor-files) that needs nothing of stress-ng (no "stress-ng.h"
# and no other header of ours): plain C that every world may include.
plain_stressor_header() {
	case $1 in */* | *..*) return 1 ;; esac
	"$TOP/scripts/stressor-files" | grep -qx "$1" &&
		! grep -q '^#include "' "$TOP/$1"
}

# includes_outside WORLD-DIRS FILE...: each #include "x" of FILE that is
# not in one of the directories (config.h, install-paths.h, the BPF
# skeleton counters.skel.h and stressor-opts.h are generated into build/),
# nor a plain stressor header. A name with ".." is outside, whatever it
# resolves to, unless STRESSORS=1 and it is a stressor file
# (stressor_file).
includes_outside() {
	local dirs=$1 f h d found
	shift
	for f in "$@"; do
		for h in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do
			case $h in config.h | install-paths.h | counters.skel.h | stressor-opts.h) continue ;; esac
			plain_stressor_header "$h" && continue
			if [ "${STRESSORS:-0}" = 1 ] && stressor_file "$h"; then
				continue
			fi
			case $h in *..*)
				echo "$f includes $h"
				continue
				;;
			esac
			found=0
			for d in $dirs; do
				[ -f "$TOP/$d/$h" ] && found=1
			done
			[ $found = 1 ] || echo "$f includes $h"
		done
	done
}
# The plugin also has its own headers, compat/ (the stress-ng layer the
# stressor files build against) and the stressor files themselves.
worker_dirs="common worker"
bad=$(cd "$TOP" && {
	includes_outside "$worker_dirs" worker/*.[ch]
	STRESSORS=1 includes_outside "$worker_dirs plugin plugin/compat" \
		plugin/*.[ch] plugin/compat/*.h
})
[ -z "$bad" ]
ok $? "worker code and the plugin include only worker, common and plugin headers"
[ -n "$bad" ] && diag "$bad"
# common may include the module's UAPI header: the ABI both sides build against
bad=$(cd "$TOP" && includes_outside "common module" common/*.[ch])
[ -z "$bad" ]
ok $? "common code includes only common headers"
[ -n "$bad" ] && diag "$bad"
# the front end may include bpf/'s layout of what its BPF programs count
fe=front-end
fe_parts="yaml host counters run report compare"
bad=$(cd "$TOP" && includes_outside "common $fe bpf$(
	for p in $fe_parts; do printf ' %s/%s' "$fe" "$p"; done)" \
	$fe/*.[ch] $fe/*/*.[ch])
[ -z "$bad" ]
ok $? "front-end code includes only front-end, common and bpf/ headers"
[ -n "$bad" ] && diag "$bad"

# The front end's parts (front-end/README.md), lowest first:
# a file may include headers of its own part and of the parts below it,
# never one above (the run model at the folder's top is "model"; main.c,
# at the top too, is above every part). part_of FILE: the part of FILE.
fe_ranks="yaml host counters model run report compare main"
part_of() {
	case $1 in
	"$fe"/main.c) echo main ;;
	"$fe"/*/*) local p=${1#"$fe"/}; echo "${p%%/*}" ;;
	"$fe"/*) echo model ;;
	esac
}
rank_of() {
	local i=0 r
	for r in $fe_ranks; do
		[ "$r" = "$1" ] && echo $i && return
		i=$((i + 1))
	done
	echo 99
}
# header_part FILE H: the part whose folder holds header H as FILE sees it
# (its own folder first, as the compiler looks), or nothing (common, bpf,
# generated).
header_part() {
	local h=$2 d
	for d in "$(dirname "$1")" "$fe" $(for p in $fe_parts; do echo "$fe/$p"; done); do
		[ -f "$d/$h" ] && part_of "$d/$h" && return
	done
}
# fe_edges FILE...: "FROM TO FILE HEADER" for every include of one part's
# header from another's.
fe_edges() {
	local f h to
	for f in "$@"; do
		for h in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do
			to=$(header_part "$f" "$h")
			[ -n "$to" ] && [ "$to" != "$(part_of "$f")" ] &&
				echo "$(part_of "$f") $to $f $h"
		done
	done
}
edges=$(cd "$TOP" && fe_edges $fe/*.[ch] $fe/*/*.[ch])
up=$(echo "$edges" | while read -r from to f h; do
	[ -n "$from" ] || continue
	[ "$(rank_of "$from")" -gt "$(rank_of "$to")" ] ||
		echo "$f ($from) includes $h ($to), a part above it"
done)
parts=$(cd "$TOP" && for d in "$fe"/*/; do d=${d%/}; printf '%s ' "${d##*/}"; done)
[ -z "$up" ] && [ "$parts" = "compare counters host report run yaml " ]
ok $? "no front-end include runs up from a part to a higher one (parts: $parts)"
[ -n "$up" ] && diag "$up"
# with ranks there can be no cycle; tsort proves it of the include graph
# itself, whatever the ranks say
cycle=$(echo "$edges" | awk 'NF { print $1, $2 }' | sort -u | tsort 2>&1 >/dev/null)
[ -n "$edges" ] && [ -z "$cycle" ]
ok $? "no include cycle between the front end's parts"
[ -n "$cycle" ] && diag "$cycle"

# The same ranks hold for calls, which no include shows: no object of a
# part needs a symbol that a higher part defines (libfrontend.a's
# members are the front end's files by their names, unique across parts).
# part_of_obj NAME.o: the part of the front-end file NAME.c.
part_of_obj() {
	local f
	for f in "$TOP/$fe"/*.c "$TOP/$fe"/*/*.c; do
		[ "$(basename "$f" .c).o" = "$1" ] && part_of "${f#"$TOP"/}" && return
	done
}
main_o="$BUILD/obj/$fe/main.o"
if [ -f "$BUILD/libfrontend.a" ] && [ -f "$main_o" ]; then
	syms=$( (nm -A "$BUILD/libfrontend.a"; nm -A "$main_o" | sed 's#^[^:]*/main\.o:#x:main.o:#') |
		awk -F: '{ split($3, w, " "); if (w[1] == "U") print $2, w[2]; else if (w[2] ~ /^[TDBR]$/) print $2, "=" w[3] }')
	calls_up=$(echo "$syms" | awk '$2 ~ /^=/ { def[substr($2, 2)] = $1; next }
		{ use[NR] = $1 " " $2 } END { for (i in use) { split(use[i], u, " ");
			if (u[2] in def && def[u[2]] != u[1]) print u[1], u[2], def[u[2]] } }' |
		while read -r obj sym defobj; do
			from=$(part_of_obj "$obj") to=$(part_of_obj "$defobj")
			[ "$(rank_of "$from")" -ge "$(rank_of "$to")" ] ||
				echo "$obj ($from) calls $sym of $defobj ($to), a part above it"
		done)
	[ -n "$syms" ] && [ -z "$calls_up" ]
	ok $? "no front-end object calls into a part above its own"
	[ -n "$calls_up" ] && diag "$calls_up"
else
	skip "no front-end object calls into a part above its own" "not built"
fi

# The stressor files (stress-*.c, core-vmalloc.c at the top) are
# stress-ng's files, in its layout, where one file is one stressor and
# its own helpers (stress-vm.c is 4,000 lines): upstream/style-check holds
# them to stress-ng's rules instead. The front end's main is ours.
big=$(cd "$TOP" && wc -l common/*.c worker/*.c front-end/*.c front-end/*/*.c plugin/*.c |
	awk '$2 != "total" && $1 > 600 { print $2 " (" $1 " lines)" }')
[ -z "$big" ]
ok $? "no .c file of ours is over 600 lines (the stressor files are stress-ng's)"
[ -n "$big" ] && diag "$big"
# stress-ng keeps a stressor in one stress-*.c; the core's files have no
# such exception
big=$(cd "$TOP" && wc -l core-*.[ch] | awk '$2 != "total" && $1 > 1000 { print $2 " (" $1 " lines)" }')
[ -z "$big" ]
ok $? "no top-level core-* file is over 1000 lines"
[ -n "$big" ] && diag "$big"
done_testing
