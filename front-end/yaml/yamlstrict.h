/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yamlstrict.h - YAML that is not trusted (the reports stress-mm compare
 * reads), read once and parsed with bounds.
 *
 * A file is read once into memory (smm_read_bounded()): a FIFO or a
 * process substitution works like a file, and the byte bound is enforced
 * on the bytes actually read, so an endless stream stops at the bound.
 * A FIFO without a writer blocks in open(2), like cat(1).
 *
 * The parse (smm_yaml_parse_strict()) walks the event stream first and
 * refuses, before any tree is built: more than one document or none,
 * nesting deeper than a bound, more nodes than a bound, a tag (!!float,
 * !foo), an anchor or an alias (a report has none of them), a scalar with
 * a NUL byte in it. Then, on the tree: a mapping with the same scalar key
 * twice.
 */
#ifndef SMM_YAMLSTRICT_H
#define SMM_YAMLSTRICT_H

#include <stddef.h>
#include <yaml.h>

/*
 * smm_read_bounded() - the bytes of @path into *@buf (malloc'ed, with a
 * NUL after the *@len bytes).
 * Return: 0; -EFBIG (more than @max bytes were read), -EISDIR, -ENOMEM,
 * or -errno of open(2)/read(2); @err says which in words.
 */
int smm_read_bounded(const char *path, size_t max, unsigned char **buf,
		     size_t *len, char *err, size_t elen);

/*
 * smm_yaml_parse_strict() - @len bytes at @buf into @doc, at most
 * @max_depth nested collections and @max_nodes nodes.
 * Return: 0; -ELOOP (too deep), -E2BIG (too many nodes), -EEXIST (a
 * duplicate key, named in @err), -EINVAL (not YAML, empty, more than one
 * document, a tag, anchor, alias or NUL), -ENOMEM; @err says which.
 */
int smm_yaml_parse_strict(const unsigned char *buf, size_t len,
			  yaml_document_t *doc, int max_depth, size_t max_nodes,
			  char *err, size_t elen);

/* smm_yaml_load_strict() - smm_read_bounded() of @path (@max_bytes), then
 * smm_yaml_parse_strict(); same returns. */
int smm_yaml_load_strict(const char *path, yaml_document_t *doc,
			 size_t max_bytes, int max_depth, size_t max_nodes,
			 char *err, size_t elen);

#endif /* SMM_YAMLSTRICT_H */
