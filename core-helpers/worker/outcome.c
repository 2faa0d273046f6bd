// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outcome.c - outcomes of a stressor core's steps.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "outcome.h"
#include "stats.h"

int smm_outcome_ok(struct smm_outcome *o)
{
	o->kind = SMM_OUT_OK;
	o->err = 0;
	o->text[0] = '\0';
	return SMM_OUT_OK;
}

static int set(struct smm_outcome *o, enum smm_outcome_kind kind, int err,
	       const char *fmt, va_list ap)
{
	o->kind = kind;
	o->err = err;
	vsnprintf(o->text, sizeof(o->text), fmt, ap);
	return kind;
}

int smm_outcome_skip(struct smm_outcome *o, int err, const char *fmt, ...)
{
	va_list ap;
	int kind;
	size_t n;

	va_start(ap, fmt);
	kind = set(o, SMM_OUT_SKIP, err, fmt, ap);
	va_end(ap);
	/* every SKIP ends with its errno, unless its reason gives it */
	n = strlen(o->text);
	if (err && !strstr(o->text, "errno=") && n < sizeof(o->text))
		snprintf(o->text + n, sizeof(o->text) - n, " errno=%d (%s)",
			 err, strerror(err));
	return kind;
}

int smm_outcome_fail(struct smm_outcome *o, int err, const char *fmt, ...)
{
	va_list ap;
	int kind;

	va_start(ap, fmt);
	kind = set(o, SMM_OUT_FAIL, err, fmt, ap);
	va_end(ap);
	return kind;
}

int smm_outcome_stopped(struct smm_outcome *o, const char *fmt, ...)
{
	va_list ap;
	int kind;

	va_start(ap, fmt);
	kind = set(o, SMM_OUT_STOPPED, 0, fmt, ap);
	va_end(ap);
	return kind;
}

int smm_outcome_status(const struct smm_outcome *o)
{
	switch (o->kind) {
	case SMM_OUT_OK:
	case SMM_OUT_STOPPED:
		return 0;
	case SMM_OUT_SKIP:
		return o->err ? smm_errno_exit_status(o->err) : 4;
	case SMM_OUT_FAIL:
		break;
	}
	return 2;
}
