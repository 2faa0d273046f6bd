/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * locate.h - the stress-ng to run and the plugin it loads.
 */
#ifndef SMM_LOCATE_H
#define SMM_LOCATE_H

#include <stddef.h>

/*
 * smm_find_stress_ng() - @given when it is an executable file, else
 * stress-ng from PATH. Return: the path, or NULL with one line in @err.
 */
const char *smm_find_stress_ng(const char *given, char *err, size_t len);

/* smm_plugin_path() - stress-mm.so next to this executable. */
void smm_plugin_path(char *buf, size_t len);

#endif /* SMM_LOCATE_H */
