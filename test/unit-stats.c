// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-stats.c - the record (common/stats.h): the offsets it documents,
 * what a worker records (pages added chunk by chunk survive a SIGKILL, SKIP
 * errno and reason, failures and the last one's reason, a crash,
 * placement, the batch and bytes that ran, what each path achieved: first
 * writer of a name wins, slots claimed by several processes at once never
 * lost) and smm_stats_read()'s checks; the exit status from stress-ng's
 * errno classes; a reason cut to its field ends in "...".
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
		       offsetof(struct smm_stats_file, crash_signal) == 100 &&
		       offsetof(struct smm_stats_file, fail_reason) == 632 &&
		       offsetof(struct smm_stats_file, paths) == 888 &&
		       offsetof(struct smm_stats_file, batch) == 4824 &&
		       offsetof(struct smm_stats_file, bytes) == 4832 &&
		       offsetof(struct smm_stats_path, state) == 32 &&
		       offsetof(struct smm_stats_path, area_bytes) == 48 &&
		       offsetof(struct smm_stats_path, requested) == 64 &&
		       offsetof(struct smm_stats_path, caller) == 72 &&
		       offsetof(struct smm_stats_path, reason) == 136 &&
		       offsetof(struct smm_stats_path, decided) == 320 &&
		       sizeof(struct smm_stats_path) == 328 &&
		       sizeof(struct smm_stats_file) == 4840,
	       "layout: every offset stats.h documents");
}

static void test_round_trip(void)
{
	struct smm_stats_file *s, r;
	int comp[3] = { 1, 1, 0 };
	char path[256];
	int rc;

	s = smm_stats_open(dir, "unit");
	tap_ok(s && s->cpu == -1 && s->slot == -1 && s->companions == 0 &&
		       s->companion_cpu[0] == -1 && s->skip_errno == 0,
	       "open: not placed, no skip, no companion");
	if (!s)
		return;
	smm_stats_place(s, 1, 3, comp, 3);
	smm_stats_fail(s, EIO, "first");
	smm_stats_fail(s, ENOSPC, "ftruncate of 4096 bytes");
	smm_stats_skip(s, EAGAIN, "no room");
	smm_stats_add(s, pages, 256);
	smm_stats_add(s, pages, 44);
	smm_stats_ran(s, 128, 12288);
	smm_stats_ran(NULL, 1, 1);
	path_of(path, sizeof(path));
	rc = smm_stats_read(path, &r);
	tap_ok(rc == 0 && r.cpu == 1 && r.slot == 3 && r.companions == 3 &&
		       r.companion_cpu[0] == 1 && r.companion_cpu[2] == 0 &&
		       r.companion_cpu[3] == -1,
	       "read: the placement as recorded (rc %d)", rc);
	tap_ok(rc == 0 && r.failures == 2 && r.fail_errno == ENOSPC &&
		       strcmp(r.fail_reason, "ftruncate of 4096 bytes") == 0 &&
		       r.skipped == 1 && r.skip_errno == EAGAIN &&
		       strcmp(r.skip_reason, "no room") == 0 &&
		       strcmp(r.stressor, "unit") == 0,
	       "read: failures, the last failure's errno and reason, the SKIP errno and reason");
	tap_ok(rc == 0 && r.pages == 300,
	       "pages: 256 and 44 added count 300 (%llu)",
	       (unsigned long long)r.pages);
	tap_ok(rc == 0 && r.batch == 128 && r.bytes == 12288,
	       "ran: batch 128 of 12288 bytes read back (%llu, %llu)",
	       (unsigned long long)r.batch, (unsigned long long)r.bytes);
	tap_ok(smm_stats_exit_status(&r) == 2,
	       "exit status: a failure wins over a skip");
	munmap(s, sizeof(*s));
}

/* A worker killed in the middle of its faults keeps what it added, chunk
 * by chunk. */
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
		close(fds[0]);
		s = smm_stats_open(dir, "unit");
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		/* a chunk every 100 us until the parent kills it */
		for (;;) {
			smm_stats_add(s, pages, SMM_STATS_PAGE_CHUNK);
			usleep(100);
		}
	}
	close(fds[1]);
	{
		char c;

		if (read(fds[0], &c, 1) != 1)
			c = 0;
	}
	close(fds[0]);
	/* kill it once its record holds faulted pages (up to 30 s on a
	 * busy machine), not after a guess of how long that takes */
	snprintf(path, sizeof(path), "%s/unit.%d.stats", dir, (int)pid);
	for (int i = 0; i < 3000; i++) {
		memset(&r, 0, sizeof(r));
		if (smm_stats_read(path, &r) == 0 && r.pages > 0)
			break;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	memset(&r, 0, sizeof(r));
	rc = smm_stats_read(path, &r);
	tap_ok(rc == 0 && r.pages > 0 && r.pages % SMM_STATS_PAGE_CHUNK == 0,
	       "pages survive a kill in the middle of the faults (%llu pages)",
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
	good.version = 3;
	write_file(path, &good, 632);
	tap_ok(smm_stats_read(path, &r) == -EPROTO,
	       "reader: a version-3 file (632 bytes) is -EPROTO");
	good.version = 4;
	write_file(path, &good, 4824);
	tap_ok(smm_stats_read(path, &r) == -EPROTO,
	       "reader: a version-4 file (4824 bytes, no batch and bytes) is -EPROTO");
	good.version = 5;
	write_file(path, &good, sizeof(good));
	tap_ok(smm_stats_read(path, &r) == -EPROTO,
	       "reader: a version-5 file (its size, no decided) is -EPROTO");
	good.version = SMM_STATS_VERSION + 1;
	write_file(path, &good, sizeof(good));
	tap_ok(smm_stats_read(path, &r) == -EPROTO,
	       "reader: another version is -EPROTO");
	good.version = SMM_STATS_VERSION;
	good.paths[3].state = 9;
	write_file(path, &good, sizeof(good));
	tap_ok(smm_stats_read(path, &r) == -EBADMSG,
	       "reader: a path slot of an unknown state is -EBADMSG");
	good.paths[3].state = SMM_PATH_CLAIMED;
	write_file(path, &good, sizeof(good));
	tap_ok(smm_stats_read(path, &r) == 0 &&
		       r.paths[3].state == SMM_PATH_UNUSED,
	       "reader: a slot being claimed reads as unused");
	good.paths[3].state = SMM_PATH_UNUSED;
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
	s.crash_signal = SIGSEGV;
	tap_ok(smm_stats_exit_status(&s) == 2,
	       "exit status: a crash -> 2, whatever else");
}

static struct smm_stats_path proven(const char *name, uint64_t bytes)
{
	struct smm_stats_path p = { .state = SMM_PATH_PROVEN,
				    .kind = SMM_AREA_VMALLOC,
				    .order = 2,
				    .area_bytes = bytes,
				    .pages = 4 };

	snprintf(p.name, sizeof(p.name), "%s", name);
	snprintf(p.caller, sizeof(p.caller), "kernel_clone");
	return p;
}

static void test_paths_and_crash(void)
{
	struct smm_stats_file *s, r;
	struct smm_stats_path p = proven("stack", 20480);
	char path[256];
	int rc, full, fields, dup;

	s = smm_stats_open(dir, "unit");
	if (!s) {
		tap_skip("paths", "smm_stats_open: %s", strerror(errno));
		return;
	}
	rc = smm_stats_path_add(s, &p);
	p.area_bytes = 1;
	dup = smm_stats_path_add(s, &p);
	p.state = SMM_PATH_CLAIMED;
	tap_ok(rc == 0 && dup == -EEXIST &&
		       smm_stats_path_add(s, &p) == -EINVAL,
	       "paths: a name is recorded once, the first writer wins; a bad state is -EINVAL");
	full = 0;
	for (int i = 1; i < SMM_STATS_PATHS + 1; i++) {
		char name[32];

		snprintf(name, sizeof(name), "kind-%d", i);
		p = proven(name, 4096);
		full = smm_stats_path_add(s, &p);
	}
	tap_ok(full == -ENOSPC, "paths: past %d slots -ENOSPC",
	       SMM_STATS_PATHS);
	smm_stats_crash(s, SIGSEGV);
	smm_stats_crash(s, SIGBUS);
	path_of(path, sizeof(path));
	rc = smm_stats_read(path, &r);
	fields = rc == 0 && r.paths[0].state == SMM_PATH_PROVEN &&
		 !strcmp(r.paths[0].name, "stack") &&
		 r.paths[0].area_bytes == 20480 && r.paths[0].pages == 4 &&
		 r.paths[0].order == 2 && r.paths[0].kind == SMM_AREA_VMALLOC &&
		 !strcmp(r.paths[0].caller, "kernel_clone");
	tap_ok(fields,
	       "paths: kind, area bytes, pages, order, caller read back");
	tap_ok(rc == 0 && r.crash_signal == SIGSEGV &&
		       smm_stats_exit_status(&r) == 2,
	       "crash: the first signal is kept (%d), exit status 2",
	       r.crash_signal);
	munmap(s, sizeof(*s));
	unlink(path);
}

/* Forked processes claiming slots at once: no name lost. */
static void test_paths_concurrent(void)
{
	struct smm_stats_file *s, r;
	char path[256];
	int seen = 0, rc;
	pid_t pids[6];

	s = smm_stats_open(dir, "unit");
	if (!s) {
		tap_skip("concurrent claims", "smm_stats_open failed");
		return;
	}
	for (int c = 0; c < 6; c++) {
		pids[c] = fork();
		if (pids[c] == 0) {
			for (int i = 0; i < 2; i++) {
				char name[32];
				struct smm_stats_path p;

				snprintf(name, sizeof(name), "p%d-%d", c, i);
				p = proven(name, 8192);
				smm_stats_path_add(s, &p);
			}
			_exit(0);
		}
	}
	for (int c = 0; c < 6; c++)
		waitpid(pids[c], NULL, 0);
	path_of(path, sizeof(path));
	rc = smm_stats_read(path, &r);
	for (int i = 0; rc == 0 && i < SMM_STATS_PATHS; i++)
		seen += r.paths[i].state == SMM_PATH_PROVEN &&
			r.paths[i].name[0] == 'p';
	tap_ok(seen == SMM_STATS_PATHS,
	       "paths: 6 processes claiming 2 names each fill all %d slots (%d)",
	       SMM_STATS_PATHS, seen);
	munmap(s, sizeof(*s));
	unlink(path);
}

/* A text longer than its field ends in "...", one that fits is kept. */
static void test_text_cut(void)
{
	char field[16], longer[64];

	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	smm_stats_text(field, sizeof(field), longer);
	tap_ok(strlen(field) == sizeof(field) - 1 &&
		       strcmp(field + sizeof(field) - 4, "...") == 0 &&
		       field[0] == 'x',
	       "a reason longer than its field ends in ...: %s", field);
	longer[sizeof(field) - 1] = '\0';
	smm_stats_text(field, sizeof(field), longer);
	tap_ok(strcmp(field, longer) == 0,
	       "a reason that just fits is kept whole: %s", field);
}

int main(void)
{
	tap_plan(34);
	if (!mkdtemp(dir)) {
		tap_diag("mkdtemp: %s", strerror(errno));
		return 1;
	}
	test_layout();
	test_round_trip();
	test_killed_cycle();
	test_reader_checks();
	test_classes();
	test_paths_and_crash();
	test_paths_concurrent();
	test_text_cut();
	{
		char path[256];

		path_of(path, sizeof(path));
		unlink(path);
	}
	rmdir(dir);
	return tap_done();
}
