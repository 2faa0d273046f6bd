// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bpf-counters.c - load, gate, read and unload bpf/counters.bpf.c.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bpf-counters.h"
#include "counters.skel.h"

struct smm_bpf {
	struct smm_counters_bpf *skel;
	struct bpf_link *links[SMM_BPF_NR_EVENTS + 1];
	struct bpf_program *progs[SMM_BPF_NR_EVENTS + 1]; /* of links[] */
	int nlinks;
};

/* libbpf's last warning, for the reason of a failed load. */
static char libbpf_last[200];

static int quiet_print(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	char line[sizeof(libbpf_last)];
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	if (n && line[n - 1] == '\n')
		line[n - 1] = 0;
	/* keep the line that names what failed, not the log's tail */
	if (strstr(line, "failed") || strstr(line, "error") || !libbpf_last[0])
		snprintf(libbpf_last, sizeof(libbpf_last), "%s", line);
	return 0;
}

/* The programs of each event (enum smm_event) and their tracepoints. */
static struct bpf_program *prog_of(struct smm_counters_bpf *s, int ev,
				   int second)
{
	struct bpf_program *p[SMM_BPF_NR_EVENTS][2] = {
		{ s->progs.smm_page_alloc, NULL },
		{ s->progs.smm_zone_locked, NULL },
		{ s->progs.smm_extfrag, NULL },
		{ s->progs.smm_pcpu_drain, NULL },
		{ s->progs.smm_tlb_flush, NULL },
		{ s->progs.smm_contention_begin, s->progs.smm_contention_end },
	};

	return p[ev][second];
}

static const char *const tp_of[SMM_BPF_NR_EVENTS][2] = {
	{ "mm_page_alloc", NULL },
	{ "mm_page_alloc_zone_locked", NULL },
	{ "mm_page_alloc_extfrag", NULL },
	{ "mm_page_pcpu_drain", NULL },
	{ "tlb_flush", NULL },
	{ "contention_begin", "contention_end" },
};

/* Which tracepoints this kernel has: btf_trace_<name> in its BTF. */
static void check_tracepoints(const struct btf *vm,
			      const bool want[SMM_BPF_NR_EVENTS],
			      bool on[SMM_BPF_NR_EVENTS],
			      char ev_why[SMM_BPF_NR_EVENTS][200])
{
	for (int ev = 0; ev < SMM_BPF_NR_EVENTS; ev++) {
		on[ev] = want[ev];
		for (int k = 0; k < 2 && on[ev] && tp_of[ev][k]; k++) {
			char name[96];

			snprintf(name, sizeof(name), "btf_trace_%s",
				 tp_of[ev][k]);
			if (btf__find_by_name_kind(vm, name,
						   BTF_KIND_TYPEDEF) >= 0)
				continue;
			on[ev] = false;
			snprintf(ev_why[ev], sizeof(ev_why[ev]),
				 "tracepoint %s not in this kernel's BTF",
				 tp_of[ev][k]);
		}
	}
}

static int load(struct smm_bpf *b, const bool on[SMM_BPF_NR_EVENTS],
		const struct smm_lock_sides *ks)
{
	struct smm_counters_bpf *s = smm_counters_bpf__open();

	if (!s)
		return errno ? -errno : -ENOMEM;
	b->skel = s;
	for (int ev = 0; ev < SMM_BPF_NR_EVENTS; ev++)
		for (int k = 0; k < 2 && prog_of(s, ev, k); k++)
			bpf_program__set_autoload(prog_of(s, ev, k), on[ev]);
	s->rodata->smm_nr_ranges = ks->n;
	memcpy(s->bss->smm_ranges, ks->r, sizeof(ks->r));
	s->bss->smm_on = 0;
	if (smm_counters_bpf__load(s)) {
		int rc = -errno;

		smm_counters_bpf__destroy(s);
		b->skel = NULL;
		return rc ? rc : -EINVAL;
	}
	return 0;
}

static int attach(struct smm_bpf *b, const bool on[SMM_BPF_NR_EVENTS],
		  char *why, size_t len)
{
	for (int ev = 0; ev < SMM_BPF_NR_EVENTS; ev++) {
		for (int k = 0; k < 2 && on[ev] && prog_of(b->skel, ev, k);
		     k++) {
			struct bpf_link *l =
				bpf_program__attach(prog_of(b->skel, ev, k));

			if (!l) {
				int rc = -errno;

				snprintf(
					why, len,
					"attaching to tracepoint %s: errno=%d (%s)",
					tp_of[ev][k], -rc, strerror(-rc));
				return rc;
			}
			b->progs[b->nlinks] = prog_of(b->skel, ev, k);
			b->links[b->nlinks++] = l;
		}
	}
	return 0;
}

int smm_bpf_open(struct smm_bpf **out, const bool want[SMM_BPF_NR_EVENTS],
		 const struct smm_lock_sides *ks,
		 char ev_why[SMM_BPF_NR_EVENTS][200], char *why, size_t len)
{
	bool on[SMM_BPF_NR_EVENTS];
	struct rlimit memlock;
	struct smm_bpf *b;
	struct btf *vm;
	int rc;

	*out = NULL;
	libbpf_set_print(quiet_print);
	libbpf_last[0] = 0;
	vm = btf__load_vmlinux_btf();
	if (!vm) {
		rc = -errno;
		snprintf(
			why, len,
			"no kernel BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF): errno=%d (%s)",
			-rc, strerror(-rc));
		return rc;
	}
	check_tracepoints(vm, want, on, ev_why);
	btf__free(vm);
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	/* libbpf raises RLIMIT_MEMLOCK where the kernel does not charge BPF
	 * memory to the memory cgroup (before 5.11), and stress-ng's workers
	 * would inherit it: it is put back as it was (lowering is always
	 * allowed). */
	getrlimit(RLIMIT_MEMLOCK, &memlock);
	rc = load(b, on, ks);
	if (rc && on[SMM_BPF_NR_EVENTS - 1]) {
		/* the zone-lock programs read kernel fields: without them */
		snprintf(ev_why[SMM_BPF_NR_EVENTS - 1], sizeof(ev_why[0]),
			 "the zone-lock wait programs do not load here: %s",
			 libbpf_last[0] ? libbpf_last : strerror(-rc));
		on[SMM_BPF_NR_EVENTS - 1] = false;
		rc = load(b, on, ks);
	}
	setrlimit(RLIMIT_MEMLOCK, &memlock);
	if (!rc && !b->skel)
		rc = -EINVAL;
	if (rc) {
		snprintf(why, len, "BPF programs do not load: errno=%d (%s)%s",
			 -rc, strerror(-rc),
			 rc == -EPERM ? ": needs CAP_BPF and CAP_PERFMON" : "");
		free(b);
		return rc;
	}
	rc = attach(b, on, why, len);
	if (rc) {
		smm_bpf_close(b);
		return rc;
	}
	*out = b;
	return 0;
}

void smm_bpf_gate(struct smm_bpf *b, bool on)
{
	__atomic_store_n(&b->skel->bss->smm_on, on ? 1U : 0U, __ATOMIC_SEQ_CST);
}

static void merge_zones(struct smm_bpf_counts *sum,
			const struct smm_bpf_counts *c)
{
	for (int i = 0; i < SMM_BPF_ZONES && c->zones[i].lock; i++) {
		int j;

		for (j = 0; j < SMM_BPF_ZONES && sum->zones[j].lock; j++)
			if (sum->zones[j].lock == c->zones[i].lock)
				break;
		if (j < SMM_BPF_ZONES && !sum->zones[j].lock)
			sum->zones[j] = c->zones[i];
	}
}

int smm_bpf_read(struct smm_bpf *b, struct smm_bpf_counts *sum,
		 uint64_t *misses)
{
	int ncpu = libbpf_num_possible_cpus();
	struct smm_bpf_counts *v;
	__u32 key = 0;

	memset(sum, 0, sizeof(*sum));
	*misses = 0;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.smm_counts), &key,
				v)) {
		int rc = -errno;

		free(v);
		return rc;
	}
	for (int c = 0; c < ncpu; c++) {
		const __u64 *src = (const __u64 *)&v[c];
		__u64 *dst = (__u64 *)sum;

		/* every field before zones[] is a __u64 count */
		for (size_t i = 0;
		     i < offsetof(struct smm_bpf_counts, zones) / sizeof(__u64);
		     i++)
			dst[i] += src[i];
		merge_zones(sum, &v[c]);
	}
	free(v);
	for (int l = 0; l < b->nlinks; l++) {
		struct bpf_prog_info info;
		__u32 n = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(b->progs[l]), &info,
					    &n))
			*misses += info.recursion_misses;
	}
	return 0;
}

void smm_bpf_run_stats(struct smm_bpf *b, uint64_t *runs, uint64_t *ns)
{
	*runs = *ns = 0;
	for (int l = 0; l < b->nlinks; l++) {
		struct bpf_prog_info info;
		__u32 n = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(b->progs[l]), &info,
					   &n))
			continue;
		*runs += info.run_cnt;
		*ns += info.run_time_ns;
	}
}

struct calib {
	int efd;
	volatile int stop;
};

static void *contend(void *arg)
{
	struct calib *c = arg;

	while (!c->stop) {
		uint64_t v = 1;

		if (write(c->efd, &v, sizeof(v)) < 0 ||
		    read(c->efd, &v, sizeof(v)) < 0)
			continue;
	}
	return NULL;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int smm_bpf_calibrate(struct smm_bpf *b, unsigned int ms, unsigned int threads,
		      uint64_t *waits)
{
	struct smm_bpf_counts s0, s1;
	struct calib c = { .stop = 0 };
	pthread_t t[64];
	unsigned int n = 0;
	uint64_t miss;
	double end;
	int rc;

	*waits = 0;
	threads = threads > 64 ? 64 : threads;
	c.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (c.efd < 0)
		return -errno;
	rc = smm_bpf_read(b, &s0, &miss);
	smm_bpf_gate(b, true);
	for (; n < threads; n++)
		if (pthread_create(&t[n], NULL, contend, &c))
			break;
	end = now_ms() + ms;
	while (!rc && n && now_ms() < end) {
		usleep(20000);
		rc = smm_bpf_read(b, &s1, &miss);
		if (!rc && s1.spin_waits > s0.spin_waits)
			break;
	}
	c.stop = 1;
	for (unsigned int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	smm_bpf_gate(b, false);
	if (!rc)
		rc = smm_bpf_read(b, &s1, &miss);
	close(c.efd);
	if (!n)
		return -EAGAIN;
	if (!rc)
		*waits = s1.spin_waits - s0.spin_waits;
	return rc;
}

void smm_bpf_close(struct smm_bpf *b)
{
	if (!b)
		return;
	for (int l = 0; l < b->nlinks; l++)
		bpf_link__destroy(b->links[l]);
	smm_counters_bpf__destroy(b->skel);
	free(b);
}
