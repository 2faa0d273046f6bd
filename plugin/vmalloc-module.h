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
 * notes, return and reason), in place of a row of the stressor files
 * (below). The module's ktime around vmalloc and vfree is kept for the
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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * smm_vmalloc_module_row() - the row of stress_vmalloc_paths[] the module
 * runs in place of where the stressor file knows no module: "stack"
 * (whose natural size, 16K, is the module path's too).
 */
size_t smm_vmalloc_module_row(void);

/*
 * smm_vmalloc_module_in_place() - while @on, stress_vmalloc_path_setup()
 * of that row, in this process and in the processes it forks meanwhile
 * (they keep it), sets up the module path instead. shm-pcp's churn module
 * turns it on around stress_shm_pcp_context_init(), which forks the
 * companions; the vmalloc-order method module around its bogo-op.
 */
void smm_vmalloc_module_in_place(bool on);

/*
 * smm_vmalloc_module_kernel_ns() - add the module's ktime around vmalloc
 * (@alloc_ns) and vfree (@free_ns) of this process' bogo-ops since the
 * last call, and start counting again; set-up's proof is not counted.
 */
void smm_vmalloc_module_kernel_ns(uint64_t *alloc_ns, uint64_t *free_ns);

#endif /* SMM_PLUGIN_VMALLOC_MODULE_H */
