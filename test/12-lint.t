#!/bin/bash
# make lint, the one place of the static checks, run once: one TAP line per
# check of LINT_CHECKS (clang-format, cppcheck, clang-tidy on the sources,
# the fuzz targets and test/module, shellcheck, checkpatch.pl on module/),
# so that a failure names its check and shows its complaints. A check
# that prints "lint: SKIP <reason>" (its tool or input missing) is a
# skip with that reason.
. "$(dirname "$0")/lib.sh"
for t in clang-format cppcheck clang-tidy; do
	command -v $t > /dev/null || skip_all "$t not installed (make deps)"
done
checks=$(make -C "$TOP" --no-print-directory -s lint-checks BUILD="$BUILD") ||
	skip_all "make lint-checks failed"
plan "$(wc -w <<< "$checks")"
for c in $checks; do
	make -C "$TOP" --no-print-directory -j"$(nproc)" "$c" BUILD="$BUILD" > "$TMPD/$c.log" 2>&1
	rc=$?
	why=$(sed -n 's/^lint: SKIP //p' "$TMPD/$c.log" | head -n 1)
	if [ $rc -eq 0 ] && [ -n "$why" ]; then
		skip "make $c" "$why"
		continue
	fi
	ok $rc "make $c"
	# its complaints, without make's echo of the commands
	[ $rc -eq 0 ] || grep -v "^	\|^  [A-Z]\+ \|^clang-\|^cppcheck \|^make\[" "$TMPD/$c.log" |
		grep -v "warnings generated\|^$" | head -n 30 | sed 's/^/# /'
done
done_testing
