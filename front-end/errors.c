// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * errors.c - the front end's one-line errors: smm_die() says one and
 * exits, smm_errmsg() formats one for a caller to report.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "errors.h"

void smm_die(int status, const char *who, const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", who, text);
	exit(status);
}

int smm_errmsg(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}
