// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * yamldoc.c - libyaml document helpers for the report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "yamldoc.h"

#define PLAIN YAML_PLAIN_SCALAR_STYLE

int smm_yaml_load(const char *path, yaml_document_t *doc)
{
	yaml_parser_t parser;
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	if (!yaml_parser_initialize(&parser)) {
		fclose(f);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&parser, f);
	ok = yaml_parser_load(&parser, doc);
	yaml_parser_delete(&parser);
	fclose(f);
	if (!ok)
		return -EINVAL;
	if (!yaml_document_get_root_node(doc)) {
		yaml_document_delete(doc);
		return -EINVAL;
	}
	return 0;
}

static int is_scalar(yaml_node_t *n, const char *s)
{
	return n && n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.length == strlen(s) &&
	       memcmp(n->data.scalar.value, s, n->data.scalar.length) == 0;
}

int smm_yaml_get(yaml_document_t *doc, int map, const char *key)
{
	yaml_node_t *m = yaml_document_get_node(doc, map);

	if (!m || m->type != YAML_MAPPING_NODE)
		return 0;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++)
		if (is_scalar(yaml_document_get_node(doc, p->key), key))
			return p->value;
	return 0;
}

int smm_yaml_copy(yaml_document_t *dst, yaml_document_t *src, int node,
		  const char *from, const char *to)
{
	yaml_node_t *n = yaml_document_get_node(src, node);
	int out = 0;

	if (!n)
		return 0;
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return yaml_document_add_scalar(dst, NULL, n->data.scalar.value,
						(int)n->data.scalar.length,
						n->data.scalar.style);
	case YAML_SEQUENCE_NODE:
		out = yaml_document_add_sequence(dst, NULL,
						 YAML_BLOCK_SEQUENCE_STYLE);
		for (yaml_node_item_t *i = n->data.sequence.items.start;
		     out && i < n->data.sequence.items.top; i++)
			yaml_document_append_sequence_item(
				dst, out,
				smm_yaml_copy(dst, src, *i, from, to));
		return out;
	case YAML_MAPPING_NODE:
		out = yaml_document_add_mapping(dst, NULL,
						YAML_BLOCK_MAPPING_STYLE);
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     out && p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(src, p->key);
			yaml_node_t *v = yaml_document_get_node(src, p->value);
			int kk = smm_yaml_copy(dst, src, p->key, from, to);
			int vv;

			if (from && is_scalar(k, "stressor") &&
			    is_scalar(v, from))
				vv = yaml_document_add_scalar(dst, NULL,
							      (yaml_char_t *)to,
							      -1, PLAIN);
			else
				vv = smm_yaml_copy(dst, src, p->value, from,
						   to);
			yaml_document_append_mapping_pair(dst, out, kk, vv);
		}
		return out;
	default:
		return 0;
	}
}

static void pair(yaml_document_t *d, int map, const char *key, int value)
{
	int k = yaml_document_add_scalar(d, NULL, (yaml_char_t *)key, -1,
					 PLAIN);

	yaml_document_append_mapping_pair(d, map, k, value);
}

void smm_yaml_str(yaml_document_t *d, int map, const char *key,
		  const char *value)
{
	pair(d, map, key,
	     yaml_document_add_scalar(d, NULL, (yaml_char_t *)value, -1,
				      YAML_ANY_SCALAR_STYLE));
}

void smm_yaml_u64(yaml_document_t *d, int map, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	pair(d, map, key,
	     yaml_document_add_scalar(d, NULL, (yaml_char_t *)buf, -1, PLAIN));
}

void smm_yaml_i64(yaml_document_t *d, int map, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	pair(d, map, key,
	     yaml_document_add_scalar(d, NULL, (yaml_char_t *)buf, -1, PLAIN));
}

void smm_yaml_dbl(yaml_document_t *d, int map, const char *key, double v)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%.6f", v);
	pair(d, map, key,
	     yaml_document_add_scalar(d, NULL, (yaml_char_t *)buf, -1, PLAIN));
}

int smm_yaml_map(yaml_document_t *d, int map, const char *key)
{
	int m = yaml_document_add_mapping(d, NULL, YAML_BLOCK_MAPPING_STYLE);

	pair(d, map, key, m);
	return m;
}

int smm_yaml_seq(yaml_document_t *d, int map, const char *key)
{
	int s = yaml_document_add_sequence(d, NULL, YAML_BLOCK_SEQUENCE_STYLE);

	pair(d, map, key, s);
	return s;
}

int smm_yaml_item_map(yaml_document_t *d, int seq)
{
	int m = yaml_document_add_mapping(d, NULL, YAML_BLOCK_MAPPING_STYLE);

	yaml_document_append_sequence_item(d, seq, m);
	return m;
}

void smm_yaml_item_str(yaml_document_t *d, int seq, const char *value)
{
	yaml_document_append_sequence_item(
		d, seq,
		yaml_document_add_scalar(d, NULL, (yaml_char_t *)value, -1,
					 YAML_ANY_SCALAR_STYLE));
}

int smm_yaml_write(yaml_document_t *doc, const char *path)
{
	yaml_emitter_t em;
	FILE *f;
	int ok, err;

	f = fopen(path, "we");
	if (!f) {
		yaml_document_delete(doc);
		return -errno;
	}
	if (!yaml_emitter_initialize(&em)) {
		fclose(f);
		unlink(path);
		yaml_document_delete(doc);
		errno = ENOMEM;
		return -ENOMEM;
	}
	yaml_emitter_set_output_file(&em, f);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1); /* one line per scalar, for grep */
	errno = 0; /* what a failed write leaves is the cause */
	ok = yaml_emitter_open(&em) && yaml_emitter_dump(&em, doc) &&
	     yaml_emitter_close(&em);
	err = ok ? 0 : (errno ? errno : EIO);
	yaml_emitter_delete(&em);
	if (fclose(f) != 0 && !err)
		err = errno;
	if (err) {
		unlink(path); /* no half a report */
		errno = err;
	}
	return -err;
}
