// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * relay.c - a child's lines to stderr, names restored.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "relay.h"

/* A metrics line: stress-ng prints the name as %-13s; keep the columns. */
static void print_metrics_line(const char *line, const char *m,
			       const char *from, const char *name)
{
	char out[SMM_LINE_MAX];
	size_t head = (size_t)(m - line) + 2;
	const char *rest = m + 2 + strlen(from);
	/* Take from the padding what the longer name needs. */
	int extra = (int)strlen(name) - (int)strlen(from);

	while (extra > 0 && rest[0] == ' ' && rest[1] == ' ') {
		rest++;
		extra--;
	}
	snprintf(out, sizeof(out), "%.*s%s%s", (int)head, line, name, rest);
	fprintf(stderr, "%s\n", out);
}

/* The lines where stress-ng lists stressors by name, "N: plugin (N)":
 * its summary at the end of a run (0.17 on). */
static const char *const name_lists[] = {
	"] passed: ", "] failed: ", "] skipped: ", "] metrics untrustworthy: "
};

/* In @line after @from, the first @key: replaced by " <our name>" plus
 * what @key has after stress-ng's name (@key_tail bytes). */
static bool rename_after(const struct smm_relay *r, const char *line,
			 const char *from, const char *key, size_t key_tail)
{
	const char *m = strstr(line, from), *pl = m ? strstr(m, key) : NULL;

	if (!pl)
		return false;
	fprintf(stderr, "%.*s %s%s\n", (int)(pl - line), line, r->name,
		pl + strlen(key) - key_tail);
	return true;
}

/* The stressor's name where stress-ng prints @from: "dispatching hogs:
 * N plugin", the lists of passed, failed and skipped stressors, and a
 * metrics line's "] plugin ". False: not such a line. */
static bool renamed(const struct smm_relay *r, const char *line)
{
	char key[64];
	const char *m;

	if (!r->ng_name)
		return false;
	snprintf(key, sizeof(key), " %s", r->ng_name);
	if (rename_after(r, line, "dispatching hogs: ", key, 0))
		return true;
	snprintf(key, sizeof(key), " %s (", r->ng_name);
	for (size_t i = 0; i < sizeof(name_lists) / sizeof(name_lists[0]); i++)
		if (rename_after(r, line, name_lists[i], key, 2))
			return true;
	snprintf(key, sizeof(key), "] %s ", r->ng_name);
	m = strstr(line, "metrc:") ? strstr(line, key) : NULL;
	if (m) {
		print_metrics_line(line, m, r->ng_name, r->name);
		return true;
	}
	return false;
}

static void relay_line(const struct smm_relay *r, const struct smm_run_cfg *cfg,
		       const char *line)
{
	if (strstr(line, "metrc:") && !cfg->metrics && !cfg->metrics_brief)
		return;
	if (!renamed(r, line))
		fprintf(stderr, "%s\n", line);
}

void smm_relay_read(struct smm_relay *r, const struct smm_run_cfg *cfg)
{
	ssize_t n = read(r->fd, r->buf + r->used, sizeof(r->buf) - 1 - r->used);
	char *nl;

	if (n <= 0) {
		if (n < 0 && errno == EINTR)
			return;
		if (r->used) {
			r->buf[r->used] = '\0';
			relay_line(r, cfg, r->buf);
			r->used = 0;
		}
		close(r->fd);
		r->fd = -1;
		return;
	}
	r->used += (size_t)n;
	r->buf[r->used] = '\0';
	while ((nl = strchr(r->buf, '\n'))) {
		*nl = '\0';
		relay_line(r, cfg, r->buf);
		r->used -= (size_t)(nl + 1 - r->buf);
		memmove(r->buf, nl + 1, r->used + 1);
	}
	if (r->used == sizeof(r->buf) - 1) { /* a very long line */
		relay_line(r, cfg, r->buf);
		r->used = 0;
	}
}
