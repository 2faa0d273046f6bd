/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * supervise.h - one run's children: one per started result (a stressor,
 * or stress-ng's own stressors alone), each by its runner (runner.h) in a
 * process group of its own that dies with the front end
 * (PR_SET_PDEATHSIG, SIGKILL; owner.h's watchdog does the rest), its
 * output relayed (relay.h), reaped; a stop signal passed on as SIGINT.
 */
#ifndef SMM_SUPERVISE_H
#define SMM_SUPERVISE_H

#include <signal.h>

#include "options.h"
#include "owner.h"
#include "runner.h"

struct smm_run_result;

/* What the run loop needs from the front end. */
struct smm_supervision {
	const struct smm_exec_env *env;
	const char *dir; /* where the children's output files go */
	struct smm_owner *owner; /* records each child's process group */
	volatile sig_atomic_t *stop; /* non-zero: stop the children */
	/* seconds after the start when what still runs is ended (SIGKILL to
	 * its process groups, the cause in res->cut_why: deadline.h); 0:
	 * none */
	double deadline_s;
	double tick_s; /* seconds between tick() calls; 0: none */
	void (*tick)(void *arg);
	void *arg;
};

/*
 * smm_stop_signals() - fill @set with the signals that stop a run:
 * SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGQUIT (a closed pipe or terminal
 * ends a run as SIGTERM does). The front end catches these; its children
 * get them back at their default action before they exec.
 */
void smm_stop_signals(sigset_t *set);

/* smm_stop_signals_handle() - @handler (or SIG_DFL) for each of them. */
void smm_stop_signals_handle(void (*handler)(int));

/*
 * smm_supervise() - for every result of @res marked asked, choose its
 * runner (smm_runner_for(): res->st[s].runner), name its output file
 * (res->st[s].out_path) and start it; then relay and reap them all,
 * calling @sv->tick every @sv->tick_s seconds meanwhile, and keep each
 * child's waitpid() status in res->st[s].wait_status. Once *@sv->stop is
 * set, each child gets one SIGINT (stress-ng ends its run on it; another
 * one during its teardown can crash it), and a child still running 10 s
 * later has its process group killed (SIGKILL), said on stderr. When a
 * child cannot be started, the ones started are stopped the same way.
 * Return: 0, or the -errno of pipe2(2)/fork(2) of the first child that
 * could not start (said on stderr).
 */
int smm_supervise(const struct smm_run_cfg *cfg, struct smm_run_result *res,
		  const struct smm_supervision *sv);

#endif /* SMM_SUPERVISE_H */
