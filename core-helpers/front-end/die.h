/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * die.h - the front end's one-line errors.
 */
#ifndef SMM_DIE_H
#define SMM_DIE_H

/*
 * smm_die() - "<who>: <message>" on stderr, then exit(@status): the
 * front end's one-line usage errors (exit 1 for a run, 2 for compare).
 */
__attribute__((noreturn, format(printf, 3, 4))) void
smm_die(int status, const char *who, const char *fmt, ...);

#endif /* SMM_DIE_H */
