// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-load.c - strict reading of stress-mm reports.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare-load.h"
#include "conditions.h"
#include "die.h"
#include "figures.h"
#include "yamldoc.h"

#define MAX_PARAMS 256
#define PARAM_LEN 320

static yaml_node_t *node(struct smm_report *rp, int n)
{
	return yaml_document_get_node(&rp->doc, n);
}

static const char *scalar(struct smm_report *rp, int n)
{
	yaml_node_t *nd = node(rp, n);

	return nd && nd->type == YAML_SCALAR_NODE
		       ? (char *)nd->data.scalar.value
		       : NULL;
}

static int get(struct smm_report *rp, int map, const char *key)
{
	return smm_yaml_get(&rp->doc, map, key);
}

int smm_decimal(const char *s, double *out)
{
	size_t ip = strspn(s, "0123456789");
	double d;

	if (ip == 0 || (s[0] == '0' && ip > 1))
		return -EINVAL;
	if (s[ip] == '.') {
		size_t fp = strspn(s + ip + 1, "0123456789");

		if (fp == 0 || s[ip + 1 + fp])
			return -EINVAL;
	} else if (s[ip]) {
		return -EINVAL;
	}
	d = strtod(s, NULL);
	if (!isfinite(d))
		return -EINVAL;
	*out = d;
	return 0;
}

static int check_runs(struct smm_report *rp, char *err, size_t len)
{
	yaml_node_t *seq = node(rp, rp->runs);
	const char *req = scalar(rp, get(rp, rp->sm, "repeat-requested"));
	double want;

	rp->nruns = (unsigned int)(seq->data.sequence.items.top -
				   seq->data.sequence.items.start);
	if (!rp->nruns)
		return smm_errmsg(err, len, "%s: no runs", rp->path);
	/* Failed or interrupted runs are not measurements of the kernel. */
	for (unsigned int i = 0; i < rp->nruns; i++) {
		int run = seq->data.sequence.items.start[i];
		const char *es = scalar(rp, get(rp, run, "exit-status"));
		const char *in = scalar(rp, get(rp, run, "interrupted"));

		if (!es || strcmp(es, "0") != 0)
			return smm_errmsg(
				err, len,
				"%s: run %u has exit-status %s: a failed run is not comparable",
				rp->path, i + 1, es ? es : "(none)");
		if (!in || strcmp(in, "false") != 0)
			return smm_errmsg(
				err, len,
				"%s: run %u was interrupted: not comparable",
				rp->path, i + 1);
	}
	if (!req || smm_decimal(req, &want) || want != rp->nruns)
		return smm_errmsg(
			err, len,
			"%s: %u of %s requested runs: an incomplete set is not comparable",
			rp->path, rp->nruns, req ? req : "(unknown)");
	return 0;
}

int smm_report_load(struct smm_report *rp, const char *path, char *err,
		    size_t len)
{
	char why[256];
	yaml_node_t *seq;
	const char *k;
	int rc;

	memset(rp, 0, sizeof(*rp));
	rp->path = path;
	rc = smm_yaml_load_strict(path, &rp->doc, SMM_REPORT_MAX_BYTES,
				  SMM_REPORT_MAX_DEPTH, why, sizeof(why));
	if (rc) {
		snprintf(err, len, "%s: %s", path, why);
		return rc;
	}
	rp->sm = get(rp, 1, "stress-mm");
	rp->runs = rp->sm ? get(rp, rp->sm, "runs") : 0;
	seq = node(rp, rp->runs);
	if (!seq || seq->type != YAML_SEQUENCE_NODE) {
		smm_report_free(rp);
		return smm_errmsg(
			err, len,
			"%s: not a stress-mm report (no stress-mm.runs; a file stress-ng wrote itself?)",
			path);
	}
	if (!get(rp, rp->sm, "conditions")) {
		smm_report_free(rp);
		return smm_errmsg(
			err, len,
			"%s: no stress-mm.conditions (a report of stress-mm before 0.2): its conditions cannot be checked",
			path);
	}
	k = scalar(rp, get(rp, rp->sm, "kernel-release"));
	snprintf(rp->kernel, sizeof(rp->kernel), "%s", k ? k : "unknown");
	rc = check_runs(rp, err, len);
	if (rc)
		smm_report_free(rp);
	return rc;
}

void smm_report_free(struct smm_report *rp)
{
	if (rp->path)
		yaml_document_delete(&rp->doc);
	rp->path = NULL;
}

int smm_report_values(struct smm_report *rp, const char *name, double *v,
		      size_t max, size_t *n, char *err, size_t len)
{
	yaml_node_t *seq = node(rp, rp->runs);
	unsigned int i = 0, missing = 0;
	const char *why = NULL;

	*n = 0;
	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++, i++) {
		int m = get(rp, *it, "metrics");
		int vn = m ? get(rp, m, name) : 0;
		yaml_node_t *nd = node(rp, vn);
		const char *s = scalar(rp, vn);

		if (!s) {
			int a = get(rp, *it, "absent");

			missing++;
			if (!why)
				why = scalar(rp, a ? get(rp, a, name) : 0);
			continue;
		}
		if (nd->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
		    smm_decimal(s, &v[*n]))
			return smm_errmsg(
				err, len,
				"%s: run %u: %s: '%s' is not a finite, non-negative decimal number",
				rp->path, i + 1, name, s);
		if (*n < max)
			(*n)++;
	}
	if (!*n)
		return -ENOENT;
	if (missing)
		return smm_errmsg(
			err, len,
			"%s: %s has a value in %zu of %u runs (absent: %s): not comparable",
			rp->path, name, *n, rp->nruns,
			why ? why : "no reason recorded");
	return 0;
}

int smm_report_figures(struct smm_report *rp,
		       char (*names)[SMM_FIGURE_NAME_MAX], int n, int max,
		       bool default_only)
{
	yaml_node_t *seq = node(rp, rp->runs);

	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		yaml_node_t *m = node(rp, get(rp, *it, "metrics"));

		if (!m || m->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
		     p < m->data.mapping.pairs.top && n < max; p++) {
			const char *k = scalar(rp, p->key);
			const struct smm_figure_def *def =
				k ? smm_figure_def_of(k) : NULL;
			int j;

			if (!def || (default_only && !def->default_gate))
				continue;
			for (j = 0; j < n; j++)
				if (strcmp(names[j], k) == 0)
					break;
			if (j == n)
				snprintf(names[n++], SMM_FIGURE_NAME_MAX, "%s",
					 k);
		}
	}
	return n;
}

/* "stressor.key=value" for resolved workers, ops limit and parameters,
 * then "conditions.key=value". */
static int params(struct smm_report *rp, char (*out)[PARAM_LEN], int max)
{
	yaml_node_t *st = node(rp, get(rp, rp->sm, "stressors"));
	yaml_node_t *cd = node(rp, get(rp, rp->sm, "conditions"));
	static const char *const keys[] = { "workers-resolved", "ops-limit" };
	int n = 0;

	for (yaml_node_pair_t *p = st && st->type == YAML_MAPPING_NODE
					   ? st->data.mapping.pairs.start
					   : NULL;
	     p && p < st->data.mapping.pairs.top; p++) {
		const char *name = scalar(rp, p->key);
		yaml_node_t *pm;

		for (int k = 0; k < 2 && n < max; k++) {
			const char *v = scalar(rp, get(rp, p->value, keys[k]));

			snprintf(out[n++], PARAM_LEN, "%s.%s=%s", name, keys[k],
				 v ? v : "(none)");
		}
		pm = node(rp, get(rp, p->value, "parameters"));
		for (yaml_node_pair_t *q =
			     pm && pm->type == YAML_MAPPING_NODE
				     ? pm->data.mapping.pairs.start
				     : NULL;
		     q && q < pm->data.mapping.pairs.top && n < max; q++) {
			const char *v = scalar(rp, q->value);

			snprintf(out[n++], PARAM_LEN, "%s.%s=%s", name,
				 scalar(rp, q->key), v ? v : "");
		}
	}
	for (yaml_node_pair_t *q = cd && cd->type == YAML_MAPPING_NODE
					   ? cd->data.mapping.pairs.start
					   : NULL;
	     q && q < cd->data.mapping.pairs.top && n < max; q++) {
		const char *v = scalar(rp, q->value);

		snprintf(out[n++], PARAM_LEN, "conditions.%s=%s",
			 scalar(rp, q->key), v ? v : "");
	}
	return n;
}

static bool in_list(char (*list)[PARAM_LEN], int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

static bool is_kernel(const char *entry)
{
	for (int i = 0; smm_kernel_conditions[i]; i++) {
		size_t l = strlen(smm_kernel_conditions[i]);

		if (!strncmp(entry, "conditions.", 11) &&
		    !strncmp(entry + 11, smm_kernel_conditions[i], l) &&
		    entry[11 + l] == '=')
			return true;
	}
	return false;
}

static int one_side(char (*a)[PARAM_LEN], int na, char (*b)[PARAM_LEN], int nb,
		    const char *side)
{
	int diff = 0;

	for (int i = 0; i < na; i++) {
		if (in_list(b, nb, a[i]))
			continue;
		fprintf(stderr, "stress-mm compare: differs%s: %s %s\n",
			is_kernel(a[i]) ? " (the kernel: allowed)" : "", side,
			a[i]);
		diff += !is_kernel(a[i]);
	}
	return diff;
}

int smm_report_diff(struct smm_report *b, struct smm_report *c)
{
	static char pb[MAX_PARAMS][PARAM_LEN], pc[MAX_PARAMS][PARAM_LEN];
	int nb = params(b, pb, MAX_PARAMS), nc = params(c, pc, MAX_PARAMS);
	int diff = one_side(pb, nb, pc, nc, "base");

	diff += one_side(pc, nc, pb, nb, "candidate");
	return diff;
}

/* FNV-1a of a file's bytes (reports are at most 8 MiB, checked on load). */
static uint64_t file_hash(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned char buf[65536];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ULL;
	fclose(f);
	return h;
}

const char *smm_sides_share(const struct smm_side *a, const struct smm_side *b)
{
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++)
			if (a->hash[i] == b->hash[j])
				return a->r[i].path;
	return NULL;
}

int smm_side_load(struct smm_side *s, const char *arg, char *err, size_t len)
{
	size_t alen = strlen(arg);

	char *tok, *save = NULL;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->arg = arg;
	if (!alen || arg[0] == ',' || arg[alen - 1] == ',' || strstr(arg, ",,"))
		return smm_errmsg(
			err, len,
			"'%s': an empty report name in the list (REPORT.yaml[,REPORT.yaml...])",
			arg);
	s->paths = strdup(arg);
	if (!s->paths)
		return -ENOMEM;
	for (tok = strtok_r(s->paths, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (s->n == SMM_SIDE_MAX_FILES) {
			rc = smm_errmsg(err, len,
					"%s: more than %d reports on one side",
					arg, SMM_SIDE_MAX_FILES);
			break;
		}
		rc = smm_report_load(&s->r[s->n], tok, err, len);
		if (rc)
			break;
		s->nruns += s->r[s->n].nruns;
		s->hash[s->n] = file_hash(tok);
		for (int i = 0; i < s->n; i++)
			if (s->hash[i] == s->hash[s->n])
				rc = smm_errmsg(
					err, len,
					"%s and %s are the same report: its runs would count twice",
					s->r[i].path, tok);
		s->n++;
		if (s->n > 1 &&
		    (smm_report_diff(&s->r[0], &s->r[s->n - 1]) ||
		     strcmp(s->r[0].kernel, s->r[s->n - 1].kernel) != 0))
			rc = smm_errmsg(
				err, len,
				"%s and %s differ (listed above): reports of one side must be of one configuration and kernel",
				s->r[0].path, s->r[s->n - 1].path);
	}
	if (!rc && !s->n)
		rc = smm_errmsg(err, len, "'%s': no report named", arg);
	if (rc)
		smm_side_free(s);
	return rc;
}

void smm_side_free(struct smm_side *s)
{
	for (int i = 0; i < s->n; i++)
		smm_report_free(&s->r[i]);
	s->n = 0;
	free(s->paths);
	s->paths = NULL;
}

int smm_side_values(struct smm_side *s, const char *name, double *v, size_t max,
		    size_t *n, char *err, size_t len)
{
	int absent = 0;

	*n = 0;
	for (int i = 0; i < s->n; i++) {
		size_t k = 0;
		int rc = smm_report_values(&s->r[i], name, v + *n, max - *n, &k,
					   err, len);

		if (rc == -ENOENT) {
			absent++;
			continue;
		}
		if (rc)
			return rc;
		*n += k;
	}
	if (!*n)
		return -ENOENT;
	if (absent)
		return smm_errmsg(
			err, len,
			"%s: %s has no value in %d of its %d reports: not comparable",
			s->arg, name, absent, s->n);
	return 0;
}

int smm_side_figures(struct smm_side *s, char (*names)[SMM_FIGURE_NAME_MAX],
		     int n, int max, bool default_only)
{
	for (int i = 0; i < s->n; i++)
		n = smm_report_figures(&s->r[i], names, n, max, default_only);
	return n;
}
