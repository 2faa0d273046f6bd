// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmctl-checks.c - smm-vmctl checks (every documented errno and behaviour
 * of module/stress-mm-vmalloc.h, the caps, release, a signal, the device's
 * ownership) and orders (orders 0..9 in /proc/vmallocinfo).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmctl.h"

/* --- checks: each documented errno and behaviour ------------------------ */

static int expect(int fd, unsigned long cmd, void *arg, int want,
		  const char *what)
{
	int rc = xioctl(fd, cmd, arg);

	return check(rc == want, "%s: %s (got %s)", what,
		     want ? strerror(-want) : "success",
		     rc ? strerror(-rc) : "success");
}

static void checks_rejects(int fd)
{
	struct smm_vmalloc_req r;
	struct smm_vmalloc_stats st;
	static const unsigned long cmds[] = { SMM_VMALLOC_IOC_ALLOC,
					      SMM_VMALLOC_IOC_CYCLE };
	static const char *const names[] = { "ALLOC", "CYCLE" };
	char what[160];
	unsigned int i, b;

	for (i = 0; i < 2; i++) {
		uint32_t loops = i ? 1 : 0;
		const char *n = names[i];

		req_init(&r, 0, 1, 1, loops);
		r.abi_version = 2;
		snprintf(what, sizeof(what), "%s abi_version 2", n);
		expect(fd, cmds[i], &r, -EPROTO, what);
		for (b = 1; b < 32; b++) {
			req_init(&r, 0, 1, 1, loops);
			r.flags = 1U << b;
			if (xioctl(fd, cmds[i], &r) != -EINVAL) {
				check(0, "%s unknown flag bit %u: EINVAL", n,
				      b);
				break;
			}
		}
		if (b == 32)
			check(1, "%s unknown flag bits 1..31: EINVAL each", n);
#define BAD(field, value, desc)                                 \
	do {                                                    \
		req_init(&r, 0, 1, 1, loops);                   \
		r.field = value;                                \
		snprintf(what, sizeof(what), "%s %s", n, desc); \
		expect(fd, cmds[i], &r, -EINVAL, what);         \
	} while (0)
		BAD(kind, SMM_VMALLOC_NR_KINDS, "kind 3");
		BAD(kind, 0xffffffffU, "kind 0xffffffff");
		BAD(nr_pages, 0, "nr_pages 0");
		BAD(nr_pages, SMM_VMALLOC_MAX_PAGES + 1ULL, "nr_pages MAX+1");
		BAD(nr_pages, 1ULL << 32, "nr_pages 2^32");
		BAD(nr_pages, ~0ULL, "nr_pages 2^64-1");
		BAD(nr_pages, 1ULL << 52, "nr_pages 2^52 (bytes overflow)");
		BAD(count, 0, "count 0");
		BAD(count, SMM_VMALLOC_MAX_COUNT + 1, "count MAX+1");
		BAD(count, 0xffffffffU, "count 2^32-1");
		BAD(node, -2, "node -2");
		BAD(node, 1 << 20, "node 2^20");
		BAD(node, INT32_MIN, "node INT_MIN");
		BAD(node, INT32_MAX, "node INT_MAX");
		BAD(reserved[0], 1, "reserved[0] 1");
		BAD(reserved[1], 1ULL << 63, "reserved[1] 2^63");
		if (i == 0) {
			BAD(loops, 1, "loops 1 (unused by ALLOC)");
		} else {
			BAD(loops, 0, "loops 0");
			BAD(loops, SMM_VMALLOC_MAX_LOOPS + 1, "loops MAX+1");
		}
#undef BAD
	}
	free_init(&r, 1, 0);
	r.abi_version = 0;
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EPROTO, "FREE abi_version 0");
	free_init(&r, 0, 0);
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL, "FREE count 0");
	free_init(&r, 1, SMM_VMALLOC_F_ALL);
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL, "FREE ALL with count 1");
	free_init(&r, 1, SMM_VMALLOC_F_ZERO);
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL, "FREE flag ZERO");
	free_init(&r, SMM_VMALLOC_MAX_COUNT + 1, 0);
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL, "FREE count MAX+1");
	free_init(&r, 1, 0);
	r.nr_pages = 1;
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL, "FREE nr_pages 1");
	free_init(&r, 1, 0);
	r.node = -1;
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL,
	       "FREE node -1 (unused: must be 0)");
	free_init(&r, 1, 0);
	r.kind = 1;
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL, "FREE kind 1");
	free_init(&r, 1, 0);
	r.loops = 1;
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL, "FREE loops 1");
	free_init(&r, 1, 0);
	r.reserved[1] = 5;
	expect(fd, SMM_VMALLOC_IOC_FREE, &r, -EINVAL, "FREE reserved[1] 5");

	memset(&st, 0, sizeof(st));
	expect(fd, SMM_VMALLOC_IOC_STATS, &st, -EPROTO, "STATS abi_version 0");
	memset(&st, 0, sizeof(st));
	st.abi_version = SMM_VMALLOC_ABI_VERSION;
	st.flags = 1;
	expect(fd, SMM_VMALLOC_IOC_STATS, &st, -EINVAL, "STATS flag 1");
	memset(&st, 0, sizeof(st));
	st.abi_version = SMM_VMALLOC_ABI_VERSION;
	st.reserved[3] = 1;
	expect(fd, SMM_VMALLOC_IOC_STATS, &st, -EINVAL, "STATS reserved[3] 1");
}

static void checks_pointers(int fd)
{
	static const unsigned long cmds[] = { SMM_VMALLOC_IOC_INFO,
					      SMM_VMALLOC_IOC_ALLOC,
					      SMM_VMALLOC_IOC_FREE,
					      SMM_VMALLOC_IOC_CYCLE,
					      SMM_VMALLOC_IOC_STATS };
	long pg = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct smm_vmalloc_stats st;
	struct smm_vmalloc_req *ro;
	unsigned int i;
	int bad = 0, rc;

	if (map == MAP_FAILED) {
		check(0, "mmap for the pointer checks: %s", strerror(errno));
		return;
	}
	mprotect(map + pg, pg, PROT_NONE);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		void *ptrs[] = { NULL, (void *)1, map + pg, map + pg - 8,
				 (void *)0xffff888000000000UL };
		unsigned int j;

		for (j = 0; j < sizeof(ptrs) / sizeof(ptrs[0]); j++) {
			rc = xioctl(fd, cmds[i], ptrs[j]);
			if (rc != -EFAULT) {
				diag("cmd %#lx pointer %p: %s", cmds[i],
				     ptrs[j], strerror(-rc));
				bad++;
			}
		}
	}
	check(!bad,
	      "NULL, 1, unmapped, straddling and kernel pointers: EFAULT for every command");

	/* Readable but not writable: the work is done, the answer lost. */
	ro = (struct smm_vmalloc_req *)map;
	req_init(ro, 0, 1, 2, 0);
	mprotect(map, pg, PROT_READ);
	rc = xioctl(fd, SMM_VMALLOC_IOC_ALLOC, ro);
	get_stats(fd, &st, 0);
	check(rc == -EFAULT && st.held_areas == 2,
	      "ALLOC into a read-only struct: EFAULT, and the 2 areas are held (got %s, held %llu"
	      ")",
	      rc ? strerror(-rc) : "success", st.held_areas);
	munmap(map, 2 * pg);

	rc = xioctl(fd,
		    _IOWR(SMM_VMALLOC_IOC_MAGIC, 1,
			  char[sizeof(struct smm_vmalloc_req) - 8]),
		    &st);
	check(rc == -ENOTTY, "ALLOC with another struct size: ENOTTY (got %s)",
	      rc ? strerror(-rc) : "success");
	rc = xioctl(fd, _IOWR(SMM_VMALLOC_IOC_MAGIC, 5, struct smm_vmalloc_req),
		    &st);
	check(rc == -ENOTTY, "command number 5: ENOTTY (got %s)",
	      rc ? strerror(-rc) : "success");
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void checks_work(int fd)
{
	struct smm_vmalloc_info info;
	struct smm_vmalloc_stats st;
	struct smm_vmalloc_req r;
	struct sigaction sa;
	struct ours o;
	u64 cap_areas;
	int fd2, rc;

	get_info(fd, &info);
	check(info.abi_version == SMM_VMALLOC_ABI_VERSION &&
		      info.page_size == 4096 &&
		      info.max_pages == SMM_VMALLOC_MAX_PAGES &&
		      info.kinds == 7 && info.file_cap_pages > 0 &&
		      info.total_cap_pages >= info.file_cap_pages,
	      "INFO: ABI %u, page %u, max_pages %u, kinds %#x, caps %llu"
	      " and %llu pages",
	      info.abi_version, info.page_size, info.max_pages, info.kinds,
	      info.file_cap_pages, info.total_cap_pages);

	free_init(&r, 0, SMM_VMALLOC_F_ALL);
	xioctl(fd, SMM_VMALLOC_IOC_FREE, &r);
	get_stats(fd, &st, SMM_VMALLOC_F_RESET);
	req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 3, 5, 0);
	rc = xioctl(fd, SMM_VMALLOC_IOC_ALLOC, &r);
	get_stats(fd, &st, 0);
	check(rc == 0 && r.done == 5 && r.alloc_ns > 0 && r.free_ns == 0 &&
		      st.held_areas == 5 && st.held_pages == 15 &&
		      st.areas_allocated == 5 && st.pages_allocated == 15 &&
		      st.calls == 1,
	      "ALLOC 5 x 3 pages: done 5, held 5 areas / 15 pages, alloc_ns %llu",
	      r.alloc_ns);
	read_ours(&o);
	check(o.areas == 5 && o.pages == 15,
	      "vmallocinfo: 5 areas, 15 pages of caller %s (got %ld, %ld)",
	      SMM_VMALLOC_CALLER, o.areas, o.pages);
	free_init(&r, 2, 0);
	rc = xioctl(fd, SMM_VMALLOC_IOC_FREE, &r);
	get_stats(fd, &st, 0);
	check(rc == 0 && r.done == 2 && st.held_areas == 3 &&
		      st.areas_freed == 2 && r.free_ns > 0,
	      "FREE 2: done 2, held 3");
	free_init(&r, 100, 0);
	rc = xioctl(fd, SMM_VMALLOC_IOC_FREE, &r);
	check(rc == 0 && r.done == 3, "FREE 100 with 3 held: done 3");
	free_init(&r, 0, SMM_VMALLOC_F_ALL);
	rc = xioctl(fd, SMM_VMALLOC_IOC_FREE, &r);
	check(rc == 0 && r.done == 0, "FREE ALL with none held: done 0");

	req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 1, 1, 100);
	rc = xioctl(fd, SMM_VMALLOC_IOC_CYCLE, &r);
	get_stats(fd, &st, 0);
	check(rc == 0 && r.done == 100 && r.alloc_ns > 0 && r.free_ns > 0 &&
		      st.held_areas == 0,
	      "CYCLE batch 1 x 100: done 100, %.0f ns per pair, nothing held",
	      (double)(r.alloc_ns + r.free_ns) / 100);
	req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 2, 32, 3);
	r.flags = SMM_VMALLOC_F_ZERO;
	rc = xioctl(fd, SMM_VMALLOC_IOC_CYCLE, &r);
	check(rc == 0 && r.done == 96, "CYCLE batch 32 x 3, zeroed: done 96");
	req_init(&r, SMM_VMALLOC_KIND_HUGE, 512, 1, 2);
	rc = xioctl(fd, SMM_VMALLOC_IOC_CYCLE, &r);
	check(rc == 0 && r.done == 2, "CYCLE vmalloc_huge 512 pages: done 2");
	req_init(&r, SMM_VMALLOC_KIND_KVMALLOC, 3, 4, 2);
	rc = xioctl(fd, SMM_VMALLOC_IOC_CYCLE, &r);
	check(rc == 0 && r.done == 8, "CYCLE kvmalloc 3 pages: done 8");
	req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 1, 1, 1);
	r.node = 0;
	rc = xioctl(fd, SMM_VMALLOC_IOC_CYCLE, &r);
	check(rc == 0 && r.done == 1, "CYCLE on node 0: done 1");

	/* Caps: the file's, then everyone's. */
	get_info(fd, &info);
	cap_areas = info.file_cap_pages / 64;
	req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 64, (uint32_t)cap_areas + 1, 0);
	rc = xioctl(fd, SMM_VMALLOC_IOC_ALLOC, &r);
	get_stats(fd, &st, 0);
	check(cap_areas + 1 > SMM_VMALLOC_MAX_COUNT ||
		      (rc == -ENOSPC && st.held_areas == 0),
	      "ALLOC one area above the file cap: ENOSPC, nothing held (got %s)",
	      rc ? strerror(-rc) : "success");
	req_init(&r, SMM_VMALLOC_KIND_KVMALLOC, 3, 1, 0);
	xioctl(fd, SMM_VMALLOC_IOC_ALLOC, &r);
	get_info(fd, &info);
	check(info.total_pages == 4,
	      "kvmalloc of 3 pages is charged 4 (total_pages %llu)",
	      info.total_pages);
	free_init(&r, 0, SMM_VMALLOC_F_ALL);
	xioctl(fd, SMM_VMALLOC_IOC_FREE, &r);
	req_init(&r, SMM_VMALLOC_KIND_HUGE, 513, 1, 0);
	xioctl(fd, SMM_VMALLOC_IOC_ALLOC, &r);
	get_info(fd, &info);
	check(info.total_pages == 1024,
	      "vmalloc_huge of 513 pages is charged 1024 (total_pages %llu"
	      ")",
	      info.total_pages);
	free_init(&r, 0, SMM_VMALLOC_F_ALL);
	xioctl(fd, SMM_VMALLOC_IOC_FREE, &r);

	if (info.total_cap_pages / info.file_cap_pages < 16) {
		int fds[16], n = 0, nospc = 0;
		u64 per = info.file_cap_pages / 2;

		while (n < 16) {
			fds[n] = dev_open();
			if (fds[n] < 0)
				break;
			req_init(&r, SMM_VMALLOC_KIND_VMALLOC, per, 1, 0);
			rc = xioctl(fds[n++], SMM_VMALLOC_IOC_ALLOC, &r);
			if (rc == -ENOSPC) {
				nospc = 1;
				break;
			}
		}
		get_info(fd, &info);
		check(nospc && info.total_pages <= info.total_cap_pages,
		      "files together stop at the global cap: ENOSPC after %d files, %llu"
		      " of %llu pages",
		      n, info.total_pages, info.total_cap_pages);
		while (n > 0)
			close(fds[--n]);
	} else {
		diag("global cap over 16 file caps: not tried");
	}

	/* Release frees what a file holds. */
	fd2 = dev_open();
	req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 16, 8, 0);
	rc = xioctl(fd2, SMM_VMALLOC_IOC_ALLOC, &r);
	read_ours(&o);
	check(rc == 0 && o.areas == 8, "second file holds 8 areas (%ld)",
	      o.areas);
	close(fd2);
	read_ours(&o);
	get_info(fd, &info);
	check(o.areas == 0 && info.total_pages == 0,
	      "close frees them: 0 areas in vmallocinfo, 0 pages charged (%ld, %llu"
	      ")",
	      o.areas, info.total_pages);

	/* A long CYCLE is interrupted by a signal. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 1, 1, SMM_VMALLOC_MAX_LOOPS);
	rc = xioctl(fd, SMM_VMALLOC_IOC_CYCLE, &r);
	alarm(0);
	get_stats(fd, &st, 0);
	check(rc == -EINTR && alarms == 1 && r.done > 0 &&
		      r.done < SMM_VMALLOC_MAX_LOOPS && st.held_areas == 0,
	      "CYCLE of 2^24 loops stops at a signal: EINTR after %llu"
	      " pairs, nothing held",
	      r.done);

	get_stats(fd, &st, SMM_VMALLOC_F_RESET);
	get_stats(fd, &st, 0);
	check(st.calls == 0 && st.areas_allocated == 0 && st.held_areas == 0,
	      "STATS reset zeroes the counters");
}

/* Mode 0600 root: others cannot open it until the owner changes. */
static void checks_owner(void)
{
	struct stat sb;
	int status = -1, i;

	if (stat(DEV, &sb) || geteuid() != 0) {
		diag("not root or no %s: ownership not checked", DEV);
		return;
	}
	check((sb.st_mode & 07777) == 0600 && sb.st_uid == 0,
	      "%s is mode 0600, owner root (%o, %u)", DEV,
	      (unsigned int)(sb.st_mode & 07777), (unsigned int)sb.st_uid);
	for (i = 0; i < 2; i++) {
		pid_t pid;

		if (i == 1 && chown(DEV, 65534, 65534)) {
			check(0, "chown %s: %s", DEV, strerror(errno));
			return;
		}
		pid = fork();
		if (pid == 0) {
			int fd;

			if (setgid(65534) || setuid(65534))
				_exit(3);
			fd = dev_open();
			_exit(fd >= 0 ? 0 : errno == EACCES ? 1 : 2);
		}
		waitpid(pid, &status, 0);
		if (i == 0)
			check(WIFEXITED(status) && WEXITSTATUS(status) == 1,
			      "uid 65534 cannot open it: EACCES");
		else
			check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "after chown to 65534, uid 65534 opens it");
	}
	if (chown(DEV, 0, 0))
		check(0, "chown back: %s", strerror(errno));
}

int cmd_checks(void)
{
	int fd = dev_open();

	if (!check(fd >= 0, "open %s", DEV)) {
		diag("open: %s", strerror(errno));
		return 1;
	}
	checks_rejects(fd);
	checks_pointers(fd);
	checks_work(fd);
	close(fd);
	checks_owner();
	return failed;
}

/* --- orders 0..9 in vmallocinfo ---------------------------------------- */

int cmd_orders(void)
{
	struct smm_vmalloc_req r;
	struct ours o;
	int fd = dev_open(), ord, rc;

	if (!check(fd >= 0, "open %s", DEV))
		return 1;
	for (ord = 0; ord <= 9; ord++) {
		req_init(&r, SMM_VMALLOC_KIND_VMALLOC, 1ULL << ord, 1, 0);
		rc = xioctl(fd, SMM_VMALLOC_IOC_ALLOC, &r);
		if (read_ours(&o)) {
			check(0, "order %d: /proc/vmallocinfo unreadable", ord);
			continue;
		}
		check(rc == 0 && o.areas == 1 && o.with_pages[ord] == 1 &&
			      o.size_ok[ord] == 1,
		      "order %d: one area of caller %s with pages=%d and size %ld: %s",
		      ord, SMM_VMALLOC_CALLER, 1 << ord,
		      ((1L << ord) + 1) * 4096, o.line[ord]);
		free_init(&r, 0, SMM_VMALLOC_F_ALL);
		xioctl(fd, SMM_VMALLOC_IOC_FREE, &r);
	}
	close(fd);
	read_ours(&o);
	check(o.areas == 0, "after close: no area of ours left (%ld)", o.areas);
	return failed;
}
