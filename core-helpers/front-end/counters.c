// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.c - perf_event_open(2) tracepoint counters, system-wide.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"
#include "sysfacts.h"

#define TRACEFS "/sys/kernel/tracing"
#define DEBUGFS_TRACING "/sys/kernel/debug/tracing"

/* clang-format off */
const struct smm_counter_spec smm_counter_specs[] = {
	{ "page_alloc_order0", "kmem", "mm_page_alloc", "order == 0" },
	{ "zone_locked_order0", "kmem", "mm_page_alloc_zone_locked", "order == 0" },
	{ "zone_locked_order0_unmovable", "kmem", "mm_page_alloc_zone_locked", "order == 0 && migratetype == 0" },
	{ "zone_locked_order0_movable", "kmem", "mm_page_alloc_zone_locked", "order == 0 && migratetype == 1" },
	{ "zone_locked_order0_reclaimable", "kmem", "mm_page_alloc_zone_locked", "order == 0 && migratetype == 2" },
	{ "zone_locked_order0_refill", "kmem", "mm_page_alloc_zone_locked", "order == 0 && percpu_refill == 1" },
	{ "zone_locked_order0_movable_refill", "kmem", "mm_page_alloc_zone_locked", "order == 0 && migratetype == 1 && percpu_refill == 1" },
	{ "zone_locked_order0_unmovable_refill", "kmem", "mm_page_alloc_zone_locked", "order == 0 && migratetype == 0 && percpu_refill == 1" },
	{ "extfrag_order0", "kmem", "mm_page_alloc_extfrag", "alloc_order == 0" },
	{ "pcpu_drain_order0", "kmem", "mm_page_pcpu_drain", "order == 0" },
	{ "pcpu_drain_order1", "kmem", "mm_page_pcpu_drain", "order == 1" },
	{ "pcpu_drain_order2", "kmem", "mm_page_pcpu_drain", "order == 2" },
	{ "pcpu_drain_order3", "kmem", "mm_page_pcpu_drain", "order == 3" },
	{ "pcpu_drain_order9", "kmem", "mm_page_pcpu_drain", "order == 9" },
	{ "page_alloc_order2", "kmem", "mm_page_alloc", "order == 2" },
	{ "zone_locked_order2", "kmem", "mm_page_alloc_zone_locked", "order == 2" },
	{ "zone_locked_order2_refill", "kmem", "mm_page_alloc_zone_locked", "order == 2 && percpu_refill == 1" },
	/* No kmem:mm_page_free by order: on kernels with "vmalloc: optimize
	 * vfree with free_pages_bulk()" it fires once per page at order 0
	 * even when the block is freed at order 2 (KERNEL-PATHS.md 4.1). */
	{ "tlb_flush", "tlb", "tlb_flush", NULL },
};
/* clang-format on */
const size_t smm_nr_counter_specs =
	sizeof(smm_counter_specs) / sizeof(smm_counter_specs[0]);

const struct smm_counter_spec *smm_counter_spec_of(const char *name)
{
	for (size_t i = 0; i < smm_nr_counter_specs; i++)
		if (strcmp(name, smm_counter_specs[i].name) == 0)
			return &smm_counter_specs[i];
	return NULL;
}

static int find_tracefs(struct smm_counters *cs)
{
	struct stat st;

	if (stat(TRACEFS "/events", &st) == 0) {
		snprintf(cs->tracefs, sizeof(cs->tracefs), "%s", TRACEFS);
		return 0;
	}
	if (stat(DEBUGFS_TRACING "/events", &st) == 0) {
		snprintf(cs->tracefs, sizeof(cs->tracefs), "%s",
			 DEBUGFS_TRACING);
		return 0;
	}
	if (mount("tracefs", TRACEFS, "tracefs", 0, NULL) == 0) {
		cs->mounted_tracefs = 1;
		snprintf(cs->tracefs, sizeof(cs->tracefs), "%s", TRACEFS);
		return 0;
	}
	return -errno;
}

static void close_fds(struct smm_counter *c)
{
	for (int j = 0; j < c->nfds; j++)
		if (c->fds[j] >= 0)
			close(c->fds[j]);
	free(c->fds);
	c->fds = NULL;
	c->nfds = 0;
}

static int open_counter(struct smm_counters *cs, struct smm_counter *c,
			long ncpu)
{
	int opened = 0;
	const struct smm_counter_spec *s = c->spec;
	struct perf_event_attr attr;
	char path[256];
	uint64_t id;
	int rc;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", cs->tracefs,
		 s->system, s->event);
	rc = smm_read_u64(path, &id);
	if (rc) {
		snprintf(c->skip, sizeof(c->skip),
			 "tracepoint %s:%s not available: %s", s->system,
			 s->event, strerror(-rc));
		return 0;
	}
	c->fds = malloc((size_t)ncpu * sizeof(int));
	if (!c->fds)
		return -ENOMEM;
	for (long cpu = 0; cpu < ncpu; cpu++)
		c->fds[cpu] = -1;
	c->nfds = (int)ncpu;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.disabled = 1;
	for (long cpu = 0; cpu < ncpu; cpu++) {
		int fd = (int)syscall(SYS_perf_event_open, &attr, -1, (int)cpu,
				      -1, PERF_FLAG_FD_CLOEXEC);

		if (fd < 0 && errno == ENODEV)
			continue; /* an offline CPU */
		if (fd < 0) {
			snprintf(
				c->skip, sizeof(c->skip),
				"perf_event_open %s:%s on CPU %ld errno=%d (%s)%s",
				s->system, s->event, cpu, errno,
				strerror(errno),
				errno == EACCES || errno == EPERM
					? ": needs CAP_PERFMON or CAP_SYS_ADMIN with perf_event_paranoid > 0"
					: "");
			break;
		}
		c->fds[cpu] = fd;
		opened++;
		if (s->filter &&
		    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, s->filter) < 0) {
			snprintf(c->skip, sizeof(c->skip),
				 "filter '%s' on %s:%s errno=%d (%s)",
				 s->filter, s->system, s->event, errno,
				 strerror(errno));
			break;
		}
	}
	if (!c->skip[0] && !opened)
		snprintf(c->skip, sizeof(c->skip),
			 "perf_event_open %s:%s: no online CPU to count on",
			 s->system, s->event);
	if (c->skip[0])
		close_fds(c); /* a partial open counts nothing */
	return 0;
}

static int wanted(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (strcmp(list, "all") == 0)
		return 1;
	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

int smm_counters_open(struct smm_counters *cs, const char *list, char *err,
		      size_t len)
{
	return smm_counters_open_at(cs, list, NULL, err, len);
}

int smm_counters_open_at(struct smm_counters *cs, const char *list,
			 const char *tracefs, char *err, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char *copy, *tok, *save = NULL;
	int rc, trc;

	memset(cs, 0, sizeof(*cs));
	/* Every listed name must exist. */
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0)
			continue;
		if (!smm_counter_spec_of(tok)) {
			snprintf(err, len, "%s", tok);
			free(copy);
			return -EINVAL;
		}
	}
	free(copy);
	cs->c = calloc(smm_nr_counter_specs, sizeof(*cs->c));
	if (!cs->c)
		return -ENOMEM;
	if (tracefs) {
		snprintf(cs->tracefs, sizeof(cs->tracefs), "%s", tracefs);
		trc = 0;
	} else {
		trc = find_tracefs(cs);
	}
	for (size_t i = 0; i < smm_nr_counter_specs; i++) {
		struct smm_counter *c;

		if (!wanted(list, smm_counter_specs[i].name))
			continue;
		c = &cs->c[cs->n++];
		c->spec = &smm_counter_specs[i];
		if (trc) {
			snprintf(
				c->skip, sizeof(c->skip),
				"tracefs not mounted and cannot be: errno=%d (%s)",
				-trc, strerror(-trc));
			continue;
		}
		rc = open_counter(cs, c, ncpu);
		if (rc)
			return rc;
	}
	return 0;
}

static void ioctl_all(struct smm_counters *cs, unsigned long req)
{
	for (size_t i = 0; i < cs->n; i++)
		for (int j = 0; j < cs->c[i].nfds; j++)
			if (cs->c[i].fds[j] >= 0)
				ioctl(cs->c[i].fds[j], req, 0);
}

void smm_counters_enable(struct smm_counters *cs)
{
	ioctl_all(cs, PERF_EVENT_IOC_ENABLE);
}

void smm_counters_disable(struct smm_counters *cs)
{
	ioctl_all(cs, PERF_EVENT_IOC_DISABLE);
}

void smm_counters_read(struct smm_counters *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		struct smm_counter *c = &cs->c[i];

		c->value = 0;
		for (int j = 0; j < c->nfds; j++) {
			uint64_t v = 0;

			if (c->fds[j] >= 0 && read(c->fds[j], &v, sizeof(v)) ==
						      (ssize_t)sizeof(v))
				c->value += v;
		}
	}
}

const struct smm_counter *smm_counters_get(const struct smm_counters *cs,
					   const char *name)
{
	for (size_t i = 0; i < cs->n; i++)
		if (strcmp(cs->c[i].spec->name, name) == 0)
			return &cs->c[i];
	return NULL;
}

void smm_counters_close(struct smm_counters *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		close_fds(&cs->c[i]);
	if (cs->mounted_tracefs)
		umount(cs->tracefs);
	cs->mounted_tracefs = 0;
}

void smm_counters_free(struct smm_counters *cs)
{
	smm_counters_close(cs);
	free(cs->c);
	cs->c = NULL;
	cs->n = 0;
}
