// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * churn.c - churn companion processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "churn.h"
#include "report.h"

#define SPIN_CHECK_MASK 0xffffU

const struct smm_vmpath *smm_churn_path(enum smm_churn_kind kind)
{
	int id = smm_churn_path_id(kind);

	return id < 0 ? NULL : smm_vmpaths[id];
}

/* Tell the worker "ready" (an empty message) or why not, then go on. */
static void tell(int fd, const char *why)
{
	size_t n = strlen(why) + 1;

	if (write(fd, why, n) != (ssize_t)n)
		_exit(1);
	close(fd);
}

/* Wait until the worker closes the gate (or dies: then EOF too). */
static void wait_gate(int gate, pid_t worker)
{
	char c;

	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	close(gate);
	if (getppid() != worker)
		_exit(0);
}

static __attribute__((noreturn)) void companion(const struct smm_churn_cfg *cfg,
						unsigned int idx, pid_t worker,
						int fd, int gate)
{
	const struct smm_vmpath *path = smm_churn_path(cfg->kind);
	struct smm_vmpath_cfg pc = {
		.stressor = cfg->stressor,
		.batch_var = cfg->batch_var,
		.bytes = cfg->bytes ? cfg->bytes
			 : path	    ? path->natural_bytes
				    : 0,
		.batch = cfg->batch,
		.io_uring = SMM_IOU_RINGS,
	};
	char why[512] = "", what[256];
	void *state = NULL;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != worker)
		_exit(0);
	/* stress-ng's handlers would act for the worker: not ours. */
	signal(SIGALRM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	prctl(PR_SET_NAME, "smm-churn");
	if (smm_pin_self(cfg->plan->companion_cpu[idx]) < 0) {
		snprintf(why, sizeof(why), "companion %u: cannot pin to CPU %d",
			 idx, cfg->plan->companion_cpu[idx]);
		tell(fd, why);
		_exit(1);
	}
	if (!path) { /* spin: CPU time, no allocation */
		tell(fd, "");
		wait_gate(gate, worker);
		for (unsigned long i = 0;; i++) {
			__asm__ __volatile__("" ::: "memory");
			if ((i & SPIN_CHECK_MASK) == 0 && getppid() != worker)
				_exit(0);
		}
	}
	if (smm_vmpath_setup(path, &state, &pc, why, sizeof(why)) != 0) {
		tell(fd, why[0] ? why : "setup failed");
		_exit(1);
	}
	tell(fd, "");
	wait_gate(gate, worker);
	for (;;) {
		uint64_t allocs = 0;
		int rc = smm_vmpath_batch(state, &allocs, what, sizeof(what));

		smm_stats_add(cfg->stats, churn_allocs, allocs);
		if (rc) {
			smm_fail(cfg->stressor, -rc, "churn companion: %s",
				 what);
			_exit(1);
		}
		if (getppid() != worker)
			_exit(0);
	}
}

/* Read one companion's "ready" (empty) or its reason. */
static int read_ready(int fd, char *why, size_t len)
{
	char msg[512];
	ssize_t n, got = 0;

	while ((n = read(fd, msg + got, sizeof(msg) - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	msg[got] = '\0';
	if (got > 0 && msg[0] == '\0')
		return 0;
	snprintf(why, len, "churn: %s",
		 got ? msg : "companion died before it was ready");
	return -EOPNOTSUPP;
}

int smm_churn_start(struct smm_churn *c, const struct smm_churn_cfg *cfg,
		    char *why, size_t len)
{
	int status[SMM_MAX_COMPANIONS], gate[2], rc = 0, err;
	pid_t worker = getpid();
	unsigned int i;

	memset(c, 0, sizeof(*c));
	if (cfg->kind == SMM_CHURN_NONE || cfg->plan->companions == 0)
		return 0;
	/* All companions set up first, then start together when the gate
	 * opens: a companion that already churned would slow the start of
	 * the next ones on a shared CPU. */
	if (pipe2(gate, O_CLOEXEC) < 0) {
		err = errno;
		snprintf(why, len, "churn: pipe: errno=%d (%s)", err,
			 strerror(err));
		return -err;
	}
	for (i = 0; i < cfg->plan->companions; i++) {
		int fds[2];
		pid_t pid;

		if (pipe2(fds, O_CLOEXEC) < 0) {
			err = errno;
			snprintf(why, len, "churn: pipe: errno=%d (%s)", err,
				 strerror(err));
			rc = -err;
			break;
		}
		pid = fork();
		if (pid < 0) {
			err = errno;
			close(fds[0]);
			close(fds[1]);
			snprintf(why, len,
				 "churn: fork of companion %u: errno=%d (%s)",
				 i, err, strerror(err));
			rc = -err;
			break;
		}
		if (pid == 0) {
			close(fds[0]);
			close(gate[1]);
			for (unsigned int j = 0; j < i; j++)
				close(status[j]);
			companion(cfg, i, worker, fds[1], gate[0]);
		}
		close(fds[1]);
		status[i] = fds[0];
		c->pids[c->n++] = pid;
	}
	for (unsigned int j = 0; j < i; j++)
		if (read_ready(status[j], why, len) != 0 && rc == 0)
			rc = -EOPNOTSUPP;
	close(gate[0]);
	if (rc) {
		close(gate[1]);
		smm_churn_stop(c);
		return rc;
	}
	close(gate[1]); /* go */
	return 0;
}

pid_t smm_churn_alive(struct smm_churn *c)
{
	for (unsigned int i = 0; i < c->n; i++) {
		pid_t pid = waitpid(c->pids[i], NULL, WNOHANG);

		if (pid == c->pids[i] || (pid < 0 && errno == ECHILD)) {
			pid = c->pids[i];
			c->pids[i] = c->pids[--c->n];
			return pid;
		}
	}
	return 0;
}

void smm_churn_stop(struct smm_churn *c)
{
	for (unsigned int i = 0; i < c->n; i++)
		kill(c->pids[i], SIGKILL);
	for (unsigned int i = 0; i < c->n; i++)
		while (waitpid(c->pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	c->n = 0;
}
