/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin/plugin.h - between the exported methods (plugin/methods.c) and
 * the glue that compiles each stressor file (plugin/vmalloc-order.c,
 * plugin/shm-pcp.c). Hidden: only methods.c exports.
 *
 * Each call is one bogo-op and returns what stress-ng's plugin stressor
 * takes: 0 (a bogo-op), -1 (a failure: stress-ng forks a new worker); a
 * SKIP does not return (report.h smm_skip()).
 */
#ifndef SMM_PLUGIN_H
#define SMM_PLUGIN_H

/*
 * smm_plugin_vmo() - one bogo-op of vmalloc-order method @method, a row of
 * stress_vmalloc_order_methods[] by name ("stack", "io-uring"; "module":
 * our kernel module, vmalloc-module.h), or NULL: the one
 * STRESS_MM_VMALLOC_ORDER_METHOD names (default all).
 */
int smm_plugin_vmo(const char *method);

/*
 * smm_plugin_shm() - one bogo-op (an object cycle) of shm-pcp method
 * @method ("posix", "memfd", "sysv"), or NULL: the one
 * STRESS_MM_SHM_PCP_METHOD names (default posix). With
 * STRESS_MM_SHM_PCP_MODE=module the companions churn through our kernel
 * module (vmalloc-module.h).
 */
int smm_plugin_shm(const char *method);

/*
 * smm_plugin_vmo_load(), smm_plugin_shm_load() - read each stressor's
 * settings from its option rows (compat.h smm_compat_settings_load()).
 * The one constructor (plugin/methods.c) calls them in this order while
 * stress-ng loads the object: a bad value stops stress-ng there.
 */
void smm_plugin_vmo_load(void);
void smm_plugin_shm_load(void);

#endif /* SMM_PLUGIN_H */
