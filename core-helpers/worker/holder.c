// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * holder.c - the holder engine and the one setup sequence of every path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "holder.h"
#include "record.h"
#include "report.h"
#include "vmpath.h"
#include "vmproof.h"

bool smm_holder_resource(const struct smm_holder_ops *ops, int err)
{
	for (const int *e = ops->resource; e && *e; e++)
		if (*e == err)
			return true;
	return false;
}

void smm_holder_cut(const struct smm_holder *h, uint64_t made, const char *why)
{
	smm_note_once(
		NULL, h->stressor,
		"%s: a bogo-op made %llu of %llu %s: %s; each bogo-op asks %llu again",
		h->ops->name, (unsigned long long)made,
		(unsigned long long)h->batch, h->ops->unit, why,
		(unsigned long long)h->batch);
}

uint64_t smm_holder_acquire(const struct smm_holder *h, uint64_t n, int *err)
{
	const struct smm_holder_ops *ops = h->ops;
	uint64_t made = ops->acquire(h->ctx, n, err);

	for (int i = 0; i < SMM_HOLDER_RETRIES && made == 0 && *err &&
			*err == ops->retry_errno;
	     i++) {
		usleep(SMM_HOLDER_RETRY_US);
		made = ops->acquire(h->ctx, n, err);
	}
	if (made < n && !*err)
		*err = EIO; /* an acquire() that stopped without saying why */
	return made;
}

/* "<verb> errno=N (text)": why the kernel stopped an acquire. */
static void stopped_by(const struct smm_holder_ops *ops, int err, char *buf,
		       size_t len)
{
	snprintf(buf, len, "%s errno=%d (%s)", ops->verb, err, strerror(err));
}

int smm_holder_batch(struct smm_holder *h, uint64_t *allocs, char *what,
		     size_t len)
{
	const struct smm_holder_ops *ops = h->ops;
	char why[160];
	uint64_t made;
	int err;

	made = smm_holder_acquire(h, h->batch, &err);
	ops->release(h->ctx, made);
	*allocs += made * ops->per_item;
	/* A signal stopped the kernel (stress-ng's SIGALRM at the end of a
	 * run, in an ioctl that checks signal_pending()): nothing failed,
	 * and the stressor's loop decides whether to go on. */
	if (!err || err == EINTR)
		return 0;
	if (made > 0 && smm_holder_resource(ops, err)) {
		stopped_by(ops, err, why, sizeof(why));
		smm_holder_cut(h, made, why);
		return 0;
	}
	snprintf(what, len, "%s: %s %llu of %llu %s", ops->name, ops->verb,
		 (unsigned long long)made + 1, (unsigned long long)h->batch,
		 ops->unit);
	return -err;
}

void smm_holder_free(struct smm_holder *h)
{
	if (!h)
		return;
	if (h->ctx)
		h->ops->destroy(h->ctx);
	free(h);
}

/* ": <the kind's own words>", or "" when it has none. */
static void own_words(const struct smm_holder *h, int err, char *buf,
		      size_t len)
{
	const char *fixed = err ? h->ops->cannot : h->ops->no_area;
	char words[400] = "";

	if (h->ops->why_not)
		h->ops->why_not(h->ctx, err, words, sizeof(words));
	else if (fixed)
		snprintf(words, sizeof(words), "%s", fixed);
	snprintf(buf, len, "%s%s", words[0] ? ": " : "", words);
}

/*
 * Items the probe holds, and how many of them the kernel may serve from
 * its per-CPU cache without a new area (*cached).
 */
static uint64_t probe_items(const struct smm_holder *h, uint64_t asked,
			    uint64_t *cached)
{
	uint64_t probe = smm_probe_size(h->batch), want;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	*cached = 0;
	if (!h->ops->cached_per_cpu)
		return probe;
	*cached = (uint64_t)h->ops->cached_per_cpu * (uint64_t)ncpu + 4;
	want = 2 * *cached + 8;
	if (want > SMM_HOLDER_PROBE_CACHE_MAX)
		want = SMM_HOLDER_PROBE_CACHE_MAX;
	/* Past the cache whatever the batch, unless a limit clamped it. */
	if (probe < want)
		probe = h->batch < asked && want > h->batch ? h->batch : want;
	return probe;
}

/*
 * A clamp during setup: lower the batch now, say it (all of them in one
 * note) only once the kind is known to run.
 */
static void setup_clamp(struct smm_holder *h, uint64_t to, const char *why,
			char *said, size_t len)
{
	size_t used = strlen(said);

	h->batch = to;
	snprintf(said + used, len - used, "%s%s", used ? "; then " : "", why);
}

/* Pages the probe's @made items must add to VmallocUsed to be vmalloc
 * (one per allocation past the per-CPU cache). */
static int64_t pages_needed(const struct smm_holder *h, uint64_t made)
{
	return made > h->cached
		       ? (int64_t)((made - h->cached) * h->ops->per_item)
		       : 0;
}

/* Whether the proof could judge the kind, and whether the kind showed:
 * new areas of the callers, or (vmallocinfo unreadable) enough vmalloc
 * pages in VmallocUsed. A vmap kind without vmallocinfo cannot be
 * judged. */
static bool judged(const struct smm_holder *h,
		   const struct smm_vmproof_result *r)
{
	return !r->err || (r->used_ok && !h->ops->by_rule);
}

static bool showed(const struct smm_holder *h,
		   const struct smm_vmproof_result *r, uint64_t made)
{
	return !r->err ? r->count > 0 : r->used_pages >= pages_needed(h, made);
}

/* What the kind achieved where vmallocinfo is unreadable, recorded as
 * unproven (the callers were not seen) with what was measured instead;
 * @rule: ops->by_rule()'s words when the kind runs by rule, else NULL. */
static void report_unreadable(const struct smm_holder *h,
			      const struct smm_vmpath_cfg *cfg,
			      const char *what,
			      const struct smm_vmproof_result *r, uint64_t made,
			      const char *rule)
{
	const struct smm_holder_ops *ops = h->ops;
	char why[600], key[64];

	if (r->used_ok && !ops->by_rule && showed(h, r, made))
		snprintf(
			why, sizeof(why),
			"vmalloc by VmallocUsed: %+lld pages while %llu %s were held; callers not seen: /proc/vmallocinfo errno=%d",
			(long long)r->used_pages, (unsigned long long)made,
			ops->unit, -r->err);
	else if (r->used_ok && !ops->by_rule)
		snprintf(
			why, sizeof(why),
			"not judged: VmallocUsed %+lld pages while %llu %s were held, fewer than one each (it counts the whole machine); /proc/vmallocinfo errno=%d",
			(long long)r->used_pages, (unsigned long long)made,
			ops->unit, -r->err);
	else if (rule)
		snprintf(
			why, sizeof(why),
			"by rule (%s), not measured: /proc/vmallocinfo errno=%d",
			rule, -r->err);
	else
		snprintf(why, sizeof(why),
			 "kind not verified: /proc/vmallocinfo errno=%d (%s)",
			 -r->err, strerror(-r->err));
	smm_record_unproven(cfg->stats, ops->name, -r->err, why);
	snprintf(key, sizeof(key), "%s-achieved", ops->name);
	smm_note_once(key, cfg->stressor, "%s: %s: %s", ops->name, what, why);
}

/* Steps 4-6 of the sequence: prove, estimate, report. */
static int prove(struct smm_holder *h, const struct smm_vmpath_cfg *cfg,
		 uint64_t asked, uint64_t probe, uint64_t cached, char *clamps,
		 size_t clen, char *why, size_t len)
{
	const struct smm_holder_ops *ops = h->ops;
	char txt[160], more[420], rule[300] = "";
	bool ruled = false;
	struct smm_vmproof_result r;
	struct smm_vmproof p;
	uint64_t made, t0, ns;
	int err;

	for (int attempt = 1;; attempt++) {
		smm_vmproof_begin(&p, ops->callers);
		t0 = smm_now_ns();
		made = smm_holder_acquire(h, probe, &err);
		ns = smm_now_ns() - t0;
		smm_vmproof_end(&p, ops->callers, &r);
		t0 = smm_now_ns();
		ops->release(h->ctx, made);
		ns += smm_now_ns() - t0;
		/* No new area while other processes free theirs (a previous
		 * run's exiting threads, a lab's QEMU) was seen on a busy
		 * host: ask again before calling the kind unbacked. */
		if (!judged(h, &r) || showed(h, &r, made) || made <= cached ||
		    attempt == SMM_HOLDER_PROBES)
			break;
		usleep(100 * 1000);
	}
	if (made == 0) {
		own_words(h, err, more, sizeof(more));
		snprintf(why, len, "%s: cannot %s: %s errno=%d (%s)%s",
			 ops->name, ops->first, ops->verb, err, strerror(err),
			 more);
		return -err;
	}
	if (err && made < h->batch) {
		if (!smm_holder_resource(ops, err)) {
			snprintf(why, len,
				 "%s: %s errno=%d (%s) after %llu of %llu %s",
				 ops->name, ops->verb, err, strerror(err),
				 (unsigned long long)made,
				 (unsigned long long)probe, ops->unit);
			return -err;
		}
		stopped_by(ops, err, txt, sizeof(txt));
		setup_clamp(h, made, txt, clamps, clen);
	}
	/* decided by the kernel's rule, once, where nothing is measured */
	if (!judged(h, &r) && ops->by_rule) {
		ruled = ops->by_rule(h->ctx, rule, sizeof(rule));
		if (!ruled) {
			snprintf(
				why, len,
				"%s: left out by rule (%s), as a root run's proof would: /proc/vmallocinfo errno=%d",
				ops->name, rule, -r.err);
			return -EOPNOTSUPP;
		}
	}
	/* No area of the callers is a SKIP; too few pages in VmallocUsed,
	 * which counts the whole machine (a sibling worker's frees), is
	 * not judged: the kind runs and says so. */
	if (!r.err && r.count == 0 && made > cached) {
		own_words(h, 0, more, sizeof(more));
		snprintf(why, len,
			 "%s: %llu %s added no %s area to /proc/vmallocinfo%s",
			 ops->name, (unsigned long long)made, ops->unit,
			 ops->callers[0], more);
		return -EOPNOTSUPP;
	}
	if (clamps[0])
		smm_note_once(NULL, cfg->stressor,
			      "%s: batch clamped from %llu to %llu %s: %s",
			      ops->name, (unsigned long long)asked,
			      (unsigned long long)h->batch, ops->unit, clamps);
	smm_batch_estimate(cfg, ops->name, ns, made, h->batch);
	if (ops->describe)
		ops->describe(h->ctx, txt, sizeof(txt));
	else
		snprintf(txt, sizeof(txt), "%s", ops->what);
	if (judged(h, &r) && !showed(h, &r, made) && made <= cached) {
		snprintf(
			more, sizeof(more),
			"vmalloc backing not measured: %llu %s in the probe are within the kernel's per-CPU cache (%s)",
			(unsigned long long)made, ops->unit, ops->cache);
		smm_record_unproven(cfg->stats, ops->name, 0, more);
		smm_note_once(NULL, cfg->stressor, "%s: %s: %s", ops->name, txt,
			      more);
	}
	if (r.err)
		report_unreadable(h, cfg, txt, &r, made, ruled ? rule : NULL);
	else
		smm_vmproof_report(cfg, ops->name, txt, &r, made, ops->unit);
	return 0;
}

int smm_holder_setup(struct smm_holder **out, const struct smm_holder_ops *ops,
		     const struct smm_vmpath_cfg *cfg, char *why, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t room, probe, cached, asked;
	char txt[400] = "", clamps[400] = "";
	struct smm_holder *h;
	void *ctx = NULL;
	int rc;

	*out = NULL;
	/* 1. allocate: the kind's context, then the holder */
	rc = ops->prepare(&ctx, cfg, txt, sizeof(txt));
	if (rc) {
		snprintf(why, len, "%s: %s", ops->name, txt);
		return rc;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		ops->destroy(ctx);
		snprintf(why, len, "%s: out of memory", ops->name);
		return -ENOMEM;
	}
	h->ops = ops;
	h->ctx = ctx;
	h->stressor = cfg->stressor;
	h->batch = ops->fixed_batch ? ops->fixed_batch
		   : cfg->batch	    ? cfg->batch
				    : 1;
	asked = h->batch;
	/* 2. clamp to headroom */
	room = ops->headroom(ctx, txt, sizeof(txt));
	if (room == 0) {
		snprintf(why, len, "%s: no headroom left: %s", ops->name, txt);
		smm_holder_free(h);
		return -EAGAIN;
	}
	if (h->batch > room)
		setup_clamp(h, room, txt, clamps, sizeof(clamps));
	/* 3. room for the clamped batch (and a probe past the cache) */
	probe = probe_items(h, asked, &cached);
	if (ops->room(ctx, probe > h->batch ? probe : h->batch) != 0) {
		snprintf(why, len, "%s: out of memory for %llu %s", ops->name,
			 (unsigned long long)h->batch, ops->unit);
		smm_holder_free(h);
		return -ENOMEM;
	}
	h->probe = probe;
	h->cached = cached;
	/* 4-6. prove, estimate, report */
	rc = prove(h, cfg, asked, probe, cached, clamps, sizeof(clamps), why,
		   len);
	if (rc) {
		smm_holder_free(h);
		return rc;
	}
	if (ops->cached_per_cpu &&
	    h->batch <= (uint64_t)ops->cached_per_cpu * (uint64_t)ncpu)
		smm_note_once(
			NULL, cfg->stressor,
			"%s: batch %llu <= %u x %ld CPUs: most come from the kernel's per-CPU cache of freed ones (%s), not from vmalloc",
			ops->name, (unsigned long long)h->batch,
			ops->cached_per_cpu, ncpu, ops->cache);
	*out = h;
	return 0;
}

int smm_holder_verify(struct smm_holder *h, char *what, size_t len)
{
	const struct smm_holder_ops *ops = h->ops;
	struct smm_vmproof_result r;
	struct smm_vmproof p;
	uint64_t made;
	int err;

	for (int attempt = 1;; attempt++) {
		smm_vmproof_begin(&p, ops->callers);
		made = smm_holder_acquire(h, h->probe, &err);
		smm_vmproof_end(&p, ops->callers, &r);
		ops->release(h->ctx, made);
		if (made == 0 && err) {
			snprintf(what, len, "verify: %s: %s of the probe",
				 ops->name, ops->verb);
			return -err;
		}
		if (!judged(h, &r)) {
			snprintf(
				what, len,
				"%s: /proc/vmallocinfo errno=%d (%s)%s",
				ops->name, -r.err, strerror(-r.err),
				ops->by_rule
					? ", and VmallocUsed cannot tell this kind's pages (it runs by rule)"
					: "");
			return 1;
		}
		if (made <= h->cached) {
			snprintf(
				what, len,
				"its probe stayed within the kernel's per-CPU cache: not measured");
			return 0;
		}
		if (showed(h, &r, made)) {
			snprintf(
				what, len, "%s",
				r.err ? "its vmalloc pages show in /proc/meminfo VmallocUsed again"
				      : "its areas show in /proc/vmallocinfo again");
			return 0;
		}
		if (attempt == SMM_HOLDER_PROBES)
			break;
		usleep(100 * 1000);
	}
	if (r.err) {
		/* VmallocUsed counts the whole machine: not judged */
		snprintf(
			what, len,
			"%s: %llu live %s added %lld vmalloc pages to /proc/meminfo VmallocUsed, fewer than one each (it counts the whole machine)",
			ops->name, (unsigned long long)made, ops->unit,
			(long long)r.used_pages);
		return 1;
	}
	snprintf(
		what, len,
		"verify: %s: %llu live %s added no %s area to /proc/vmallocinfo",
		ops->name, (unsigned long long)made, ops->unit,
		ops->callers[0]);
	return -EBADMSG;
}
