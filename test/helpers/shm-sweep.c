// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shm-sweep - the shm-pcp leftover sweep (shm.h) as a command, for tests
 * and by hand.
 *
 *   shm-sweep            remove leftovers of dead workers; print
 *                        "posix: N" and "sysv: N" (removed)
 *   shm-sweep --count    print "leftovers: N" (ours, dead or alive)
 *   shm-sweep --plant    fork a child that creates a POSIX name and a SysV
 *                        segment of ours and dies without removing them
 *                        (what a SIGKILL in the create window leaves)
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core-shm-pcp.h"
#include "shm.h"

static int plant(void)
{
	pid_t pid = fork();
	int status = 1;

	if (pid == 0) {
		char name[96];

		snprintf(name, sizeof(name), "/" STRESS_SHM_PCP_PREFIX "%d-0",
			 (int)getpid());
		if (shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600) < 0)
			_exit(1);
		if (shmget(stress_shm_pcp_sysv_key(getpid()), 65536,
			   IPC_CREAT | IPC_EXCL | 0600) < 0)
			_exit(1);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	unsigned int p = 0, s = 0;

	if (argc == 2 && strcmp(argv[1], "--count") == 0) {
		printf("leftovers: %u\n", smm_shm_leftovers(NULL));
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "--plant") == 0)
		return plant();
	if (argc != 1) {
		fprintf(stderr, "usage: shm-sweep [--count|--plant]\n");
		return 2;
	}
	if (smm_shm_sweep(NULL, &p, &s) < 0)
		return 2;
	printf("posix: %u\nsysv: %u\n", p, s);
	return 0;
}
