// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smm-vmctl - drives /dev/stress-mm-vmalloc (module/stress-mm-vmalloc.h)
 * in the lab's guests: built static for the busybox initramfs.
 *
 *   smm-vmctl info                 the module's limits and caps
 *   smm-vmctl checks               every documented errno and behaviour
 *   smm-vmctl orders               orders 0..9 proven in /proc/vmallocinfo
 *   smm-vmctl fuzz CALLS SEED [relaxed]
 *                                  random commands, sizes, counts, nodes,
 *                                  flags and pointers against a model of
 *                                  the ABI
 *   smm-vmctl bench ORDER BATCH TOTAL REPEATS
 *                                  ns per vmalloc+vfree (CYCLE)
 *   smm-vmctl snap                 MemFree, VmallocUsed, PCP pages and
 *                                  our vmallocinfo areas, one line
 *   smm-vmctl hold PAGES COUNT     allocate, then wait for a signal
 *   smm-vmctl load FILE PARAMS     finit_module() once (test_vmalloc)
 *
 * Results are TAP lines without numbers ("ok - ...", "not ok - ...",
 * "# ..."): the guest's script gathers several runs and the host numbers
 * them. Exit status 0 when nothing failed, 1 otherwise, 2 on usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vmctl.h"

int failed;

__attribute__((format(printf, 2, 3))) int check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok - ", cond ? "" : "not ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		failed = 1;
	return cond;
}

__attribute__((format(printf, 1, 2))) void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int dev_open(void)
{
	return open(DEV, O_RDWR | O_CLOEXEC);
}

/* SMM_VMCTL_TRACE set: every ioctl on stderr before it is made */
int trace;
static long traced;

/* ioctl: 0 or -errno */
int xioctl(int fd, unsigned long cmd, void *arg)
{
	if (trace)
		fprintf(stderr, "# ioctl %ld: fd %d cmd %#lx arg %p\n",
			++traced, fd, cmd, arg);
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

void req_init(struct smm_vmalloc_req *r, uint32_t kind, u64 pages,
	      uint32_t count, uint32_t loops)
{
	memset(r, 0, sizeof(*r));
	r->abi_version = SMM_VMALLOC_ABI_VERSION;
	r->kind = kind;
	r->node = SMM_VMALLOC_NO_NODE;
	r->nr_pages = pages;
	r->count = count;
	r->loops = loops;
}

void free_init(struct smm_vmalloc_req *r, uint32_t count, uint32_t flags)
{
	memset(r, 0, sizeof(*r));
	r->abi_version = SMM_VMALLOC_ABI_VERSION;
	r->count = count;
	r->flags = flags;
}

int get_info(int fd, struct smm_vmalloc_info *info)
{
	memset(info, 0, sizeof(*info));
	return xioctl(fd, SMM_VMALLOC_IOC_INFO, info);
}

int get_stats(int fd, struct smm_vmalloc_stats *st, uint32_t flags)
{
	memset(st, 0, sizeof(*st));
	st->abi_version = SMM_VMALLOC_ABI_VERSION;
	st->flags = flags;
	return xioctl(fd, SMM_VMALLOC_IOC_STATS, st);
}

/* --- /proc readers ----------------------------------------------------- */

int read_ours(struct ours *o)
{
	char line[512], caller[256];
	FILE *f = fopen("/proc/vmallocinfo", "r");
	const size_t clen = strlen(SMM_VMALLOC_CALLER);

	memset(o, 0, sizeof(*o));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		long size = 0, pages = 0;
		const char *p;
		int ord;

		if (sscanf(line, "%*s %ld %255s", &size, caller) != 2)
			continue;
		if (strncmp(caller, SMM_VMALLOC_CALLER, clen) != 0 ||
		    caller[clen] != '+' ||
		    !strstr(line, "[" SMM_VMALLOC_MODULE "]"))
			continue;
		o->areas++;
		p = strstr(line, " pages=");
		if (p)
			pages = strtol(p + 7, NULL, 10);
		o->pages += pages;
		for (ord = 0; ord <= 10; ord++) {
			if (pages != 1L << ord)
				continue;
			o->with_pages[ord]++;
			if (size == (pages + 1) * 4096L) {
				o->size_ok[ord]++;
				snprintf(o->line[ord], sizeof(o->line[ord]),
					 "%.*s", (int)strcspn(line, "\n"),
					 line);
			}
		}
	}
	fclose(f);
	return 0;
}

static long meminfo_kb(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, n) == 0 && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* Pages on the per-CPU lists: the "count:" lines of /proc/zoneinfo. */
static long pcp_pages(void)
{
	char line[256];
	long sum = 0, v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " count: %ld", &v) == 1)
			sum += v;
	}
	fclose(f);
	return sum;
}

int cmd_snap(void)
{
	struct ours o;

	read_ours(&o);
	printf("memfree_kb=%ld pcp_kb=%ld vmallocused_kb=%ld slab_kb=%ld pagetables_kb=%ld kernelstack_kb=%ld ours_areas=%ld ours_pages=%ld\n",
	       meminfo_kb("MemFree"), pcp_pages() * 4,
	       meminfo_kb("VmallocUsed"), meminfo_kb("Slab"),
	       meminfo_kb("PageTables"), meminfo_kb("KernelStack"), o.areas,
	       o.pages);
	return 0;
}

/* --- info ------------------------------------------------------------- */

int cmd_info(void)
{
	struct smm_vmalloc_info info;
	int fd = dev_open(), rc;

	if (fd < 0) {
		printf("open %s: %s\n", DEV, strerror(errno));
		return 1;
	}
	rc = get_info(fd, &info);
	close(fd);
	if (rc) {
		printf("INFO: %s\n", strerror(-rc));
		return 1;
	}
	printf("abi_version=%u page_size=%u max_pages=%u max_count=%u max_loops=%u kinds=%#x file_cap_pages=%llu"
	       " total_cap_pages=%llu total_pages=%llu\n",
	       info.abi_version, info.page_size, info.max_pages, info.max_count,
	       info.max_loops, info.kinds, info.file_cap_pages,
	       info.total_cap_pages, info.total_pages);
	return 0;
}

/* --- bench ---------------------------------------------------------------- */

int cmd_bench(int order, uint32_t batch, u64 total, int repeats)
{
	struct smm_vmalloc_req r;
	int fd = dev_open(), i, rc;

	if (fd < 0) {
		printf("open %s: %s\n", DEV, strerror(errno));
		return 1;
	}
	for (i = 0; i < repeats; i++) {
		req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 1ULL << order, batch,
			 (uint32_t)(total / batch));
		rc = xioctl(fd, SMM_VMALLOC_IOC_CYCLE, &r);
		if (rc || !r.done) {
			printf("bench order=%d batch=%u: %s\n", order, batch,
			       strerror(-rc));
			close(fd);
			return 1;
		}
		printf("bench order=%d batch=%u pairs=%llu"
		       " alloc_ns=%llu free_ns=%llu"
		       " ns_per_pair=%.0f\n",
		       order, batch, r.done, r.alloc_ns, r.free_ns,
		       (double)(r.alloc_ns + r.free_ns) / (double)r.done);
	}
	close(fd);
	return 0;
}

int cmd_hold(u64 pages, uint32_t count)
{
	struct smm_vmalloc_req r;
	int fd = dev_open(), rc;

	if (fd < 0) {
		printf("open %s: %s\n", DEV, strerror(errno));
		return 1;
	}
	req_init(&r, SMM_VMALLOC_KIND_VMALLOC, pages, count, 0);
	rc = xioctl(fd, SMM_VMALLOC_IOC_ALLOC, &r);
	printf("hold: %s, %llu areas\n", rc ? strerror(-rc) : "ok", r.done);
	fflush(stdout);
	pause();
	return 0;
}

/*
 * One finit_module() of FILE with PARAMS. busybox's insmod and modprobe
 * call init_module() again when finit_module() fails, so a module whose
 * init fails by design (test_vmalloc: -EAGAIN after its tests) would run
 * twice; this runs it once. Prints the result; exit 0 when loaded.
 */
static int cmd_load(const char *file, const char *params)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		printf("load %s: %s\n", file, strerror(errno));
		return 1;
	}
	rc = (int)syscall(SYS_finit_module, fd, params, 0);
	printf("load %s %s: %s\n", file, params,
	       rc ? strerror(errno) : "loaded");
	close(fd);
	return rc ? 1 : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: smm-vmctl info|checks|orders|snap\n"
			"       smm-vmctl fuzz CALLS SEED [relaxed]\n"
			"       smm-vmctl bench ORDER BATCH TOTAL REPEATS\n"
			"       smm-vmctl hold PAGES COUNT\n"
			"       smm-vmctl load FILE PARAMS\n");
	return 2;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("SMM_VMCTL_TRACE"))
		trace = 1;
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "info"))
		return cmd_info();
	if (!strcmp(argv[1], "checks"))
		return cmd_checks();
	if (!strcmp(argv[1], "orders"))
		return cmd_orders();
	if (!strcmp(argv[1], "snap"))
		return cmd_snap();
	if (!strcmp(argv[1], "fuzz") && argc >= 4) {
		return cmd_fuzz(strtol(argv[2], NULL, 0),
				strtoull(argv[3], NULL, 0),
				argc > 4 && !strcmp(argv[4], "relaxed"));
	}
	if (!strcmp(argv[1], "bench") && argc == 6) {
		int order = atoi(argv[2]);

		if (order < 0 || order > 18)
			return usage();
		return cmd_bench(order, (uint32_t)strtoul(argv[3], NULL, 0),
				 strtoull(argv[4], NULL, 0), atoi(argv[5]));
	}
	if (!strcmp(argv[1], "load") && argc == 4)
		return cmd_load(argv[2], argv[3]);
	if (!strcmp(argv[1], "hold") && argc == 4)
		return cmd_hold(strtoull(argv[2], NULL, 0),
				(uint32_t)strtoul(argv[3], NULL, 0));
	return usage();
}
