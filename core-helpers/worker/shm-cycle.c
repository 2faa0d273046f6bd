// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shm-cycle.c - shared-memory object cycles (POSIX, memfd, SysV).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "shm-cycle.h"
#include "shm.h"
#include "stats.h"

/* Where a SIGBUS inside fault_pages() jumps to: a shmem page that cannot
 * be allocated (a full tmpfs, its size= or nr_blocks=) is a SIGBUS at the
 * faulting store, mm/shmem.c shmem_fault() -> VM_FAULT_SIGBUS on
 * -ENOSPC. */
static sigjmp_buf bus_jump;

static void on_bus(int sig)
{
	(void)sig;
	siglongjmp(bus_jump, 1);
}

/* The word written to page @n of cycle @seq: differs from page to page
 * and from cycle to cycle (objects are at most 2^18 pages). */
static uint64_t stamp(uint64_t seq, long n)
{
	return 0x5aa5000000000000ULL ^ (seq << 20) ^ (uint64_t)n;
}

/* Read every page back: each holds the word written to it. */
static long check_pages(const char *p, uint64_t bytes, uint64_t seq, long n,
			char *what, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);

	for (long i = 0; i < n; i++) {
		uint64_t got = *(const volatile uint64_t *)(p + i * page);

		if (got != stamp(seq, i)) {
			snprintf(
				what, len,
				"verify: page %ld of %llu bytes holds 0x%llx, 0x%llx was written",
				i, (unsigned long long)bytes,
				(unsigned long long)got,
				(unsigned long long)stamp(seq, i));
			return -EBADMSG;
		}
	}
	return n;
}

/* Write-fault every page; count them in @stats chunk by chunk, so that a
 * kill in the middle loses at most one chunk. Return: pages, -ENOSPC when
 * a page could not be had (SIGBUS), or -EBADMSG from check_pages(). */
static long fault_pages(char *p, uint64_t bytes, uint64_t seq, bool verify,
			struct smm_stats_file *stats, char *what, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile long n = 0, told = 0;
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_bus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(bus_jump, 1)) {
		sigaction(SIGBUS, &old, NULL);
		smm_stats_add(stats, pages, (uint64_t)(n - told));
		return -ENOSPC;
	}
	for (uint64_t off = 0; off < bytes; off += (uint64_t)page) {
		*(volatile uint64_t *)(p + off) = stamp(seq, n);
		if (++n - told == SMM_STATS_PAGE_CHUNK) {
			smm_stats_add(stats, pages, SMM_STATS_PAGE_CHUNK);
			told = n;
		}
	}
	sigaction(SIGBUS, &old, NULL);
	smm_stats_add(stats, pages, (uint64_t)(n - told));
	return verify ? check_pages(p, bytes, seq, n, what, len) : n;
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

static long cycle_fd(int fd, const char *where, uint64_t bytes, uint64_t seq,
		     bool verify, struct smm_stats_file *stats, char *what,
		     size_t len)
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
	n = fault_pages(p, bytes, seq, verify, stats, what, len);
	if (n == -ENOSPC)
		snprintf(
			what, len,
			"%s is full: a page of a %llu-byte object could not be had (SIGBUS at the fault)",
			where, (unsigned long long)bytes);
	munmap(p, bytes);
	close(fd);
	return n;
}

int smm_shm_sysv_create(uint64_t bytes, key_t *key_out)
{
	unsigned int low = (unsigned int)getpid() & 0xffffU;
	int id = -1;

	for (unsigned int i = 0; i <= 0xffffU; i++) {
		key_t key =
			(key_t)(SMM_SHM_SYSV_KEY_BASE | ((low + i) & 0xffffU));

		id = shmget(key, bytes, IPC_CREAT | IPC_EXCL | 0600);
		if (id < 0 && errno == EEXIST && i == 0) {
			/* A dead worker with the same low pid bits left it. */
			smm_shm_sweep(NULL, NULL, NULL);
			id = shmget(key, bytes, IPC_CREAT | IPC_EXCL | 0600);
		}
		if (id >= 0) {
			if (key_out)
				*key_out = key;
			return id;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

static int sysv_get(uint64_t bytes, char *what, size_t len)
{
	int id = smm_shm_sysv_create(bytes, NULL);

	if (id < 0)
		snprintf(what, len, "shmget of %llu bytes",
			 (unsigned long long)bytes);
	return id;
}

static long cycle_sysv(uint64_t bytes, uint64_t seq, bool verify,
		       struct smm_stats_file *stats, char *what, size_t len)
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
	n = fault_pages(p, bytes, seq, verify, stats, what, len);
	if (n == -ENOSPC)
		snprintf(
			what, len,
			"SysV shm (shmem) is full: a page of a %llu-byte segment could not be had (SIGBUS at the fault)",
			(unsigned long long)bytes);
	shmdt(p);
	return n;
}

long smm_shm_cycle(enum smm_shm_method method, uint64_t bytes, uint64_t seq,
		   bool verify, struct smm_stats_file *stats, char *what,
		   size_t len)
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
		return cycle_sysv(bytes, seq, verify, stats, what, len);
	default:
		snprintf(what, len, "unknown method");
		return -EINVAL;
	}
	if (fd < 0)
		return fd;
	return cycle_fd(fd,
			method == SMM_SHM_POSIX ? "/dev/shm"
						: "memfd's shmem mount",
			bytes, seq, verify, stats, what, len);
}
