// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sng-pick.c - which stress-ng, which integration.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "locate.h"
#include "sng-pick.h"

const char *const smm_integrations[] = { "auto", "plugin", "native", NULL };

/* Our stressors, as stress-ng --stressors names them. */
static const char *const builtins[] = { "vmalloc-order", "shm-pcp" };

#define PROBE_MS 10000
#define PROBE_MAX 65536

/* Whether @word is one of the space-separated words of @list. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

/* @sng --stressors into @buf (at most @len - 1 bytes, NUL-terminated).
 * Return: 0, or -errno (the child cannot start, does not answer). */
static int stressors_of(const char *sng, char *buf, size_t len)
{
	struct timespec t0, t;
	size_t used = 0;
	int fds[2], st;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -EAGAIN;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		dup2(fds[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		execl(sng, sng, "--stressors", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		long ms;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &t);
		ms = PROBE_MS - ((t.tv_sec - t0.tv_sec) * 1000 +
				 (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0 || poll(&p, 1, (int)ms) == 0)
			break;
		n = read(fds[0], buf + used, len - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (used += (size_t)n) == len - 1)
			break;
	}
	buf[used] = '\0';
	close(fds[0]);
	kill(pid, SIGKILL); /* done or not answering: it has said enough */
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return used ? 0 : -EIO;
}

bool smm_sng_has_builtins(const char *sng)
{
	static char out[PROBE_MAX];

	if (stressors_of(sng, out, sizeof(out)) != 0)
		return false;
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!has_word(out, builtins[i]))
			return false;
	return true;
}

/* A native stress-ng of this build or installation (locate.h), or NULL. */
static const char *built(void)
{
	static struct smm_located loc;
	char why[512];

	return smm_locate(SMM_LOC_NATIVE, &loc, why, sizeof(why)) ? NULL
								  : loc.path;
}

const char *smm_sng_pick(const char *given, const char *integration,
			 bool *native, char *err, size_t len)
{
	const char *sng = given ? NULL : built();

	if (!sng)
		sng = smm_find_stress_ng(given, err, len);
	if (!sng)
		return NULL;
	*native = false;
	if (strcmp(integration, "native") != 0)
		return sng; /* auto, plugin: the plugin keeps the records */
	*native = smm_sng_has_builtins(sng);
	if (!*native) {
		snprintf(
			err, len,
			"--integration=native: %s has no vmalloc-order and shm-pcp built in (make stress-ng builds one; --stress-ng PATH names it)",
			sng);
		return NULL;
	}
	return sng;
}
