/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * errors.h - the front end's one-line errors: said and exited on
 * (smm_die()), or formatted for the caller (smm_errmsg(), which returns).
 */
#ifndef SMM_ERRORS_H
#define SMM_ERRORS_H

#include <stddef.h>

/*
 * smm_die() - "<who>: <message>" on stderr, then exit(@status): the
 * front end's one-line usage errors (exit 1 for a run, 2 for compare).
 */
__attribute__((noreturn, format(printf, 3, 4))) void
smm_die(int status, const char *who, const char *fmt, ...);

/*
 * smm_errmsg() - format one error line (no newline) into @err of @len
 * bytes, for functions that report errors to their caller.
 * Return: -EINVAL, so that "return smm_errmsg(...);" reads as the error.
 */
__attribute__((format(printf, 3, 4))) int smm_errmsg(char *err, size_t len,
						     const char *fmt, ...);

#endif /* SMM_ERRORS_H */
