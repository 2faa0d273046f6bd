/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The ioctl ABI of stress_mm_vmalloc.ko, shared by the module and by user
 * space (it needs only <linux/types.h> and <linux/ioctl.h>).
 *
 * The module registers the misc device /dev/stress-mm-vmalloc (mode 0600,
 * owner root: whoever may open it may allocate up to the caps below).
 * Every open file owns the vmalloc areas it allocates; they are freed when
 * they are freed explicitly or, at the latest, when the file is released.
 *
 * Kernel source relied on (Linux 6.12 and 7.2, read in Debian's
 * linux-source-7.2):
 *   mm/vmalloc.c  vmalloc_node(), vzalloc_node(): __vmalloc_node(size, 1,
 *                 GFP_KERNEL[|__GFP_ZERO], node, caller), the same path as
 *                 vmalloc() and test_vmalloc's fix_size_alloc_test when
 *                 node is SMM_VMALLOC_NO_NODE; vmalloc_huge_node()
 *                 (VM_ALLOW_HUGE_VMAP: areas of at least PMD_SIZE are
 *                 rounded up to PMD_SIZE multiples and mapped with PMD
 *                 pages when the architecture can); vfree();
 *                 vm_area_alloc_pages() takes the pages.
 *   mm/slub.c     kvmalloc_node(): kmalloc first (no direct reclaim, no
 *                 warning above one page), vmalloc with VM_ALLOW_HUGE_VMAP
 *                 when that fails; kvfree().
 *   /proc/vmallocinfo shows each vmalloc'ed area with the caller
 *                 "smm_area_alloc+0x.../0x... [stress_mm_vmalloc]",
 *                 pages=<nr_pages> and a size of (nr_pages + 1) pages (the
 *                 guard page).
 *
 * Conventions of every command:
 * - struct fields named abi_version must hold SMM_VMALLOC_ABI_VERSION,
 *   else -EPROTO. The size of the struct is part of the command number
 *   (_IOC_SIZE), so a struct of another size gives -ENOTTY.
 * - reserved fields, and the fields a command does not use, must be 0,
 *   else -EINVAL; unknown flags give -EINVAL.
 * - a pointer the kernel cannot read or write gives -EFAULT.
 * - commands on one open file run one at a time (a mutex; waiting for it
 *   can be interrupted: -EINTR); files work in parallel.
 * - any other command number gives -ENOTTY.
 */
#ifndef STRESS_MM_VMALLOC_H
#define STRESS_MM_VMALLOC_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SMM_VMALLOC_ABI_VERSION 1
/* The device node: /dev/ + this */
#define SMM_VMALLOC_DEVICE "stress-mm-vmalloc"
/* The module's name, as lsmod, /proc/modules and vmallocinfo show it */
#define SMM_VMALLOC_MODULE "stress_mm_vmalloc"
/* The function every area is allocated from (vmallocinfo's caller) */
#define SMM_VMALLOC_CALLER "smm_area_alloc"

/* 0xBB: not assigned in Documentation/userspace-api/ioctl/ioctl-number.rst */
#define SMM_VMALLOC_IOC_MAGIC 0xBB

/* How an area is allocated (field kind) */
#define SMM_VMALLOC_KIND_VMALLOC 0 /* vmalloc_node(), vzalloc_node() */
#define SMM_VMALLOC_KIND_HUGE 1 /* vmalloc_huge_node() */
#define SMM_VMALLOC_KIND_KVMALLOC 2 /* kvmalloc_node(): may be kmalloc'ed */
#define SMM_VMALLOC_NR_KINDS 3

/* Field node: any node (NUMA_NO_NODE), else an online node id */
#define SMM_VMALLOC_NO_NODE (-1)

/* Limits of one call (ranges are inclusive, from 1) */
#define SMM_VMALLOC_MAX_PAGES (1U << 18) /* pages per area: 1 GiB of 4K */
#define SMM_VMALLOC_MAX_COUNT (1U << 16) /* areas per call or per batch */
#define SMM_VMALLOC_MAX_LOOPS (1U << 24) /* batches per CYCLE call */

/* Flags of ALLOC and CYCLE */
#define SMM_VMALLOC_F_ZERO (1U << 0) /* __GFP_ZERO: zeroed pages */
/* Flag of FREE */
#define SMM_VMALLOC_F_ALL (1U << 1) /* every held area; count must be 0 */
/* Flag of STATS */
#define SMM_VMALLOC_F_RESET (1U << 2) /* zero the counters after reading */

/*
 * SMM_VMALLOC_IOC_INFO: what this module offers. Output only; never fails
 * but with -EFAULT.
 */
struct smm_vmalloc_info {
	__u32 abi_version; /* SMM_VMALLOC_ABI_VERSION of the module */
	__u32 page_size; /* bytes */
	__u32 max_pages; /* SMM_VMALLOC_MAX_PAGES */
	__u32 max_count; /* SMM_VMALLOC_MAX_COUNT */
	__u32 max_loops; /* SMM_VMALLOC_MAX_LOOPS */
	__u32 kinds; /* bit (1 << kind) for each kind offered */
	__u64 file_cap_pages; /* most pages one file may hold (charged) */
	__u64 total_cap_pages; /* most pages all files may hold (charged) */
	__u64 total_pages; /* pages charged by all files now */
	__u64 reserved[4]; /* 0 */
};

/*
 * SMM_VMALLOC_IOC_ALLOC: allocate count areas of nr_pages pages each and
 * keep them: they stay allocated until FREE or the file's release.
 *   in:  abi_version, flags (SMM_VMALLOC_F_ZERO), kind, node,
 *        nr_pages (1..SMM_VMALLOC_MAX_PAGES), count (1..MAX_COUNT);
 *        loops and reserved 0
 *   out: done: areas allocated by this call (all held now);
 *        alloc_ns: ktime ns spent in the allocation calls; free_ns 0.
 * SMM_VMALLOC_IOC_FREE: free held areas, newest first.
 *   in:  abi_version, count (1..MAX_COUNT) or flags SMM_VMALLOC_F_ALL with
 *        count 0; kind, node, nr_pages, loops and reserved 0
 *   out: done: areas freed (fewer than count when fewer were held);
 *        free_ns: ktime ns spent freeing.
 * SMM_VMALLOC_IOC_CYCLE: loops times, allocate count areas, then free them
 *   all (count 1: the alloc/free pair that recycles pages through the
 *   per-CPU lists, as test_vmalloc's fix_size_alloc_test; a large count:
 *   "allocate all, then free all"). Each area's first bytes are written,
 *   as fix_size_alloc_test writes one byte.
 *   in:  as ALLOC, and loops (1..SMM_VMALLOC_MAX_LOOPS)
 *   out: done: areas allocated and freed; alloc_ns and free_ns: ktime ns
 *        spent allocating and freeing, back to back, so that
 *        (alloc_ns + free_ns) / done is ns per vmalloc+vfree.
 *
 * Memory is charged before anything is allocated: count areas of
 * charge(kind, nr_pages) pages each, where charge is nr_pages for
 * KIND_VMALLOC, rounded up to PMD pages (512 on x86_64) from PMD_SIZE on
 * for KIND_HUGE, and rounded up to a power of two for KIND_KVMALLOC (what
 * kmalloc may take). Held areas stay charged until freed.
 *
 * Errors:
 *   -EPROTO  abi_version is not SMM_VMALLOC_ABI_VERSION
 *   -EINVAL  unknown flags or kind, nr_pages/count/loops 0 or above the
 *            limits, node neither SMM_VMALLOC_NO_NODE nor an online node,
 *            a field the command does not use or a reserved field not 0
 *   -EOPNOTSUPP  KIND_HUGE with a node on a kernel without
 *            vmalloc_huge_node() (before 6.13)
 *   -ENOSPC  the charge would take this file above file_cap_pages or all
 *            files above total_cap_pages (module parameters file_max_mb,
 *            total_max_mb); nothing was allocated
 *   -ENOMEM  an allocation returned NULL: ALLOC keeps the areas made
 *            before it (done says how many); CYCLE frees its batch; the
 *            failures counter counts it
 *   -EINTR   a signal arrived: ALLOC keeps what it made, CYCLE stops after
 *            the batch it was in; done says how far it came
 *   -EFAULT  the struct could not be read, or written back (the work was
 *            done: the counters and the held areas show it)
 * Outputs are written back on success, -ENOMEM and -EINTR.
 */
struct smm_vmalloc_req {
	__u32 abi_version;
	__u32 flags;
	__u32 kind;
	__s32 node;
	__u64 nr_pages;
	__u32 count;
	__u32 loops;
	__u64 done;
	__u64 alloc_ns;
	__u64 free_ns;
	__u64 reserved[2];
};

/*
 * SMM_VMALLOC_IOC_STATS: the file's counters since open (or the last
 * reset).
 *   in:  abi_version, flags (SMM_VMALLOC_F_RESET), reserved 0
 *   out: the counters; held_* are the areas held now (never reset)
 *   errors: -EPROTO, -EINVAL (unknown flags, reserved not 0), -EFAULT,
 *           -EINTR
 */
struct smm_vmalloc_stats {
	__u32 abi_version;
	__u32 flags;
	__u64 calls; /* ALLOC, FREE and CYCLE calls that passed the checks */
	__u64 rejected; /* calls refused: -EPROTO, -EINVAL, -ENOSPC, ... */
	__u64 failures; /* allocations that returned NULL */
	__u64 areas_allocated;
	__u64 pages_allocated; /* nr_pages per area, as asked */
	__u64 areas_freed;
	__u64 pages_freed;
	__u64 alloc_ns; /* ktime ns in allocation calls */
	__u64 free_ns; /* ktime ns in free calls */
	__u64 held_areas;
	__u64 held_pages;
	__u64 reserved[4]; /* in: 0; out: 0 */
};

#define SMM_VMALLOC_IOC_INFO _IOR(SMM_VMALLOC_IOC_MAGIC, 0, struct smm_vmalloc_info)
#define SMM_VMALLOC_IOC_ALLOC _IOWR(SMM_VMALLOC_IOC_MAGIC, 1, struct smm_vmalloc_req)
#define SMM_VMALLOC_IOC_FREE _IOWR(SMM_VMALLOC_IOC_MAGIC, 2, struct smm_vmalloc_req)
#define SMM_VMALLOC_IOC_CYCLE _IOWR(SMM_VMALLOC_IOC_MAGIC, 3, struct smm_vmalloc_req)
#define SMM_VMALLOC_IOC_STATS _IOWR(SMM_VMALLOC_IOC_MAGIC, 4, struct smm_vmalloc_stats)

#endif /* STRESS_MM_VMALLOC_H */
