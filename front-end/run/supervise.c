// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * supervise.c - start, relay and reap a run's children.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "deadline.h"
#include "relay.h"
#include "results.h"
#include "supervise.h"

struct child {
	pid_t pid; /* 0: not started */
	bool done;
	bool stopped; /* SIGINT sent: stress-ng gets one, never more */
	double started; /* now_s() at its fork */
	struct smm_relay out;
};

/* Seconds a stopped child has to end before its group is killed. */
#define SMM_STOP_GRACE_S 10.0

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void smm_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGPIPE);
	sigaddset(set, SIGQUIT);
}

void smm_stop_signals_handle(void (*handler)(int))
{
	struct sigaction sa;
	sigset_t stops;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	smm_stop_signals(&stops);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&stops, sig) == 1)
			sigaction(sig, &sa, NULL);
}

/* Fork result @s's child: its own process group, death with us, its
 * output into our pipe, then its runner. */
static int start(struct child *c, const struct smm_run_cfg *cfg,
		 struct smm_stressor_result *r, int s,
		 const struct smm_supervision *sv)
{
	pid_t parent = getpid();
	sigset_t stops, old;
	int fds[2], err;

	r->runner = smm_runner_for(cfg, s);
	c->out.fd = -1;
	c->out.name =
		s < SMM_NR_STRESSORS ? smm_stressors[s].name : "stress-ng";
	c->out.ng_name = r->runner->ng_name;
	snprintf(r->out_path, sizeof(r->out_path), "%s/%s.%s", sv->dir,
		 c->out.name, r->runner->out_ext);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	/* A stop between fork() and exec would run our handler in the
	 * child and be lost: it stays pending until the child has the
	 * default action, which ends it. */
	smm_stop_signals(&stops);
	sigprocmask(SIG_BLOCK, &stops, &old);
	c->pid = fork();
	if (c->pid < 0) {
		err = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		c->pid = 0;
		close(fds[0]);
		close(fds[1]);
		return -err;
	}
	if (c->pid == 0) {
		smm_stop_signals_handle(SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		/* stress-ng's stressor processes, workers and companions
		 * join this group */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		r->runner->start(cfg, s, sv->env, r->out_path);
		_exit(127); /* start() never returns */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	c->started = now_s();
	setpgid(c->pid, c->pid); /* either side may come first */
	smm_owner_add_group(sv->owner, c->pid);
	close(fds[1]);
	c->out.fd = fds[0];
	return 0;
}

/* True once the child has exited and its output ended. */
static bool reaped(struct child *c, struct smm_stressor_result *r)
{
	if (!c->pid || c->done)
		return true;
	if (c->out.fd < 0 &&
	    waitpid(c->pid, &r->wait_status, WNOHANG) == c->pid) {
		c->done = true;
		r->ran_s = now_s() - c->started;
	}
	return c->done;
}

/* The deadline passed: say why, then SIGKILL what is left. */
static void end_at_deadline(struct child *ch, const struct smm_run_cfg *cfg,
			    struct smm_run_result *res,
			    const struct smm_supervision *sv)
{
	pid_t pgids[SMM_NR_STRESSORS + 1];
	int n = 0;

	for (int s = 0; s <= SMM_NR_STRESSORS; s++)
		if (ch[s].pid && !ch[s].done)
			pgids[n++] = ch[s].pid;
	res->cut_status =
		smm_deadline_cause(pgids, n, sv->owner->records, sv->deadline_s,
				   res->cut_why, sizeof(res->cut_why));
	fprintf(stderr,
		"stress-mm: the run was not done by -t %llu s plus %.0f s: ending it: %s\n",
		(unsigned long long)cfg->timeout_s,
		smm_deadline_grace(cfg->timeout_s), res->cut_why);
	for (int i = 0; i < n; i++)
		kill(-pgids[i], SIGKILL);
}

/* Pass a stop on: one SIGINT to each child still running. Return true
 * when the grace after the first has passed and what still runs was
 * killed. */
static bool pass_stop(struct child *ch, double *grace_end)
{
	int n = 0;

	if (*grace_end == 0)
		*grace_end = now_s() + SMM_STOP_GRACE_S;
	for (int s = 0; s <= SMM_NR_STRESSORS; s++) {
		if (!ch[s].pid || ch[s].done || ch[s].stopped)
			continue;
		kill(ch[s].pid, SIGINT);
		ch[s].stopped = true;
	}
	if (now_s() < *grace_end)
		return false;
	for (int s = 0; s <= SMM_NR_STRESSORS; s++)
		if (ch[s].pid && !ch[s].done && kill(-ch[s].pid, SIGKILL) == 0)
			n++;
	if (n)
		fprintf(stderr,
			"stress-mm: %d stress-ng still running %.0f s after its SIGINT: killed\n",
			n, SMM_STOP_GRACE_S);
	return true;
}

/* Relay and reap until every child is gone. */
static void loop(struct child *ch, const struct smm_run_cfg *cfg,
		 struct smm_run_result *res, const struct smm_supervision *sv,
		 bool stopping)
{
	double next_tick = now_s() + sv->tick_s;
	double deadline = sv->deadline_s > 0 ? now_s() + sv->deadline_s : 0;
	double grace_end = 0; /* 0: no stop yet; -1: the grace is over */
	bool running = true;

	while (running) {
		struct pollfd pfd[SMM_NR_STRESSORS + 1];
		int np = 0, idx[SMM_NR_STRESSORS + 1];

		running = false;
		for (int s = 0; s <= SMM_NR_STRESSORS; s++) {
			if (reaped(&ch[s], &res->st[s]))
				continue;
			running = true;
			if (ch[s].out.fd >= 0) {
				pfd[np].fd = ch[s].out.fd;
				pfd[np].events = POLLIN;
				idx[np++] = s;
			}
		}
		if (running && (stopping || *sv->stop) && grace_end >= 0 &&
		    pass_stop(ch, &grace_end)) {
			grace_end = -1;
			deadline = 0;
		}
		if (np && poll(pfd, (nfds_t)np, 200) > 0) {
			for (int i = 0; i < np; i++)
				if (pfd[i].revents)
					smm_relay_read(&ch[idx[i]].out, cfg);
		} else if (running && !np) {
			usleep(100000);
		}
		if (running && deadline > 0 && now_s() >= deadline) {
			end_at_deadline(ch, cfg, res, sv);
			deadline = 0;
		}
		if (sv->tick && sv->tick_s > 0 && now_s() >= next_tick) {
			sv->tick(sv->arg);
			next_tick += sv->tick_s;
		}
	}
}

int smm_supervise(const struct smm_run_cfg *cfg, struct smm_run_result *res,
		  const struct smm_supervision *sv)
{
	struct child ch[SMM_NR_STRESSORS + 1];
	int rc = 0;

	memset(ch, 0, sizeof(ch));
	for (int s = 0; s <= SMM_NR_STRESSORS && !rc; s++) {
		if (!res->st[s].asked)
			continue;
		rc = start(&ch[s], cfg, &res->st[s], s, sv);
		if (rc)
			fprintf(stderr,
				"stress-mm: cannot start stress-ng for %s: %s; stopping the others\n",
				ch[s].out.name, strerror(-rc));
	}
	loop(ch, cfg, res, sv, rc != 0);
	return rc;
}
