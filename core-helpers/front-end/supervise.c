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

#include "stats.h"
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

/* One line of a child's output: restore the name, note what it says. */
static void child_line(struct smm_child *c, const struct smm_run_cfg *cfg,
		       char *line)
{
	const char *name = c->name, *p;
	char *m;

	if ((p = strstr(line, ": SKIP: "))) {
		c->skipped = true;
		snprintf(c->skip_reason, sizeof(c->skip_reason), "%s", p + 8);
	}
	if (strstr(line, ": FAIL: ") && !c->failed) {
		c->failed = true;
		snprintf(c->fail_line, sizeof(c->fail_line), "%s", line);
	}
	if (strstr(line, "Caught unexpected signal") ||
	    strstr(line, "double free") || strstr(line, "Segmentation")) {
		c->crashed = true;
		snprintf(c->fail_line, sizeof(c->fail_line), "%s", line);
	}
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

int smm_worse_status(int a, int b)
{
	static const int rank[] = { [SMM_EX_OK] = 0,
				    [SMM_EX_USAGE] = 4,
				    [SMM_EX_FAIL] = 3,
				    [SMM_EX_NORES] = 2,
				    [SMM_EX_NOTIMPL] = 1 };

	return rank[b] > rank[a] ? b : a;
}

int smm_child_verdict(struct smm_child *c, const struct smm_child_facts *f,
		      bool stopped)
{
	int code = WIFEXITED(c->status) ? WEXITSTATUS(c->status)
					: 128 + WTERMSIG(c->status);
	/* stress-ng's own table: 1 usage (a bad option after --), 2
	 * failure, 3 no resource, 4 not implemented; anything else (a
	 * signal, 127 from exec) is a failure */
	int st = code >= 0 && code <= 4 ? code : SMM_EX_FAIL;

	/* The workers' records decide over stress-ng's coarser status: a
	 * counted failure is 2, a SKIP 3 or 4 by its errno. */
	if (f->stats_status == SMM_EX_FAIL && st != SMM_EX_USAGE)
		st = SMM_EX_FAIL;
	else if ((f->stats_status == SMM_EX_NORES ||
		  f->stats_status == SMM_EX_NOTIMPL) &&
		 st != SMM_EX_USAGE && st != SMM_EX_FAIL)
		st = f->stats_status;
	else if (f->stats_status < 0 && st == SMM_EX_OK && c->skipped)
		st = SMM_EX_NOTIMPL; /* no record: a SKIP of unknown cause */
	/* A worker that crashed leaves no record, and stress-ng 0.15 may
	 * still exit 0: its own crash report is the one sign. */
	if (c->crashed && st != SMM_EX_USAGE)
		st = SMM_EX_FAIL;
	if (!stopped && st == SMM_EX_OK && f->bogo_ops == 0) {
		if (f->work) {
			fprintf(stderr,
				"stress-mm: %s: the run ended inside the first bogo-op (%llu pages faulted or allocations made, 0 bogo-ops%s%s): lengthen -t or make the bogo-op smaller\n",
				c->name, (unsigned long long)f->work,
				f->short_hint ? ", " : "",
				f->short_hint ? f->short_hint : "");
		} else if (f->stats_files) {
			fprintf(stderr,
				"stress-mm: %s: the run ended while its %d worker(s) set up their paths (proofs and probes take about a second; 0 bogo-ops%s%s): lengthen -t\n",
				c->name, f->stats_files,
				f->short_hint ? ", " : "",
				f->short_hint ? f->short_hint : "");
		} else {
			st = SMM_EX_FAIL;
			snprintf(
				c->fail_line, sizeof(c->fail_line),
				"0 bogo-ops, no worker reached the plugin, no SKIP");
		}
	}
	/* The words only explain the status. */
	c->failed = st == SMM_EX_FAIL || st == SMM_EX_USAGE;
	c->skipped = st == SMM_EX_NORES || st == SMM_EX_NOTIMPL;
	c->skip_noresource = st == SMM_EX_NORES;
	if (c->skipped && !c->skip_reason[0])
		snprintf(
			c->skip_reason, sizeof(c->skip_reason), "%s",
			f->skip_reason && f->skip_reason[0]
				? f->skip_reason
				: "stress-ng exited with this status (see its messages above)");
	if (c->failed && !c->fail_line[0]) {
		if (f->stats_status == SMM_EX_FAIL)
			snprintf(
				c->fail_line, sizeof(c->fail_line),
				"the workers counted %llu failed calls, the last with errno=%d (%s)",
				(unsigned long long)f->failures, f->fail_errno,
				strerror(f->fail_errno));
		else
			snprintf(
				c->fail_line, sizeof(c->fail_line),
				"stress-ng exited with status %d (see its messages above)",
				code);
	}
	if (c->failed)
		fprintf(stderr, "stress-mm: %s failed: %s\n", c->name,
			c->fail_line);
	else if (c->skipped)
		fprintf(stderr, "stress-mm: %s skipped: %s\n", c->name,
			c->skip_reason);
	return st;
}
