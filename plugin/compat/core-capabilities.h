/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin/compat/core-capabilities.h - stress_capabilities_check(). */
#ifndef SMM_COMPAT_CORE_CAPABILITIES_H
#define SMM_COMPAT_CORE_CAPABILITIES_H

#include "stress-ng.h"

#define SHIM_CAP_IPC_LOCK 14 /* CAP_IPC_LOCK, linux/capability.h */

/* stress_capabilities_check() - whether the effective set holds @capability */
extern bool stress_capabilities_check(const int capability);

#endif /* SMM_COMPAT_CORE_CAPABILITIES_H */
