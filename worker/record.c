// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record.c - open a worker's record; record a crash in it.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

static const int crash_signals[] = { SIGSEGV, SIGBUS,  SIGILL, SIGFPE,
				     SIGABRT, SIGTRAP, SIGSYS };

static struct smm_stats_file *crash_record;
static struct sigaction replaced[NSIG];
static pid_t hooked_pid;

/* Async-signal-safe: an atomic store, then what handled @sig before. */
static void on_crash(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *old = &replaced[sig];

	smm_stats_crash(crash_record, sig);
	if (old->sa_flags & SA_SIGINFO) {
		old->sa_sigaction(sig, si, uc);
		return;
	}
	if (old->sa_handler == SIG_IGN)
		return;
	if (old->sa_handler != SIG_DFL) {
		old->sa_handler(sig);
		return;
	}
	/* The default action: once this handler returns, the signal
	 * raised here (or the fault, again) ends the process. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void hook_crashes(struct smm_stats_file *s)
{
	struct sigaction sa;

	crash_record = s;
	if (hooked_pid == getpid())
		return;
	hooked_pid = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_crash;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(*crash_signals);
	     i++)
		sigaction(crash_signals[i], &sa, &replaced[crash_signals[i]]);
}

const char *smm_stats_dir(void)
{
	const char *d = getenv(SMM_STATS_ENV);

	return d && d[0] ? d : NULL;
}

void smm_record_left_out(struct smm_stats_file *s, const char *name, int err,
			 const char *reason)
{
	struct smm_stats_path p = { .state = SMM_PATH_LEFT_OUT,
				    .err = err,
				    .order = -1 };

	snprintf(p.name, sizeof(p.name), "%s", name);
	smm_stats_text(p.reason, sizeof(p.reason), reason);
	smm_stats_path_add(s, &p);
}

struct smm_stats_file *smm_record_open(const char *stressor)
{
	struct smm_stats_file *s = smm_stats_open(smm_stats_dir(), stressor);

	if (s)
		hook_crashes(s);
	return s;
}
