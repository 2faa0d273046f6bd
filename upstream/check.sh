#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# upstream/check.sh BUILD: `make upstream-check`, the checks of the series
# in BUILD/upstream/ (made by `make upstream`) that take a stress-ng
# build; TAP on stdout, exit 1 when one failed. Not part of make check
# (about 15 minutes a stress-ng build on 2 CPUs).
#
#   1. git am applies the series to a fresh tree of the master fixture
#      (STRESS_NG_MASTER as for make upstream) ...
#   2. ... which builds with its own make, with gcc and with clang (the
#      newest clang-N installed, else clang; CCS= names the compilers,
#      JOBS=, default -j2, at nice 10), and the build log has no warning
#      in our files (stress-ng builds with -Wall -Wextra);
#   3. our files compiled against a config.h without the HAVE_* they use:
#      no warning, shm-pcp the stub (stress_unimplemented); without
#      __linux__ too: both stubs;
#   4. stress-ng --vmalloc-order 2 and --shm-pcp 2, -t 5 --verify
#      --metrics, exit 0; the core fixes (upstream/core/): a size not
#      read whole refused naming the option, --help's long options;
#   5. debian/tests/fast-test-all limited to our two stressors (its
#      STRESS_NG is a wrapper whose --stressors names only them): each
#      PASSED, or SKIPPED with exit 3 and the reason;
#   6. --klog-check over both: no kernel error or warning logged;
#   7. stress-ng --class vm --sequential 1 -t 1 runs both, each a
#      success (the run's exit status is the other stressors' too).
#
# The built trees stay in BUILD/upstream/check/<compiler>: a second run
# with the same fixture and compiler copies only the files the series
# changed into them (their times kept otherwise), so stress-ng's make
# rebuilds only what depends on them; our three objects are always
# rebuilt, so that their warnings show in every run's log.
# UPSTREAM_BISECT=1 also builds the series up to the vmalloc-order patch (check/patch1, gcc).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 BUILD" >&2; exit 1; }
out=$(cd "$1" && pwd)/upstream
dir=$out/check
make=${MAKE:-make}
jobs=${JOBS:-2}
default=$root/../shared/fixtures/stress-ng-master-291fc4341.tar.xz
src=${STRESS_NG_MASTER:-$default}
# our .c files (stressor-files), without .c
ours=$("$root/scripts/stressor-files" '' '*.c' | sed 's/\.c$//' | tr '\n' ' ')
ours=${ours% }
# and every file of ours, .c and .h, without the suffix: their warnings
mine=$("$root/scripts/stressor-files" '' '*.[ch]' | sed 's/\.[ch]$//' | sort -u | tr '\n' ' ')
mine=${mine% }
# the core files the series' fixes change (upstream/core/): their
# warnings count as ours too
patched="core-parse-opts stress-ng"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=check GIT_AUTHOR_EMAIL=check@localhost
export GIT_COMMITTER_NAME=check GIT_COMMITTER_EMAIL=check@localhost

n=0 failed=0 todos=0
# every_cc LOG NAME: stress-ng's make compiled every .c of stressor NAME
every_cc() {
	local f
	while read -r f; do
		grep -q "CC $f" "$1" || return 1
	done < <("$root/scripts/stressor-files" "$2" '*.c')
}
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		# a "# TODO" may fail without failing the run (TAP)
		case $2 in *"# TODO"*) todos=$((todos + 1)) ;; *) failed=$((failed + 1)) ;; esac
	fi
}
diag() { sed 's/^/# /'; }
secs() { echo $(( $(date +%s) - $1 )); }

ls "$out"/0*.patch > /dev/null 2>&1 || { echo "upstream-check: no series in $out: make upstream" >&2; exit 1; }
[ -e "$src" ] || { echo "upstream-check: no stress-ng master: $src" >&2; exit 1; }
mkdir -p "$dir"
echo "TAP version 13"

# 1. A fresh tree of the fixture, the series applied with git am.
t0=$(date +%s)
am=$dir/am
rm -rf "$am" && mkdir -p "$am"
if [ -d "$src" ]; then
	(cd "$src" && tar --exclude=./.git -cf - .) | tar -C "$am" -xf -
else
	tar -C "$am" --strip-components=1 -xf "$src"
fi
(cd "$am" && git init -q && git add -A -f && git commit -q -m base &&
	git am -q "$out"/0[0-9][0-9][1-9]-*.patch) > "$dir/am.log" 2>&1
rc=$?
set -- "$out"/0[0-9][0-9][1-9]-*.patch
ok $rc "git am applies $# patches to a fresh tree of $(basename "$src") ($(secs "$t0") s)"
diag < "$dir/am.log"

# identity CC: what a kept tree was made from.
identity() {
	stat -c '%n %s %Y' "$src"
	"$1" --version 2>&1 | head -n 1
}

# known_link_failure TREE LOG CC: when every object compiled and the
# link failed only on functions of stress-ng's own that have target_clones
# clones and a resolver but no symbol of their plain name (clang 14 emits
# "f.ifunc" where gcc emits "f"), and none of our objects uses them: says
# so, for a TODO (stress-ng's master with that compiler, not the series).
known_link_failure() {
	local tree=$1 log=$2 u o undef
	grep -q '^LD stress-ng' "$log" || return 0
	undef=$(grep -o "undefined reference to \`[A-Za-z0-9_]*'" "$log" | sed "s/.*\`//; s/'\$//" | sort -u)
	[ -n "$undef" ] || return 0
	for u in $undef; do
		nm "$tree"/*.o 2> /dev/null | grep -q " [Tt] $u\\.resolver\$" || return 0
		for o in $ours; do
			nm "$tree/$o.o" 2> /dev/null | grep -q " U $u\$" && return 0
		done
	done
	echo "stress-ng master does not link with $("$3" --version | head -n 1): target_clones function(s) $(echo "$undef" | tr '\n' ' ')have only .ifunc/.resolver symbols; our objects do not use them"
}

# build NAME CC FROM: BUILD/upstream/check/NAME made from the tree FROM
# (a git tree) and built with CC.
build() {
	name=$1 cc=$2 from=$3 tree=$dir/$1 log=$dir/build-$1.log
	if [ -f "$tree/.check-identity" ] && identity "$cc" | cmp -s - "$tree/.check-identity"; then
		how="kept tree"
		(cd "$from" && git ls-files -z) | while IFS= read -r -d '' f; do
			cmp -s "$from/$f" "$tree/$f" || { mkdir -p "$(dirname "$tree/$f")"; cp -p "$from/$f" "$tree/$f"; touch "$tree/$f"; }
		done
	else
		how="fresh tree"
		rm -rf "$tree"
		cp -a "$from" "$tree"
		identity "$cc" > "$tree/.check-identity"
	fi
	for o in $ours $patched; do rm -f "$tree/$o.o"; done
	t=$(date +%s)
	nice -n 10 "$make" -C "$tree" -j"$jobs" CC="$cc" > "$log" 2>&1
	rc=$?
	todo=
	[ $rc -eq 0 ] || todo=$(known_link_failure "$tree" "$log" "$cc")
	ok $rc "$name: stress-ng's own make with $cc builds $4 ($how, $(secs "$t") s, log $log)${todo:+ # TODO $todo}"
	[ $rc -eq 0 ] || tail -n 8 "$log" | diag
	grep -E "($(echo "$mine $patched" | tr ' ' '|'))\.[ch]:[0-9]+(:[0-9]+)?: (warning|error)" "$log" > "$dir/warnings-$name"
	{ [ $rc -eq 0 ] || [ -n "$todo" ]; } && [ ! -s "$dir/warnings-$name" ] &&
		every_cc "$log" vmalloc-order &&
		{ [ ! -f "$tree/stress-shm-pcp.c" ] || grep -q "CC stress-shm-pcp.c" "$log"; }
	ok $? "$name: our files compiled and added no warning ($(wc -l < "$dir/warnings-$name") in the log)"
	head -n 20 "$dir/warnings-$name" | diag
}

# The newest clang installed (clang-N), else clang: bookworm's clang 14
# cannot link stress-ng master itself (known_link_failure), its clang-19
# can.
newest_clang() {
	compgen -c clang- | grep -E '^clang-[0-9]+$' | sort -t- -k2 -n | tail -n 1 | grep . || echo clang
}

for cc in ${CCS:-gcc $(newest_clang)}; do
	if command -v "$cc" > /dev/null; then
		build "$cc" "$cc" "$am" "the series"
	else
		n=$((n + 1)); echo "ok $n - stress-ng's own make with $cc # SKIP $cc not installed"
	fi
done

# UPSTREAM_BISECT=1: the series up to the vmalloc-order patch builds too (one more stress-ng build).
if [ "${UPSTREAM_BISECT:-0}" = 1 ]; then
	p1=$dir/am-patch1
	rm -rf "$p1" && cp -a "$am" "$p1"
	git -C "$p1" checkout -q HEAD~2
	build patch1 gcc "$p1" "the series up to the vmalloc-order patch"
fi

# 3. The stubs: our files against the gcc tree's headers, with a
# config.h that lacks every HAVE_* our files test: no warning, shm-pcp
# the stub; and without __linux__ too (a system without Linux's vmalloc
# paths): no warning, both stubs.
tree=$dir/gcc
stub=$dir/stub
rm -rf "$stub" && mkdir -p "$stub"
if [ -x "$tree/stress-ng" ]; then
	cp "$tree"/*.h "$stub/"
	have=$("$root/scripts/stressor-files" |
		(cd "$am" && xargs cat) |
		grep -o 'HAVE_[A-Z0-9_]*' | sort -u)
	for h in $have; do sed -i "/^#define $h\\b/d" "$stub/config.h"; done
	for o in $ours; do cp "$am/$o.c" "$stub/"; done
	# stubs FLAGS: compile our files in the stub directory; 0 when none warned
	stubs() {
		local o cmd bad=0
		for o in $ours; do
			cmd=$(cd "$tree" && "$make" -s -n -W "$o.c" "$o.o" CC=gcc 2>/dev/null | grep -- "-c -o $o.o $o.c" | head -n 1)
			[ -n "$cmd" ] || { echo "# no compile command for $o.o from make -n"; bad=1; continue; }
			(cd "$stub" && rm -f "$o.o" && eval "$cmd $1") > "$stub/$o.log" 2>&1 || bad=1
			grep -E "$o\\.c:[0-9]+(:[0-9]+)?: (warning|error)" "$stub/$o.log" | head -n 5 | diag
			grep -qE "$o\\.c:[0-9]+(:[0-9]+)?: (warning|error)" "$stub/$o.log" && bad=1
		done
		return $bad
	}
	# stub S: 0 when stress-S.o is the stub (its info points at stress_unimplemented)
	stub() { nm "$stub/stress-$1.o" 2> /dev/null | grep -q ' U stress_unimplemented$'; }
	stubs ""
	rc=$?
	v=vmalloc-order; stub $v && v="$v the stub" || v="$v its paths left out at run time"
	[ $rc -eq 0 ] && stub shm-pcp
	ok $? "without the $(echo "$have" | wc -w) HAVE_* our files use: no warning, shm-pcp the stub, $v"
	stubs "-U__linux__ -U__linux -Ulinux"
	rc=$?
	[ $rc -eq 0 ] && stub shm-pcp && stub vmalloc-order
	ok $? "without them and without __linux__: no warning, both stubs (stress_unimplemented)"
else
	n=$((n + 1)); echo "not ok $n - the stubs: no gcc build to take the headers from"; failed=$((failed + 1))
fi

# 4.-7. Runs of the gcc build.
sng=$tree/stress-ng
if [ -x "$sng" ]; then
	run=$dir/run
	rm -rf "$run" && mkdir -p "$run"
	for s in vmalloc-order shm-pcp; do
		(cd "$run" && timeout 120 "$sng" --$s 2 -t 5 --verify --metrics) > "$run/$s.log" 2>&1
		rc=$?
		ok $rc "stress-ng --$s 2 -t 5 --verify --metrics: exit $rc"
		grep -E "metrc|skipping|fail|$s " "$run/$s.log" | head -n 12 | diag
	done

	# the core fixes: a size not read whole is refused naming the
	# option; a long option of --help stands apart from its text
	"$sng" --vmalloc-order 1 --vmalloc-order-bytes 16KK -t 1 > "$run/size.log" 2>&1
	rc=$?
	[ $rc -eq 1 ] && grep -q "invalid value '16KK' for vmalloc-order-bytes" "$run/size.log"
	ok $? "--vmalloc-order-bytes 16KK: exit $rc, $(head -n 1 "$run/size.log" | cut -c1-100)"
	"$sng" --help > "$run/help.log" 2>&1
	grep -q '^      --vmalloc-order-io-uring M [a-z]' "$run/help.log" &&
		grep -qE '^ +--vmalloc-order-method .*(\[.*all|all,)' "$run/help.log"
	ok $? "--help: --vmalloc-order-io-uring M and --vmalloc-order-method M apart from their text, all on the method's line (lkp-tests looks there)"

	cat > "$run/stress-ng" <<WRAP
#!/bin/sh
# stress-ng, whose --stressors names only the series' two stressors
[ "\$*" = --stressors ] && { echo "shm-pcp vmalloc-order"; exit 0; }
exec "$sng" "\$@"
WRAP
	chmod +x "$run/stress-ng"
	(cd "$run" && STRESS_NG=$run/stress-ng timeout 300 sh "$am/debian/tests/fast-test-all") > "$run/fast-test-all.log" 2>&1
	rc=$?
	ft_ok=$rc
	for s in vmalloc-order shm-pcp; do
		if grep -qx "$s PASSED" "$run/fast-test-all.log"; then :
		elif grep -qx "$s SKIPPED (out of resources or missing syscall)" "$run/fast-test-all.log"; then
			grep -q "skipping" "$run/fast-test-all.log" || ft_ok=1
		else
			ft_ok=1
		fi
	done
	ok $ft_ok "debian/tests/fast-test-all on vmalloc-order and shm-pcp: exit $rc, $(grep -E '^(vmalloc-order|shm-pcp) (PASSED|SKIPPED|FAILED)' "$run/fast-test-all.log" | tr '\n' ' ')"
	grep -E "skipping|FAILED|fail" "$run/fast-test-all.log" | head -n 10 | diag

	(cd "$run" && timeout 120 "$sng" --vmalloc-order 2 --shm-pcp 2 -t 10 --verify --klog-check) > "$run/klog.log" 2>&1
	rc=$?
	! grep -qE "kernel error messages|klog-check: (emergency|alert|critical|error|warning):" "$run/klog.log" && [ $rc -eq 0 ]
	ok $? "--klog-check over both stressors: exit $rc, nothing logged by the kernel"
	grep -E "klog" "$run/klog.log" | head -n 10 | diag

	(cd "$run" && timeout 900 "$sng" --class vm --sequential 1 -t 1 -v) > "$run/class-vm.log" 2>&1
	rc=$?
	grep -qE "\] vmalloc-order: \[[0-9]+\] terminated \(success\)" "$run/class-vm.log" &&
		grep -qE "\] shm-pcp: \[[0-9]+\] terminated \(success\)" "$run/class-vm.log"
	ok $? "stress-ng --class vm --sequential 1 -t 1 runs vmalloc-order and shm-pcp, each a success (the run: exit $rc, $(grep -c 'terminated (' "$run/class-vm.log") stressors)"
	grep -E "(skipped|failed): [1-9]" "$run/class-vm.log" | cut -c1-200 | diag
else
	n=$((n + 1)); echo "not ok $n - the runs: no gcc build"; failed=$((failed + 1))
fi

echo "1..$n"
echo "# upstream-check: $((n - failed - todos)) of $n passed, $failed failed, $todos TODO, in $(secs "$t0") s; logs in $dir"
[ $failed -eq 0 ]
