// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * forkpath.c - batches of parked child processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forkpath.h"
#include "report.h"

int smm_forkpath_init(struct smm_forkpath *f, uint64_t batch)
{
	f->batch = batch;
	f->gate[0] = f->gate[1] = -1;
	f->pids = calloc(batch ? batch : 1, sizeof(*f->pids));
	return f->pids ? 0 : -ENOMEM;
}

void smm_forkpath_free(struct smm_forkpath *f)
{
	free(f->pids);
	f->pids = NULL;
}

static __attribute__((noreturn)) void parked_child(int gate, pid_t parent)
{
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

uint64_t smm_forkpath_spawn(struct smm_forkpath *f, uint64_t n, int *err)
{
	pid_t parent = getpid();
	uint64_t i;

	*err = 0;
	if (pipe2(f->gate, O_CLOEXEC) < 0) {
		*err = errno;
		return 0;
	}
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			*err = errno;
			break;
		}
		if (pid == 0) {
			close(f->gate[1]);
			parked_child(f->gate[0], parent);
		}
		f->pids[i] = pid;
	}
	return i;
}

void smm_forkpath_release(struct smm_forkpath *f, uint64_t n)
{
	if (f->gate[1] >= 0)
		close(f->gate[1]);
	for (uint64_t i = 0; i < n; i++)
		while (waitpid(f->pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	if (f->gate[0] >= 0)
		close(f->gate[0]);
	f->gate[0] = f->gate[1] = -1;
}

void smm_forkpath_clamp(struct smm_forkpath *f, uint64_t to, const char *why)
{
	smm_note_once(NULL, f->stressor,
		      "%s: batch clamped from %llu to %llu forked children: %s",
		      f->name, (unsigned long long)f->batch,
		      (unsigned long long)to, why);
	f->batch = to;
}

int smm_forkpath_batch(struct smm_forkpath *f, uint64_t *allocs, char *what,
		       size_t len)
{
	char why[128];
	uint64_t made;
	int err;

	made = smm_forkpath_spawn(f, f->batch, &err);
	smm_forkpath_release(f, made);
	*allocs += made;
	if (!err)
		return 0;
	if (made > 0 && (err == EAGAIN || err == ENOMEM)) {
		snprintf(why, sizeof(why), "fork errno=%d (%s)", err,
			 strerror(err));
		smm_forkpath_clamp(f, made, why);
		return 0;
	}
	snprintf(what, len, "%s: fork of child %llu of %llu", f->name,
		 (unsigned long long)made + 1, (unsigned long long)f->batch);
	return -err;
}
