// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * holder-children.c - parked child processes as holder items.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "holder-children.h"

const int smm_children_resource[] = { EAGAIN, ENOMEM, 0 };

int smm_children_room(void *ctx, uint64_t cap)
{
	struct smm_children *c = ctx;

	free(c->pid);
	c->gate[0] = c->gate[1] = -1;
	c->cap = cap;
	c->pid = calloc(cap, sizeof(*c->pid));
	return c->pid ? 0 : -ENOMEM;
}

static __attribute__((noreturn)) void parked(int gate, pid_t parent)
{
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

uint64_t smm_children_acquire(void *ctx, uint64_t n, int *err)
{
	struct smm_children *c = ctx;
	pid_t parent = getpid();
	uint64_t i;

	*err = 0;
	if (pipe2(c->gate, O_CLOEXEC) < 0) {
		*err = errno;
		c->gate[0] = c->gate[1] = -1;
		return 0;
	}
	for (i = 0; i < n && i < c->cap; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			*err = errno;
			break;
		}
		if (pid == 0) {
			close(c->gate[1]);
			parked(c->gate[0], parent);
		}
		c->pid[i] = pid;
	}
	return i;
}

void smm_children_release(void *ctx, uint64_t n)
{
	struct smm_children *c = ctx;

	if (c->gate[1] >= 0)
		close(c->gate[1]);
	for (uint64_t i = 0; i < n; i++)
		while (waitpid(c->pid[i], NULL, 0) < 0 && errno == EINTR)
			;
	if (c->gate[0] >= 0)
		close(c->gate[0]);
	c->gate[0] = c->gate[1] = -1;
}

void smm_children_free(struct smm_children *c)
{
	free(c->pid);
	c->pid = NULL;
	c->cap = 0;
}
