#!/bin/bash
# The upstream series (make upstream, upstream/, doc/upstream.md): it is
# written from the top-level stressor files and the fixture of stress-ng's
# master, the same twice; git am applies it to a fresh tree of that
# fixture; its stressor files are the top-level ones byte for byte; it
# adds no STRESS_MM, smm_ or include of ours; the registration is in
# every file, under the option names lkp and the docs use, each method
# and churn mode in kernel-coverage.sh; each patch registers only what it
# adds (bisectable); upstream/style-check passes on our files and catches
# planted violations; upstream/register.sh stops at an anchor that moved.
# The builds and runs are make upstream-check (doc/upstream.md).
. "$(dirname "$0")/lib.sh"
diagf() { sed 's/^/# /'; }

FIXTURE=${STRESS_NG_MASTER:-$TOP/../shared/fixtures/stress-ng-master-291fc4341.tar.xz}
[ -e "$FIXTURE" ] || skip_all "no stress-ng master: $FIXTURE"
command -v git > /dev/null || skip_all "git not installed"
OUT=$BUILD/upstream
# the stressor files (stressor-files: the stressor whose patch adds each)
FILES=$("$TOP/scripts/stressor-files")
VMO_CORE=$("$TOP/scripts/stressor-files" vmalloc-order 'core-*')
ALL_CORE=$("$TOP/scripts/stressor-files" '' 'core-*')
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@localhost
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@localhost

# Scratch trees on tmpfs when there is one: a stress-ng tree is 1,300
# files, and on a loaded disk copying them is most of this test's time.
W=$TMPD
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	W=$(mktemp -d /dev/shm/smm-81.XXXXXX)
	trap 'rm -rf "$TMPD" "$W"' EXIT
fi

plan 23

# 1-3. make upstream writes the series, and the same series again: the
# fixes to stress-ng's core (upstream/core/), then the stressors.
NCORE=$(ls "$TOP"/upstream/core/*.diff | wc -l)
NPATCH=$((NCORE + 3))
mkdir -p "$BUILD"
(cd "$TOP" && make --no-print-directory upstream BUILD="$BUILD") > "$TMPD/make.out" 2>&1
rc=$?
patches=$(ls "$OUT"/0[0-9][0-9][1-9]-*.patch 2> /dev/null)
[ $rc -eq 0 ] && [ -f "$OUT/0000-cover-letter.patch" ] && [ "$(echo "$patches" | wc -w)" -eq $NPATCH ]
ok $? "make upstream: a cover letter and $NPATCH patches in build/upstream (rc $rc)"
# patch_of SUBJECT-START: the patch file whose subject starts so
patch_of() { grep -l "^Subject: \[PATCH [0-9]*/$NPATCH\] $1" $patches | head -n 1; }
[ $rc -eq 0 ] || diagf < "$TMPD/make.out"
mkdir -p "$W/again"
"$TOP/upstream/series.sh" "$W/again" > /dev/null 2>&1 &&
	diff -r -x tree -x check "$OUT" "$W/again/upstream" > "$TMPD/again.diff"
ok $? "a second run, from a fresh tree, writes the same series byte for byte"
head -n 10 "$TMPD/again.diff" | diagf
subjects=$(sed -n 's/^Subject: //p' "$OUT"/0*.patch)
echo "$subjects" | diagf
echo "$subjects" | grep -qx "\[PATCH $((NCORE + 1))/$NPATCH\] stress-vmalloc-order: add vmalloc-order stressor" &&
	echo "$subjects" | grep -qx "\[PATCH $((NCORE + 2))/$NPATCH\] stress-shm-pcp: add shm-pcp stressor" &&
	echo "$subjects" | grep -qx "\[PATCH $NPATCH/$NPATCH\] kernel-coverage: .*" &&
	[ "$(echo "$subjects" | grep -cE "^\[PATCH [0-9]+/$NPATCH\] (stress-ng|core-[a-z-]+): ")" -eq "$NCORE" ] &&
	! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE' "$OUT/0000-cover-letter.patch" &&
	grep -q "2 vCPUs.*8 vCPUs" "$OUT/0000-cover-letter.patch" &&
	! grep -qi '^signed-off-by:' "$OUT"/0*.patch
ok $? "subjects in stress-ng's form, a cover letter with the A/B, no Signed-off-by"
# every patch says why: a body of 3 lines or more before its diffstat
short=
for p in $patches; do
	body=$(awk '/^Subject:/ { s = 1; next } s && /^---$/ { exit } s && NF { n++ } END { print n + 0 }' "$p")
	[ "$body" -ge 3 ] || short="$short ${p##*/}($body)"
done
[ -z "$short" ]
ok $? "every patch has a body${short:+: too short:$short}"

# what a reviewer will ask about is answered in the commit message
if grep -q PR_SET_CHILD_SUBREAPER "$TOP/stress-shm-pcp.c"; then
	grep -qi subreaper "$(patch_of stress-shm-pcp)"
	ok $? "stress-shm-pcp.c's child subreaper is explained in shm-pcp's patch message"
else
	grep -qi subreaper "$(patch_of stress-shm-pcp)"
	[ $? -ne 0 ]
	ok $? "no child subreaper in stress-shm-pcp.c, none in shm-pcp's patch message"
fi

# 5. git am on a fresh git tree of the fixture.
fresh() { # fresh DIR: a git tree of the fixture, one commit
	mkdir -p "$1"
	if [ -d "$FIXTURE" ]; then
		(cd "$FIXTURE" && tar --exclude=./.git -cf - .) | tar -C "$1" -xf -
	else
		tar -C "$1" --strip-components=1 -xf "$FIXTURE"
	fi
	(cd "$1" && git init -q && git add -A -f && git commit -q -m master)
}
fresh "$W/am"
rc=1
[ -n "$patches" ] && (cd "$W/am" && git am -q $patches) > "$TMPD/am.out" 2>&1 && rc=0
ok $rc "git am applies the series to a fresh tree of $(basename "$FIXTURE")"
[ $rc -eq 0 ] || diagf < "$TMPD/am.out" 2> /dev/null
AM=$W/am
# the files the registration edits, as the fixture has them
ORIG=$W/orig
REGFILES="core-stressors.h core-opts.h core-opts.c Makefile stress-ng.1 bash-completion/stress-ng kernel-coverage.sh"
mkdir -p "$ORIG"
# shellcheck disable=SC2086
git -C "$AM" archive HEAD~$NPATCH $REGFILES | tar -C "$ORIG" -xf -

same=0
for f in $FILES; do
	cmp "$TOP/$f" "$AM/$f" > /dev/null 2>&1 || { same=1; diag "$f differs from the top-level one"; }
done
# and stressor-files names every top-level stressor file there is
for f in $(cd "$TOP" && ls stress-*.c core-*.[ch]); do
	case " $(echo $FILES) " in *" $f "*) ;; *) same=1; diag "$f: not in stressor-files" ;; esac
done
ok $same "the series' $(echo $FILES) are the top-level files byte for byte, and all of them"

# 7. Nothing of ours in what the series adds.
grep -h '^+' "$OUT"/0*.patch | grep -nE 'STRESS_MM|(^|[^A-Za-z])[Ss][Mm][Mm]_|#[ \t]*include[ \t]*"(common/|worker/|front-end/|\.\./|smm|stress-mm)|-lbsd|liburing' > "$TMPD/ours"
[ ! -s "$TMPD/ours" ]
ok $? "the series adds no STRESS_MM, smm_, include of ours, -lbsd or liburing"
head -n 5 "$TMPD/ours" | diagf

# 8-10. The registration, under the names the docs, lkp and the prepared
# tree use, in each file.
want_vmo="vmalloc-order vmalloc-order-batch vmalloc-order-bytes vmalloc-order-io-uring vmalloc-order-method vmalloc-order-ops"
want_shm="shm-pcp shm-pcp-bytes shm-pcp-churn-batch shm-pcp-churn-bytes shm-pcp-churn-procs shm-pcp-cpu shm-pcp-method shm-pcp-mode shm-pcp-ops"
reg=0
for o in $want_vmo $want_shm; do
	u=$(echo "$o" | tr - _)
	grep -qE "^	\{ \"$o\",[ 	]*1,	NULL,	OPT_$u \},$" "$AM/core-opts.c" &&
		grep -qx "	OPT_$u," "$AM/core-opts.h" &&
		grep -qF ".B \\-\\-${o//-/\\-}" "$AM/stress-ng.1" || { reg=1; diag "$o: not registered"; }
done
got=$(sed -n 's/^	{ "\(\(vmalloc-order\|shm-pcp\)[a-z-]*\)",.*/\1/p' "$AM/core-opts.c" | tr '\n' ' ')
[ "$got" = "$want_shm $want_vmo " ] || { reg=1; diag "core-opts.c has: $got"; }
ok $reg "core-opts.c, core-opts.h and stress-ng.1 have exactly the options $(echo $want_vmo $want_shm | wc -w) of the brief"
[ "$(grep -c 'MACRO(vmalloc_order)' "$AM/core-stressors.h")" -eq 1 ] &&
	[ "$(grep -c 'MACRO(shm_pcp)' "$AM/core-stressors.h")" -eq 1 ] &&
	grep -qx '	stress-vmalloc-order.c \\' "$AM/Makefile" && grep -qx '	stress-shm-pcp.c \\' "$AM/Makefile" &&
	(for f in $ALL_CORE; do grep -qx "	$f \\\\" "$AM/Makefile" || exit 1; done) &&
	grep -qx "	'--vmalloc-order-method' | \\\\" "$AM/bash-completion/stress-ng" &&
	grep -qx "	'--shm-pcp-mode' | \\\\" "$AM/bash-completion/stress-ng"
ok $? "core-stressors.h, Makefile (STRESS_SRC, CORE_SRC, HEADERS) and bash-completion register both"
# every method of vmalloc-order's table and every churn mode in kernel-coverage.sh
methods=$(awk '/stress_vmalloc_order_methods\[\] = \{/ { t = 1; next } t && /^\};/ { exit }
	t && match($0, /\{ *"[a-z0-9-]+"/) { s = substr($0, RSTART, RLENGTH); gsub(/[{ "]/, "", s); print s }' \
	"$TOP/stress-vmalloc-order.c" | grep -vx all)
modes="stack io-uring bpf ldt pty spin none"
cov=0
[ -n "$methods" ] || { cov=1; diag "no methods found in stress_vmalloc_order_methods[]"; }
for m in $methods; do
	grep -q "^do_stress --vmalloc-order -1 --vmalloc-order-method $m\\b" "$AM/kernel-coverage.sh" || { cov=1; diag "method $m missing"; }
done
for m in $modes; do
	grep -q "^do_stress --shm-pcp -1 --shm-pcp-mode $m\\b" "$AM/kernel-coverage.sh" || { cov=1; diag "mode $m missing"; }
done
ok $cov "kernel-coverage.sh runs each method ($(echo $methods)) and each churn mode"

# 11. Bisectable as text: the vmalloc-order patch registers it alone and its
# files use nothing of shm-pcp; the last touches kernel-coverage.sh only.
p1=$(patch_of stress-vmalloc-order) p3=$(echo "$patches" | tail -n 1)
! grep -E '^\+.*(MACRO\(shm_pcp\)|OPT_shm_pcp|stress-shm-pcp\.c|"shm-pcp|shm\\-pcp)' "$p1" | grep -q . &&
	[ "$(sed -n 's/^diff --git a\/\([^ ]*\) .*/\1/p' "$p3")" = kernel-coverage.sh ] &&
	! (cd "$AM" && grep -qE 'stress_shm_pcp|OPT_shm_pcp' stress-vmalloc-order.c $VMO_CORE)
ok $? "the vmalloc-order patch registers nothing of shm-pcp and its files use none, the last patch only kernel-coverage.sh"

# 12. The man page: no new groff warning.
if command -v groff > /dev/null; then
	w0=$(groff -t -man -ww -z "$ORIG/stress-ng.1" 2>&1 | wc -l)
	w1=$(groff -t -man -ww -z "$AM/stress-ng.1" 2>&1 | wc -l)
	[ "$w1" -le "$w0" ]
	ok $? "stress-ng.1: no new groff warning ($w0 before, $w1 after)"
else
	skip "stress-ng.1: no new groff warning" "groff not installed"
fi

# 13-19. The style script: it passes on our files and catches each kind
# of violation planted in a copy of one.
STYLE=$TOP/upstream/style-check
(cd "$TOP" && "$STYLE" $FILES) > "$TMPD/style.out" 2>&1
ok $? "upstream/style-check passes on $FILES ($(grep -c ': note: ' "$TMPD/style.out") notes)"
head -n 10 "$TMPD/style.out" | diagf
# plant RULE SED-SCRIPT: style-check on a planted copy exits 1 naming RULE
plant() {
	mkdir -p "$TMPD/plant"
	sed "$2" "$TOP/stress-vmalloc-order.c" > "$TMPD/plant/stress-vmalloc-order.c"
	if cmp -s "$TOP/stress-vmalloc-order.c" "$TMPD/plant/stress-vmalloc-order.c"; then
		ok 1 "planted $1: the edit ($2) changed nothing"
		return
	fi
	"$STYLE" "$TMPD/plant/stress-vmalloc-order.c" > "$TMPD/plant.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] && grep -q ": $1: " "$TMPD/plant.out"
	ok $? "planted $1 is caught: $(grep ": $1: " "$TMPD/plant.out" | head -n 1 | sed 's|.*/||')"
}
inc='0,/^#include "stress-ng.h"$/s//#include "stress-ng.h"\n'
plant getenv "${inc}static int stress_x(void) { return getenv(\"X\") != NULL; }/"
plant include "${inc}#include \"worker\\/report.h\"/"
plant library "${inc}\\/* link with -lbsd *\\//"
plant global "${inc}static int churn_rounds;/"
plant stressor 's/stress_exercises_t exercises\[\]/stress_exercises_t stress_ex[]/; s/\.exercises = exercises/.exercises = stress_ex/'
plant ours "${inc}#define STRESS_MM_BATCH 16/"
plant header '1,3s/Copyright (C) [0-9-]* .*/Copyright (C) somebody/'

# 20. register.sh stops where the tree moved on.
broke=0
while IFS='|' read -r file expr want; do
	rm -rf "$TMPD/moved"
	cp -a "$ORIG" "$TMPD/moved"
	(cd "$TOP" && cp $VMO_CORE stress-vmalloc-order.c "$TMPD/moved/")
	sed -i "$expr" "$TMPD/moved/$file"
	"$TOP/upstream/register.sh" "$TMPD/moved" vmalloc-order > "$TMPD/moved.out" 2>&1
	rc=$?
	if [ $rc -ne 1 ] || ! grep -qF "$TMPD/moved/$file: expected" "$TMPD/moved.out" ||
		! grep -qF -- "$want" "$TMPD/moved.out"; then
		broke=1
		diag "$file ($expr): rc $rc: $(cat "$TMPD/moved.out")"
	fi
done <<'BREAKS'
core-stressors.h|s/^#define STRESSORS(MACRO)/#define STRESSOR_LIST(MACRO)/|STRESSORS(MACRO)
core-opts.h|s/^\tOPT_vmstat,/\tOPT_vmstats,/|OPT_vmstat,
core-opts.c|s/^\t{ "vmstat",/\t{ "vm-stat",/|{ "vmstat",
Makefile|s/^\tcore-vmstat\.c/\tcore-vm-stat.c/|core-vmstat.c
stress-ng.1|s/^\.B \\-\\-vnni N/.B \\-\\-vnni M/|\-\-vnni N
bash-completion/stress-ng|s/'--vm-method'/'--vm-methods'/|--vm-method
BREAKS
ok $broke "register.sh stops with exit 1, the file and the line expected, where an anchor moved (6 anchors)"

# 21. kernel-coverage.sh's anchors too.
rm -rf "$TMPD/moved" && cp -a "$ORIG" "$TMPD/moved"
sed -i 's/^do_stress --vm-addr -1 --vm-addr-numa/do_stress --vm-addr 1 --vm-addr-numa/' "$TMPD/moved/kernel-coverage.sh"
"$TOP/upstream/register.sh" "$TMPD/moved" kernel-coverage > "$TMPD/moved.out" 2>&1
[ $? -eq 1 ] && grep -q "kernel-coverage.sh: expected" "$TMPD/moved.out"
ok $? "register.sh kernel-coverage stops where kernel-coverage.sh moved: $(head -c 160 "$TMPD/moved.out")"

done_testing
