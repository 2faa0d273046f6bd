// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * results.c - a run's counts from the workers' records and from
 * stress-ng's own YAML.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "stats.h"
#include "yamldoc.h"

static void add_place(struct smm_stressor_result *r,
		      const struct smm_stats_file *st)
{
	struct smm_worker_place *w;
	size_t used = 0;

	if (r->nplace == SMM_MAX_WORKER_PLACES)
		return;
	w = &r->place[r->nplace++];
	w->pid = st->pid;
	w->cpu = st->cpu;
	w->slot = st->slot;
	w->companions = st->companions;
	w->companion_cpus[0] = '\0';
	for (unsigned int i = 0; i < st->companions; i++) {
		int n = snprintf(w->companion_cpus + used,
				 sizeof(w->companion_cpus) - used, "%s%d",
				 i ? "," : "", st->companion_cpu[i]);

		if (n < 0 ||
		    (size_t)n >= sizeof(w->companion_cpus) - used - 4) {
			snprintf(w->companion_cpus + used,
				 sizeof(w->companion_cpus) - used, ",...");
			break;
		}
		used += (size_t)n;
	}
}

static int by_slot(const void *a, const void *b)
{
	const struct smm_worker_place *x = a, *y = b;

	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* One worker's path slots into the stressor's, by name. */
static void add_paths(struct smm_stressor_result *r,
		      const struct smm_stats_file *st)
{
	for (int i = 0; i < SMM_STATS_PATHS; i++) {
		const struct smm_stats_path *p = &st->paths[i];
		int k;

		if (p->state == SMM_PATH_UNUSED)
			continue;
		for (k = 0; k < r->npaths; k++)
			if (!strcmp(r->paths[k].name, p->name))
				break;
		if (k == r->npaths && r->npaths < SMM_STATS_PATHS)
			r->paths[r->npaths++] = *p;
		else if (k < r->npaths && p->state == SMM_PATH_PROVEN &&
			 r->paths[k].state != SMM_PATH_PROVEN)
			r->paths[k] = *p;
	}
}

/* What ran (batch and bytes after the clamps), when the record says. */
static void add_ran(struct smm_stressor_result *r,
		    const struct smm_stats_file *st)
{
	if (!st->batch)
		return;
	if (!r->nran || st->batch < r->batch_min)
		r->batch_min = st->batch;
	if (!r->nran || st->batch > r->batch_max)
		r->batch_max = st->batch;
	if (!r->nran || st->bytes < r->bytes_min)
		r->bytes_min = st->bytes;
	if (!r->nran || st->bytes > r->bytes_max)
		r->bytes_max = st->bytes;
	r->nran++;
}

static void add_file(struct smm_stressor_result *r,
		     const struct smm_stats_file *st)
{
	int status = smm_stats_exit_status(st);

	r->calls += st->calls;
	r->allocs += st->allocs;
	r->pages += st->pages;
	r->churn_allocs += st->churn_allocs;
	r->failures += st->failures;
	r->kernel_ns += st->kernel_alloc_ns + st->kernel_free_ns;
	if (st->failures && r->failures == st->failures) {
		/* the first record with failures: its last one */
		r->fail_errno = st->fail_errno;
		snprintf(r->fail_reason, sizeof(r->fail_reason), "%s",
			 st->fail_reason);
	}
	if (st->crash_signal && !r->crash_signal)
		r->crash_signal = st->crash_signal;
	if (st->skipped && !r->skip_reason[0]) {
		r->skip_errno = st->skip_errno;
		snprintf(r->skip_reason, sizeof(r->skip_reason), "%s",
			 st->skip_reason);
	}
	r->record_status = r->nrecords
				   ? smm_worse_status(r->record_status, status)
				   : status;
	r->nrecords++;
	add_place(r, st);
	add_paths(r, st);
	add_ran(r, st);
}

void smm_read_records(const char *dir, struct smm_run_result *res)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		if (!res->st[s].nrecords)
			res->st[s].record_status = -1;
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		struct smm_stats_file st;
		const struct smm_stressor *s;
		char path[PATH_MAX];
		int rc;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		rc = smm_stats_read(path, &st);
		s = rc ? NULL : smm_stressor_of(st.stressor);
		if (s) {
			add_file(&res->st[s - smm_stressors], &st);
		} else if (rc == -EBADMSG || rc == -EPROTO) {
			char name[32];

			snprintf(name, sizeof(name), "%.*s",
				 (int)strcspn(d->d_name, "."), d->d_name);
			s = smm_stressor_of(name);
			fprintf(stderr,
				"stress-mm: %s: %s, not counted (this stress-mm reads record format %d)\n",
				path,
				rc == -EPROTO ? "record of another version"
					      : "not a record",
				SMM_STATS_VERSION);
			if (s)
				res->st[s - smm_stressors].records_bad++;
		}
		unlink(path);
	}
	closedir(dp);
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		qsort(res->st[s].place, (size_t)res->st[s].nplace,
		      sizeof(res->st[s].place[0]), by_slot);
}

static double scalar_num(yaml_document_t *d, int map, const char *key)
{
	yaml_node_t *n = yaml_document_get_node(d, smm_yaml_get(d, map, key));

	return n && n->type == YAML_SCALAR_NODE
		       ? strtod((char *)n->data.scalar.value, NULL)
		       : 0;
}

static void entry_name(yaml_document_t *d, int map, char *buf, size_t len)
{
	yaml_node_t *n =
		yaml_document_get_node(d, smm_yaml_get(d, map, "stressor"));

	snprintf(buf, len, "%s",
		 n && n->type == YAML_SCALAR_NODE ? (char *)n->data.scalar.value
						  : "");
}

void smm_read_ng_yaml(const char *path, const char *ours,
		      struct smm_stressor_result *r, struct smm_run_result *res)
{
	yaml_document_t d;
	yaml_node_t *seq;
	char name[32];

	if (smm_yaml_load(path, &d) != 0)
		return;
	seq = yaml_document_get_node(&d, smm_yaml_get(&d, 1, "metrics"));
	for (yaml_node_item_t *it = seq ? seq->data.sequence.items.start : NULL;
	     seq && seq->type == YAML_SEQUENCE_NODE &&
	     it < seq->data.sequence.items.top;
	     it++) {
		entry_name(&d, *it, name, sizeof(name));
		if (ours && !strcmp(name, ours)) {
			if (!r)
				continue;
			r->bogo_ops +=
				(uint64_t)scalar_num(&d, *it, "bogo-ops");
			r->ops_real += scalar_num(
				&d, *it, "bogo-ops-per-second-real-time");
			r->ops_usr_sys += scalar_num(
				&d, *it, "bogo-ops-per-second-usr-sys-time");
			r->wall_s += scalar_num(&d, *it, "wall-clock-time");
		} else if (res && name[0] && res->nng < SMM_MAX_NG_ENTRIES) {
			struct smm_ng_entry *e = &res->ng[res->nng++];

			snprintf(e->name, sizeof(e->name), "%s", name);
			e->bogo_ops = (uint64_t)scalar_num(&d, *it, "bogo-ops");
			e->ops_real = scalar_num(
				&d, *it, "bogo-ops-per-second-real-time");
			e->ops_usr_sys = scalar_num(
				&d, *it, "bogo-ops-per-second-usr-sys-time");
			e->wall_s = scalar_num(&d, *it, "wall-clock-time");
		} else if (r && !res && name[0] &&
			   scalar_num(&d, *it, "bogo-ops") > 0) {
			r->others_ran++;
		}
	}
	yaml_document_delete(&d);
}
