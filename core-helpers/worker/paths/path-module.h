/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-module.h - vmalloc-order path "module": vmalloc areas of an exact
 * size, allocated by our own kernel module (module/stress_mm_vmalloc.c)
 * through its misc device /dev/stress-mm-vmalloc.
 *
 * Kernel source: module/stress-mm-vmalloc.h (the ioctl ABI, version 1) and
 * mm/vmalloc.c vmalloc_node() -> __vmalloc_node(): each area is
 * STRESS_MM_VMALLOC_ORDER_BYTES rounded up to whole pages (nr_pages = 1 <<
 * order for the sizes 4K..2M), taken by vm_area_alloc_pages() and given
 * back by vfree(), the same calls as test_vmalloc's fix_size_alloc_test.
 * /proc/vmallocinfo shows "smm_area_alloc+0x.../0x... [stress_mm_vmalloc]
 * pages=<nr_pages> vmalloc" per area.
 *
 * One batch: SMM_VMALLOC_IOC_ALLOC of cfg->batch areas held at once, then
 * SMM_VMALLOC_IOC_FREE of them all. Batch 1 is the alloc/free pair that
 * recycles pages through the per-CPU lists; a large batch is "allocate
 * all, then free all". Every area belongs to the worker's open file: a
 * killed worker's areas are freed when the kernel releases the file. The
 * module's ktime around vmalloc and vfree (the ioctls' alloc_ns, free_ns)
 * goes to the stats file (kernel_alloc_ns, kernel_free_ns).
 *
 * The path is opt-in: "all" never takes it. The device is root's with mode
 * 0600; a capability-less worker opens it when it runs as the node's
 * owner (stress-mm --vmalloc-order-method module loads the module when it
 * runs as root and may).
 *
 * Clamps: half of what the module's caps leave (INFO: file_cap_pages, and
 * total_cap_pages less total_pages), and the areas it allowed when ALLOC
 * stops with ENOSPC (cap) or ENOMEM.
 *
 * Setup errors (a SKIP): -EOPNOTSUPP when /dev/stress-mm-vmalloc does not
 * exist (the module is not loaded); the errno of open(2) otherwise (EACCES,
 * EPERM: not the node's owner); -EPROTO when the module speaks another ABI
 * version; -EINVAL when the size is above the module's max_pages.
 */
#ifndef SMM_PATH_MODULE_H
#define SMM_PATH_MODULE_H

#include "path-module-name.h"
#include "vmpath.h"

extern const struct smm_vmpath smm_vmpath_module;

#endif /* SMM_PATH_MODULE_H */
