#!/bin/bash
# The lab's kernel inputs against the source they are for, without a
# kernel build: Debian's linux-source-X (KERNEL_SRC, default 7.2) as
# make lab-kernels or lab/kbuild.sh fetch cached it (LAB_KCACHE/debs;
# nothing is fetched here: LAB_OFFLINE=1), only what configuring and the
# patches need is extracted,
# the tree is configured from lab/kconfig/stress-mm.config and every
# option of the fragment must be in the resulting .config; every shipped
# patch must apply (dry run) and say what it does and why. Without the
# package cached, a skip that says so.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
src=linux-source-${KERNEL_SRC:-7.2}
src=${src%%=*}
kcache=${LAB_KCACHE:-$BUILD/lab-kernels}
[ -n "$(ls "$kcache/debs/${src}_"*.deb "$BUILD/lab/debs/${src}_"*.deb 2> /dev/null)" ] ||
	skip_all "no $src package cached: none in $kcache/debs or $BUILD/lab/debs (make check fetches nothing; lab/kbuild.sh fetch or make lab-kernels fetches it once)"
patches=(lab/patches/*.patch)
[ -e "${patches[0]}" ] || skip_all "no patches in lab/patches"
plan $((3 + 2 * ${#patches[@]}))
diag_file() { [ -s "$1" ] && diag "$(cat "$1")"; }

BUILD=$BUILD LAB_OFFLINE=1 lab/kbuild.sh partial "$TMPD/src" > "$TMPD/tree" 2> "$TMPD/partial.log"
rc=$?
tree=$(cat "$TMPD/tree")
diag_file "$TMPD/partial.log"
[ $rc -eq 0 ] && [ -s "$tree/mm/vmalloc.c" ] && [ -s "$tree/Kconfig" ]
ok $? "$src from the cache, nothing fetched, and the files the patches and kconfig need extracted ($tree)"

if command -v flex > /dev/null && command -v bison > /dev/null; then
	BUILD=$BUILD lab/kbuild.sh configure "$tree" 2> "$TMPD/configure.log"
	ok $? "x86_64_defconfig + kvm_guest.config + lab/kconfig/stress-mm.config: every option of the fragment is in .config"
	diag_file "$TMPD/configure.log"
	# The check itself must be able to fail: an option this kernel does
	# not know, and a value the fragment does not ask for.
	{ cat lab/kconfig/stress-mm.config; echo "CONFIG_SMM_NO_SUCH_OPTION=y"; } > "$TMPD/bad.config"
	sed 's/^CONFIG_TEST_VMALLOC=m$/CONFIG_TEST_VMALLOC=y/' "$tree/.config" > "$TMPD/bad.dotconfig"
	! KCONFIG_FRAGMENT=$TMPD/bad.config lab/kbuild.sh check-config "$tree/.config" 2> "$TMPD/bad.log" &&
		grep -q "wanted CONFIG_SMM_NO_SUCH_OPTION=y, got nothing" "$TMPD/bad.log" &&
		! lab/kbuild.sh check-config "$TMPD/bad.dotconfig" 2>> "$TMPD/bad.log" &&
		grep -q "wanted CONFIG_TEST_VMALLOC=m, got CONFIG_TEST_VMALLOC=y" "$TMPD/bad.log"
	ok $? "the config check names an unknown option and a changed value"
	diag_file "$TMPD/bad.log"
else
	skip "fragment configures" "flex or bison missing (make deps)"
	skip "config check can fail" "flex or bison missing (make deps)"
fi

for p in "${patches[@]}"; do
	lab/kbuild.sh dry-run "$tree" "$p" 2> "$TMPD/dry.log"
	ok $? "$p applies to $(basename "$tree") (dry run)"
	diag_file "$TMPD/dry.log"
	# The header, before the diff: what the patch does and why.
	sed '/^--- /,$d' "$p" > "$TMPD/header"
	grep -q "^What: ." "$TMPD/header" && grep -q "^Why: ." "$TMPD/header" &&
		[ "$(wc -l < "$TMPD/header")" -ge 6 ]
	ok $? "$p has a header saying what it does and why"
done
done_testing
