#!/bin/bash
# The sources keep kernel style (.clang-format) and keep cppcheck and
# clang-tidy quiet (make lint).
. "$(dirname "$0")/lib.sh"
for t in clang-format cppcheck clang-tidy; do
	command -v $t >/dev/null || skip_all "$t not installed (make deps)"
done
plan 1
out=$(make -C "$TOP" --no-print-directory -j"$(nproc)" lint BUILD="$BUILD" 2>&1)
rc=$?
ok $rc "make lint: clang-format, cppcheck and clang-tidy are quiet"
[ $rc -eq 0 ] && exit 0
printf '%s\n' "$out" | grep -E "error|warning" | head -20 | sed 's/^/# /'
done_testing
