// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-load.c - strict reading of stress-mm reports, and the figures of
 * a comparison.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "compare-load.h"
#include "errors.h"
#include "figures.h"
#include "yamldoc.h"
#include "yamlstrict.h"

/* A report being read: its tree, and the facts taken out of it. */
struct rd {
	struct smm_run_set *rp;
	yaml_document_t *doc;
	int sm, runs;
	char *err;
	size_t len;
};

static yaml_node_t *node(const struct rd *r, int n)
{
	return yaml_document_get_node(r->doc, n);
}

static const char *scalar(const struct rd *r, int n)
{
	yaml_node_t *nd = node(r, n);

	return nd && nd->type == YAML_SCALAR_NODE
		       ? (const char *)nd->data.scalar.value
		       : NULL;
}

static int get(const struct rd *r, int map, const char *key)
{
	return smm_yaml_get(r->doc, map, key);
}

/* At most 40 characters of @s for a message, unprintable ones as '?'. */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	for (; s && s[i] && i < 40 && i + 1 < len; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = 0;
	if (s && s[i])
		snprintf(buf + i, len - i, "...");
	return s ? buf : "(not a scalar)";
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

int smm_uint(const char *s, uint64_t *out)
{
	size_t n = strspn(s, "0123456789");
	uint64_t v = 0;

	if (n == 0 || s[n] || (s[0] == '0' && n > 1))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

static bool name_ok(const char *s)
{
	return strspn(s,
		      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
	       strlen(s);
}

/* Grow *@v (of @size bytes each, *@cap of them) to hold @n + 1. */
static int grow(void **v, size_t size, size_t *cap, size_t n)
{
	void *nv;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? 2 * *cap : 16;
	nv = realloc(*v, nc * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = nc;
	return 0;
}

static int check_run(struct rd *r, size_t i, int run)
{
	const char *es = scalar(r, get(r, run, "exit-status"));
	const char *in = scalar(r, get(r, run, "interrupted"));
	const char *path = r->rp->path;
	uint64_t status;
	char b[48];

	if (!es || smm_uint(es, &status))
		return smm_errmsg(
			r->err, r->len,
			"%s: run %zu: exit-status '%s' is not an integer", path,
			i + 1, shown(es, b, sizeof(b)));
	/* Failed or interrupted runs are not measurements of the kernel. */
	if (status)
		return smm_errmsg(
			r->err, r->len,
			"%s: run %zu has exit-status %s: a failed run is not comparable",
			path, i + 1, es);
	if (!in || strcmp(in, "false") != 0)
		return smm_errmsg(r->err, r->len,
				  "%s: run %zu was interrupted: not comparable",
				  path, i + 1);
	return 0;
}

/* One run's figure values, and its reasons for the absent ones. */
static int take_run(struct rd *r, size_t i, int run, size_t *vcap, size_t *acap)
{
	struct smm_run_set *rp = r->rp;
	int mi = get(r, run, "metrics"), ai = get(r, run, "absent");
	yaml_node_t *m = node(r, mi), *a = node(r, ai);
	char b1[48], b2[48];

	if (mi && m->type != YAML_MAPPING_NODE)
		return smm_errmsg(r->err, r->len,
				  "%s: run %zu: metrics is not a mapping",
				  rp->path, i + 1);
	for (yaml_node_pair_t *p = m ? m->data.mapping.pairs.start : NULL;
	     p && p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(r, p->key), *s = scalar(r, p->value);
		yaml_node_t *vn = node(r, p->value);
		struct smm_rvalue *v;

		if (!k)
			return smm_errmsg(
				r->err, r->len,
				"%s: run %zu: a metrics key that is not a scalar",
				rp->path, i + 1);
		if (!smm_figure_def_of(k))
			continue;
		if (!name_ok(k))
			return smm_errmsg(
				r->err, r->len,
				"%s: run %zu: figure '%s' has characters outside [A-Za-z0-9._-]",
				rp->path, i + 1, shown(k, b1, sizeof(b1)));
		if (grow((void **)&rp->val, sizeof(*rp->val), vcap, rp->nval))
			return -ENOMEM;
		v = &rp->val[rp->nval];
		if (!s || vn->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
		    smm_decimal(s, &v->v))
			return smm_errmsg(
				r->err, r->len,
				"%s: run %zu: %s: '%s' is not a finite, non-negative decimal number",
				rp->path, i + 1, k, shown(s, b2, sizeof(b2)));
		v->name = strdup(k);
		if (!v->name)
			return -ENOMEM;
		v->run = i;
		rp->nval++;
	}
	for (yaml_node_pair_t *p = a && a->type == YAML_MAPPING_NODE
					   ? a->data.mapping.pairs.start
					   : NULL;
	     p && p < a->data.mapping.pairs.top; p++) {
		const char *k = scalar(r, p->key), *s = scalar(r, p->value);
		struct smm_rabsent *ab;

		if (!k || !smm_figure_def_of(k) || !name_ok(k))
			continue;
		if (grow((void **)&rp->abs, sizeof(*rp->abs), acap, rp->nabs))
			return -ENOMEM;
		ab = &rp->abs[rp->nabs];
		ab->name = strdup(k);
		ab->why = strdup(
			shown(s ? s : "no reason recorded", b1, sizeof(b1)));
		ab->run = i;
		rp->nabs++;
		if (!ab->name || !ab->why)
			return -ENOMEM;
	}
	return 0;
}

static int take_runs(struct rd *r)
{
	yaml_node_t *seq = node(r, r->runs);
	const char *req = scalar(r, get(r, r->sm, "repeat-requested"));
	size_t vcap = 0, acap = 0;
	uint64_t want;
	char b[48];
	int rc;

	r->rp->nruns = (size_t)(seq->data.sequence.items.top -
				seq->data.sequence.items.start);
	if (!r->rp->nruns)
		return smm_errmsg(r->err, r->len, "%s: no runs", r->rp->path);
	for (size_t i = 0; i < r->rp->nruns; i++) {
		int run = seq->data.sequence.items.start[i];

		rc = check_run(r, i, run);
		if (!rc)
			rc = take_run(r, i, run, &vcap, &acap);
		if (rc)
			return rc;
	}
	if (req && smm_uint(req, &want))
		return smm_errmsg(r->err, r->len,
				  "%s: repeat-requested '%s' is not an integer",
				  r->rp->path, shown(req, b, sizeof(b)));
	if (!req || want != r->rp->nruns)
		return smm_errmsg(
			r->err, r->len,
			"%s: %zu of '%s' requested runs: an incomplete set is not comparable",
			r->rp->path, r->rp->nruns, shown(req, b, sizeof(b)));
	return 0;
}

/* Parameters renamed since reports were first written: a report of an
 * older stress-mm compares as one of today's. */
static const struct {
	const char *old, *now;
} renamed_params[] = {
	{ "shm-pcp-churn", "shm-pcp-mode" }, /* lkp passes only --TEST-mode */
};

static int add_param(struct smm_run_set *rp, size_t *cap, const char *a,
		     const char *b, const char *v)
{
	char *s;

	for (size_t i = 0;
	     i < sizeof(renamed_params) / sizeof(renamed_params[0]); i++)
		if (!strcmp(b, renamed_params[i].old))
			b = renamed_params[i].now;

	if (grow((void **)&rp->params, sizeof(*rp->params), cap, rp->nparams))
		return -ENOMEM;
	if (asprintf(&s, "%s.%s=%s", a, b, v) < 0)
		return -ENOMEM;
	rp->params[rp->nparams++] = s;
	return 0;
}

/* Every pair of mapping @map as "@prefix.key=value"; both scalars. */
static int add_pairs(struct rd *r, size_t *cap, const char *prefix, int map,
		     const char *what)
{
	yaml_node_t *m = node(r, map);

	if (!m)
		return 0;
	if (m->type != YAML_MAPPING_NODE)
		return smm_errmsg(r->err, r->len, "%s: %s is not a mapping",
				  r->rp->path, what);
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(r, p->key), *v = scalar(r, p->value);
		int rc;

		if (!k || !v)
			return smm_errmsg(
				r->err, r->len,
				"%s: %s holds a %s that is not a scalar",
				r->rp->path, what, k ? "value" : "key");
		rc = add_param(r->rp, cap, prefix, k, v);
		if (rc)
			return rc;
	}
	return 0;
}

/* "stressor.key=value" for the integration, resolved workers, ops limit
 * and parameters, then "conditions.key=value". */
static int take_params(struct rd *r)
{
	static const char *const keys[] = { "integration", "workers-resolved",
					    "ops-limit" };
	yaml_node_t *st = node(r, get(r, r->sm, "stressors"));
	size_t cap = 0;
	int rc = 0;

	if (st && st->type != YAML_MAPPING_NODE)
		return smm_errmsg(r->err, r->len,
				  "%s: stressors is not a mapping",
				  r->rp->path);
	for (yaml_node_pair_t *p = st ? st->data.mapping.pairs.start : NULL;
	     !rc && p && p < st->data.mapping.pairs.top; p++) {
		const char *name = scalar(r, p->key);

		if (!name)
			return smm_errmsg(
				r->err, r->len,
				"%s: a stressor name that is not a scalar",
				r->rp->path);
		for (size_t k = 0; !rc && k < sizeof(keys) / sizeof(keys[0]);
		     k++) {
			int vn = get(r, p->value, keys[k]);
			const char *v = scalar(r, vn);

			if (vn && !v)
				return smm_errmsg(r->err, r->len,
						  "%s: %s.%s is not a scalar",
						  r->rp->path, name, keys[k]);
			rc = add_param(r->rp, &cap, name, keys[k],
				       v ? v : "(none)");
		}
		if (!rc)
			rc = add_pairs(r, &cap, name,
				       get(r, p->value, "parameters"),
				       "a stressor's parameters");
	}
	if (!rc)
		rc = add_pairs(r, &cap, "conditions",
			       get(r, r->sm, "conditions"), "conditions");
	return rc;
}

static uint64_t fnv1a(const unsigned char *b, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static int take(struct rd *r)
{
	yaml_node_t *seq;
	const char *k;
	int rc;

	r->sm = get(r, 1, "stress-mm");
	r->runs = r->sm ? get(r, r->sm, "runs") : 0;
	seq = node(r, r->runs);
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return smm_errmsg(
			r->err, r->len,
			"%s: not a stress-mm report (no stress-mm.runs; a file stress-ng wrote itself?)",
			r->rp->path);
	if (!get(r, r->sm, "conditions"))
		return smm_errmsg(
			r->err, r->len,
			"%s: no stress-mm.conditions (a report of stress-mm before 0.2): its conditions cannot be checked",
			r->rp->path);
	/* The label is the compared condition's (compare-sides.c); the
	 * top-level key only where a report has no such condition. */
	k = scalar(r, get(r, get(r, r->sm, "conditions"), "kernel-release"));
	if (!k)
		k = scalar(r, get(r, r->sm, "kernel-release"));
	r->rp->kernel = strdup(k ? k : "unknown");
	if (!r->rp->kernel)
		return -ENOMEM;
	rc = take_runs(r);
	if (!rc)
		rc = take_params(r);
	return rc;
}

int smm_run_set_parse(struct smm_run_set *rp, const char *path,
		      const unsigned char *buf, size_t n, char *err, size_t len)
{
	struct rd r = { .rp = rp, .err = err, .len = len };
	yaml_document_t doc;
	char why[256];
	int rc;

	memset(rp, 0, sizeof(*rp));
	rp->path = path;
	rp->hash = fnv1a(buf, n);
	rc = smm_yaml_parse_strict(buf, n, &doc, SMM_REPORT_MAX_DEPTH,
				   SMM_REPORT_MAX_NODES, why, sizeof(why));
	if (rc) {
		snprintf(err, len, "%s: %s", path, why);
		return rc;
	}
	r.doc = &doc;
	rc = take(&r);
	yaml_document_delete(&doc);
	if (rc == -ENOMEM)
		snprintf(err, len, "%s: out of memory", path);
	if (rc)
		smm_run_set_free(rp);
	return rc;
}

int smm_run_set_load(struct smm_run_set *rp, const char *path, char *err,
		     size_t len)
{
	unsigned char *buf;
	char why[256];
	size_t n;
	int rc;

	memset(rp, 0, sizeof(*rp));
	rc = smm_read_bounded(path, SMM_REPORT_MAX_BYTES, &buf, &n, why,
			      sizeof(why));
	if (rc) {
		snprintf(err, len, "%s: %s", path, why);
		return rc;
	}
	rc = smm_run_set_parse(rp, path, buf, n, err, len);
	free(buf);
	return rc;
}

void smm_run_set_free(struct smm_run_set *rp)
{
	for (size_t i = 0; i < rp->nval; i++)
		free(rp->val[i].name);
	for (size_t i = 0; i < rp->nabs; i++) {
		free(rp->abs[i].name);
		free(rp->abs[i].why);
	}
	for (size_t i = 0; i < rp->nparams; i++)
		free(rp->params[i]);
	free(rp->val);
	free(rp->abs);
	free(rp->params);
	free(rp->kernel);
	memset(rp, 0, sizeof(*rp));
}
