// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * conditions.c - the conditions of a run.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conditions.h"
#include "yamldoc.h"

const char *const smm_kernel_conditions[] = { "kernel-release",
					      "kernel-cmdline", NULL };

/* The first line of @path, without its newline; "unavailable" if none. */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	snprintf(buf, len, "unavailable");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		snprintf(buf, len, "unavailable");
	fclose(f);
}

/* "always [madvise] never" -> "madvise". */
static void selected(const char *path, char *buf, size_t len)
{
	char line[256], *a, *b;

	first_line(path, line, sizeof(line));
	a = strchr(line, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		a++;
		*b = '\0';
	} else {
		a = line;
	}
	snprintf(buf, len, "%.31s", a);
}

/* The third word of "stress-ng, version 0.15.06 (...)". */
static void ng_version(const char *sng, char *buf, size_t len)
{
	char out[256] = "";
	int fds[2], st;
	ssize_t n = 0;
	pid_t pid;

	snprintf(buf, len, "unknown");
	if (pipe2(fds, O_CLOEXEC) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		execl(sng, sng, "--version", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (pid > 0)
		n = read(fds[0], out, sizeof(out) - 1);
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	if (n > 0) {
		char w1[64], w2[64], w3[64];

		out[n] = '\0';
		if (sscanf(out, "%63s %63s %63s", w1, w2, w3) == 3)
			snprintf(buf, len, "%s", w3);
	}
}

void smm_conditions_read(struct smm_conditions *c, const char *sng)
{
	struct utsname u;

	memset(c, 0, sizeof(*c));
	c->online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	selected("/sys/kernel/mm/transparent_hugepage/enabled", c->thp_enabled,
		 sizeof(c->thp_enabled));
	selected("/sys/kernel/mm/transparent_hugepage/shmem_enabled",
		 c->thp_shmem, sizeof(c->thp_shmem));
	first_line("/proc/sys/vm/percpu_pagelist_high_fraction",
		   c->high_fraction, sizeof(c->high_fraction));
	first_line("/proc/cmdline", c->cmdline, sizeof(c->cmdline));
	if (uname(&u) == 0)
		snprintf(c->release, sizeof(c->release), "%s", u.release);
	ng_version(sng, c->stress_ng_version, sizeof(c->stress_ng_version));
}

void smm_conditions_write(yaml_document_t *d, int sm,
			  const struct smm_run_cfg *cfg,
			  const struct smm_conditions *c)
{
	int m = smm_yaml_map(d, sm, "conditions");
	char args[2048] = "";
	size_t used = 0;

	for (int i = 0; i < cfg->npass && used < sizeof(args); i++)
		used += (size_t)snprintf(args + used, sizeof(args) - used,
					 "%s%s", i ? " " : "", cfg->pass[i]);
	smm_yaml_u64(d, m, "timeout-s", cfg->timeout_s);
	smm_yaml_i64(d, m, "online-cpus", c->online_cpus);
	smm_yaml_str(d, m, "stress-ng-args", args[0] ? args : "(none)");
	smm_yaml_str(d, m, "stress-ng-version", c->stress_ng_version);
	smm_yaml_str(d, m, "thp-enabled", c->thp_enabled);
	smm_yaml_str(d, m, "thp-shmem-enabled", c->thp_shmem);
	smm_yaml_str(d, m, "percpu-pagelist-high-fraction", c->high_fraction);
	smm_yaml_str(d, m, "kernel-release", c->release);
	smm_yaml_str(d, m, "kernel-cmdline", c->cmdline);
}
