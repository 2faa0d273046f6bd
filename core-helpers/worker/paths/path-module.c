// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-module.c - vmalloc areas of an exact size from our kernel module.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "path-module.h"

static const char *const module_callers[] = { SMM_VMALLOC_CALLER, NULL };

/* ENOSPC: the module's cap; ENOMEM: vmalloc returned NULL. */
static const int module_resource[] = { ENOSPC, ENOMEM, 0 };

struct module_ctx {
	int fd;
	struct smm_vmalloc_info info;
	uint64_t nr_pages; /* per area */
	uint64_t bytes_asked;
	uint64_t alloc_ns, free_ns; /* not yet handed to kernel_ns() */
};

static int module_prepare(void **ctx, const struct smm_vmpath_cfg *cfg,
			  char *why, size_t len)
{
	struct module_ctx *m = calloc(1, sizeof(*m));
	int err;

	if (!m) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	m->bytes_asked = cfg->bytes;
	m->fd = open(SMM_KMOD_DEVICE, O_RDWR | O_CLOEXEC);
	if (m->fd < 0) {
		err = errno;
		free(m);
		if (err == ENOENT) {
			snprintf(
				why, len,
				"no %s: the module %s is not loaded (stress-mm --vmalloc-order-method module loads it, as root, where the kernel has module support)",
				SMM_KMOD_DEVICE, SMM_VMALLOC_MODULE);
			return -EOPNOTSUPP;
		}
		snprintf(why, len, "open %s: errno=%d (%s)%s", SMM_KMOD_DEVICE,
			 err, strerror(err),
			 err == EACCES || err == EPERM
				 ? ": the worker is not the node's owner"
				 : "");
		return -err;
	}
	if (ioctl(m->fd, SMM_VMALLOC_IOC_INFO, &m->info) != 0) {
		err = errno;
		snprintf(why, len, "%s: SMM_VMALLOC_IOC_INFO: errno=%d (%s)",
			 SMM_KMOD_DEVICE, err, strerror(err));
		goto fail;
	}
	if (m->info.abi_version != SMM_VMALLOC_ABI_VERSION ||
	    m->info.page_size == 0) {
		err = EPROTO;
		snprintf(
			why, len,
			"%s speaks ABI version %u, this plugin %u: rebuild the module from this tree",
			SMM_VMALLOC_MODULE, m->info.abi_version,
			(unsigned int)SMM_VMALLOC_ABI_VERSION);
		goto fail;
	}
	m->nr_pages = (cfg->bytes + m->info.page_size - 1) / m->info.page_size;
	if (m->nr_pages == 0)
		m->nr_pages = 1;
	if (m->nr_pages > m->info.max_pages) {
		err = EINVAL;
		snprintf(
			why, len,
			"%llu bytes are %llu pages, above the module's %u pages per area",
			(unsigned long long)cfg->bytes,
			(unsigned long long)m->nr_pages, m->info.max_pages);
		goto fail;
	}
	*ctx = m;
	return 0;
fail:
	close(m->fd);
	free(m);
	return -err;
}

static void module_destroy(void *ctx)
{
	struct module_ctx *m = ctx;

	if (!m)
		return;
	close(m->fd); /* the module frees whatever the file still holds */
	free(m);
}

/* Half of what the module's caps leave (the caps are shared by all files,
 * so by every worker of the run). */
static uint64_t module_headroom(void *ctx, char *why, size_t len)
{
	struct module_ctx *m = ctx;
	struct smm_vmalloc_info now;
	uint64_t left;

	if (ioctl(m->fd, SMM_VMALLOC_IOC_INFO, &now) != 0)
		now = m->info;
	left = now.total_cap_pages > now.total_pages
		       ? now.total_cap_pages - now.total_pages
		       : 0;
	if (now.file_cap_pages < left)
		left = now.file_cap_pages;
	snprintf(
		why, len,
		"half of what the module's caps leave (file_max_mb, total_max_mb: %llu pages)",
		(unsigned long long)left);
	left /= 2 * m->nr_pages;
	return left < now.max_count ? left : now.max_count;
}

static int module_room(void *ctx, uint64_t cap)
{
	(void)ctx;
	(void)cap;
	return 0; /* the areas live in the kernel, held by the open file */
}

static struct smm_vmalloc_req request(const struct module_ctx *m,
				      uint64_t count)
{
	struct smm_vmalloc_req r;

	memset(&r, 0, sizeof(r));
	r.abi_version = SMM_VMALLOC_ABI_VERSION;
	r.kind = SMM_VMALLOC_KIND_VMALLOC;
	r.node = SMM_VMALLOC_NO_NODE;
	r.nr_pages = m->nr_pages;
	r.count = (__u32)count;
	return r;
}

static uint64_t module_acquire(void *ctx, uint64_t n, int *err)
{
	struct module_ctx *m = ctx;
	struct smm_vmalloc_req r = request(m, n);

	*err = 0;
	if (ioctl(m->fd, SMM_VMALLOC_IOC_ALLOC, &r) != 0) {
		*err = errno;
		/* -ENOMEM and -EINTR write back what was made */
		if (*err != ENOMEM && *err != EINTR)
			r.done = 0;
	}
	m->alloc_ns += r.alloc_ns;
	return r.done;
}

static void module_release(void *ctx, uint64_t n)
{
	struct module_ctx *m = ctx;
	struct smm_vmalloc_req r = request(m, 0);

	if (!n)
		return;
	r.flags = SMM_VMALLOC_F_ALL; /* what acquire() made: all it holds */
	r.nr_pages = 0;
	r.kind = 0;
	r.node = 0;
	if (ioctl(m->fd, SMM_VMALLOC_IOC_FREE, &r) == 0)
		m->free_ns += r.free_ns;
}

static void module_describe(void *ctx, char *buf, size_t len)
{
	const struct module_ctx *m = ctx;

	snprintf(buf, len, "vmalloc_node() areas of %llu pages (%s)",
		 (unsigned long long)m->nr_pages, SMM_VMALLOC_MODULE);
}

static void module_kernel_ns(void *ctx, uint64_t *alloc_ns, uint64_t *free_ns)
{
	struct module_ctx *m = ctx;

	*alloc_ns += m->alloc_ns;
	*free_ns += m->free_ns;
	m->alloc_ns = 0;
	m->free_ns = 0;
}

static const struct smm_holder_ops module_ops = {
	.name = "module",
	.unit = "areas",
	.verb = "SMM_VMALLOC_IOC_ALLOC",
	.first = "allocate one area through " SMM_KMOD_DEVICE,
	.callers = module_callers,
	.per_item = 1,
	.resource = module_resource,
	.cannot = "the module's caps (file_max_mb, total_max_mb) or memory",
	.no_area = "the module's areas did not show in /proc/vmallocinfo",
	.prepare = module_prepare,
	.destroy = module_destroy,
	.headroom = module_headroom,
	.room = module_room,
	.acquire = module_acquire,
	.release = module_release,
	.describe = module_describe,
	.kernel_ns = module_kernel_ns,
};

static const struct smm_holder_ops *const module_kinds[] = { &module_ops,
							     NULL };

const struct smm_vmpath smm_vmpath_module = {
	.name = "module",
	.kind = "vmalloc",
	.natural_bytes = 16384,
	.opt_in = true,
	.kinds = module_kinds,
};
