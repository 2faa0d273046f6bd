// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/vmalloc-module.c - the one vmalloc path upstream will not take:
 * "module", areas from our kernel module (vmalloc-module.h). Its kind is
 * a stress_vmalloc_ops_t of the stressor files' core (core-vmalloc-kind.h),
 * and smm_vmalloc_module_add() adds the path as a row of the core's path
 * table (stress_vmalloc_path_add()): the stressors then take it as any
 * row, and the core sets it up, batches, verifies, describes and tears it
 * down with its own functions.
 */
#include "stress-ng.h"
#include "core-vmalloc.h"
#include "core-vmalloc-kind.h"

#include <sys/ioctl.h>

#include "path-module-name.h"
#include "vmalloc-module.h"

/* ENOSPC: the module's caps; ENOMEM: vmalloc returned NULL. */
static const int smm_module_resource[] = { ENOSPC, ENOMEM, 0 };
static const char *const smm_module_callers[] = { SMM_VMALLOC_CALLER, NULL };

/*
 * The module kind of this process: a process sets up one (a vmalloc-order
 * worker's method module, or a churn companion's path). Its descriptor of
 * the device is the kind's k->own, which the core's kind_free closes: the
 * module frees whatever areas the file still holds.
 */
static struct {
	struct smm_vmalloc_info info;
	uint64_t nr_pages; /* per area */
	uint64_t alloc_ns, free_ns; /* since the last smm_..._kernel_ns() */
} smm_module;

static int smm_module_prepare(stress_vmalloc_kind_t *k, char *why,
			      const size_t len)
{
	struct smm_vmalloc_info *info = &smm_module.info;
	int err;

	(void)memset(&smm_module, 0, sizeof(smm_module));
	k->own = open(SMM_KMOD_DEVICE, O_RDWR | O_CLOEXEC);
	if (k->own < 0) {
		err = errno;
		if (err == ENOENT) {
			(void)snprintf(
				why, len,
				"no %s: %s is not loaded, errno=%d (%s); stress-mm loads it, run as root where the kernel has module support",
				SMM_KMOD_DEVICE, SMM_KMOD_NAME, EOPNOTSUPP,
				strerror(EOPNOTSUPP));
			return -EOPNOTSUPP;
		}
		(void)snprintf(why, len, "open %s: errno=%d (%s)%s",
			       SMM_KMOD_DEVICE, err, strerror(err),
			       err == EACCES || err == EPERM
				       ? ": the worker is not the node's owner"
				       : "");
		return -err;
	}
	if (ioctl(k->own, SMM_VMALLOC_IOC_INFO, info) != 0) {
		err = errno;
		(void)snprintf(why, len,
			       "%s: SMM_VMALLOC_IOC_INFO: errno=%d (%s)",
			       SMM_KMOD_DEVICE, err, strerror(err));
		return -err;
	}
	if (info->abi_version != SMM_VMALLOC_ABI_VERSION ||
	    info->page_size == 0) {
		(void)snprintf(
			why, len,
			"%s speaks ABI version %u, this plugin %u: rebuild the module from this tree",
			SMM_KMOD_NAME, info->abi_version,
			(unsigned int)SMM_VMALLOC_ABI_VERSION);
		return -EPROTO;
	}
	smm_module.nr_pages = STRESS_MAXIMUM(
		(k->bytes + info->page_size - 1) / info->page_size, 1);
	if (smm_module.nr_pages > info->max_pages) {
		(void)snprintf(why, len,
			       "%zu bytes are %" PRIu64
			       " pages, above the module's %u pages per area",
			       k->bytes, smm_module.nr_pages, info->max_pages);
		return -EINVAL;
	}
	return 0;
}

/* Half of what the module's caps leave now, in areas. */
static uint64_t smm_module_headroom(stress_vmalloc_kind_t *k, char *why,
				    const size_t len)
{
	struct smm_vmalloc_info now;
	uint64_t left;

	if (ioctl(k->own, SMM_VMALLOC_IOC_INFO, &now) != 0)
		now = smm_module.info;
	left = now.total_cap_pages > now.total_pages
		       ? now.total_cap_pages - now.total_pages
		       : 0;
	left = STRESS_MINIMUM(left, now.file_cap_pages);
	(void)snprintf(
		why, len,
		"half of what the module's caps leave (file_max_mb, total_max_mb: %" PRIu64
		" pages)",
		left);
	return STRESS_MINIMUM(left / (2 * smm_module.nr_pages),
			      (uint64_t)now.max_count);
}

/* The areas live in the kernel, held by the open file. */
static int smm_module_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	k->cap = cap;
	return 0;
}

static struct smm_vmalloc_req smm_module_req(void)
{
	struct smm_vmalloc_req r;

	(void)memset(&r, 0, sizeof(r));
	r.abi_version = SMM_VMALLOC_ABI_VERSION;
	return r;
}

static uint64_t smm_module_acquire(stress_vmalloc_kind_t *k, const uint64_t n,
				   int *err)
{
	struct smm_vmalloc_req r = smm_module_req();

	r.kind = SMM_VMALLOC_KIND_VMALLOC;
	r.node = SMM_VMALLOC_NO_NODE;
	r.nr_pages = smm_module.nr_pages;
	r.count = (__u32)STRESS_MINIMUM(n, k->cap);
	*err = 0;
	if (ioctl(k->own, SMM_VMALLOC_IOC_ALLOC, &r) != 0) {
		*err = errno;
		/* -ENOMEM and -EINTR write back what was made */
		if (*err != ENOMEM && *err != EINTR)
			r.done = 0;
	}
	smm_module.alloc_ns += r.alloc_ns;
	return r.done;
}

/* Every area the file holds: what acquire made, whatever it said. */
static void smm_module_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	struct smm_vmalloc_req r = smm_module_req();

	(void)n;
	r.flags = SMM_VMALLOC_F_ALL;
	if (ioctl(k->own, SMM_VMALLOC_IOC_FREE, &r) == 0)
		smm_module.free_ns += r.free_ns;
}

static void smm_module_describe(stress_vmalloc_kind_t *k, char *buf,
				const size_t len)
{
	(void)k;
	(void)snprintf(buf, len,
		       "vmalloc_node() areas of %" PRIu64 " pages (%s)",
		       smm_module.nr_pages, SMM_KMOD_NAME);
}

static const stress_vmalloc_ops_t smm_module_ops = {
	.name = "module",
	.unit = "areas",
	.verb = "SMM_VMALLOC_IOC_ALLOC",
	.first = "allocate one area through " SMM_KMOD_DEVICE,
	.callers = smm_module_callers,
	.resource = smm_module_resource,
	.cannot = "the module's caps (file_max_mb, total_max_mb) or memory",
	.no_area = "the module's areas did not show in /proc/vmallocinfo",
	.per_item = 1,
	.prepare = smm_module_prepare,
	.headroom = smm_module_headroom,
	.room = smm_module_room,
	.acquire = smm_module_acquire,
	.release = smm_module_release,
	.describe = smm_module_describe,
};

static const stress_vmalloc_ops_t *const
	smm_module_kinds[STRESS_VMALLOC_KINDS_MAX] = { &smm_module_ops, NULL };

int smm_vmalloc_module_add(void)
{
	/* stack's natural size, a thread stack, is the module's too */
	return stress_vmalloc_path_add("module", STRESS_VMALLOC_THREAD_SIZE,
				       smm_module_kinds);
}

void smm_vmalloc_module_kernel_ns(uint64_t *alloc_ns, uint64_t *free_ns)
{
	*alloc_ns += smm_module.alloc_ns;
	*free_ns += smm_module.free_ns;
	smm_module.alloc_ns = 0;
	smm_module.free_ns = 0;
}
