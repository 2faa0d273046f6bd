/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-module-name.h - the names of our kernel module and its device, for
 * the worker's path module and the front end that loads it (from
 * module/stress-mm-vmalloc.h, the ABI both build against).
 */
#ifndef SMM_PATH_MODULE_NAME_H
#define SMM_PATH_MODULE_NAME_H

#include "stress-mm-vmalloc.h"

#define SMM_KMOD_NAME SMM_VMALLOC_MODULE
#define SMM_KMOD_DEVICE "/dev/" SMM_VMALLOC_DEVICE

#endif /* SMM_PATH_MODULE_NAME_H */
