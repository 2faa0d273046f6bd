#!/bin/bash
# The shared object exports exactly the plugin methods: stress-ng turns
# every exported stress_* symbol into a method, and "all" calls each.
. "$(dirname "$0")/lib.sh"

[ -f "$SO" ] || skip_all "$SO not built"
command -v nm >/dev/null || skip_all "nm not installed (binutils)"
plan 3
want=$("$BUILD/test/tables" methods | sort)
got=$(nm -D --defined-only "$SO" | awk '{ print $3 }' | sort)
[ "$want" = "$got" ]
ok $? "defined dynamic symbols equal the method table"
[ "$want" = "$got" ] || diag "want:" "$want" "got:" "$got"

[ "$(echo "$want" | grep -c .)" -ge 2 ]
ok $? "the method table names vmalloc_order and its paths"

# No exported symbol starts with stress_ besides the methods: stress-ng
# would call it as a method. Only the dynamic table counts: the stressor
# files compiled into the plugin name their static functions stress_*,
# local symbols that stress-ng never sees.
extra=$(nm -D --defined-only "$SO" | awk '$3 ~ /^stress_/ { print $3 }' |
	sort -u | grep -vxF "$want")
[ -z "$extra" ]
ok $? "no other exported symbol starts with stress_"
[ -n "$extra" ] && diag "$extra"
done_testing
