// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-placement.c - the run's round-robin of worker slots
 * (worker/placement.h), with real processes as workers: slots are handed
 * out in order, a worker keeps its own, and a re-forked worker takes over
 * the slot of the one it replaces, so the CPUs do not drift.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "placement.h"
#include "tap.h"

#define WORKERS 8

/* A worker: claim a slot, tell it, wait until told to go. */
static pid_t worker(int *slot)
{
	int up[2], down[2];
	pid_t pid;
	char c;

	if (pipe(up) < 0 || pipe(down) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int s = smm_placement_claim();

		close(up[0]);
		close(down[1]);
		if (write(up[1], &s, sizeof(s)) != sizeof(s))
			_exit(1);
		if (read(down[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	if (read(up[0], slot, sizeof(*slot)) != sizeof(*slot))
		*slot = -1000;
	close(up[0]);
	return pid; /* down[1] stays open: closing it lets the worker end */
}

int main(void)
{
	int slot[WORKERS], again, good = 1;
	pid_t pid[WORKERS];

	tap_plan(6);
	tap_ok(smm_placement_claim() == -ENODEV,
	       "no slot page: -ENODEV (the worker uses the CPU it runs on)");
	if (smm_placement_init() != 0) {
		tap_diag("mmap: %s", strerror(errno));
		return 1;
	}
	for (int i = 0; i < WORKERS; i++) {
		pid[i] = worker(&slot[i]);
		good &= slot[i] == i;
	}
	tap_ok(good, "workers get slots 0..%d in order", WORKERS - 1);
	again = smm_placement_claim();
	tap_ok(again == WORKERS && smm_placement_claim() == again,
	       "a process keeps the slot it holds (%d)", again);

	/* Workers 2 and 5 end (zombies until reaped, as stress-ng leaves
	 * them for a moment); their replacements take their slots. */
	kill(pid[2], SIGKILL);
	kill(pid[5], SIGKILL);
	/* until both are dead, without reaping them (WNOWAIT) */
	{
		siginfo_t si;

		waitid(P_PID, (id_t)pid[2], &si, WEXITED | WNOWAIT);
		waitid(P_PID, (id_t)pid[5], &si, WEXITED | WNOWAIT);
	}
	pid[2] = worker(&slot[2]);
	waitpid(-1, NULL, WNOHANG);
	pid[5] = worker(&slot[5]);
	tap_ok(slot[2] == 2 && slot[5] == 5,
	       "re-forked workers take over the dead ones' slots (%d, %d)",
	       slot[2], slot[5]);
	{
		int extra;
		pid_t p = worker(&extra);

		tap_ok(extra == WORKERS + 1,
		       "a new worker with every lower slot alive goes on (%d)",
		       extra);
		kill(p, SIGKILL);
	}
	{
		struct smm_plan plan;
		int rc = smm_placement_plan(SMM_CPU_SAME, 2, &plan);

		tap_ok(rc == 0 && plan.slot == again &&
			       plan.companion_cpu[0] == plan.worker_cpu &&
			       plan.companion_cpu[1] == plan.worker_cpu &&
			       strstr(plan.text, "(slot"),
		       "plan same: the slot's CPU, companions on it (%s)",
		       plan.text);
	}
	for (int i = 0; i < WORKERS; i++)
		kill(pid[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	smm_placement_reset();
	return tap_done();
}
