// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmctl-fuzz.c - smm-vmctl fuzz: random commands, sizes, counts, nodes,
 * flags and pointers on NFDS open files, each answer checked against a
 * model of the ABI (module/stress-mm-vmalloc.h) that also tracks what
 * every file holds and what is charged, so that ENOSPC and each call's
 * done are predicted exactly. relaxed: other processes share the global
 * cap, so an ENOSPC the file's own cap does not explain is accepted.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "vmctl.h"

/* --- fuzz --------------------------------------------------------------- */

static u64 rng_state;

static u64 rnd(void)
{
	u64 x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static u64 below(u64 n)
{
	return n ? rnd() % n : 0;
}

/* The model: what each file holds and what is charged. */
struct marea {
	u64 pages, charge;
};

struct mfile {
	int fd;
	struct marea *held;
	size_t n, cap;
	u64 charged;
};

static struct mfile files[NFDS];
static struct smm_vmalloc_info finfo;
static u64 global_charged;
static int relaxed;

/* Is node n online? /sys/devices/system/node/online: "0" or "0-3,5" */
static int node_online(int32_t n)
{
	static char list[256];
	const char *p = list;
	long a, b;
	char *end;

	if (!list[0]) {
		FILE *f = fopen("/sys/devices/system/node/online", "r");

		if (!f || !fgets(list, sizeof(list), f))
			strcpy(list, "0");
		if (f)
			fclose(f);
	}
	while (*p) {
		a = strtol(p, &end, 10);
		if (end == p)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (n >= a && n <= b)
			return 1;
		p = *end == ',' ? end + 1 : end;
		if (*p == '\n')
			break;
	}
	return 0;
}

static u64 charge_of(uint32_t kind, u64 pages)
{
	u64 p = 1;

	if (kind == SMM_VMALLOC_KIND_HUGE && pages >= 512)
		return (pages + 511) / 512 * 512;
	if (pages > SMM_VMALLOC_MAX_PAGES)
		return pages; /* refused anyway; and p would overflow below */
	if (kind == SMM_VMALLOC_KIND_KVMALLOC) {
		while (p < pages)
			p <<= 1;
		return p;
	}
	return pages;
}

/*
 * The oracle of the checks: the "in:" lines and the Errors list of
 * module/stress-mm-vmalloc.h, as a table of what each command takes. A
 * field a command does not take must be 0; abi_version first (-EPROTO),
 * then every other rule gives -EINVAL, so their order does not matter.
 */
struct req_spec {
	unsigned long cmd;
	uint32_t flags; /* the flags it takes */
	int area; /* takes kind, node and nr_pages */
	uint32_t loops_min, loops_max; /* 0, 0: loops must be 0 */
	int count_zero_with_all; /* F_ALL takes count 0 instead */
};

static const struct req_spec req_specs[] = {
	{ SMM_VMALLOC_IOC_ALLOC, SMM_VMALLOC_F_ZERO, 1, 0, 0, 0 },
	{ SMM_VMALLOC_IOC_FREE, SMM_VMALLOC_F_ALL, 0, 0, 0, 1 },
	{ SMM_VMALLOC_IOC_CYCLE, SMM_VMALLOC_F_ZERO, 1, 1,
	  SMM_VMALLOC_MAX_LOOPS, 0 },
};

static int in_range(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v >= lo && v <= hi;
}

/* kind, node and nr_pages: in range where the command takes them, else 0 */
static int area_fields_ok(const struct req_spec *sp,
			  const struct smm_vmalloc_req *r)
{
	if (!sp->area)
		return !r->kind && !r->node && !r->nr_pages;
	return r->kind < SMM_VMALLOC_NR_KINDS &&
	       in_range(r->nr_pages, 1, SMM_VMALLOC_MAX_PAGES) &&
	       (r->node == SMM_VMALLOC_NO_NODE || node_online(r->node));
}

static int model_check(unsigned long cmd, const struct smm_vmalloc_req *r)
{
	const struct req_spec *sp = NULL;
	int all;

	for (size_t i = 0; i < sizeof(req_specs) / sizeof(req_specs[0]); i++)
		if (req_specs[i].cmd == cmd)
			sp = &req_specs[i];
	if (!sp)
		return -ENOTTY;
	if (r->abi_version != SMM_VMALLOC_ABI_VERSION)
		return -EPROTO;
	all = sp->count_zero_with_all && (r->flags & SMM_VMALLOC_F_ALL);
	if (r->reserved[0] || r->reserved[1] || (r->flags & ~sp->flags))
		return -EINVAL;
	if (!area_fields_ok(sp, r))
		return -EINVAL;
	if (sp->loops_max ? !in_range(r->loops, sp->loops_min, sp->loops_max)
			  : r->loops != 0)
		return -EINVAL;
	if (all ? r->count != 0 : !in_range(r->count, 1, SMM_VMALLOC_MAX_COUNT))
		return -EINVAL;
	return 0;
}

static int model_fits(const struct mfile *m, u64 total)
{
	if (m->charged + total > finfo.file_cap_pages)
		return 0;
	return relaxed || global_charged + total <= finfo.total_cap_pages;
}

static void model_push(struct mfile *m, u64 pages, u64 charge)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 256;
		m->held = realloc(m->held, m->cap * sizeof(*m->held));
		if (!m->held) {
			perror("realloc");
			exit(2);
		}
	}
	m->held[m->n].pages = pages;
	m->held[m->n++].charge = charge;
	m->charged += charge;
	global_charged += charge;
}

static u64 model_pop(struct mfile *m, u64 n)
{
	u64 done = 0;

	while (done < n && m->n) {
		m->n--;
		m->charged -= m->held[m->n].charge;
		global_charged -= m->held[m->n].charge;
		done++;
	}
	return done;
}

/* Counts by outcome, for the summary. */
static long calls, mismatches, n_ok, n_einval, n_eproto, n_enospc, n_enomem,
	n_efault, n_enotty, n_other, pages_allocated, reopens;

static void tally(int rc)
{
	calls++;
	switch (rc) {
	case 0:
		n_ok++;
		break;
	case -EINVAL:
		n_einval++;
		break;
	case -EPROTO:
		n_eproto++;
		break;
	case -ENOSPC:
		n_enospc++;
		break;
	case -ENOMEM:
		n_enomem++;
		break;
	case -EFAULT:
		n_efault++;
		break;
	case -ENOTTY:
		n_enotty++;
		break;
	default:
		n_other++;
		break;
	}
}

__attribute__((format(printf, 1, 2))) static void mismatch(const char *fmt, ...)
{
	va_list ap;

	if (mismatches++ < 20) {
		printf("# mismatch: ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
}

static u64 pick_pages(void)
{
	static const u64 edge[] = { 0,
				    SMM_VMALLOC_MAX_PAGES,
				    SMM_VMALLOC_MAX_PAGES + 1ULL,
				    1ULL << 32,
				    1ULL << 52,
				    ~0ULL,
				    511,
				    512,
				    513 };

	if (below(20) == 0)
		return edge[below(sizeof(edge) / sizeof(edge[0]))];
	return 1 + below(1ULL << below(11)); /* 1..1024, log-uniform */
}

static uint32_t pick_small(uint32_t max_common, uint32_t limit)
{
	switch (below(25)) {
	case 0:
		return 0;
	case 1:
		return limit + 1;
	case 2:
		return 0xffffffffU;
	case 3:
		return (uint32_t)rnd();
	default:
		return 1 + (uint32_t)below(max_common);
	}
}

/* A request near the valid one, with some fields off. */
static void make_req(unsigned long cmd, struct smm_vmalloc_req *r)
{
	memset(r, 0, sizeof(*r));
	r->abi_version = below(50) ? SMM_VMALLOC_ABI_VERSION : (uint32_t)rnd();
	if (cmd == SMM_VMALLOC_IOC_FREE) {
		if (below(3) == 0) {
			r->flags = SMM_VMALLOC_F_ALL;
		} else {
			r->count = pick_small(16, SMM_VMALLOC_MAX_COUNT);
		}
		if (below(20) == 0)
			r->flags |= (uint32_t)rnd();
		if (below(30) == 0)
			r->node = -1;
		if (below(30) == 0)
			r->nr_pages = pick_pages();
		if (below(30) == 0)
			r->count = (uint32_t)rnd();
	} else {
		r->kind = below(20) ? (uint32_t)below(3) : (uint32_t)rnd();
		r->flags = below(4) ? 0 : SMM_VMALLOC_F_ZERO;
		if (below(20) == 0)
			r->flags |= (uint32_t)rnd();
		switch (below(10)) {
		case 0:
			r->node = 0;
			break;
		case 1:
			r->node = (int32_t)rnd();
			break;
		case 2:
			r->node = (int32_t)below(8) - 4;
			break;
		default:
			r->node = SMM_VMALLOC_NO_NODE;
			break;
		}
		r->nr_pages = pick_pages();
		r->count = pick_small(16, SMM_VMALLOC_MAX_COUNT);
		/* ALLOC takes no loops: now and then it gets some */
		if (cmd == SMM_VMALLOC_IOC_CYCLE || below(20) == 0)
			r->loops = pick_small(3, SMM_VMALLOC_MAX_LOOPS);
	}
	if (below(40) == 0)
		r->reserved[below(2)] = rnd() | 1;
}

/* Keep the work of one valid call small enough for a TCG guest. */
static int too_much_work(unsigned long cmd, const struct smm_vmalloc_req *r)
{
	u64 work = r->nr_pages * r->count;

	if (cmd == SMM_VMALLOC_IOC_CYCLE)
		work *= r->loops;
	return work > 16384 || (u64)r->count * (r->loops ? r->loops : 1) > 4096;
}

static void fuzz_req(struct mfile *m, void *buf)
{
	static const unsigned long cmds[] = { SMM_VMALLOC_IOC_ALLOC,
					      SMM_VMALLOC_IOC_FREE,
					      SMM_VMALLOC_IOC_CYCLE };
	unsigned long cmd = cmds[below(3)];
	struct smm_vmalloc_req *r = buf;
	u64 charge, total, want = 0;
	int expect_rc, rc;

	do {
		make_req(cmd, r);
		expect_rc = model_check(cmd, r);
	} while (!expect_rc && cmd != SMM_VMALLOC_IOC_FREE &&
		 too_much_work(cmd, r));
	charge = charge_of(r->kind, r->nr_pages);
	total = charge * r->count;
	if (!expect_rc && cmd != SMM_VMALLOC_IOC_FREE && !model_fits(m, total))
		expect_rc = -ENOSPC;
	rc = xioctl(m->fd, cmd, r);
	tally(rc);
	if (rc == -ENOSPC && !expect_rc && relaxed &&
	    m->charged + total <= finfo.file_cap_pages)
		return; /* another process took the global room */
	if (rc != expect_rc && !(rc == -ENOMEM && !expect_rc)) {
		mismatch("cmd %#lx kind %u flags %#x node %d pages %llu"
			 " count %u loops %u abi %u: want %s, got %s",
			 cmd, r->kind, r->flags, r->node, r->nr_pages, r->count,
			 r->loops, r->abi_version,
			 expect_rc ? strerror(-expect_rc) : "success",
			 rc ? strerror(-rc) : "success");
		return;
	}
	if (rc && rc != -ENOMEM)
		return;
	switch (cmd) {
	case SMM_VMALLOC_IOC_ALLOC:
		for (want = 0; want < r->done; want++)
			model_push(m, r->nr_pages, charge);
		want = r->count;
		pages_allocated += r->done * r->nr_pages;
		break;
	case SMM_VMALLOC_IOC_FREE:
		want = model_pop(m, r->flags & SMM_VMALLOC_F_ALL ? ~0ULL
								 : r->count);
		break;
	default:
		want = (u64)r->count * r->loops;
		pages_allocated += r->done * r->nr_pages;
		break;
	}
	if (!rc && r->done != want)
		mismatch("cmd %#lx: done %llu, want %llu", cmd, r->done, want);
}

/* Any command number, any argument. */
static void fuzz_raw(struct mfile *m, void *buf, char *noread)
{
	static const unsigned long ours[] = { SMM_VMALLOC_IOC_INFO,
					      SMM_VMALLOC_IOC_ALLOC,
					      SMM_VMALLOC_IOC_FREE,
					      SMM_VMALLOC_IOC_CYCLE,
					      SMM_VMALLOC_IOC_STATS };
	unsigned long cmd;
	void *arg = buf;
	unsigned int i, is_ours = 0;
	int rc, want;

	switch (below(5)) {
	case 4: /* ours exactly: with garbage or a faulting pointer */
		cmd = ours[below(5)];
		break;
	case 0: /* our magic, any number, direction and size */
		cmd = _IOC(below(4), SMM_VMALLOC_IOC_MAGIC, below(16),
			   below(1 << 14));
		break;
	case 1: /* our commands with a neighbouring size */
		cmd = ours[below(5)];
		cmd = (cmd &
		       ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
		      ((unsigned long)((_IOC_SIZE(cmd) + below(17) - 8) &
				       _IOC_SIZEMASK)
		       << _IOC_SIZESHIFT);
		break;
	default:
		cmd = (uint32_t)rnd();
		break;
	}
	/*
	 * The VFS answers some numbers itself before the driver sees them
	 * (fs/ioctl.c do_vfs_ioctl(): FIOCLEX, FIONBIO, FIGETBSZ, FIFREEZE,
	 * FS_IOC_SETFLAGS on the devtmpfs inode, ...): they are not the
	 * module's, and some change the file or the inode. Leave out every
	 * number of their types: 'T', 'X', 'f', 0x94, 0x15 and 0.
	 */
	switch (_IOC_TYPE(cmd)) {
	case 'T':
	case 'X':
	case 'f':
	case 0x94:
	case 0x15:
	case 0:
		return;
	}
	for (i = 0; i < 5; i++)
		if (cmd == ours[i])
			is_ours = 1;
	if (!is_ours) {
		for (i = 0; i < 256; i++)
			((unsigned char *)buf)[i] = (unsigned char)rnd();
		if (below(4) == 0)
			arg = below(2) ? NULL : noread;
		rc = xioctl(m->fd, cmd, arg);
		tally(rc);
		if (rc != -ENOTTY)
			mismatch("raw cmd %#lx: want ENOTTY, got %s", cmd,
				 rc ? strerror(-rc) : "success");
		return;
	}
	/* Ours with garbage, or with a pointer that faults. */
	if (below(2)) {
		arg = below(2) ? NULL : noread;
		rc = xioctl(m->fd, cmd, arg);
		tally(rc);
		if (rc != -EFAULT)
			mismatch(
				"cmd %#lx with a bad pointer: want EFAULT, got %s",
				cmd, rc ? strerror(-rc) : "success");
		return;
	}
	for (i = 0; i < 256; i++)
		((unsigned char *)buf)[i] = (unsigned char)rnd();
	if (cmd == SMM_VMALLOC_IOC_INFO || cmd == SMM_VMALLOC_IOC_STATS) {
		/* INFO takes anything; STATS garbage is refused (abi) */
		want = 0;
		if (cmd == SMM_VMALLOC_IOC_STATS) {
			struct smm_vmalloc_stats *s = buf;

			want = s->abi_version != SMM_VMALLOC_ABI_VERSION
				       ? -EPROTO
				       : -EINVAL;
			if (want == -EINVAL &&
			    !(s->flags & ~SMM_VMALLOC_F_RESET) &&
			    !s->reserved[0] && !s->reserved[1] &&
			    !s->reserved[2] && !s->reserved[3])
				want = 0;
		}
		rc = xioctl(m->fd, cmd, buf);
		tally(rc);
		if (rc != want)
			mismatch("cmd %#lx with garbage: want %d, got %d", cmd,
				 want, rc);
		return;
	}
	want = model_check(cmd, buf);
	if (!want)
		return; /* a valid request by chance: not run */
	rc = xioctl(m->fd, cmd, buf);
	tally(rc);
	if (rc != want)
		mismatch("cmd %#lx with garbage: want %d, got %d", cmd, want,
			 rc);
}

static void fuzz_stats(struct mfile *m)
{
	struct smm_vmalloc_stats st;
	u64 pages = 0;
	size_t i;
	int rc;

	rc = get_stats(m->fd, &st, below(10) ? 0 : SMM_VMALLOC_F_RESET);
	tally(rc);
	for (i = 0; i < m->n; i++)
		pages += m->held[i].pages;
	if (rc || st.held_areas != m->n || st.held_pages != pages)
		mismatch("STATS: rc %d, held %llu areas %llu"
			 " pages, model %zu areas %llu pages",
			 rc, st.held_areas, st.held_pages, m->n, pages);
}

static void fuzz_reopen(struct mfile *m)
{
	close(m->fd);
	model_pop(m, ~0ULL);
	m->fd = dev_open();
	reopens++;
	if (m->fd < 0) {
		perror("reopen");
		exit(2);
	}
}

int cmd_fuzz(long want_calls, u64 seed, int relaxed_global)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *noread =
		mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static u64 buf[64];
	struct smm_vmalloc_info info;
	struct ours o;
	time_t t0 = time(NULL);
	int i;

	relaxed = relaxed_global;
	rng_state = seed ? seed : 1;
	for (i = 0; i < NFDS; i++) {
		files[i].fd = dev_open();
		if (files[i].fd < 0) {
			check(0, "open %s: %s", DEV, strerror(errno));
			return 1;
		}
	}
	get_info(files[0].fd, &finfo);
	while (calls < want_calls) {
		struct mfile *m = &files[below(NFDS)];
		u64 a = below(100);

		if (a < 55)
			fuzz_req(m, buf);
		else if (a < 85)
			fuzz_raw(m, buf, noread);
		else if (a < 93)
			fuzz_stats(m);
		else if (a < 99)
			tally(get_info(m->fd, &info));
		else
			fuzz_reopen(m);
	}
	for (i = 0; i < NFDS; i++) {
		close(files[i].fd);
		model_pop(&files[i], ~0ULL);
		free(files[i].held);
	}
	diag("fuzz seed %llu%s: %ld calls in %ld s: %ld ok, %ld EINVAL, %ld EPROTO, %ld ENOSPC, %ld ENOMEM, %ld EFAULT, %ld ENOTTY, %ld other; %ld reopens; %ld pages allocated",
	     seed, relaxed ? " (relaxed)" : "", calls, (long)(time(NULL) - t0),
	     n_ok, n_einval, n_eproto, n_enospc, n_enomem, n_efault, n_enotty,
	     n_other, reopens, pages_allocated);
	check(calls >= want_calls && !mismatches && !n_other,
	      "fuzz seed %llu: %ld calls, every answer as the ABI says (%ld mismatches)",
	      seed, calls, mismatches);
	check(n_ok > calls / 10 && n_einval > calls / 10 && n_enotty > 0 &&
		      n_efault > 0 && n_eproto > 0 && (relaxed || n_enospc > 0),
	      "fuzz seed %llu reached every outcome (ok, EINVAL, EPROTO, ENOSPC, EFAULT, ENOTTY)",
	      seed);
	/* Relaxed: other processes' areas may still be there. */
	if (relaxed)
		return failed;
	read_ours(&o);
	check(o.areas == 0,
	      "fuzz seed %llu: no area of ours left after close (%ld)", seed,
	      o.areas);
	return failed;
}
