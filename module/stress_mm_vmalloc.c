// SPDX-License-Identifier: GPL-2.0
/*
 * stress_mm_vmalloc - vmalloc areas of an exact size, allocated and freed
 * when user space asks, for stress-mm's vmalloc-order stressor.
 *
 * The misc device /dev/stress-mm-vmalloc takes the ioctls described in
 * stress-mm-vmalloc.h: allocate areas and keep them, free them, cycle
 * through alloc/free batches, read the counters. Every area belongs to the
 * open file that made it and is freed, at the latest, when that file is
 * released. Memory is charged against a per-file and a global cap (module
 * parameters) before any allocation is made.
 *
 * An area keeps its own bookkeeping in its first bytes (struct smm_area):
 * no other allocation is made per area, so what the module does to the
 * page allocator is the areas' vmalloc and vfree and nothing else.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "stress-mm-vmalloc.h"

static unsigned long file_max_mb = 256;
module_param(file_max_mb, ulong, 0444);
MODULE_PARM_DESC(file_max_mb, "Most memory one open file may hold, in MiB (default 256)");

static unsigned long total_max_mb = 1024;
module_param(total_max_mb, ulong, 0444);
MODULE_PARM_DESC(total_max_mb,
		 "Most memory all open files may hold together, in MiB (default 1024; at most half of RAM)");

/* The caps in pages, fixed at load; the pages charged by all files. */
static u64 file_cap_pages;
static u64 total_cap_pages;
static atomic64_t total_pages = ATOMIC64_INIT(0);

/* The head of every area: a LIFO list per file or per batch. */
struct smm_area {
	struct smm_area *next;
	u64 nr_pages;
	u64 charge;
	u32 kind;
};

struct smm_file {
	struct mutex lock;	/* one command at a time on this file */
	struct smm_area *held;	/* areas kept by ALLOC, newest first */
	u64 charged;		/* pages charged: held areas, running calls */
	struct smm_vmalloc_stats st;
};

#define SMM_ALLOC_FLAGS SMM_VMALLOC_F_ZERO

/* kzalloc_obj() is recent; older kernels (trixie's 6.12) get this one. */
#ifndef kzalloc_obj
#define kzalloc_obj(P, GFP) kzalloc(sizeof(P), GFP)
#endif

#ifdef vmalloc_huge_node
#define SMM_HAVE_HUGE_NODE 1
#else
#define SMM_HAVE_HUGE_NODE 0
#endif

/*
 * The pages an area may take from the page allocator: what is charged
 * against the caps for it (stress-mm-vmalloc.h).
 */
static u64 smm_charge_of(u32 kind, u64 nr_pages)
{
	const u64 pmd_pages = PMD_SIZE >> PAGE_SHIFT;

	switch (kind) {
	case SMM_VMALLOC_KIND_HUGE:
		if (nr_pages >= pmd_pages)
			return round_up(nr_pages, pmd_pages);
		return nr_pages;
	case SMM_VMALLOC_KIND_KVMALLOC:
		return roundup_pow_of_two(nr_pages);
	default:
		return nr_pages;
	}
}

static int smm_reserve(struct smm_file *f, u64 pages)
{
	if (f->charged + pages > file_cap_pages)
		return -ENOSPC;
	if (atomic64_add_return(pages, &total_pages) > total_cap_pages) {
		atomic64_sub(pages, &total_pages);
		return -ENOSPC;
	}
	f->charged += pages;
	return 0;
}

static void smm_unreserve(struct smm_file *f, u64 pages)
{
	f->charged -= pages;
	atomic64_sub(pages, &total_pages);
}

/*
 * Every area is allocated here, so that vmallocinfo names this function as
 * the caller (the allocators record __builtin_return_address(0)). Writing
 * the head after the call keeps the call from becoming a tail call, which
 * would name our caller instead.
 */
static noinline struct smm_area *smm_area_alloc(u32 kind, u64 nr_pages, int node, u32 flags)
{
	unsigned long size = (unsigned long)nr_pages << PAGE_SHIFT;
	gfp_t gfp = GFP_KERNEL;
	struct smm_area *a;

	if (flags & SMM_VMALLOC_F_ZERO)
		gfp |= __GFP_ZERO;
	switch (kind) {
	case SMM_VMALLOC_KIND_HUGE:
#if SMM_HAVE_HUGE_NODE
		a = vmalloc_huge_node(size, gfp, node);
#else
		a = vmalloc_huge(size, gfp);
#endif
		break;
	case SMM_VMALLOC_KIND_KVMALLOC:
		a = kvmalloc_node(size, gfp, node);
		break;
	default:
		if (flags & SMM_VMALLOC_F_ZERO)
			a = vzalloc_node(size, node);
		else
			a = vmalloc_node(size, node);
		break;
	}
	if (!a)
		return NULL;
	a->next = NULL;
	a->nr_pages = nr_pages;
	a->kind = kind;
	return a;
}

static void smm_area_free(struct smm_area *a)
{
	if (a->kind == SMM_VMALLOC_KIND_KVMALLOC)
		kvfree(a);
	else
		vfree(a);
}

static bool smm_node_ok(s32 node)
{
	if (node == SMM_VMALLOC_NO_NODE)
		return true;
	return node >= 0 && node < nr_node_ids && node_online(node);
}

/* The checks of stress-mm-vmalloc.h for ALLOC, FREE and CYCLE. */
static int smm_check_req(unsigned int cmd, const struct smm_vmalloc_req *r)
{
	if (r->abi_version != SMM_VMALLOC_ABI_VERSION)
		return -EPROTO;
	if (r->reserved[0] || r->reserved[1])
		return -EINVAL;
	if (cmd == SMM_VMALLOC_IOC_FREE) {
		if (r->flags & ~SMM_VMALLOC_F_ALL)
			return -EINVAL;
		if (r->kind || r->node || r->nr_pages || r->loops)
			return -EINVAL;
		if (r->flags & SMM_VMALLOC_F_ALL)
			return r->count ? -EINVAL : 0;
		if (!r->count || r->count > SMM_VMALLOC_MAX_COUNT)
			return -EINVAL;
		return 0;
	}
	if (r->flags & ~SMM_ALLOC_FLAGS)
		return -EINVAL;
	if (r->kind >= SMM_VMALLOC_NR_KINDS)
		return -EINVAL;
	if (!r->nr_pages || r->nr_pages > SMM_VMALLOC_MAX_PAGES)
		return -EINVAL;
	if (!r->count || r->count > SMM_VMALLOC_MAX_COUNT)
		return -EINVAL;
	if (cmd == SMM_VMALLOC_IOC_ALLOC && r->loops)
		return -EINVAL;
	if (cmd == SMM_VMALLOC_IOC_CYCLE && (!r->loops || r->loops > SMM_VMALLOC_MAX_LOOPS))
		return -EINVAL;
	if (!smm_node_ok(r->node))
		return -EINVAL;
	if (!SMM_HAVE_HUGE_NODE && r->kind == SMM_VMALLOC_KIND_HUGE &&
	    r->node != SMM_VMALLOC_NO_NODE)
		return -EOPNOTSUPP;
	return 0;
}

static long smm_do_alloc(struct smm_file *f, struct smm_vmalloc_req *r)
{
	u64 charge = smm_charge_of(r->kind, r->nr_pages), total;
	struct smm_area *a;
	ktime_t t0;
	long ret;
	u32 i;

	if (check_mul_overflow(charge, (u64)r->count, &total))
		return -ENOSPC;
	ret = smm_reserve(f, total);
	if (ret)
		return ret;
	for (i = 0; i < r->count; i++) {
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		t0 = ktime_get();
		a = smm_area_alloc(r->kind, r->nr_pages, r->node, r->flags);
		r->alloc_ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
		if (!a) {
			f->st.failures++;
			ret = -ENOMEM;
			break;
		}
		a->charge = charge;
		a->next = f->held;
		f->held = a;
		f->st.held_areas++;
		f->st.held_pages += r->nr_pages;
		r->done++;
		cond_resched();
	}
	smm_unreserve(f, charge * (r->count - r->done));
	f->st.areas_allocated += r->done;
	f->st.pages_allocated += r->done * r->nr_pages;
	f->st.alloc_ns += r->alloc_ns;
	return ret;
}

/* Free up to n held areas, newest first; returns how many. */
static u64 smm_free_held(struct smm_file *f, u64 n, u64 *ns)
{
	struct smm_area *a;
	u64 done = 0, pages, charge;
	ktime_t t0;

	while (done < n && f->held) {
		a = f->held;
		f->held = a->next;
		pages = a->nr_pages;
		charge = a->charge;
		t0 = ktime_get();
		smm_area_free(a);
		*ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
		smm_unreserve(f, charge);
		f->st.held_areas--;
		f->st.held_pages -= pages;
		f->st.areas_freed++;
		f->st.pages_freed += pages;
		done++;
		cond_resched();
	}
	return done;
}

static long smm_do_free(struct smm_file *f, struct smm_vmalloc_req *r)
{
	u64 n = r->flags & SMM_VMALLOC_F_ALL ? U64_MAX : r->count;

	r->done = smm_free_held(f, n, &r->free_ns);
	f->st.free_ns += r->free_ns;
	return 0;
}

/*
 * loops batches of count areas, allocated then freed. The clock is read
 * once between calls, so that alloc_ns + free_ns covers the loop without
 * gaps (except a reschedule between batches) as test_vmalloc's timing of
 * its whole loop does.
 */
static long smm_do_cycle(struct smm_file *f, struct smm_vmalloc_req *r)
{
	u64 charge = smm_charge_of(r->kind, r->nr_pages), total, pages = 0;
	struct smm_area *batch, *a;
	ktime_t t, now;
	long ret = 0;
	u32 loop, i;

	if (check_mul_overflow(charge, (u64)r->count, &total))
		return -ENOSPC;
	ret = smm_reserve(f, total);
	if (ret)
		return ret;
	t = ktime_get();
	for (loop = 0; loop < r->loops && !ret; loop++) {
		batch = NULL;
		for (i = 0; i < r->count; i++) {
			a = smm_area_alloc(r->kind, r->nr_pages, r->node, r->flags);
			now = ktime_get();
			r->alloc_ns += ktime_to_ns(ktime_sub(now, t));
			t = now;
			if (!a) {
				f->st.failures++;
				ret = -ENOMEM;
				break;
			}
			a->next = batch;
			batch = a;
			r->done++;
			pages += r->nr_pages;
		}
		while (batch) {
			a = batch;
			batch = a->next;
			smm_area_free(a);
			now = ktime_get();
			r->free_ns += ktime_to_ns(ktime_sub(now, t));
			t = now;
		}
		if (!ret && signal_pending(current))
			ret = -EINTR;
		if (cond_resched())
			t = ktime_get();
	}
	smm_unreserve(f, total);
	f->st.areas_allocated += r->done;
	f->st.areas_freed += r->done;
	f->st.pages_allocated += pages;
	f->st.pages_freed += pages;
	f->st.alloc_ns += r->alloc_ns;
	f->st.free_ns += r->free_ns;
	return ret;
}

static long smm_ioc_req(struct smm_file *f, unsigned int cmd, void __user *argp)
{
	struct smm_vmalloc_req r;
	long ret;

	if (copy_from_user(&r, argp, sizeof(r)))
		return -EFAULT;
	if (mutex_lock_interruptible(&f->lock))
		return -EINTR;
	ret = smm_check_req(cmd, &r);
	if (ret) {
		f->st.rejected++;
		goto out;
	}
	r.done = 0;
	r.alloc_ns = 0;
	r.free_ns = 0;
	switch (cmd) {
	case SMM_VMALLOC_IOC_ALLOC:
		ret = smm_do_alloc(f, &r);
		break;
	case SMM_VMALLOC_IOC_FREE:
		ret = smm_do_free(f, &r);
		break;
	default:
		ret = smm_do_cycle(f, &r);
		break;
	}
	if (ret == -ENOSPC) {
		f->st.rejected++;
		goto out;
	}
	f->st.calls++;
	if (copy_to_user(argp, &r, sizeof(r)))
		ret = -EFAULT;
out:
	mutex_unlock(&f->lock);
	return ret;
}

static long smm_ioc_stats(struct smm_file *f, void __user *argp)
{
	struct smm_vmalloc_stats in, out;
	long ret = 0;

	if (copy_from_user(&in, argp, sizeof(in)))
		return -EFAULT;
	if (mutex_lock_interruptible(&f->lock))
		return -EINTR;
	if (in.abi_version != SMM_VMALLOC_ABI_VERSION) {
		ret = -EPROTO;
	} else if ((in.flags & ~SMM_VMALLOC_F_RESET) ||
		   memchr_inv(in.reserved, 0, sizeof(in.reserved))) {
		ret = -EINVAL;
	} else {
		out = f->st;
		out.abi_version = SMM_VMALLOC_ABI_VERSION;
		out.flags = in.flags;
		if (copy_to_user(argp, &out, sizeof(out))) {
			ret = -EFAULT;
		} else if (in.flags & SMM_VMALLOC_F_RESET) {
			u64 areas = f->st.held_areas, pages = f->st.held_pages;

			memset(&f->st, 0, sizeof(f->st));
			f->st.held_areas = areas;
			f->st.held_pages = pages;
		}
	}
	mutex_unlock(&f->lock);
	return ret;
}

static long smm_ioc_info(void __user *argp)
{
	struct smm_vmalloc_info info;

	memset(&info, 0, sizeof(info));
	info.abi_version = SMM_VMALLOC_ABI_VERSION;
	info.page_size = PAGE_SIZE;
	info.max_pages = SMM_VMALLOC_MAX_PAGES;
	info.max_count = SMM_VMALLOC_MAX_COUNT;
	info.max_loops = SMM_VMALLOC_MAX_LOOPS;
	info.kinds = (1U << SMM_VMALLOC_NR_KINDS) - 1;
	info.file_cap_pages = file_cap_pages;
	info.total_cap_pages = total_cap_pages;
	info.total_pages = atomic64_read(&total_pages);
	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

static long smm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct smm_file *f = file->private_data;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case SMM_VMALLOC_IOC_INFO:
		return smm_ioc_info(argp);
	case SMM_VMALLOC_IOC_STATS:
		return smm_ioc_stats(f, argp);
	case SMM_VMALLOC_IOC_ALLOC:
	case SMM_VMALLOC_IOC_FREE:
	case SMM_VMALLOC_IOC_CYCLE:
		return smm_ioc_req(f, cmd, argp);
	default:
		return -ENOTTY;
	}
}

static int smm_open(struct inode *inode, struct file *file)
{
	struct smm_file *f;

	f = kzalloc_obj(*f, GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

static int smm_release(struct inode *inode, struct file *file)
{
	struct smm_file *f = file->private_data;
	u64 ns = 0;

	smm_free_held(f, U64_MAX, &ns);
	WARN_ON_ONCE(f->charged);
	mutex_destroy(&f->lock);
	kfree(f);
	return 0;
}

static const struct file_operations smm_fops = {
	.owner = THIS_MODULE,
	.open = smm_open,
	.release = smm_release,
	.unlocked_ioctl = smm_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice smm_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = SMM_VMALLOC_DEVICE,
	.fops = &smm_fops,
	.mode = 0600,
};

static int __init smm_init(void)
{
	u64 ram_mb = (u64)totalram_pages() >> (20 - PAGE_SHIFT);
	u64 total_mb = min_t(u64, total_max_mb, ram_mb / 2);
	u64 file_mb = min_t(u64, file_max_mb, total_mb);
	int ret;

	if (!file_max_mb || !total_max_mb) {
		pr_err("file_max_mb and total_max_mb must be at least 1\n");
		return -EINVAL;
	}
	file_cap_pages = file_mb << (20 - PAGE_SHIFT);
	total_cap_pages = total_mb << (20 - PAGE_SHIFT);
	ret = misc_register(&smm_misc);
	if (ret) {
		pr_err("cannot register /dev/%s: %d\n", SMM_VMALLOC_DEVICE, ret);
		return ret;
	}
	pr_info("/dev/%s: ABI %d, caps %llu MiB per file, %llu MiB in all\n",
		SMM_VMALLOC_DEVICE, SMM_VMALLOC_ABI_VERSION, file_mb, total_mb);
	return 0;
}

static void __exit smm_exit(void)
{
	misc_deregister(&smm_misc);
	WARN_ON_ONCE(atomic64_read(&total_pages));
}

module_init(smm_init);
module_exit(smm_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("stress-mm");
MODULE_DESCRIPTION("vmalloc areas of an exact size on request of user space, for stress-mm");
