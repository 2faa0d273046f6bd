/*
 * Copyright (C) 2026 The stress-mm authors.
 *
 * This program is free software; you can redistribute it and/or
 * modify it under the terms of the GNU General Public License
 * as published by the Free Software Foundation; either version 2
 * of the License, or (at your option) any later version.
 *
 * This program is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 * GNU General Public License for more details.
 *
 * You should have received a copy of the GNU General Public License
 * along with this program; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301, USA.
 *
 */
#include "stress-ng.h"
#include "core-builtin.h"
#include "core-memory.h"
#include "core-vmalloc.h"

#if defined(STRESS_VMALLOC_SUPPORTED)

#if defined(HAVE_LINUX_FILTER_H)
#include <linux/filter.h>
#endif
#if defined(HAVE_LINUX_IO_URING_H)
#include <linux/io_uring.h>
#endif
#include <sys/socket.h>
#include <sys/uio.h>

#include "core-vmalloc-kind.h"

/*
 *  The kinds whose items are descriptors or registrations on one: io-uring
 *  provided-buffer rings and registered buffers, sockets holding a
 *  classic BPF filter, ptys.
 */

/*
 *  Descriptors as items (pty: /dev/ptmx opens; bpf: sockets holding a
 *  filter): close(2) frees what they hold, and so does the process' end.
 */
static const int stress_vmalloc_fds_resource[] = {
	EMFILE, ENFILE, ENOSPC, ENOMEM, EAGAIN, EIO, 0
};

static int stress_vmalloc_fds_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	free(k->fds);
	k->cap = cap;
	k->fds = calloc((size_t)cap, sizeof(*k->fds));
	return k->fds ? 0 : -ENOMEM;
}

static uint64_t stress_vmalloc_fds_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	uint64_t i;

	*err = 0;
	for (i = 0; (i < n) && (i < k->cap) && !stress_vmalloc_stopped(err); i++) {
		const int fd = k->ops->open_one(k);

		if (fd < 0) {
			*err = -fd;
			break;
		}
		k->fds[i] = fd;
	}
	return i;
}

static void stress_vmalloc_fds_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		(void)close(k->fds[i]);
}

/*
 *  io-uring: two kinds. rings (vmap): provided-buffer rings in the
 *  stressor's own memory (IORING_REGISTER_PBUF_RING without
 *  IOU_PBUF_RING_MMAP): io_uring/memmap.c io_create_region() pins the
 *  pages and vmap()s them unless they are one folio, "io_create_region
 *  ... vmap" of entries x 16 bytes + guard page; 512..32768 entries, the
 *  power of two nearest bytes / 16, in anonymous memory faulted in with
 *  MADV_NOHUGEPAGE (never one folio). buffers (vmalloc): a registered
 *  buffer, whose table of one 16-byte bio_vec per page (io_uring/rsrc.c
 *  io_alloc_imu()) is kvmalloc'ed: vmalloc above KMALLOC_MAX_SIZE (4M,
 *  buffers above 1G) or when kmalloc fails; one registration per
 *  bogo-op, of a buffer sized for a table of bytes within what
 *  RLIMIT_MEMLOCK leaves (io_uring accounts pinned pages against it
 *  without CAP_IPC_LOCK). Raw system calls, as stress-io-uring.c.
 */
static const char * const stress_vmalloc_ring_callers[] = {
	"io_create_region", "io_region_init_ptr", "io_pin_pbuf_ring", NULL
};

static const char * const stress_vmalloc_buffer_callers[] = {
	"io_alloc_imu", "io_sqe_buffer_register", "io_sqe_buffers_register",
	"io_pin_pages", NULL
};

static const int stress_vmalloc_io_uring_resource[] = { ENOMEM, 0 };

#if defined(HAVE_LINUX_IO_URING_H) &&	\
    defined(__NR_io_uring_setup) &&	\
    defined(__NR_io_uring_register)
#define STRESS_VMALLOC_IO_URING

#define STRESS_VMALLOC_PBUF_ENTRY	(16)
#define STRESS_VMALLOC_PBUF_MIN		(512)	/* 256 fit one page */
#define STRESS_VMALLOC_PBUF_MAX		(32768)

/* register opcodes and struct io_uring_buf_reg: kernel ABI since 5.19 */
#define STRESS_VMALLOC_REGISTER_BUFFERS		(0)
#define STRESS_VMALLOC_UNREGISTER_BUFFERS	(1)
#define STRESS_VMALLOC_REGISTER_PBUF_RING	(22)
#define STRESS_VMALLOC_UNREGISTER_PBUF_RING	(23)

typedef struct {
	uint64_t ring_addr;
	uint32_t ring_entries;
	uint16_t bgid;
	uint16_t flags;
	uint64_t resv[3];
} stress_vmalloc_buf_reg_t;

static int stress_vmalloc_io_uring_register(const int fd, const unsigned int opcode,
	const void *arg, const unsigned int nr)
{
	return (int)syscall(__NR_io_uring_register, fd, opcode, arg, nr);
}

#define STRESS_VMALLOC_FAULT_STEP	(2 * MB)	/* faulted between looks */

/*
 *  anonymous, never huge, faulted in: many small folios; faulting a 1G
 *  buffer in takes a while, so the run's end stops it (-EINTR)
 */
static int stress_vmalloc_small_pages(stress_vmalloc_kind_t *k, const uint64_t bytes)
{
	uint64_t off;
	void *p;

	if (k->mem)
		(void)munmap((void *)k->mem, k->mem_bytes);
	k->mem = NULL;
	p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
#if defined(MADV_NOHUGEPAGE)
	(void)shim_madvise(p, (size_t)bytes, MADV_NOHUGEPAGE);
#endif
	k->mem = (char *)p;
	k->mem_bytes = (size_t)bytes;
	for (off = 0; off < bytes; off += STRESS_VMALLOC_FAULT_STEP) {
		if (!stress_continue_flag())
			return -EINTR;
		(void)shim_memset(k->mem + off, 0,
			(size_t)STRESS_MINIMUM(bytes - off, STRESS_VMALLOC_FAULT_STEP));
	}
	return 0;
}

static int stress_vmalloc_io_uring_open(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	struct io_uring_params p;

	(void)shim_memset(&p, 0, sizeof(p));
	k->ring_fd = (int)syscall(__NR_io_uring_setup, 8, &p);
	if (k->ring_fd < 0) {
		const int err = errno;

		(void)snprintf(why, len, "io_uring_setup errno=%d (%s) "
			"(kernel.io_uring_disabled, seccomp or no CONFIG_IO_URING)",
			err, strerror(err));
		return -err;
	}
	return 0;
}

static uint64_t stress_vmalloc_io_uring_headroom(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	char lock[80];
	const uint64_t lim = stress_vmalloc_memlock(lock, sizeof(lock)) / 2 / k->item_bytes;

	(void)snprintf(why, len, "half of what %s allows", lock);
	return lim ? lim : 1;
}

static int stress_vmalloc_rings_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t want = k->bytes / STRESS_VMALLOC_PBUF_ENTRY;

	k->entries = STRESS_VMALLOC_PBUF_MIN;
	while ((k->entries < STRESS_VMALLOC_PBUF_MAX) && (k->entries * 3 / 2 < want))
		k->entries <<= 1;
	k->item_bytes = k->entries * STRESS_VMALLOC_PBUF_ENTRY;
	return stress_vmalloc_io_uring_open(k, why, len);
}

static int stress_vmalloc_rings_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	k->cap = cap;
	return stress_vmalloc_small_pages(k, cap * k->item_bytes);
}

static uint64_t stress_vmalloc_rings_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	uint64_t i;

	*err = 0;
	for (i = 0; (i < n) && ((i + 1) * k->item_bytes <= k->mem_bytes) &&
		    !stress_vmalloc_stopped(err); i++) {
		stress_vmalloc_buf_reg_t reg;

		(void)shim_memset(&reg, 0, sizeof(reg));
		reg.ring_addr = (uint64_t)(uintptr_t)(k->mem + i * k->item_bytes);
		reg.ring_entries = (uint32_t)k->entries;
		reg.bgid = (uint16_t)i;
		if (stress_vmalloc_io_uring_register(k->ring_fd,
				STRESS_VMALLOC_REGISTER_PBUF_RING, &reg, 1) < 0) {
			*err = errno;
			break;
		}
	}
	return i;
}

static void stress_vmalloc_rings_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		stress_vmalloc_buf_reg_t reg;

		(void)shim_memset(&reg, 0, sizeof(reg));
		reg.bgid = (uint16_t)i;
		(void)stress_vmalloc_io_uring_register(k->ring_fd,
			STRESS_VMALLOC_UNREGISTER_PBUF_RING, &reg, 1);
	}
}

static void stress_vmalloc_rings_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	(void)snprintf(buf, len, "provided-buffer rings of %" PRIu64
		" entries in user memory", k->entries);
}

/* io_uring/memmap.c: pinned user memory of many folios is vmap()ed */
static bool stress_vmalloc_rings_by_rule(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "vmap: a ring in user memory of many folios, io_uring/memmap.c");
	return true;
}

static int stress_vmalloc_buffers_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t page = (uint64_t)stress_memory_page_size_get();
	char lock[80];
	const uint64_t memlock = stress_vmalloc_memlock(lock, sizeof(lock));
	const uint64_t share = stress_vmalloc_memory_share(k->args);

	k->item_bytes = stress_vmalloc_buffer_bytes(k->bytes, page);
	if (k->item_bytes > memlock / 2)
		k->item_bytes = memlock / 2 / page * page;
	if (k->item_bytes > share) {
		char want[32], got[32];

		(void)stress_vmalloc_size_str(k->item_bytes, want, sizeof(want));
		k->item_bytes = share / page * page;
		stress_vmalloc_note(k->args, "io-uring buffers: the registered buffer clamped "
			"from %s to %s: half the free memory shared by %" PRIu32 " instances",
			want, stress_vmalloc_size_str(k->item_bytes, got, sizeof(got)),
			STRESS_MAXIMUM(k->args->instances, 1));
	}
	if (k->item_bytes < page) {
		(void)snprintf(why, len, "%s leaves no room for a registered buffer", lock);
		return -ENOMEM;
	}
	return stress_vmalloc_io_uring_open(k, why, len);
}

/* one buffer, registered cap times at most: each gets its own table */
static int stress_vmalloc_buffers_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	uint64_t i;
	int ret;

	free(k->iov);
	k->cap = cap;
	k->iov = calloc((size_t)cap, sizeof(*k->iov));
	if (!k->iov)
		return -ENOMEM;
	ret = stress_vmalloc_small_pages(k, k->item_bytes);
	if (ret)
		return ret;
	for (i = 0; i < cap; i++) {
		k->iov[i].iov_base = (void *)k->mem;
		k->iov[i].iov_len = (size_t)k->item_bytes;
	}
	return 0;
}

/* all n at once: IORING_REGISTER_BUFFERS registers a table or nothing */
static uint64_t stress_vmalloc_buffers_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	const uint64_t m = STRESS_MINIMUM(n, k->cap);

	*err = 0;
	if (stress_vmalloc_io_uring_register(k->ring_fd, STRESS_VMALLOC_REGISTER_BUFFERS,
			k->iov, (unsigned int)m) < 0) {
		*err = errno;
		return 0;
	}
	return m;
}

static void stress_vmalloc_buffers_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	if (n)
		(void)stress_vmalloc_io_uring_register(k->ring_fd,
			STRESS_VMALLOC_UNREGISTER_BUFFERS, NULL, 0);
}

static void stress_vmalloc_buffers_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	char got[32];

	(void)snprintf(buf, len, "page tables of a %s registered buffer",
		stress_vmalloc_size_str(k->item_bytes, got, sizeof(got)));
}

static void stress_vmalloc_buffers_why_not(stress_vmalloc_kind_t *k, const int err,
	char *buf, const size_t len)
{
	const uint64_t page = (uint64_t)stress_memory_page_size_get();
	char lock[80], need[32], got[32];

	(void)stress_vmalloc_memlock(lock, sizeof(lock));
	(void)stress_vmalloc_size_str(k->item_bytes, got, sizeof(got));
	(void)stress_vmalloc_size_str(STRESS_VMALLOC_KMALLOC_MAX / STRESS_VMALLOC_BVEC * page,
		need, sizeof(need));
	if (err)
		(void)snprintf(buf, len, "a %s buffer, %s", got, lock);
	else if (stress_vmalloc_ipc_lock())
		(void)snprintf(buf, len, "the page tables of a %s registered buffer came "
			"from kmalloc; a table above 4 MiB (KMALLOC_MAX_SIZE) needs a %s "
			"buffer, i.e. bytes of 4M or more (%s)", got, need, lock);
	else
		(void)snprintf(buf, len, "the page tables of a %s registered buffer came "
			"from kmalloc; a table above 4 MiB (KMALLOC_MAX_SIZE) needs a buffer "
			"above %s, i.e. RLIMIT_MEMLOCK above that or CAP_IPC_LOCK (have %s)",
			got, need, lock);
}

/* io_uring/rsrc.c: the table is kvmalloc'ed, vmalloc above KMALLOC_MAX_SIZE */
static bool stress_vmalloc_buffers_by_rule(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t table = k->item_bytes / (uint64_t)stress_memory_page_size_get() * STRESS_VMALLOC_BVEC;
	char t[32];

	(void)snprintf(why, len, "a buffer table of %s is %s KMALLOC_MAX_SIZE, io_uring kvmalloc",
		stress_vmalloc_size_str(table, t, sizeof(t)),
		table >= STRESS_VMALLOC_KMALLOC_MAX ? "at or above" : "within");
	return table >= STRESS_VMALLOC_KMALLOC_MAX;
}
#else
static int stress_vmalloc_rings_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "built without io_uring system calls (linux/io_uring.h)");
	return -ENOSYS;
}
#define stress_vmalloc_buffers_prepare	stress_vmalloc_rings_prepare
#endif

/*
 *  bpf: classic BPF socket filters. SO_ATTACH_FILTER needs no
 *  privilege: net/core/filter.c __get_filter() vmallocs the program
 *  (bpf_prog_alloc(), page-rounded), bpf_migrate_filter() converts it to
 *  eBPF and bpf_prog_realloc()s it when that needs more pages; closing
 *  the socket frees it. An ALU instruction converts to one eBPF
 *  instruction, BPF_LD|BPF_W|BPF_ABS to about 13 (area ~= 130 + 8 x
 *  (13 x ld_abs + alu) bytes, measured on 6.18): the program is built
 *  to land in the middle of the page count nearest bytes, down to what
 *  net.core.optmem_max lets a socket charge (__sk_filter_charge()).
 */
static const char * const stress_vmalloc_bpf_callers[] = {
	"bpf_prog_alloc_no_stats", "bpf_prog_realloc", NULL
};

#if defined(HAVE_LINUX_FILTER_H) &&	\
    defined(SO_ATTACH_FILTER)
#define STRESS_VMALLOC_BPF
#define STRESS_VMALLOC_EBPF_HEADER	(130)
#define STRESS_VMALLOC_EBPF_PER_LD_ABS	(13)
#define STRESS_VMALLOC_CBPF_MAX		(4096)	/* BPF_MAXINSNS */

static int stress_vmalloc_bpf_build(stress_vmalloc_kind_t *k, const uint64_t pages, const uint64_t page)
{
	const uint64_t target = (pages - 1) * page + page / 2;
	const uint64_t ebpf = (target - STRESS_VMALLOC_EBPF_HEADER) / 8;
	uint64_t n_ld = 0, n_alu = ebpf, n, i;

	if (ebpf > (uint64_t)STRESS_VMALLOC_EBPF_PER_LD_ABS * (STRESS_VMALLOC_CBPF_MAX - 1))
		return -E2BIG;
	if (ebpf > STRESS_VMALLOC_CBPF_MAX - 1) {
		/* each LD_ABS in place of an ALU adds PER_LD_ABS - 1 */
		n_ld = (ebpf - (STRESS_VMALLOC_CBPF_MAX - 1) + STRESS_VMALLOC_EBPF_PER_LD_ABS - 2) /
		       (STRESS_VMALLOC_EBPF_PER_LD_ABS - 1);
		n_alu = ebpf - n_ld * STRESS_VMALLOC_EBPF_PER_LD_ABS;
	}
	n = n_ld + n_alu + 1;
	if (n > STRESS_VMALLOC_CBPF_MAX)
		return -E2BIG;
	free(k->filter);
	k->filter = calloc((size_t)n, sizeof(*k->filter));
	if (!k->filter)
		return -ENOMEM;
	for (i = 0; i < n - 1; i++) {
		const struct sock_filter ld = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0);
		const struct sock_filter alu = BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 1);

		k->filter[i] = (i < n_ld) ? ld : alu;
	}
	k->filter[n - 1] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
	k->filter_len = (unsigned short)n;
	return 0;
}

static int stress_vmalloc_bpf_open(stress_vmalloc_kind_t *k)
{
	struct sock_fprog prog;
	int fd, err;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	prog.len = k->filter_len;
	prog.filter = k->filter;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) < 0) {
		err = errno;
		(void)close(fd);
		return -err;
	}
	return fd;
}

static int stress_vmalloc_bpf_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t page = (uint64_t)stress_memory_page_size_get();
	uint64_t pages;
	int err = 0;

	stress_vmalloc_read_u64("/proc/sys/net/core/optmem_max", &k->optmem);
	for (pages = (k->bytes + page - 1) / page; pages >= 1; pages--) {
		err = stress_vmalloc_bpf_build(k, pages, page);
		if (err == -E2BIG)
			continue;
		if (err)
			break;
		err = stress_vmalloc_bpf_open(k);
		if (err >= 0) {
			(void)close(err);
			err = 0;
			k->item_bytes = pages * page;
			break;
		}
		if (err != -ENOMEM)
			break;
	}
	if (err)
		(void)snprintf(why, len, "cannot attach a classic BPF socket filter: "
			"errno=%d (%s); net.core.optmem_max %" PRIu64,
			-err, strerror(-err), k->optmem);
	return err;
}

static void stress_vmalloc_bpf_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	(void)snprintf(buf, len, "classic BPF filters of %u instructions "
		"(net.core.optmem_max %" PRIu64 ")", k->filter_len, k->optmem);
}
#else
static int stress_vmalloc_bpf_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "built without classic BPF socket filters (linux/filter.h)");
	return -ENOSYS;
}
#endif

/*
 *  pty: drivers/tty/pty.c, drivers/tty/n_tty.c. Opening /dev/ptmx sets
 *  up the N_TTY line discipline on master and slave; each n_tty_open()
 *  vzalloc()s its struct n_tty_data (3 pages on x86_64), vfree()d on
 *  close: two "16384 n_tty_open ... pages=3 vmalloc" areas per pty.
 *  The size is fixed; the bytes asked for are only compared.
 */
static const char * const stress_vmalloc_pty_callers[] = { "n_tty_open", NULL };

#define STRESS_VMALLOC_N_TTY_DATA	(12 * KB)	/* 3 pages on x86_64 */

#if defined(HAVE_POSIX_OPENPT)
static int stress_vmalloc_pty_open(stress_vmalloc_kind_t *k)
{
	const int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);

	(void)k;
	return fd < 0 ? -errno : fd;
}

static int stress_vmalloc_pty_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)why;
	(void)len;
	return 0;
}
#else
static int stress_vmalloc_pty_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "built without posix_openpt(3)");
	return -ENOSYS;
}
#endif

static uint64_t stress_vmalloc_item_held(const stress_vmalloc_kind_t *k)
{
	return stress_vmalloc_round_page(k->item_bytes);
}

static uint64_t stress_vmalloc_pty_held(const stress_vmalloc_kind_t *k)
{
	(void)k;
	return 2 * stress_vmalloc_round_page(STRESS_VMALLOC_N_TTY_DATA);
}

const stress_vmalloc_ops_t stress_vmalloc_rings_ops = {
	.name = "io-uring rings",
	.unit = "rings",
	.verb = "IORING_REGISTER_PBUF_RING",
	.first = "register a provided-buffer ring",
	.callers = stress_vmalloc_ring_callers,
	.resource = stress_vmalloc_io_uring_resource,
	.per_item = 1,
	.retry_errno = ENOMEM,	/* the shared RLIMIT_MEMLOCK, for a moment */
	.io_uring = STRESS_VMALLOC_IO_URING_RINGS,
	.prepare = stress_vmalloc_rings_prepare,
	.held = stress_vmalloc_item_held,
#if defined(STRESS_VMALLOC_IO_URING)
	.headroom = stress_vmalloc_io_uring_headroom,
	.room = stress_vmalloc_rings_room,
	.acquire = stress_vmalloc_rings_acquire,
	.release = stress_vmalloc_rings_release,
	.describe = stress_vmalloc_rings_describe,
	.by_rule = stress_vmalloc_rings_by_rule,
#endif
};

const stress_vmalloc_ops_t stress_vmalloc_buffers_ops = {
	.name = "io-uring buffers",
	.unit = "registered buffers",
	.verb = "IORING_REGISTER_BUFFERS",
	.first = "register a buffer",
	.callers = stress_vmalloc_buffer_callers,
	.resource = stress_vmalloc_io_uring_resource,
	.per_item = 1,
	.retry_errno = ENOMEM,
	.io_uring = STRESS_VMALLOC_IO_URING_BUFFERS,
	/* its table is the allocation; pinning up to 1G per item makes
	 * a batch of many take seconds */
	.one_item = true,
	.prepare = stress_vmalloc_buffers_prepare,
	.held = stress_vmalloc_item_held,
#if defined(STRESS_VMALLOC_IO_URING)
	.headroom = stress_vmalloc_io_uring_headroom,
	.room = stress_vmalloc_buffers_room,
	.acquire = stress_vmalloc_buffers_acquire,
	.release = stress_vmalloc_buffers_release,
	.describe = stress_vmalloc_buffers_describe,
	.why_not = stress_vmalloc_buffers_why_not,
	.by_rule = stress_vmalloc_buffers_by_rule,
#endif
};

const stress_vmalloc_ops_t stress_vmalloc_bpf_ops = {
	.name = "bpf",
	.unit = "filtered sockets",
	.verb = "socket+SO_ATTACH_FILTER",
	.first = "open a filtered socket",
	.callers = stress_vmalloc_bpf_callers,
	.resource = stress_vmalloc_fds_resource,
	.per_item = 1,
	.prepare = stress_vmalloc_bpf_prepare,
	.held = stress_vmalloc_item_held,
#if defined(STRESS_VMALLOC_BPF)
	.headroom = stress_vmalloc_half_fds,
	.room = stress_vmalloc_fds_room,
	.acquire = stress_vmalloc_fds_acquire,
	.release = stress_vmalloc_fds_release,
	.open_one = stress_vmalloc_bpf_open,
	.describe = stress_vmalloc_bpf_describe,
#endif
};

const stress_vmalloc_ops_t stress_vmalloc_pty_ops = {
	.name = "pty",
	.unit = "ptys",
	.verb = "posix_openpt",
	.first = "open /dev/ptmx",
	.callers = stress_vmalloc_pty_callers,
	.resource = stress_vmalloc_fds_resource,
	.what = "N_TTY line disciplines (2 per pty)",
	.cannot = "no devpts, a sandbox, or no pty left",
	.no_area = "this kernel does not vmalloc the N_TTY line discipline data",
	.per_item = 2,		/* master and slave n_tty_data */
	.prepare = stress_vmalloc_pty_prepare,
	.held = stress_vmalloc_pty_held,
	.headroom = stress_vmalloc_pty_headroom,
	.room = stress_vmalloc_fds_room,
	.acquire = stress_vmalloc_fds_acquire,
	.release = stress_vmalloc_fds_release,
#if defined(HAVE_POSIX_OPENPT)
	.open_one = stress_vmalloc_pty_open,
#endif
};

#endif
