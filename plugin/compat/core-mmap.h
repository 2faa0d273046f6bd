/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin/compat/core-mmap.h - stress_mmap_populate(). */
#ifndef SMM_COMPAT_CORE_MMAP_H
#define SMM_COMPAT_CORE_MMAP_H

#include "stress-ng.h"

/* stress_mmap_populate() - mmap(2) with MAP_POPULATE */
extern void *stress_mmap_populate(void *addr, size_t length, int prot,
				  int flags, int fd, off_t offset);

#endif /* SMM_COMPAT_CORE_MMAP_H */
