#!/bin/bash
# The native build (native/build.sh): the stress-ng that make check built
# from the default source has our stressors, compiled from the top-level
# stressor files themselves (linked into its tree, registered by
# upstream/register.sh as the upstream series registers them), and their
# man page sections; a second make stress-ng does nothing; a change in a
# stressor file rebuilds that object and the link only; a stress-ng older
# than 0.22.00 and a missing source are refused in one line.
. "$(dirname "$0")/lib.sh"
need_native
TREE=$BUILD/stress-ng/src

plan 8

"$NATIVE" --stressors > "$TMPD/stressors" 2>&1
tr ' ' '\n' < "$TMPD/stressors" | grep -qx vmalloc-order &&
	tr ' ' '\n' < "$TMPD/stressors" | grep -qx shm-pcp
ok $? "--stressors lists vmalloc-order and shm-pcp"
src=$("$TOP/native/build.sh" --source)
ver=$("$NATIVE" --version 2>&1 | head -n 1)
case $src in
*stress-ng-0.22.00.tar.xz) echo "$ver" | grep -q "version 0.22.00" ;;
*) true ;;
esac
ok $? "built from $(basename "$src"): $ver"

same=1
for f in $("$TOP/scripts/stressor-files"); do
	[ "$(readlink -f "$TREE/$f")" = "$(readlink -f "$TOP/$f")" ] || same=0
	grep -q "	$f " "$TREE/Makefile" || { same=0; diag "$f: not in its Makefile"; }
done
[ $same -eq 1 ]
ok $? "its tree compiles the top-level stressor files themselves, registered in its Makefile"

man_ok=1
for o in vmalloc-order vmalloc-order-bytes vmalloc-order-batch vmalloc-order-method \
	vmalloc-order-io-uring vmalloc-order-ops shm-pcp shm-pcp-bytes shm-pcp-method \
	shm-pcp-mode shm-pcp-churn-bytes shm-pcp-churn-batch shm-pcp-churn-procs \
	shm-pcp-cpu shm-pcp-ops; do
	grep -qF ".B \\-\\-${o//-/\\-}" "$BUILD/stress-ng/stress-ng.1" || { man_ok=0; diag "man: no --$o"; }
done
[ $man_ok -eq 1 ]
ok $? "build/stress-ng/stress-ng.1 has both sections, every option in them"

# Nothing changed: nothing is done.
objs() { find "$TREE" -name '*.o' -printf '%T@ %p\n' | sort -k2; }
objs > "$TMPD/o1"
bin1=$(stat -c %.9Y "$NATIVE")
link1=$(stat -c %.9Y "$TREE/stress-ng")
(cd "$TOP" && make --no-print-directory stress-ng) > "$TMPD/make1" 2>&1
rc=$?
[ $rc -eq 0 ] && ! grep -q "NATIVE  copy\|NATIVE  make" "$TMPD/make1" &&
	objs | cmp -s - "$TMPD/o1" && [ "$(stat -c %.9Y "$NATIVE")" = "$bin1" ] &&
	[ "$(stat -c %.9Y "$TREE/stress-ng")" = "$link1" ]
ok $? "a second make stress-ng does nothing (rc $rc: $(tr '\n' ' ' < "$TMPD/make1"))"

# changed: the objects of the tree whose time changed since o1; a touched
# file gives the same binary, so the link shows in the tree's stress-ng.
changed() { objs | diff "$TMPD/o1" - | sed -n 's|^> [0-9.]* .*/||p' | tr '\n' ' '; }
touch "$TOP/stress-shm-pcp.c"
(cd "$TOP" && make --no-print-directory stress-ng) > "$TMPD/make2" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(changed)" = "stress-shm-pcp.o " ] &&
	[ "$(stat -c %.9Y "$TREE/stress-ng")" != "$link1" ]
ok $? "stress-shm-pcp.c changed: that object only, and a relink (rc $rc, rebuilt: $(changed))"

# A stress-ng before 0.22.00 (0.19.02, Debian trixie's): refused in one
# line that names the plugin, before anything is built.
old=$TOP/../shared/fixtures/stress-ng-0.19.02.tar.xz
if [ -e "$old" ]; then
	STRESS_NG_SRC=$old "$TOP/native/build.sh" "$TMPD" > "$TMPD/old.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] && grep -q "older than 0.22.00.*plugin" "$TMPD/old.out" &&
		[ ! -e "$TMPD/stress-ng/stress-ng" ]
	ok $? "0.19.02 is refused: exit $rc, $(grep -m1 older "$TMPD/old.out")"
else
	skip "0.19.02 is refused" "no $old"
fi

(cd "$TOP" && STRESS_NG_SRC=$TMPD/none make --no-print-directory stress-ng) > "$TMPD/none.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "^native: STRESS_NG_SRC=$TMPD/none does not exist" "$TMPD/none.out"
ok $? "a missing source: one line naming it (rc $rc)"

done_testing
