// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * results.c - a run's counts from the workers' stats files and from
 * stress-ng's own YAML.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "stats.h"
#include "yamldoc.h"

void smm_read_stats_dir(const char *dir, struct smm_run_result *res)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		struct smm_stats_file st;
		const struct smm_stressor *s;
		char path[PATH_MAX];
		int fd;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read(fd, &st, sizeof(st)) == (ssize_t)sizeof(st) &&
		    memcmp(st.magic, SMM_STATS_MAGIC, 8) == 0) {
			st.stressor[sizeof(st.stressor) - 1] = '\0';
			s = smm_stressor_of(st.stressor);
			if (s) {
				struct smm_stressor_result *r =
					&res->st[s - smm_stressors];

				r->calls += st.calls;
				r->allocs += st.allocs;
				r->pages += st.pages;
				r->churn_allocs += st.churn_allocs;
				r->stats_files++;
			}
		}
		close(fd);
		unlink(path);
	}
	closedir(dp);
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

void smm_read_ng_yaml(const char *path, struct smm_stressor_result *r,
		      struct smm_run_result *res)
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
		if (!strcmp(name, "plugin") && r) {
			r->bogo_ops +=
				(uint64_t)scalar_num(&d, *it, "bogo-ops");
			r->ops_real += scalar_num(
				&d, *it, "bogo-ops-per-second-real-time");
			r->ops_usr_sys += scalar_num(
				&d, *it, "bogo-ops-per-second-usr-sys-time");
			r->wall_s += scalar_num(&d, *it, "wall-clock-time");
		} else if (res && strcmp(name, "plugin") != 0 && name[0] &&
			   res->nng < SMM_MAX_NG_ENTRIES) {
			struct smm_ng_entry *e = &res->ng[res->nng++];

			snprintf(e->name, sizeof(e->name), "%s", name);
			e->bogo_ops = (uint64_t)scalar_num(&d, *it, "bogo-ops");
			e->ops_real = scalar_num(
				&d, *it, "bogo-ops-per-second-real-time");
			e->ops_usr_sys = scalar_num(
				&d, *it, "bogo-ops-per-second-usr-sys-time");
			e->wall_s = scalar_num(&d, *it, "wall-clock-time");
		}
	}
	yaml_document_delete(&d);
}
