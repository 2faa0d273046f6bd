/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin/compat/core-memory.h - stress_memory_page_size_get(). */
#ifndef SMM_COMPAT_CORE_MEMORY_H
#define SMM_COMPAT_CORE_MEMORY_H

#include "stress-ng.h"

extern size_t stress_memory_page_size_get(void);

#endif /* SMM_COMPAT_CORE_MEMORY_H */
