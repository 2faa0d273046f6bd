/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap.h - TAP version 13 for the C unit tests (kselftest style): a plan,
 * "ok N desc", "not ok N desc", "ok N desc # SKIP reason", diagnostics
 * behind "# ". stdout is line-buffered so that forked children never repeat
 * buffered output. tap_done() exits 0 only when nothing failed; a skip never
 * hides an earlier failure, and neither does running more or fewer tests
 * than planned.
 */
#ifndef SMM_TAP_H
#define SMM_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed, tap_planned;

static inline void tap_plan(int n)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_planned = n;
	printf("TAP version 13\n1..%d\n", n);
}

__attribute__((format(printf, 2, 3))) static inline int
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		/* on stderr too: prove shows it without -v (a CI log) */
		fprintf(stderr, "not ok %d ", tap_n);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fprintf(stderr, "\n");
		tap_failed++;
	}
	return cond;
}

__attribute__((format(printf, 2, 3))) static inline void
tap_skip(const char *desc, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d %s # SKIP ", ++tap_n, desc);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

__attribute__((format(printf, 1, 2))) static inline void
tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int tap_done(void)
{
	if (tap_n != tap_planned) {
		tap_diag("planned %d tests but ran %d", tap_planned, tap_n);
		return EXIT_FAILURE;
	}
	return tap_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* SMM_TAP_H */
