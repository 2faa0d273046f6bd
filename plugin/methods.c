// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/methods.c - the plugin's methods: the only symbols build/stress-mm.so
 * exports. stress-ng (0.14.04 and later, --plugin-so) calls a method,
 * `int NAME(void)`, once per bogo-op: 0 counts one, non-zero is a failure.
 *
 *   stress_vmalloc_order            STRESS_MM_VMALLOC_ORDER_METHOD's path
 *                                   (default all)
 *   stress_vmalloc_order_<method>   one per method of the stressor
 *                                   (stress-vmalloc-order.c): its table's
 *                                   rows, and module, the path the plugin
 *                                   adds (vmalloc-module.h)
 *   stress_shm_pcp                  STRESS_MM_SHM_PCP_METHOD's kind
 *                                   (default posix)
 *   stress_shm_pcp_<method>         one per row of stress-shm-pcp.c's table
 *
 * They live apart from the glue: the stressor files name their own static
 * functions stress_vmalloc_order_stack() and so on. A row that is not
 * built here (a feature missing) SKIPs as not implemented.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "plugin.h"
#include "vmalloc-module.h"

/* While stress-ng loads the object: the module path as a row of the core's
 * path table, then the variables, once, in this order. */
__attribute__((constructor)) static void smm_plugin_load(void)
{
	int row;

	smm_compat_load_common();
	row = smm_vmalloc_module_add();
	if (row < 0) {
		fprintf(stderr,
			"stress-mm: the module path cannot be added to the core's path table: errno=%d (%s)\n",
			-row, strerror(-row));
		exit(EXIT_FAILURE);
	}
	smm_plugin_vmo_load();
	smm_plugin_shm_load();
}

#define SMM_EXPORT __attribute__((visibility("default")))

#define SMM_METHOD(sym, call)     \
	SMM_EXPORT int sym(void); \
	int sym(void)             \
	{                         \
		return call;      \
	}

/* clang-format off */
SMM_METHOD(stress_vmalloc_order, smm_plugin_vmo(NULL))
SMM_METHOD(stress_vmalloc_order_stack, smm_plugin_vmo("stack"))
SMM_METHOD(stress_vmalloc_order_io_uring, smm_plugin_vmo("io-uring"))
SMM_METHOD(stress_vmalloc_order_bpf, smm_plugin_vmo("bpf"))
SMM_METHOD(stress_vmalloc_order_ldt, smm_plugin_vmo("ldt"))
SMM_METHOD(stress_vmalloc_order_pty, smm_plugin_vmo("pty"))
SMM_METHOD(stress_vmalloc_order_fdtable, smm_plugin_vmo("fdtable"))
SMM_METHOD(stress_vmalloc_order_module, smm_plugin_vmo("module"))

SMM_METHOD(stress_shm_pcp, smm_plugin_shm(NULL))
SMM_METHOD(stress_shm_pcp_posix, smm_plugin_shm("posix"))
SMM_METHOD(stress_shm_pcp_memfd, smm_plugin_shm("memfd"))
SMM_METHOD(stress_shm_pcp_sysv, smm_plugin_shm("sysv"))
/* clang-format on */
