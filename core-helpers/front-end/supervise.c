// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * supervise.c - running stress-ng and reading what it says.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "supervise.h"
#include "tv-run.h"

const char *smm_find_stress_ng(const char *given, char *err, size_t len)
{
	static char found[PATH_MAX];
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	struct stat st;

	if (given) {
		if (stat(given, &st) != 0) {
			snprintf(
				err, len,
				"--stress-ng='%s' is not an executable file: %s",
				given, strerror(errno));
			return NULL;
		}
		if (!S_ISREG(st.st_mode) || access(given, X_OK) != 0) {
			snprintf(err, len,
				 "--stress-ng='%s' is not an executable file",
				 given);
			return NULL;
		}
		return given;
	}
	copy = strdup(path ? path : "/usr/bin:/bin");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof(found), "%s/stress-ng", dir);
		if (access(found, X_OK) == 0) {
			free(copy);
			return found;
		}
	}
	free(copy);
	snprintf(
		err, len,
		"stress-ng not found in PATH (apt-get install stress-ng, or --stress-ng PATH)");
	return NULL;
}

void smm_plugin_path(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		n = 0;
	exe[n] = '\0';
	snprintf(buf, len, "%s/stress-mm.so", dirname(exe));
}

/* In the child: the environment and the argument vector, then exec. */
static __attribute__((noreturn)) void
exec_stress_ng(const struct smm_child *c, const struct smm_run_cfg *cfg, int s,
	       const char *sng, const char *so)
{
	const struct smm_stressor *st = c->st;
	const struct smm_stressor_cfg *sc = st ? &cfg->st[s] : NULL;
	char workers[32], ops[32], timeout[32], *argv[SMM_MAX_PASS + 32];
	int n = 0;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	argv[n++] = (char *)sng;
	if (st) {
		for (int p = 0; p < st->nparams; p++)
			if (sc->text[p])
				setenv(st->params[p].env, sc->text[p], 1);
		snprintf(workers, sizeof(workers), "%lld",
			 (long long)sc->workers);
		argv[n++] = "--plugin";
		argv[n++] = workers;
		argv[n++] = "--plugin-so";
		argv[n++] = (char *)so;
		argv[n++] = "--plugin-method";
		argv[n++] = (char *)st->method;
	}
	if (sc && sc->ops) {
		snprintf(ops, sizeof(ops), "%llu", (unsigned long long)sc->ops);
		argv[n++] = "--plugin-ops";
		argv[n++] = ops;
	}
	if (cfg->timeout_s) {
		snprintf(timeout, sizeof(timeout), "%llus",
			 (unsigned long long)cfg->timeout_s);
		argv[n++] = "-t";
		argv[n++] = timeout;
	}
	/* Always metrics, for the YAML; the lines are filtered on output. */
	argv[n++] = cfg->metrics_brief && !cfg->metrics ? "--metrics-brief"
							: "--metrics";
	if (cfg->times)
		argv[n++] = "--times";
	argv[n++] = "--yaml";
	argv[n++] = (char *)c->yaml;
	for (int i = 0; i < cfg->npass; i++)
		argv[n++] = cfg->pass[i];
	argv[n] = NULL;
	execv(sng, argv);
	fprintf(stderr, "stress-mm: exec %s: %s\n", sng, strerror(errno));
	_exit(127);
}

int smm_child_start(struct smm_child *c, const struct smm_run_cfg *cfg, int s,
		    const char *sng, const char *so, const char *tmp)
{
	pid_t parent = getpid();
	int fds[2], err;

	memset(c, 0, sizeof(*c));
	c->st = s < SMM_NR_STRESSORS ? &smm_stressors[s] : NULL;
	c->name = c->st ? c->st->name : "stress-ng";
	c->out = -1;
	snprintf(c->yaml, sizeof(c->yaml), "%s/%s.%s", tmp, c->name,
		 smm_tv_asked(cfg, s) ? "tvlog" : "yaml");
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	c->pid = fork();
	if (c->pid < 0) {
		err = errno;
		close(fds[0]);
		close(fds[1]);
		return -err;
	}
	if (c->pid == 0) {
		/* A process group of its own, which stress-ng's stressor
		 * processes, workers and companions join, and death with
		 * stress-mm (the watchdog of owner.h does the rest). */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		if (smm_tv_asked(cfg, s))
			smm_tv_child(cfg, s, c->yaml);
		exec_stress_ng(c, cfg, s, sng, so);
	}
	setpgid(c->pid, c->pid); /* either side may come first */
	close(fds[1]);
	c->out = fds[0];
	return 0;
}

/* A metrics line: stress-ng prints the name as %-13s; keep the columns. */
static void print_metrics_line(const char *line, const char *m,
			       const char *name)
{
	char out[SMM_LINE_MAX];
	size_t head = (size_t)(m - line) + 2;
	const char *rest = m + 2 + strlen("plugin");
	/* Take from the padding what the longer name needs. */
	int extra = (int)strlen(name) - (int)strlen("plugin");

	while (extra > 0 && rest[0] == ' ' && rest[1] == ' ') {
		rest++;
		extra--;
	}
	snprintf(out, sizeof(out), "%.*s%s%s", (int)head, line, name, rest);
	fprintf(stderr, "%s\n", out);
}

/* One line of a child's output, relayed with the name restored. */
static void child_line(struct smm_child *c, const struct smm_run_cfg *cfg,
		       char *line)
{
	const char *name = c->name;
	char *m;

	if ((m = strstr(line, "dispatching hogs: ")) && strstr(m, " plugin")) {
		char *pl = strstr(m, " plugin");

		fprintf(stderr, "%.*s %s%s\n", (int)(pl - line), line, name,
			pl + strlen(" plugin"));
		return;
	}
	if (strstr(line, "metrc:")) {
		if (!cfg->metrics && !cfg->metrics_brief)
			return;
		m = strstr(line, "] plugin ");
		if (m) {
			print_metrics_line(line, m, name);
			return;
		}
	}
	fprintf(stderr, "%s\n", line);
}

void smm_child_read(struct smm_child *c, const struct smm_run_cfg *cfg)
{
	ssize_t n =
		read(c->out, c->buf + c->used, sizeof(c->buf) - 1 - c->used);
	char *nl;

	if (n <= 0) {
		if (n < 0 && errno == EINTR)
			return;
		if (c->used) {
			c->buf[c->used] = '\0';
			child_line(c, cfg, c->buf);
			c->used = 0;
		}
		close(c->out);
		c->out = -1;
		return;
	}
	c->used += (size_t)n;
	c->buf[c->used] = '\0';
	while ((nl = strchr(c->buf, '\n'))) {
		*nl = '\0';
		child_line(c, cfg, c->buf);
		c->used -= (size_t)(nl + 1 - c->buf);
		memmove(c->buf, nl + 1, c->used + 1);
	}
	if (c->used == sizeof(c->buf) - 1) { /* a very long line */
		child_line(c, cfg, c->buf);
		c->used = 0;
	}
}

bool smm_child_reap(struct smm_child *c)
{
	if (c->pid <= 0 || c->done)
		return c->done;
	if (c->out < 0 && waitpid(c->pid, &c->status, WNOHANG) == c->pid)
		c->done = true;
	return c->done;
}
