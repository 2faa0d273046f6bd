// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/core-vmalloc.c - the vmalloc paths both stressors use
 * (core-vmalloc.c), compiled as is against plugin/compat/stress-ng.h.
 */
/* NOLINTNEXTLINE(bugprone-suspicious-include): the one source */
#include "../core-vmalloc.c"
