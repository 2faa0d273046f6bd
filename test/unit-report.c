// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-report.c - once per run across forked processes, the FAIL and SKIP
 * line formats, FAIL rate limiting (every failure still counted in the
 * record), smm_skip() ending a worker the way stress-ng's timeout does
 * (SIGALRM to the parent, exit status 0) with the SKIP's errno and reason
 * in the record.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"
#include "tap.h"

static volatile sig_atomic_t alarms;
static struct smm_stats_file *rec; /* shared with the children */

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* Run @fn in a child with stderr into a pipe; return its stderr text. */
static int capture(void (*fn)(void), char *out, size_t len, int *status)
{
	int fds[2];
	ssize_t n, used = 0;
	pid_t pid;

	if (pipe(fds))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		fn();
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + used, len - 1 - (size_t)used)) > 0)
		used += n;
	out[used] = '\0';
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0)
		; /* interrupted by SIGALRM from the child */
	return 0;
}

static void child_once(void)
{
	_exit(smm_once("shared-key") ? 0 : 1);
}

static void child_fail(void)
{
	smm_fail(rec, "st", 11, "pthread_create of thread %d", 3);
}

static void child_fail_many(void)
{
	for (int i = 0; i < 40; i++)
		smm_fail(rec, "st", 12, "x");
}

static void child_skip(void)
{
	smm_skip(rec, "st", EAGAIN, "stack: cannot create a thread");
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

int main(void)
{
	char out[8192], dir[] = "/tmp/unit-report.XXXXXX", path[256];
	int status = 0;

	tap_plan(12);
	if (mkdtemp(dir))
		rec = smm_stats_open(dir, "st");
	snprintf(path, sizeof(path), "%s/st.%d.stats", dir, (int)getpid());
	signal(SIGALRM, on_alarm);

	smm_report_reset();
	tap_ok(smm_once("a") && !smm_once("a") && smm_once("b"),
	       "once: true the first time only, per key");

	smm_report_reset();
	tap_ok(smm_report_init() == 0, "shared once-page maps");
	capture(child_once, out, sizeof(out), &status);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		       !smm_once("shared-key"),
	       "once is shared with forked processes after init");
	smm_report_reset();
	capture(child_once, out, sizeof(out), &status);
	tap_ok(smm_once("shared-key"),
	       "without init (after reset) once is per process");

	capture(child_fail, out, sizeof(out), &status);
	tap_ok(strcmp(out,
		      "st: FAIL: pthread_create of thread 3 errno=11 (Resource temporarily unavailable)\n") ==
			       0 &&
		       rec && rec->failures == 1 && rec->fail_errno == 11 &&
		       !strcmp(rec->fail_reason, "pthread_create of thread 3"),
	       "FAIL line format, and the failure in the record");
	if (tap_failed)
		tap_diag("got: %s", out);

	smm_report_reset();
	smm_report_init();
	capture(child_fail_many, out, sizeof(out), &status);
	tap_ok(count_lines(out) == 32 &&
		       strstr(out,
			      "further failures in this run are not printed"),
	       "FAIL lines are limited to 32 per run, and say so");
	tap_ok(rec && rec->failures == 41,
	       "every failure is counted in the record, printed or not (%llu)",
	       rec ? (unsigned long long)rec->failures : 0ULL);

	alarms = 0;
	capture(child_skip, out, sizeof(out), &status);
	tap_ok(strcmp(out, "st: SKIP: stack: cannot create a thread\n") == 0,
	       "SKIP line format");
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "skip exits with status 0");
	tap_ok(alarms == 1, "skip sends SIGALRM to the parent");
	tap_ok(rec && rec->skipped == 1 && rec->skip_errno == EAGAIN &&
		       !strcmp(rec->skip_reason,
			       "stack: cannot create a thread"),
	       "skip records its errno and reason");
	capture(child_skip, out, sizeof(out), &status);
	tap_ok(out[0] == '\0', "a second worker's identical SKIP is silent");
	smm_report_reset();
	if (rec)
		munmap(rec, sizeof(*rec));
	unlink(path);
	rmdir(dir);
	return tap_done();
}
