/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin/compat/core-signal.h - the signal helpers the stressors use. */
#ifndef SMM_COMPAT_CORE_SIGNAL_H
#define SMM_COMPAT_CORE_SIGNAL_H

#include "stress-ng.h"

/* stress_signal_name() - "SIGSEGV" and the like, NULL when unknown */
extern const char *stress_signal_name(const int signum);

/*
 * stress_signal_handler() - handle @signum by @handler, the previous
 * action in @orig_action. Return: 0, or -1 after a pr_fail() line.
 */
extern int stress_signal_handler(const char *name, const int signum,
				 void (*handler)(int),
				 struct sigaction *orig_action);

/* stress_signal_default_handler() - @signum takes its default action.
 * Return: sigaction()'s. */
extern int stress_signal_default_handler(const int signum);

/* stress_signal_restore() - put @orig_action back. Return: 0 or -1. */
extern int stress_signal_restore(const char *name, const int signum,
				 struct sigaction *orig_action);

/* stress_signal_siglongjmp() - siglongjmp(3) out of a signal handler */
#define stress_signal_siglongjmp(signum, jmp_env, val) \
	do {                                           \
		(void)(signum);                        \
		siglongjmp((jmp_env), (val));          \
	} while (0)

#endif /* SMM_COMPAT_CORE_SIGNAL_H */
