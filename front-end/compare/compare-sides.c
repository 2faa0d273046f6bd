// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-sides.c - the two sides of stress-mm compare: their reports'
 * differences, and the figures compared with every run's value.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare-sides.h"
#include "conditions.h"
#include "errors.h"

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

static int cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(**(char **const *)a, **(char **const *)b);
}

/* Mark in @only_a the entries of @a with no equal in @b (as multisets),
 * by sorting both. */
static int unmatched(char **a, size_t na, char **b, size_t nb, bool *only_a)
{
	char ***sa = malloc((na + 1) * sizeof(*sa));
	char ***sb = malloc((nb + 1) * sizeof(*sb));
	size_t i = 0, j = 0;

	if (!sa || !sb) {
		free(sa);
		free(sb);
		return -ENOMEM;
	}
	for (size_t k = 0; k < na; k++)
		sa[k] = &a[k];
	for (size_t k = 0; k < nb; k++)
		sb[k] = &b[k];
	qsort(sa, na, sizeof(*sa), cmp_str_ptr);
	qsort(sb, nb, sizeof(*sb), cmp_str_ptr);
	while (i < na) {
		int c = j < nb ? strcmp(*sa[i], *sb[j]) : -1;

		if (c == 0) {
			i++;
			j++;
		} else if (c < 0) {
			only_a[sa[i] - a] = true;
			i++;
		} else {
			j++;
		}
	}
	free(sa);
	free(sb);
	return 0;
}

/* The same stressor built into stress-ng or through the plugin: allowed,
 * and named. */
static bool is_integration(const char *entry)
{
	const char *dot = strchr(entry, '.');

	return dot && !strncmp(dot, ".integration=", 13);
}

/* Why a difference of @entry is allowed between the sides (base against
 * candidate), or "". Within one side nothing is allowed. */
static const char *allowed(const char *entry, enum smm_diff_scope scope)
{
	if (scope != SMM_DIFF_SIDES)
		return "";
	if (is_kernel(entry))
		return " (the kernel: allowed)";
	if (is_integration(entry))
		return " (the integration: allowed)";
	return "";
}

static int keep(struct smm_diffs *out, const char *who, const char *entry,
		const char *why)
{
	struct smm_diff *d;

	if (!out)
		return 0;
	d = realloc(out->d, (out->n + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	out->d = d;
	out->d[out->n++] = (struct smm_diff){ who, entry, why };
	return 0;
}

static int one_side(char **a, size_t na, char **b, size_t nb, const char *name,
		    enum smm_diff_scope scope, struct smm_diffs *out)
{
	bool *only = calloc(na + 1, sizeof(*only));
	int diff = 0;

	if (!only || unmatched(a, na, b, nb, only)) {
		free(only);
		return -ENOMEM;
	}
	for (size_t i = 0; i < na && diff >= 0; i++) {
		const char *why;

		if (!only[i])
			continue;
		why = allowed(a[i], scope);
		fprintf(stderr, "stress-mm compare: differs%s: %s %s\n", why,
			name, a[i]);
		diff = keep(out, name, a[i], why) ? -ENOMEM : diff + !why[0];
	}
	free(only);
	return diff;
}

int smm_run_set_diff(const struct smm_run_set *b, const struct smm_run_set *c,
		     enum smm_diff_scope scope, struct smm_diffs *out)
{
	bool sides = scope == SMM_DIFF_SIDES;
	int db = one_side(b->params, b->nparams, c->params, c->nparams,
			  sides ? "base" : b->path, scope, out);
	int dc = one_side(c->params, c->nparams, b->params, b->nparams,
			  sides ? "candidate" : c->path, scope, out);

	if (db < 0 || dc < 0)
		return -ENOMEM;
	return db + dc;
}

const char *smm_sides_share(const struct smm_side *a, const struct smm_side *b)
{
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++)
			if (a->r[i].hash == b->r[j].hash)
				return a->r[i].path;
	return NULL;
}

/* Report @i of @s against the first: same bytes, or a difference. */
static int side_check(struct smm_side *s, int i, char *err, size_t len)
{
	int d;

	for (int j = 0; j < i; j++)
		if (s->r[j].hash == s->r[i].hash)
			return smm_errmsg(
				err, len,
				"%s and %s are the same report: its runs would count twice",
				s->r[j].path, s->r[i].path);
	if (!i)
		return 0;
	d = smm_run_set_diff(&s->r[0], &s->r[i], SMM_DIFF_ONE_SIDE, NULL);
	if (d < 0)
		return smm_errmsg(err, len, "out of memory");
	if (d)
		return smm_errmsg(
			err, len,
			"%s and %s differ (listed above): reports of one side must be of one configuration, integration and kernel",
			s->r[0].path, s->r[i].path);
	return 0;
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
			rc = smm_errmsg(
				err, len,
				"%s: more than %d reports on one side (the limit)",
				arg, SMM_SIDE_MAX_FILES);
			break;
		}
		rc = smm_run_set_load(&s->r[s->n], tok, err, len);
		if (rc)
			break;
		s->nruns += s->r[s->n].nruns;
		s->n++;
		rc = side_check(s, s->n - 1, err, len);
	}
	if (rc)
		smm_side_free(s);
	return rc;
}

void smm_side_free(struct smm_side *s)
{
	for (int i = 0; i < s->n; i++)
		smm_run_set_free(&s->r[i]);
	s->n = 0;
	free(s->paths);
	s->paths = NULL;
}

/* One figure value of a comparison, for sorting by name. */
struct tuple {
	const char *name;
	double v;
	size_t run, side, rep, seq;
};

static int cmp_tuple(const void *a, const void *b)
{
	const struct tuple *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return (x->run > y->run) - (x->run < y->run);
}

/* A figure's tuples: [first, first + n), and where it first appeared. */
struct group {
	const char *name;
	size_t first, n, seq;
};

static int cmp_group_seq(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

struct collect {
	const struct smm_side *sides[2];
	struct tuple *t;
	size_t nt;
	struct group *g; /* every figure's, in name order */
	size_t ng;
	struct group *pick; /* those compared, in output order */
	size_t npick;
	char *err;
	size_t len;
};

static int tuples(struct collect *c)
{
	size_t n = 0;

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < c->sides[s]->n; i++)
			n += c->sides[s]->r[i].nval;
	c->t = calloc(n + 1, sizeof(*c->t));
	if (!c->t)
		return -ENOMEM;
	for (size_t s = 0; s < 2; s++)
		for (int i = 0; i < c->sides[s]->n; i++) {
			const struct smm_run_set *rp = &c->sides[s]->r[i];

			for (size_t k = 0; k < rp->nval; k++, c->nt++)
				c->t[c->nt] = (struct tuple){
					.name = rp->val[k].name,
					.v = rp->val[k].v,
					.run = rp->val[k].run,
					.side = s,
					.rep = (size_t)i,
					.seq = c->nt, /* document order */
				};
		}
	qsort(c->t, c->nt, sizeof(*c->t), cmp_tuple);
	c->g = calloc(c->nt + 1, sizeof(*c->g));
	if (!c->g)
		return -ENOMEM;
	for (size_t i = 0; i < c->nt; i++) {
		struct group *g = &c->g[c->ng];

		if (i && !strcmp(c->t[i].name, c->t[i - 1].name)) {
			g = &c->g[c->ng - 1];
			g->n++;
			if (c->t[i].seq < g->seq)
				g->seq = c->t[i].seq;
			continue;
		}
		*g = (struct group){ .name = c->t[i].name,
				     .first = i,
				     .n = 1,
				     .seq = c->t[i].seq };
		c->ng++;
	}
	return 0;
}

static const char *absent_why(const struct smm_run_set *rp, const char *name,
			      size_t run)
{
	for (size_t i = 0; i < rp->nabs; i++)
		if (rp->abs[i].run == run && !strcmp(rp->abs[i].name, name))
			return rp->abs[i].why;
	return "no reason recorded";
}

/* Side @s of group @g: every run of every report, or none at all. */
static int check_side(const struct collect *c, const struct group *g, size_t s,
		      const char *name, size_t *have)
{
	const struct smm_side *side = c->sides[s];
	const struct tuple *t = &c->t[g->first], *end = t + g->n;
	int with = 0;

	*have = 0;
	while (t < end && t->side < s)
		t++;
	for (int i = 0; i < side->n; i++) {
		const struct smm_run_set *rp = &side->r[i];
		size_t k = 0, gap = SIZE_MAX;

		for (; t < end && t->side == s && t->rep == (size_t)i; t++, k++)
			if (gap == SIZE_MAX && t->run != k)
				gap = k;
		if (!k)
			continue;
		with++;
		*have += k;
		if (k < rp->nruns)
			return smm_errmsg(
				c->err, c->len,
				"%s: %s has a value in %zu of %zu runs (absent in run %zu: %s): not comparable",
				rp->path, name, k, rp->nruns,
				(gap == SIZE_MAX ? k : gap) + 1,
				absent_why(rp, name,
					   gap == SIZE_MAX ? k : gap));
	}
	if (with && with < side->n)
		return smm_errmsg(
			c->err, c->len,
			"%s: %s has no value in %d of its %d reports: not comparable",
			side->arg, name, side->n - with, side->n);
	return 0;
}

static int fill(const struct collect *c, const struct group *g,
		struct smm_cmp_figure *f)
{
	const char *name = g->name;
	size_t have[2];
	int rc;

	f->name = name;
	f->def = smm_figure_def_of(name);
	for (size_t s = 0; s < 2; s++) {
		rc = check_side(c, g, s, name, &have[s]);
		if (rc)
			return rc;
	}
	if (!have[0] || !have[1])
		return smm_errmsg(
			c->err, c->len,
			"%s: no value in %s%s%s: incomparable (a skipped stressor or counter writes none, so it cannot pass a gate)",
			name, have[0] ? "" : c->sides[0]->arg,
			!have[0] && !have[1] ? " nor in " : "",
			have[1] ? "" : c->sides[1]->arg);
	for (size_t s = 0; s < 2; s++) {
		f->v[s] = malloc(have[s] * sizeof(double));
		if (!f->v[s])
			return -ENOMEM;
	}
	for (size_t i = g->first; i < g->first + g->n; i++) {
		const struct tuple *t = &c->t[i];
		size_t s = t->side ? 1 : 0;

		f->v[s][f->n[s]++] = t->v;
	}
	return 0;
}

/* The group of figure @name (groups in name order), or NULL. */
static const struct group *find(const struct collect *c, const char *name)
{
	size_t lo = 0, hi = c->ng;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(name, c->g[mid].name);

		if (!r)
			return &c->g[mid];
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The groups to compare, in output order, into @c->pick (@c->npick;
 * room for @nsel, or for every group when @nsel is 0). */
static int choose(struct collect *c, const char *const *select, size_t nsel)
{
	if (!nsel) {
		for (size_t i = 0; i < c->ng; i++)
			if (smm_figure_def_of(c->g[i].name)->default_gate)
				c->pick[c->npick++] = c->g[i];
		qsort(c->pick, c->npick, sizeof(*c->pick), cmp_group_seq);
		return 0;
	}
	for (size_t i = 0; i < nsel; i++) {
		const struct group *g = find(c, select[i]);

		if (!g)
			return smm_errmsg(
				c->err, c->len,
				"%s: no value in %s nor in %s: incomparable (a skipped stressor or counter writes none, so it cannot pass a gate)",
				select[i], c->sides[0]->arg, c->sides[1]->arg);
		c->pick[c->npick++] = *g;
	}
	return 0;
}

int smm_cmp_collect(const struct smm_side *base, const struct smm_side *cand,
		    const char *const *select, size_t nsel,
		    struct smm_cmp_figures *out, char *err, size_t len)
{
	struct collect c = { .sides = { base, cand }, .err = err, .len = len };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = tuples(&c);
	if (!rc) {
		c.pick = calloc(nsel ? nsel : c.ng + 1, sizeof(*c.pick));
		rc = c.pick ? choose(&c, select, nsel) : -ENOMEM;
	}
	if (!rc && !c.npick) {
		smm_errmsg(
			err, len,
			"no figure to compare (counters and stressors skipped on both sides?)");
		rc = -ENOENT;
	}
	if (!rc) {
		out->f = calloc(c.npick, sizeof(*out->f));
		rc = out->f ? 0 : -ENOMEM;
	}
	for (size_t i = 0; !rc && i < c.npick; i++) {
		rc = fill(&c, &c.pick[i], &out->f[i]);
		out->n = i + 1;
	}
	if (rc == -ENOMEM)
		snprintf(err, len, "out of memory");
	if (rc)
		smm_cmp_figures_free(out);
	free(c.t);
	free(c.g);
	free(c.pick);
	return rc;
}

void smm_cmp_figures_free(struct smm_cmp_figures *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->f[i].v[0]);
		free(fs->f[i].v[1]);
	}
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}
