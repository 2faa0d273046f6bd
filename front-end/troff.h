/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * troff.h - text for a man page (groff_man(7)): the front end's page
 * (front-end/docgen.c).
 */
#ifndef SMM_TROFF_H
#define SMM_TROFF_H

#include <stdio.h>

/*
 * smm_troff_text() - write @s to @f as troff text: '-' as "\-" (a minus
 * sign, so that options copy and search as typed) and '\' as "\e"; every
 * other byte as it is.
 */
void smm_troff_text(FILE *f, const char *s);

#endif /* SMM_TROFF_H */
