#!/bin/bash
# Every path that README.md, doc/*.md and the comments name exists
# (scripts/check-refs, whose header gives the rule), in this tree as it
# is: a file moved or deleted without its references fails here. Then
# that the check can fail: in a copy of the tree with a file taken away
# and a bad reference planted it must name both, and in a small tree of
# its own it must pass what its rule leaves alone (URLs, /tmp, build/,
# ../shared, the kernel's and stress-ng's files, placeholders).
. "$(dirname "$0")/lib.sh"
CHECK=$TOP/scripts/check-refs

plan 6

"$CHECK" > "$TMPD/tree.out" 2>&1
ok $? "scripts/check-refs: every path named in this tree exists"
sed 's/^/# /' "$TMPD/tree.out"

# A copy of the tracked files (no .git: the check lists files with find).
copy=$TMPD/copy
mkdir -p "$copy"
if git -C "$TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	(cd "$TOP" && git ls-files -z | tar --null -T - -cf - 2> /dev/null) |
		tar -C "$copy" -xf -
else
	(cd "$TOP" && tar --exclude=./build -cf - .) | tar -C "$copy" -xf -
fi
cp "$CHECK" "$copy/scripts/"
"$copy/scripts/check-refs" > /dev/null 2>&1
ok $? "the same in a copy of the tree without git"

rm -f "$copy/doc/counters.md"
printf '\n/* planted: see plugin/no-such-file.c */\n' >> "$copy/core-vmalloc.h"
"$copy/scripts/check-refs" > "$TMPD/bad.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q ': doc/counters.md: no such file$' "$TMPD/bad.out" &&
	grep -q '^core-vmalloc.h:[0-9]*: plugin/no-such-file.c: no such file$' "$TMPD/bad.out"
ok $? "doc/counters.md taken away and a bad path planted: exit $rc, both named"
head -n 5 "$TMPD/bad.out" | sed 's/^/# /'

# A small tree: what the rule checks, and what it leaves alone.
mini=$TMPD/mini
mkdir -p "$mini/scripts" "$mini/doc" "$mini/plugin" "$mini/test" "$mini/build"
cp "$CHECK" "$mini/scripts/"
touch "$mini/doc/a.md" "$mini/plugin/glue.c" "$mini/test/82-native.t" \
	"$mini/plugin/gate-sim.c"
cat > "$mini/README.md" <<'MD'
See [a](doc/a.md), doc/a.md, plugin/glue.c:12, plugin/, test/82,
test/NN-*.t, plugin/NAME.c, plugin/gate-sim and a.md.
Not ours: https://example.org/doc/x.md, /tmp/x, build/stress-mm,
../shared/fixtures/x.tar.xz, mm/vmalloc.c, $BUILD/x, STRESS_NG_SRC=doc/y,
~/src/stress-ng, core-opts.c.
MD
cat > "$mini/plugin/glue.c" <<'C'
/* doc/a.md */
static const char *s = "doc/not-a-comment.md"; // plugin/glue.c
C
printf '#!/bin/sh\n# doc/a.md\necho "doc/not-a-comment" # plugin/\n' > "$mini/scripts/x"
mini_check() {
	(cd "$mini" && scripts/check-refs README.md plugin/glue.c scripts/x) > "$TMPD/mini.out" 2>&1
}
mini_check
ok $? "a small tree: what exists and what is not ours passes"
sed 's/^/# /' "$TMPD/mini.out"

cat >> "$mini/README.md" <<'MD'
Gone: [b](doc/b.md), plugin/gone.c, doc/c.md, KERNEL-PATHS.md, test/83,
plugin/NAME.h.
MD
echo '/* plugin/gone.h */' >> "$mini/plugin/glue.c"
printf '# plugin/gone.sh\n' >> "$mini/scripts/x"
mini_check
rc=$?
want='README.md:6: doc/b.md
README.md:6: plugin/gone.c
README.md:6: doc/c.md
README.md:6: KERNEL-PATHS.md
README.md:6: test/83
README.md:7: plugin/NAME.h
plugin/glue.c:3: plugin/gone.h
scripts/x:4: plugin/gone.sh'
got=$(sed 's/: no such file$//' "$TMPD/mini.out" | sort)
[ $rc -eq 1 ] && [ "$got" = "$(echo "$want" | sort)" ]
ok $? "a small tree: each missing path named, in a link, prose, C and shell comments (exit $rc)"
[ "$got" = "$(echo "$want" | sort)" ] || sed 's/^/# /' "$TMPD/mini.out"

if command -v shellcheck > /dev/null; then
	(cd "$TOP" && shellcheck scripts/check-refs &&
		shellcheck -e SC1091 test/13-refs.t) > "$TMPD/sc.out" 2>&1
	ok $? "shellcheck: scripts/check-refs, this test"
	sed 's/^/# /' "$TMPD/sc.out"
else
	bash -n "$CHECK"
	ok $? "scripts/check-refs parses (shellcheck not installed)"
fi
done_testing
