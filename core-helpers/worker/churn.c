// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * churn.c - churn companion processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "churn.h"
#include "report.h"

#define SPIN_CHECK_MASK 0xffffU
#define REAP_WAIT_NS 1000000L /* 1 ms between looks for dead children */
#define REAP_LOOKS 2000 /* 2 s at most */

/* The stop signals stress-ng handles in a worker, whose handlers _exit(). */
static const int stop_signals[] = { SIGALRM, SIGINT, SIGTERM };
#define NR_STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

/* The companions of this worker, for the stop handler. */
static struct smm_churn *live;
static pid_t handler_pid; /* the worker whose handlers are installed */
/* A stop signal reached the worker: the run is ending (stress-ng's
 * timeout), and a companion that dies now was killed for it. */
static volatile sig_atomic_t stopping;
static struct sigaction chained[NR_STOP_SIGNALS];

const struct smm_vmpath *smm_churn_path(enum smm_churn_kind kind)
{
	int id = smm_churn_path_id(kind);

	return id < 0 ? NULL : smm_vmpaths[id];
}

/*
 * Tell the worker "ready" (@err 0, an empty reason) or why not: one write
 * of "<errno> <reason>\0", then go on.
 */
static void tell(int fd, int err, const char *why)
{
	char msg[600];
	int n = snprintf(msg, sizeof(msg), "%d %s", err, why);

	if (n < 0 || (size_t)n >= sizeof(msg))
		n = sizeof(msg) - 1;
	msg[n++] = '\0';
	if (write(fd, msg, (size_t)n) != (ssize_t)n)
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
		.stats = cfg->stats,
		.batch_var = cfg->batch_var,
		.bytes = cfg->bytes ? cfg->bytes
			 : path	    ? path->natural_bytes
				    : 0,
		.batch = cfg->batch,
		.io_uring = SMM_IOU_RINGS,
	};
	char why[512] = "", what[256];
	void *state = NULL;
	int rc;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != worker)
		_exit(0);
	/* stress-ng's handlers would act for the worker: not ours. */
	signal(SIGALRM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	prctl(PR_SET_NAME, "smm-churn");
	rc = -smm_pin_self(cfg->plan->companion_cpu[idx]);
	if (rc > 0) {
		snprintf(why, sizeof(why), "companion %u: cannot pin to CPU %d",
			 idx, cfg->plan->companion_cpu[idx]);
		tell(fd, rc, why);
		_exit(1);
	}
	if (!path) { /* spin: CPU time, no allocation */
		tell(fd, 0, "");
		wait_gate(gate, worker);
		for (unsigned long i = 0;; i++) {
			__asm__ __volatile__("" ::: "memory");
			if ((i & SPIN_CHECK_MASK) == 0 && getppid() != worker)
				_exit(0);
		}
	}
	rc = smm_vmpath_setup(path, &state, &pc, why, sizeof(why));
	if (rc != 0) {
		tell(fd, -rc, why[0] ? why : "setup failed");
		_exit(1);
	}
	/* ready, with the batch that runs after set-up's clamps */
	snprintf(what, sizeof(what), "%llu",
		 (unsigned long long)smm_vmpath_batch_size(state));
	tell(fd, 0, what);
	wait_gate(gate, worker);
	for (;;) {
		uint64_t allocs = 0;

		rc = smm_vmpath_batch(state, &allocs, what, sizeof(what));
		smm_stats_add(cfg->stats, churn_allocs, allocs);
		if (rc && smm_errno_exit_status(-rc) == SMM_EX_NORES) {
			/* a limit reached mid-run (RLIMIT_NPROC, memory): no
			 * resource, which the worker reads from the record */
			char text[400];

			snprintf(text, sizeof(text),
				 "churn companion: %s errno=%d (%s)", what, -rc,
				 strerror(-rc));
			smm_stats_skip(cfg->stats, -rc, text);
			_exit(SMM_EX_NORES);
		}
		if (rc) {
			smm_fail(cfg->stats, cfg->stressor, -rc,
				 "churn companion: %s", what);
			_exit(1);
		}
		if (getppid() != worker)
			_exit(0);
	}
}

/* Read one companion's "ready" (0, and its batch in *@batch when it said
 * one) or its -errno and reason. */
static int read_ready(int fd, uint64_t *batch, char *why, size_t len)
{
	char msg[600], *text = NULL;
	ssize_t n, got = 0;
	long err;

	while ((n = read(fd, msg + got, sizeof(msg) - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	msg[got] = '\0';
	err = got ? strtol(msg, &text, 10) : 0;
	if (got && err == 0) {
		if (text && *text == ' ' && text[1])
			*batch = strtoull(text + 1, NULL, 10);
		return 0;
	}
	snprintf(why, len, "churn: %s",
		 got && text && *text ? text + 1
				      : "companion died before it was ready");
	return err > 0 ? -(int)err : -ECHILD;
}

/*
 * Reap every child of the calling process (companions, and their own
 * children, which the worker adopts as a subreaper), waiting up to 2 s for
 * those just killed. Async-signal-safe: waitpid(2) and nanosleep(2) only.
 */
static void reap_all(void)
{
	const struct timespec nap = { 0, REAP_WAIT_NS };

	for (int i = 0; i < REAP_LOOKS; i++) {
		pid_t pid = waitpid(-1, NULL, WNOHANG);

		if (pid < 0 && errno == ECHILD)
			return;
		if (pid <= 0 && errno != EINTR)
			nanosleep(&nap, NULL);
	}
}

static void kill_and_reap(struct smm_churn *c)
{
	for (unsigned int i = 0; i < c->n; i++)
		kill(c->pids[i], SIGKILL);
	c->n = 0;
	reap_all();
}

/*
 * stress-ng's handler of a stop signal _exit()s the worker at once; its
 * companions would then die of PR_SET_PDEATHSIG as orphans, zombies until
 * the reaper the kernel gives them (init, or a subreaper) waits for them.
 * So the worker kills and reaps them first, then does what stress-ng's
 * handler (or the default action) would have done.
 */
static void stop_handler(int sig, siginfo_t *info, void *uc)
{
	int saved = errno;
	unsigned int i;

	for (i = 0; i < NR_STOP_SIGNALS && stop_signals[i] != sig; i++)
		;
	stopping = 1;
	if (live && getpid() == handler_pid)
		kill_and_reap(live);
	if (i < NR_STOP_SIGNALS) {
		const struct sigaction *o = &chained[i];

		if (o->sa_flags & SA_SIGINFO) {
			o->sa_sigaction(sig, info, uc);
		} else if (o->sa_handler == SIG_DFL) {
			signal(sig, SIG_DFL);
			raise(sig); /* delivered when this handler returns */
		} else if (o->sa_handler != SIG_IGN) {
			o->sa_handler(sig);
		}
	}
	errno = saved;
}

/* Once per worker: become the subreaper of the companions' children, and
 * put stop_handler() in front of stress-ng's stop handlers. */
static void install_stop_handler(void)
{
	struct sigaction sa;

	if (handler_pid == getpid())
		return;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = stop_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (unsigned int i = 0; i < NR_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, &chained[i]);
	handler_pid = getpid();
}

int smm_churn_start(struct smm_churn *c, const struct smm_churn_cfg *cfg,
		    char *why, size_t len)
{
	int status[SMM_MAX_COMPANIONS], gate[2], rc = 0, err;
	bool other = false; /* an error other than a companion that died */
	pid_t worker = getpid();
	unsigned int i;

	memset(c, 0, sizeof(*c));
	if (cfg->kind == SMM_CHURN_NONE || cfg->plan->companions == 0)
		return 0;
	install_stop_handler();
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
		live = c;
	}
	for (unsigned int j = 0; j < i; j++) {
		uint64_t b = 0;
		int r = read_ready(status[j], &b, why, len);

		if (r != 0 && rc == 0)
			rc = r;
		other |= r != 0 && r != -ECHILD;
		if (b && (!c->batch || b < c->batch))
			c->batch = b;
	}
	close(gate[0]);
	if (rc == -ECHILD && !other && stopping) {
		/* the run ended while the companions set up: nothing failed */
		snprintf(why, len,
			 "churn: the run ended while %u companion(s) set up",
			 cfg->plan->companions);
		rc = -EINTR;
	}
	if (rc) {
		close(gate[1]);
		smm_churn_stop(c);
		return rc;
	}
	close(gate[1]); /* go */
	return 0;
}

pid_t smm_churn_alive(struct smm_churn *c, int *wstatus)
{
	for (unsigned int i = 0; i < c->n; i++) {
		pid_t pid = waitpid(c->pids[i], wstatus, WNOHANG);

		if (pid < 0 && errno == ECHILD)
			*wstatus = -1;
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
	sigset_t stop, old;

	sigemptyset(&stop);
	for (unsigned int i = 0; i < NR_STOP_SIGNALS; i++)
		sigaddset(&stop, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &stop, &old);
	kill_and_reap(c);
	if (live == c)
		live = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
}
