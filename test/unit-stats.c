// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-stats.c - the stats file (common/stats.h): the offsets it documents,
 * what a worker records (pages by chunk, SKIP errno, failures, placement)
 * and smm_stats_read()'s checks; the exit status from stress-ng's errno
 * classes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm-cycle.h"
#include "stats.h"
#include "tap.h"

static char dir[] = "/tmp/smm-unit-stats.XXXXXX";

static void path_of(char *buf, size_t len)
{
	snprintf(buf, len, "%s/unit.%d.stats", dir, (int)getpid());
}

static void test_layout(void)
{
	tap_ok(offsetof(struct smm_stats_file, pages) == 48 &&
		       offsetof(struct smm_stats_file, skipped) == 72 &&
		       offsetof(struct smm_stats_file, skip_errno) == 80 &&
		       offsetof(struct smm_stats_file, fail_errno) == 84 &&
		       offsetof(struct smm_stats_file, cpu) == 88 &&
		       offsetof(struct smm_stats_file, slot) == 92 &&
		       offsetof(struct smm_stats_file, companions) == 96 &&
		       offsetof(struct smm_stats_file, companion_cpu) == 104 &&
		       offsetof(struct smm_stats_file, skip_reason) == 360 &&
		       offsetof(struct smm_stats_file, kernel_alloc_ns) ==
			       616 &&
		       offsetof(struct smm_stats_file, kernel_free_ns) == 624 &&
		       sizeof(struct smm_stats_file) == 632,
	       "layout: every offset stats.h documents");
}

static void test_round_trip(void)
{
	struct smm_stats_file *s, r;
	int comp[3] = { 1, 1, 0 };
	char path[256], what[128];
	long pages;
	int rc;

	s = smm_stats_open(dir, "unit");
	tap_ok(s && s->cpu == -1 && s->slot == -1 && s->companions == 0 &&
		       s->companion_cpu[0] == -1 && s->skip_errno == 0,
	       "open: not placed, no skip, no companion");
	if (!s)
		return;
	smm_stats_place(s, 1, 3, comp, 3);
	smm_stats_fail(s, EIO);
	smm_stats_fail(s, ENOSPC);
	smm_stats_skip(s, EAGAIN, "no room");
	pages = smm_shm_cycle(SMM_SHM_MEMFD, 300 * 4096, 0, s, what,
			      sizeof(what));
	path_of(path, sizeof(path));
	rc = smm_stats_read(path, &r);
	tap_ok(rc == 0 && r.cpu == 1 && r.slot == 3 && r.companions == 3 &&
		       r.companion_cpu[0] == 1 && r.companion_cpu[2] == 0 &&
		       r.companion_cpu[3] == -1,
	       "read: the placement as recorded (rc %d)", rc);
	tap_ok(rc == 0 && r.failures == 2 && r.fail_errno == ENOSPC &&
		       r.skipped == 1 && r.skip_errno == EAGAIN &&
		       strcmp(r.skip_reason, "no room") == 0 &&
		       strcmp(r.stressor, "unit") == 0,
	       "read: failures, the last failure's errno, the SKIP errno");
	tap_ok(pages == 300 && r.pages == 300,
	       "pages: a cycle of 300 pages counts 300 (%ld, %llu)", pages,
	       (unsigned long long)r.pages);
	tap_ok(smm_stats_exit_status(&r) == 2,
	       "exit status: a failure wins over a skip");
	munmap(s, sizeof(*s));
}

/* A cycle killed in the middle keeps what it faulted, chunk by chunk. */
static void test_killed_cycle(void)
{
	struct smm_stats_file *s, r;
	char path[256];
	int fds[2], rc;
	pid_t pid;

	if (pipe(fds) < 0) {
		tap_skip("pages survive a kill in the middle of a cycle",
			 "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		char what[128];

		close(fds[0]);
		s = smm_stats_open(dir, "unit");
		/* 1 GiB: the parent kills it long before the end. */
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		smm_shm_cycle(SMM_SHM_MEMFD, 1ULL << 30, 0, s, what,
			      sizeof(what));
		_exit(0);
	}
	close(fds[1]);
	{
		char c;

		if (read(fds[0], &c, 1) != 1)
			c = 0;
	}
	close(fds[0]);
	usleep(100000);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	snprintf(path, sizeof(path), "%s/unit.%d.stats", dir, (int)pid);
	memset(&r, 0, sizeof(r));
	rc = smm_stats_read(path, &r);
	tap_ok(rc == 0 && r.pages > 0 && r.pages < 262144 &&
		       r.pages % SMM_STATS_PAGE_CHUNK == 0,
	       "pages survive a kill in the middle of a cycle (%llu pages)",
	       (unsigned long long)r.pages);
	unlink(path);
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static void test_reader_checks(void)
{
	struct smm_stats_file good, r;
	char path[256];

	memset(&good, 0, sizeof(good));
	memcpy(good.magic, SMM_STATS_MAGIC, 8);
	good.version = SMM_STATS_VERSION;
	snprintf(path, sizeof(path), "%s/other", dir);

	write_file(path, &good, sizeof(good));
	tap_ok(smm_stats_read(path, &r) == 0, "reader: a good file reads");
	good.magic[0] = 'X';
	write_file(path, &good, sizeof(good));
	tap_ok(smm_stats_read(path, &r) == -EBADMSG,
	       "reader: a bad magic is -EBADMSG");
	memcpy(good.magic, "SMMSTAT1", 8);
	good.version = 1;
	write_file(path, &good, 336);
	tap_ok(smm_stats_read(path, &r) == -EPROTO,
	       "reader: a version-1 file is -EPROTO");
	memcpy(good.magic, SMM_STATS_MAGIC, 8);
	good.version = 2;
	write_file(path, &good, 616);
	tap_ok(smm_stats_read(path, &r) == -EPROTO,
	       "reader: a version-2 file (616 bytes) is -EPROTO");
	good.version = 4;
	write_file(path, &good, sizeof(good));
	tap_ok(smm_stats_read(path, &r) == -EPROTO,
	       "reader: another version is -EPROTO");
	good.version = SMM_STATS_VERSION;
	write_file(path, &good, 100);
	tap_ok(smm_stats_read(path, &r) == -EBADMSG,
	       "reader: a short file is -EBADMSG");
	unlink(path);
	tap_ok(smm_stats_read(path, &r) == -ENOENT,
	       "reader: a missing file is -ENOENT");
}

static void test_classes(void)
{
	static const int not_impl[] = { ENOSYS, EPERM, EOPNOTSUPP, EACCES };
	static const int no_res[] = { ENOMEM, ENOSPC, EAGAIN, EMFILE, ENFILE };
	static const int fail[] = { EIO, EINVAL, ETIMEDOUT, 110, 113, 0 };
	struct smm_stats_file s;
	int good = 1;

	for (size_t i = 0; i < sizeof(not_impl) / sizeof(*not_impl); i++)
		good &= smm_errno_exit_status(not_impl[i]) == 4;
	tap_ok(good, "errno class: ENOSYS EPERM EOPNOTSUPP EACCES -> 4");
	good = 1;
	for (size_t i = 0; i < sizeof(no_res) / sizeof(*no_res); i++)
		good &= smm_errno_exit_status(no_res[i]) == 3;
	tap_ok(good, "errno class: ENOMEM ENOSPC EAGAIN EMFILE ENFILE -> 3");
	good = 1;
	for (size_t i = 0; i < sizeof(fail) / sizeof(*fail); i++)
		good &= smm_errno_exit_status(fail[i]) == 2;
	tap_ok(good,
	       "errno class: anything else (EAGAIN's neighbours 110 and 113 too) -> 2");
	memset(&s, 0, sizeof(s));
	tap_ok(smm_stats_exit_status(&s) == 0, "exit status: nothing -> 0");
	s.skipped = 1;
	s.skip_errno = EPERM;
	tap_ok(smm_stats_exit_status(&s) == 4,
	       "exit status: a seccomp EPERM skip -> 4, whatever its text");
	s.skip_errno = EAGAIN;
	tap_ok(smm_stats_exit_status(&s) == 3,
	       "exit status: an EAGAIN skip -> 3");
}

int main(void)
{
	tap_plan(20);
	if (!mkdtemp(dir)) {
		tap_diag("mkdtemp: %s", strerror(errno));
		return 1;
	}
	test_layout();
	test_round_trip();
	test_killed_cycle();
	test_reader_checks();
	test_classes();
	{
		char path[256];

		path_of(path, sizeof(path));
		unlink(path);
	}
	rmdir(dir);
	return tap_done();
}
