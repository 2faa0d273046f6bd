#!/bin/bash
# The tree is laid out by where code runs (core-helpers/README.md), and the
# build proves it: the plugin needs no libyaml and holds no front-end code;
# worker and common code include only their own world's headers; no source
# file outgrows one job (600 lines).
. "$(dirname "$0")/lib.sh"

[ -f "$SO" ] || skip_all "$SO not built"
command -v nm > /dev/null && command -v readelf > /dev/null ||
	skip_all "nm/readelf not installed (binutils)"
plan 6

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

# stressor_file NAME: NAME is "../" and one of the top-level stressor
# files that the plugin's glue compiles in: core-vmalloc.c, or a
# stress-*.c with a stressor record (stressor_info_t; stress-mm.c, the
# front end's main, has none).
stressor_file() {
	case $1 in
	../core-vmalloc.c) [ -f "$TOP/${1#../}" ] ;;
	../stress-*.c) grep -q 'stressor_info_t stress_' "$TOP/${1#../}" 2>/dev/null ;;
	*) false ;;
	esac
}

# includes_outside WORLD-DIRS FILE...: each #include "x" of FILE that is
# not in one of the directories (config.h, install-paths.h and the BPF
# skeleton counters.skel.h are generated into build/). A name with ".."
# is outside, whatever it resolves to, unless STRESSORS=1 and it is a
# stressor file (stressor_file).
includes_outside() {
	local dirs=$1 f h d found
	shift
	for f in "$@"; do
		for h in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do
			case $h in config.h | install-paths.h | counters.skel.h) continue ;; esac
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
worker_dirs="core-helpers/common core-helpers/worker"
bad=$(cd "$TOP" && {
	includes_outside "$worker_dirs" core-helpers/worker/*.[ch]
	STRESSORS=1 includes_outside "$worker_dirs plugin plugin/compat" \
		plugin/*.[ch] plugin/compat/*.h
})
[ -z "$bad" ]
ok $? "worker code and the plugin include only worker, common and plugin headers"
[ -n "$bad" ] && diag "$bad"
# common may include the module's UAPI header: the ABI both sides build against
bad=$(cd "$TOP" && includes_outside "core-helpers/common module" core-helpers/common/*.[ch])
[ -z "$bad" ]
ok $? "common code includes only common headers"
[ -n "$bad" ] && diag "$bad"
# the front end may include bpf/'s layout of what its BPF programs count
bad=$(cd "$TOP" && includes_outside "core-helpers/common core-helpers/front-end bpf" \
	core-helpers/front-end/*.[ch] stress-mm.c)
[ -z "$bad" ]
ok $? "front-end code includes only front-end, common and bpf/ headers"
[ -n "$bad" ] && diag "$bad"

# The stressor files (stress-*.c, core-vmalloc.c at the top) are
# stress-ng's files, in its layout, where one file is one stressor and
# its own helpers (stress-vm.c is 4,000 lines): upstream/style-check holds
# them to stress-ng's rules instead. The front end's main is ours.
big=$(cd "$TOP" && wc -l stress-mm.c core-helpers/*/*.c plugin/*.c |
	awk '$2 != "total" && $1 > 600 { print $2 " (" $1 " lines)" }')
[ -z "$big" ]
ok $? "no .c file of ours is over 600 lines (the stressor files are stress-ng's)"
[ -n "$big" ] && diag "$big"
done_testing
