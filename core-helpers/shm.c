// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shm.c - shared-memory object cycles (POSIX, memfd, SysV) and the sweep.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "shm.h"

#define SHM_DIR "/dev/shm"

static long fault_pages(char *p, uint64_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	long n = 0;

	for (uint64_t off = 0; off < bytes; off += (uint64_t)page, n++)
		*(volatile char *)(p + off) = 1;
	return n;
}

/* Block SIGALRM, returning the old mask in @old. */
static void hold_alarm(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, old);
}

static int open_posix(uint64_t seq, char *what, size_t len)
{
	char name[96];
	sigset_t old;
	int fd, err = 0;

	snprintf(name, sizeof(name), "/" SMM_SHM_PREFIX "%d-%llu",
		 (int)getpid(), (unsigned long long)seq);
	hold_alarm(&old);
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		err = errno;
	else
		shm_unlink(name);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		snprintf(what, len, "shm_open %s", name);
		return -err;
	}
	return fd;
}

static long cycle_fd(int fd, uint64_t bytes, char *what, size_t len)
{
	char *p;
	long n;
	int err;

	if (ftruncate(fd, (off_t)bytes) < 0) {
		err = errno;
		snprintf(what, len, "ftruncate to %llu bytes",
			 (unsigned long long)bytes);
		close(fd);
		return -err;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		snprintf(what, len, "mmap MAP_SHARED of %llu bytes",
			 (unsigned long long)bytes);
		close(fd);
		return -err;
	}
	n = fault_pages(p, bytes);
	munmap(p, bytes);
	close(fd);
	return n;
}

static int sysv_get(uint64_t bytes, char *what, size_t len)
{
	key_t key = SMM_SHM_SYSV_KEY(getpid());
	int id, err;

	id = shmget(key, bytes, IPC_CREAT | IPC_EXCL | 0600);
	if (id < 0 && errno == EEXIST) {
		/* A dead worker with the same low pid bits left it. */
		smm_shm_sweep(NULL, NULL, NULL);
		id = shmget(key, bytes, IPC_CREAT | IPC_EXCL | 0600);
		if (id < 0 && errno == EEXIST)
			id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
	}
	if (id < 0) {
		err = errno;
		snprintf(what, len, "shmget of %llu bytes",
			 (unsigned long long)bytes);
		return -err;
	}
	return id;
}

static long cycle_sysv(uint64_t bytes, char *what, size_t len)
{
	sigset_t old;
	char *p;
	long n;
	int id, err = 0;

	hold_alarm(&old);
	id = sysv_get(bytes, what, len);
	if (id < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return id;
	}
	p = shmat(id, NULL, 0);
	if ((intptr_t)p == -1)
		err = errno;
	shmctl(id, IPC_RMID, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (err) {
		snprintf(what, len, "shmat");
		return -err;
	}
	n = fault_pages(p, bytes);
	shmdt(p);
	return n;
}

long smm_shm_cycle(enum smm_shm_method method, uint64_t bytes, uint64_t seq,
		   char *what, size_t len)
{
	int fd;

	switch (method) {
	case SMM_SHM_POSIX:
		fd = open_posix(seq, what, len);
		break;
	case SMM_SHM_MEMFD:
		fd = memfd_create(SMM_SHM_PREFIX "memfd", MFD_CLOEXEC);
		if (fd < 0) {
			fd = -errno;
			snprintf(what, len, "memfd_create");
		}
		break;
	case SMM_SHM_SYSV:
		return cycle_sysv(bytes, what, len);
	default:
		snprintf(what, len, "unknown method");
		return -EINVAL;
	}
	if (fd < 0)
		return fd;
	return cycle_fd(fd, bytes, what, len);
}

/* Dead: gone (ESRCH), or a zombie not yet reaped (killed workers are
 * adopted by init, which may reap them late). */
static int pid_dead(long pid)
{
	char path[64], buf[256], *rp;
	ssize_t n;
	int fd;

	if (pid <= 0)
		return 0;
	if (kill((pid_t)pid, 0) < 0)
		return errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) S ...": the state follows the last ')' */
	rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
}

/* Walk our POSIX names; remove those of dead pids when @remove. */
static int walk_posix(const char *dir, int remove, unsigned int *count)
{
	size_t plen = strlen(SMM_SHM_PREFIX);
	struct dirent *d;
	DIR *dp;

	dp = opendir(dir ? dir : SHM_DIR);
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		char path[512];
		long pid;

		if (strncmp(d->d_name, SMM_SHM_PREFIX, plen) != 0)
			continue;
		pid = strtol(d->d_name + plen, NULL, 10);
		if (!remove) {
			(*count)++;
			continue;
		}
		if (!pid_dead(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : SHM_DIR,
			 d->d_name);
		if (unlink(path) == 0)
			(*count)++;
	}
	closedir(dp);
	return 0;
}

/* Walk our SysV segments (key base) in /proc/sysvipc/shm. */
static void walk_sysv(int remove, unsigned int *count)
{
	char line[512];
	FILE *f;

	f = fopen("/proc/sysvipc/shm", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long key, id, perms, size, cpid;

		if (sscanf(line, "%ld %ld %ld %ld %ld", &key, &id, &perms,
			   &size, &cpid) != 5)
			continue; /* the header */
		if (((unsigned long)key & 0xffff0000UL) !=
		    SMM_SHM_SYSV_KEY_BASE)
			continue;
		if (!remove) {
			(*count)++;
			continue;
		}
		if (pid_dead(cpid) && shmctl((int)id, IPC_RMID, NULL) == 0)
			(*count)++;
	}
	fclose(f);
}

int smm_shm_sweep(const char *shm_dir, unsigned int *posix, unsigned int *sysv)
{
	unsigned int p = 0, s = 0;
	int rc;

	rc = walk_posix(shm_dir, 1, &p);
	walk_sysv(1, &s);
	if (posix)
		*posix = p;
	if (sysv)
		*sysv = s;
	return rc;
}

unsigned int smm_shm_leftovers(const char *shm_dir)
{
	unsigned int n = 0;

	walk_posix(shm_dir, 0, &n);
	walk_sysv(0, &n);
	return n;
}
