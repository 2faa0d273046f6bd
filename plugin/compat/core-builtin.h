/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin/compat/core-builtin.h - stress-ng's shim_memset() and shim_memcpy(). */
#ifndef SMM_COMPAT_CORE_BUILTIN_H
#define SMM_COMPAT_CORE_BUILTIN_H

#include <string.h>

#define shim_memset(s, c, n) __builtin_memset((s), (c), (n))
#define shim_memcpy(dst, src, n) __builtin_memcpy((dst), (src), (n))

#endif /* SMM_COMPAT_CORE_BUILTIN_H */
