/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin/vmalloc-module.h - the vmalloc path upstream will not take:
 * "module", exact-size areas from our kernel module (module/,
 * /dev/stress-mm-vmalloc), a kind of the stressor files' core
 * (core-vmalloc.c) written in plugin/vmalloc-module.c.
 *
 * One kind, "module": SMM_VMALLOC_IOC_ALLOC of the batch of areas of
 * BYTES rounded up to whole pages (vmalloc_node(), caller smm_area_alloc
 * in /proc/vmallocinfo, which proves it as any other kind), held by the
 * process' open file of the device, then SMM_VMALLOC_IOC_FREE of them
 * all. The batch is clamped to half of what the module's caps leave
 * (file_max_mb, total_max_mb: shared by every file, so by every worker of
 * the run). It is set up by core-vmalloc.c's own set-up (clamps, proof,
 * notes, return and reason) as a row of its path table (below). The
 * module's ktime around vmalloc and vfree is kept for the
 * record (smm_vmalloc_module_kernel_ns()).
 *
 * Set-up errors: -EOPNOTSUPP without the device (the module is not
 * loaded: stress-mm loads it when it runs as root where the kernel has
 * module support), open(2)'s errno otherwise (EACCES, EPERM: not the
 * node's owner), -EPROTO for another ABI version, -EINVAL for BYTES above
 * the module's pages per area; each with its reason.
 */
#ifndef SMM_PLUGIN_VMALLOC_MODULE_H
#define SMM_PLUGIN_VMALLOC_MODULE_H

#include <stddef.h>
#include <stdint.h>

/*
 * smm_vmalloc_module_add() - add the module path as the row "module" of
 * the core's path table (stress_vmalloc_path_add()), natural size that of
 * stack (STRESS_VMALLOC_THREAD_SIZE, 16K), in this process and those it forks after: vmalloc-order's
 * method "module" and shm-pcp's mode "module" then run it. Call once,
 * before the stressors read their settings. Returns the row's index or
 * -errno (stress_vmalloc_path_add()).
 */
int smm_vmalloc_module_add(void);

/*
 * smm_vmalloc_module_kernel_ns() - add the module's ktime around vmalloc
 * (@alloc_ns) and vfree (@free_ns) of this process' bogo-ops since the
 * last call, and start counting again; set-up's proof is not counted.
 */
void smm_vmalloc_module_kernel_ns(uint64_t *alloc_ns, uint64_t *free_ns);

#endif /* SMM_PLUGIN_VMALLOC_MODULE_H */
