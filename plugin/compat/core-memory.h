/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin/compat/core-memory.h - the page size and the memory sizes. */
#ifndef SMM_COMPAT_CORE_MEMORY_H
#define SMM_COMPAT_CORE_MEMORY_H

#include "stress-ng.h"

/* what stress_memory_info_get() reads: bytes, from sysinfo(2) */
typedef struct stress_memory_info {
	size_t freemem;
	size_t totalmem;
	size_t freeswap;
	size_t totalswap;
	size_t shmall;
} stress_memory_info_t;

extern size_t stress_memory_page_size_get(void);

/* stress_memory_info_get() - fill @info in. Return: 0, or -1 */
extern int stress_memory_info_get(stress_memory_info_t *info);

#endif /* SMM_COMPAT_CORE_MEMORY_H */
