#!/bin/bash
# The native build (native/build.sh, native/apply.sh): the stress-ng that
# make check built from the default source has our stressors and man page
# sections; a second make stress-ng does nothing; a change in native/
# rebuilds one object, one in the worker code no object of stress-ng's
# tree (a relink); apply.sh refuses a tree without table-driven options
# in one line naming the plugin, and stops at every anchor that moved,
# naming the file and the line; it registers 0.19.02 too, with that
# version's function names; a missing source is one clear line.
. "$(dirname "$0")/lib.sh"
need_native
TREE=$BUILD/stress-ng/src
GEN=$BUILD/native/gen-native

plan 17

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
man_ok=1
for o in vmalloc-order vmalloc-order-bytes vmalloc-order-batch vmalloc-order-method \
	vmalloc-order-io-uring vmalloc-order-ops shm-pcp shm-pcp-bytes shm-pcp-method \
	shm-pcp-mode shm-pcp-churn-bytes shm-pcp-churn-batch shm-pcp-churn-procs \
	shm-pcp-cpu shm-pcp-ops; do
	grep -qF ".B \\-\\-${o//-/\\-} " "$BUILD/stress-ng/stress-ng.1" || man_ok=0
done
grep -qF "kernel allocation stressor (stress\\-mm)" "$BUILD/stress-ng/stress-ng.1" || man_ok=0
[ $man_ok -eq 1 ]
ok $? "build/stress-ng/stress-ng.1 has both sections, every option in them"

# Nothing changed: nothing is done.
objs() { find "$TREE" -name '*.o' -printf '%T@ %p\n' | sort -k2; }
objs > "$TMPD/o1"
bin1=$(stat -c %.9Y "$NATIVE")
link1=$(stat -c %.9Y "$TREE/stress-ng")
(cd "$TOP" && make --no-print-directory stress-ng) > "$TMPD/make1" 2>&1
rc=$?
[ $rc -eq 0 ] && ! grep -q "NATIVE  copy\|NATIVE  make\|  CC\|  AR" "$TMPD/make1" &&
	objs | cmp -s - "$TMPD/o1" && [ "$(stat -c %.9Y "$NATIVE")" = "$bin1" ] &&
	[ "$(stat -c %.9Y "$TREE/stress-ng")" = "$link1" ]
ok $? "a second make stress-ng does nothing (rc $rc: $(tr '\n' ' ' < "$TMPD/make1"))"

# changed: the objects of the tree whose time changed since o1; a touched
# file gives the same binary, so the link shows in the tree's stress-ng.
changed() { objs | diff "$TMPD/o1" - | sed -n 's|^> [0-9.]* .*/||p' | tr '\n' ' '; }
touch "$TOP/native/stress-shm-pcp.c"
(cd "$TOP" && make --no-print-directory stress-ng) > "$TMPD/make2" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(changed)" = "stress-shm-pcp.o " ] &&
	[ "$(stat -c %.9Y "$TREE/stress-ng")" != "$link1" ]
ok $? "native/stress-shm-pcp.c changed: that object only, and a relink (rc $rc, rebuilt: $(changed))"
objs > "$TMPD/o1"
link1=$(stat -c %.9Y "$TREE/stress-ng")
touch "$TOP/core-helpers/worker/shm-core.c"
(cd "$TOP" && make --no-print-directory stress-ng) > "$TMPD/make3" 2>&1
rc=$?
[ $rc -eq 0 ] && [ -z "$(changed)" ] && grep -q "shm-core.c" "$TMPD/make3" &&
	[ "$(stat -c %.9Y "$TREE/stress-ng")" != "$link1" ]
ok $? "worker/shm-core.c changed: libworker.a and a relink, no object of stress-ng's tree (rebuilt: $(changed))"

# apply.sh on fresh trees of the default source.
case $src in
*.tar.*) mkdir -p "$TMPD/pristine" && tar -C "$TMPD/pristine" --strip-components=1 -xf "$src" ;;
*) cp -a "$src/." "$TMPD/pristine" ;;
esac
apply() { "$TOP/native/apply.sh" "$1" "$GEN" "$TMPD/gen" "$TOP" "$BUILD"; }

mkdir -p "$TMPD/old"
printf 'VERSION=0.15.06\n' > "$TMPD/old/Makefile"
grep -v TYPE_ID_CALLBACK "$TMPD/pristine/core-setting.h" > "$TMPD/old/core-setting.h"
cp "$TMPD/pristine/core-parse-opts.h" "$TMPD/old/"
apply "$TMPD/old" > "$TMPD/old.out" 2>&1
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < "$TMPD/old.out")" -eq 1 ] &&
	grep -q "stress-ng 0.15.06 .*no table-driven options.*plugin" "$TMPD/old.out" &&
	[ ! -e "$TMPD/old/stress-vmalloc-order.c" ]
ok $? "a tree without table-driven options is refused in one line naming the plugin: $(cat "$TMPD/old.out")"

# break FILE SED-EXPR EXPECTED: apply.sh on a copy where SED-EXPR broke
# FILE's anchor stops with exit 1, naming FILE and EXPECTED.
break_anchor() {
	rm -rf "$TMPD/moved" "$TMPD/gen"
	cp -a "$TMPD/pristine" "$TMPD/moved"
	sed -i "$2" "$TMPD/moved/$1"
	apply "$TMPD/moved" > "$TMPD/moved.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] && grep -qF "$TMPD/moved/$1: expected" "$TMPD/moved.out" &&
		grep -qF "$3" "$TMPD/moved.out"
	ok $? "$1 moved on ($2): exit $rc, $(head -c 200 "$TMPD/moved.out")"
}
break_anchor core-stressors.h 's/^#define STRESSORS(MACRO)/#define STRESSOR_LIST(MACRO)/' "STRESSORS(MACRO)"
break_anchor core-opts.h 's/^} stress_op_t;/} stress_option_t;/' "} stress_op_t;"
break_anchor core-opts.c 's/^\t{ NULL,\t*0,\tNULL,\t0 }/\t{ 0 }/' "{ NULL, 0, NULL, 0 }"
break_anchor Makefile 's/^STRESS_SRC = /STRESSORS_SRC = /' "STRESS_SRC = \\"
break_anchor stress-ng.1 's/^\.SH EXAMPLES/.SH EXAMPLE/' ".SH EXAMPLES"
break_anchor core-setting.h 's/stress_setting_get(/stress_setting_fetch(/' "stress_setting_get stress_get_setting"

# 0.19.02 (Debian trixie's), when its fixture is there: the older names.
old=$TOP/../shared/fixtures/stress-ng-0.19.02.tar.xz
if [ -e "$old" ]; then
	rm -rf "$TMPD/gen" && mkdir -p "$TMPD/t19"
	tar -C "$TMPD/t19" --strip-components=1 -xf "$old"
	apply "$TMPD/t19" > "$TMPD/t19.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q "define smm_sng_setting_get stress_get_setting" "$TMPD/gen/stress-mm-sng.h" &&
		grep -q "define smm_sng_proc_state stress_set_proc_state" "$TMPD/gen/stress-mm-sng.h" &&
		grep -q "stress_metrics_set(args, idx," "$TMPD/gen/stress-mm-sng.h" &&
		grep -q "MACRO(vmalloc_order)" "$TMPD/t19/core-stressors.h"
	ok $? "0.19.02 registers, with its own function names (rc $rc)"
	apply "$TMPD/t19" > "$TMPD/t19b.out" 2>&1
	[ $? -eq 1 ] && grep -q "registered already" "$TMPD/t19b.out"
	ok $? "a tree registered already is refused: $(cat "$TMPD/t19b.out")"
else
	skip "0.19.02 registers" "no $old"
	skip "a tree registered already is refused" "no $old"
fi

if command -v shellcheck > /dev/null; then
	(cd "$TOP" && shellcheck -x native/apply.sh native/build.sh bench/native) > "$TMPD/sc.log" 2>&1
	ok $? "shellcheck: native/apply.sh, native/build.sh, bench/native"
	sed 's/^/# /' "$TMPD/sc.log" | head -20
else
	sh -n "$TOP/native/apply.sh" && sh -n "$TOP/native/build.sh" && bash -n "$TOP/bench/native"
	ok $? "the native scripts parse (shellcheck not installed)"
fi

(cd "$TOP" && STRESS_NG_SRC=$TMPD/none make --no-print-directory stress-ng) > "$TMPD/none.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "^native: STRESS_NG_SRC=$TMPD/none does not exist" "$TMPD/none.out"
ok $? "a missing source: one line naming it (rc $rc)"

done_testing
