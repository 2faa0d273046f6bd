// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-holder.c - the holder engine (worker/holder.h) on a fake ops table,
 * without stress-ng: a batch's clamp and failure rules, retries, and the
 * setup sequence (prepare, headroom clamp, room, probe, SKIP reasons).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include "holder.h"
#include "report.h"
#include "tap.h"
#include "vmpath.h"
#include "vmproof.h"

/* What the fake kind does, and what the engine did to it. */
struct fake {
	uint64_t makes; /* items an acquire makes before it stops */
	int err; /* the errno it stops with (0: it stops silently) */
	int nothing_first; /* acquires that make nothing, with err */
	uint64_t headroom;
	int prepare_err;
	/* observed */
	uint64_t acquires, released, room_cap, destroyed, asked;
};

static struct fake fk;

static int fake_prepare(void **ctx, const struct smm_vmpath_cfg *cfg, char *why,
			size_t len)
{
	(void)cfg;
	if (fk.prepare_err) {
		snprintf(why, len, "fake cannot prepare");
		return -fk.prepare_err;
	}
	*ctx = &fk;
	return 0;
}

static void fake_destroy(void *ctx)
{
	((struct fake *)ctx)->destroyed++;
}

static uint64_t fake_headroom(void *ctx, char *why, size_t len)
{
	snprintf(why, len, "the fake limit");
	return ((struct fake *)ctx)->headroom;
}

static int fake_room(void *ctx, uint64_t cap)
{
	((struct fake *)ctx)->room_cap = cap;
	return 0;
}

static uint64_t fake_acquire(void *ctx, uint64_t n, int *err)
{
	struct fake *f = ctx;

	f->acquires++;
	f->asked = n;
	*err = 0;
	if (f->nothing_first > 0) {
		f->nothing_first--;
		*err = f->err;
		return 0;
	}
	if (n <= f->makes)
		return n;
	*err = f->err;
	return f->makes;
}

static void fake_release(void *ctx, uint64_t n)
{
	((struct fake *)ctx)->released += n;
}

static const int fake_resource[] = { EMFILE, ENOSPC, 0 };
static const char *const no_callers[] = { "smm_no_such_caller", NULL };

/* Past the kernel-cache rule, a probe's "no area" is never proof of
 * nothing: the success paths use it so that they do not depend on
 * /proc/vmallocinfo. */
static struct smm_holder_ops fake_ops = {
	.name = "fake",
	.unit = "fakes",
	.verb = "fake_open",
	.first = "open a fake",
	.callers = no_callers,
	.per_item = 3,
	.resource = fake_resource,
	.retry_errno = EAGAIN,
	.cached_per_cpu = 100000,
	.cache = "the fake cache",
	.what = "fake things",
	.cannot = "the fake's own words",
	.no_area = "fakes hold nothing",
	.prepare = fake_prepare,
	.destroy = fake_destroy,
	.headroom = fake_headroom,
	.room = fake_room,
	.acquire = fake_acquire,
	.release = fake_release,
};

static const struct smm_vmpath_cfg cfg16 = {
	.stressor = "unit",
	.batch_var = "UNIT_BATCH",
	.bytes = 4096,
	.batch = 16,
};

static void reset(uint64_t makes, int err)
{
	memset(&fk, 0, sizeof(fk));
	fk.makes = makes;
	fk.err = err;
	fk.headroom = UINT64_MAX;
	smm_report_reset();
}

/* stderr into a file while the engine speaks, then back. */
static int saved_stderr = -1;
static FILE *capture;

static void capture_begin(void)
{
	fflush(stderr);
	capture = tmpfile();
	saved_stderr = dup(STDERR_FILENO);
	dup2(fileno(capture), STDERR_FILENO);
}

static void capture_end(char *buf, size_t len)
{
	size_t n;

	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	rewind(capture);
	n = fread(buf, 1, len - 1, capture);
	buf[n] = '\0';
	fclose(capture);
}

/* What a setup in a child left: its return, the fake's counts, its
 * words. */
struct cached_result {
	int rc;
	uint64_t asked, room_cap;
	char said[2048];
	char why[1024];
};

/* A kind that runs by rule where VmallocUsed cannot judge it. */
static bool fake_by_rule(void *ctx, char *why, size_t len)
{
	(void)ctx;
	snprintf(why, len, "fake rule");
	return true;
}

/*
 * smm_holder_setup() in a child that cannot read /proc/vmallocinfo (as
 * root: dropped to nobody), so that the proof is "not verified" whatever
 * the fake holds. Returns 0, or -1 with the reason in res->said.
 */
static int cached_setup(const struct smm_holder_ops *ops,
			const struct smm_vmpath_cfg *cfg,
			struct cached_result *res)
{
	int p[2], status;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(p) != 0) {
		snprintf(res->said, sizeof(res->said), "pipe: %s",
			 strerror(errno));
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct smm_holder *h = NULL;
		char why[1024];

		close(p[0]);
		if (geteuid() == 0 &&
		    (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		     setresuid(65534, 65534, 65534)))
			_exit(3);
		if (access("/proc/vmallocinfo", R_OK) == 0)
			_exit(4);
		capture_begin();
		why[0] = '\0';
		res->rc = smm_holder_setup(&h, ops, cfg, why, sizeof(why));
		snprintf(res->why, sizeof(res->why), "%s", why);
		capture_end(res->said, sizeof(res->said));
		res->asked = fk.asked;
		res->room_cap = fk.room_cap;
		smm_holder_free(h);
		if (write(p[1], res, sizeof(*res)) != (ssize_t)sizeof(*res))
			_exit(5);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], res, sizeof(*res)) != (ssize_t)sizeof(*res)) {
		waitpid(pid, &status, 0);
		snprintf(
			res->said, sizeof(res->said),
			"the child could not run it (exit %d: 3 cannot drop to nobody, 4 vmallocinfo still readable)",
			WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		close(p[0]);
		return -1;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	return 0;
}

/* A holder as smm_holder_setup() leaves it, without the setup. */
static struct smm_holder holder_of(uint64_t batch)
{
	struct smm_holder h = {
		.ops = &fake_ops,
		.ctx = &fk,
		.stressor = "unit",
		.batch = batch,
	};

	return h;
}

static void test_batch(void)
{
	struct smm_holder h;
	char what[256] = "", said[1024];
	uint64_t allocs = 0;
	int rc;

	reset(100, 0);
	h = holder_of(8);
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	tap_ok(rc == 0 && allocs == 24 && fk.released == 8 && h.batch == 8,
	       "batch: all made: 0, per_item x 8 allocations, all released");

	reset(5, EMFILE);
	h = holder_of(8);
	allocs = 0;
	capture_begin();
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	smm_holder_batch(&h, &allocs, what, sizeof(what));
	capture_end(said, sizeof(said));
	tap_ok(rc == 0 && h.batch == 8 && allocs == 30 && fk.released == 10 &&
		       fk.asked == 8,
	       "batch: a resource errno after 5 of 8 counts the 5, and the next bogo-op asks 8 again");
	tap_ok(strstr(said,
		      "unit: fake: a bogo-op made 5 of 8 fakes: fake_open errno=24 (Too many open files); each bogo-op asks 8 again\n") ==
			       said &&
		       strlen(said) ==
			       strlen("unit: fake: a bogo-op made 5 of 8 fakes: fake_open errno=24 (Too many open files); each bogo-op asks 8 again\n"),
	       "batch: the cut is said once, with the errno");
	tap_diag("said: %.*s", (int)strcspn(said, "\n"), said);

	reset(5, EINVAL);
	h = holder_of(8);
	allocs = 0;
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	tap_ok(rc == -EINVAL && h.batch == 8 && allocs == 15 &&
		       fk.released == 5 &&
		       strcmp(what, "fake: fake_open 6 of 8 fakes") == 0,
	       "batch: another errno is a failure naming the item (%s)", what);

	reset(0, EMFILE);
	h = holder_of(8);
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	tap_ok(rc == -EMFILE && h.batch == 8,
	       "batch: a resource errno with nothing made is -errno, for the caller to sort");

	reset(3, EINTR);
	h = holder_of(8);
	allocs = 0;
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	tap_ok(rc == 0 && h.batch == 8 && allocs == 9 && fk.released == 3,
	       "batch: EINTR (a signal) is neither a failure nor a clamp; what was made counts (%llu)",
	       (unsigned long long)allocs);

	reset(100, 0);
	fk.makes = 3; /* stops early without an errno */
	h = holder_of(8);
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	tap_ok(rc == -EIO, "batch: an acquire that stops silently is EIO");
}

static void test_retry(void)
{
	struct smm_holder h;
	char what[256];
	uint64_t allocs = 0;
	int rc;

	reset(100, EAGAIN);
	fk.nothing_first = 3;
	h = holder_of(4);
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	tap_ok(rc == 0 && fk.acquires == 4 && allocs == 12,
	       "retry: the retry errno with nothing made is retried (%llu acquires)",
	       (unsigned long long)fk.acquires);

	reset(100, EAGAIN);
	fk.nothing_first = 1000;
	h = holder_of(4);
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	tap_ok(rc == -EAGAIN && fk.acquires == SMM_HOLDER_RETRIES + 1,
	       "retry: at most %d retries, then a failure", SMM_HOLDER_RETRIES);

	reset(100, EMFILE);
	fk.nothing_first = 1;
	h = holder_of(4);
	rc = smm_holder_batch(&h, &allocs, what, sizeof(what));
	tap_ok(rc == -EMFILE && fk.acquires == 1,
	       "retry: other errnos are not retried");
	tap_ok(smm_holder_resource(&fake_ops, EMFILE) &&
		       smm_holder_resource(&fake_ops, ENOSPC) &&
		       !smm_holder_resource(&fake_ops, EAGAIN) &&
		       !smm_holder_resource(&fake_ops, 0),
	       "resource: exactly the table's errnos");
}

static void test_setup(void)
{
	struct smm_holder *h = NULL;
	char why[1024], said[2048];
	int rc;

	reset(100, 0);
	capture_begin();
	rc = smm_holder_setup(&h, &fake_ops, &cfg16, why, sizeof(why));
	capture_end(said, sizeof(said));
	tap_ok(rc == 0 && h && h->batch == 16 && fk.released >= 16 &&
		       fk.room_cap >= 16 && fk.room_cap == fk.asked,
	       "setup: room for the probe, probe released (probe %llu)",
	       (unsigned long long)fk.asked);
	tap_ok(strstr(said, "unit: fake: fake things") != NULL,
	       "setup: reports what the kind holds");
	tap_diag("said: %.*s", (int)strcspn(said, "\n"), said);
	smm_holder_free(h);
	tap_ok(fk.destroyed == 1, "free: destroys the context once");

	reset(100, 0);
	fk.headroom = 5;
	capture_begin();
	rc = smm_holder_setup(&h, &fake_ops, &cfg16, why, sizeof(why));
	capture_end(said, sizeof(said));
	tap_ok(rc == 0 && h->batch == 5 && fk.asked <= 5 &&
		       strstr(said,
			      "fake: batch clamped from 16 to 5 fakes: the fake limit\n"),
	       "setup: clamped to the headroom, probe within it, said once");
	smm_holder_free(h);

	{
		struct smm_holder_ops one = fake_ops;

		one.fixed_batch = 1;
		reset(100, 0);
		capture_begin();
		rc = smm_holder_setup(&h, &one, &cfg16, why, sizeof(why));
		capture_end(said, sizeof(said));
		tap_ok(rc == 0 && h->batch == 1 && !strstr(said, "clamped"),
		       "setup: a fixed batch is the batch, whatever cfg asks, without a clamp");
		smm_holder_free(h);
	}

	reset(100, 0);
	fk.headroom = 0;
	rc = smm_holder_setup(&h, &fake_ops, &cfg16, why, sizeof(why));
	tap_ok(rc == -EAGAIN && !h && fk.destroyed == 1 &&
		       strcmp(why, "fake: no headroom left: the fake limit") ==
			       0,
	       "setup: no headroom is a SKIP with EAGAIN (%s)", why);

	reset(100, 0);
	fk.prepare_err = ENOSYS;
	rc = smm_holder_setup(&h, &fake_ops, &cfg16, why, sizeof(why));
	tap_ok(rc == -ENOSYS && !h && fk.destroyed == 0 &&
		       strcmp(why, "fake: fake cannot prepare") == 0,
	       "setup: prepare's errno and reason are the SKIP (%s)", why);

	reset(0, EACCES);
	rc = smm_holder_setup(&h, &fake_ops, &cfg16, why, sizeof(why));
	tap_ok(rc == -EACCES && !h && fk.destroyed == 1 &&
		       strcmp(why,
			      "fake: cannot open a fake: fake_open errno=13 (Permission denied): the fake's own words") ==
			       0,
	       "setup: not one item is a SKIP with its errno (%s)", why);

	reset(7, ENOSPC);
	capture_begin();
	rc = smm_holder_setup(&h, &fake_ops, &cfg16, why, sizeof(why));
	capture_end(said, sizeof(said));
	tap_ok(rc == 0 && h->batch == 7 &&
		       strstr(said,
			      "fake: batch clamped from 16 to 7 fakes: fake_open errno=28 (No space left on device)"),
	       "setup: a resource errno in the probe clamps the batch");
	smm_holder_free(h);

	reset(7, EINVAL);
	rc = smm_holder_setup(&h, &fake_ops, &cfg16, why, sizeof(why));
	tap_ok(rc == -EINVAL && !h && fk.destroyed == 1 &&
		       strstr(why,
			      "fake: fake_open errno=22 (Invalid argument) after 7 of"),
	       "setup: another errno in the probe is a SKIP with it (%s)", why);
}

/* Without the kernel-cache rule, a probe that adds no area of the callers
 * to /proc/vmallocinfo is a SKIP; unreadable, it is "not verified". */
static void test_no_area(void)
{
	struct smm_holder_ops ops = fake_ops;
	struct smm_holder *h = NULL;
	char why[1024], said[2048];
	int rc;

	ops.cached_per_cpu = 0;
	reset(100, 0);
	capture_begin();
	rc = smm_holder_setup(&h, &ops, &cfg16, why, sizeof(why));
	capture_end(said, sizeof(said));
	if (access("/proc/vmallocinfo", R_OK) == 0) {
		tap_ok(rc == -EOPNOTSUPP && !h && fk.destroyed == 1 &&
			       strcmp(why,
				      "fake: 16 fakes added no smm_no_such_caller area to /proc/vmallocinfo: fakes hold nothing") ==
				       0,
		       "setup: no area of the callers is a SKIP (%s)", why);
	} else {
		tap_ok(rc == -EOPNOTSUPP && strstr(why, "VmallocUsed"),
		       "setup: unreadable vmallocinfo: no vmalloc pages in VmallocUsed is a SKIP (%s)",
		       why);
		smm_holder_free(h);
	}
	tap_ok(fk.asked == 16, "setup: the probe holds min(batch, %d) items",
	       SMM_PROBE_MAX);

	/* Where /proc/vmallocinfo is unreadable (a child that has dropped to
	 * nobody) the fake, which holds no vmalloc page, is measured by
	 * VmallocUsed: too few pages is "not judged" (the whole machine's
	 * count), no SKIP, no FAIL. */
	{
		struct cached_result res;

		struct smm_vmpath_cfg many = cfg16;

		many.batch = 64; /* 64 pages needed: above the noise */
		reset(1000, 0);
		if (cached_setup(&ops, &many, &res))
			tap_skip(
				"not root: too few VmallocUsed pages is not judged",
				"%s", res.said);
		else
			tap_ok(res.rc == 0 && strstr(res.said,
						     "not judged: VmallocUsed"),
			       "not root: a kind that adds too few VmallocUsed pages is not judged, no SKIP (rc %d: %.*s)",
			       res.rc,
			       (int)strcspn(strstr(res.said, "not judged")
						    ?: "",
					    "\n"),
			       strstr(res.said, "not judged") ?: "");
	}

	/* Batch 1 of a cached kind: the probe still gets past the cache, and
	 * the cache note is said. As root the fake would fail the proof
	 * (no area), so the setup runs where /proc/vmallocinfo is
	 * unreadable (a child that has dropped to nobody) and the fake runs
	 * by a rule, since it holds no vmalloc page to measure. */
	{
		struct smm_vmpath_cfg one = cfg16;
		struct cached_result res;

		ops.cached_per_cpu = 2;
		ops.by_rule = fake_by_rule;
		one.batch = 1;
		reset(1000, 0);
		if (cached_setup(&ops, &one, &res)) {
			tap_skip(
				"setup: a cached kind probes past the per-CPU cache",
				"%s", res.said);
			tap_skip(
				"setup: a cached kind with batch 1 says the cache serves most",
				"%s", res.said);
			return;
		}
		tap_ok(res.asked > 4 * (uint64_t)sysconf(
					       _SC_NPROCESSORS_ONLN) &&
			       res.room_cap == res.asked,
		       "setup: a cached kind probes past the per-CPU cache (%llu items for batch 1)",
		       (unsigned long long)res.asked);
		tap_ok(res.rc == 0 &&
			       strstr(res.said, "fake: batch 1 <= 2 x ") &&
			       strstr(res.said,
				      "most come from the kernel's per-CPU cache of freed ones (the fake cache), not from vmalloc"),
		       "setup: a cached kind with batch 1 says the cache serves most (rc %d: %.*s)",
		       res.rc,
		       (int)strcspn(strstr(res.said, "fake: batch") ?: "",
				    "\n"),
		       strstr(res.said, "fake: batch") ?: "");
	}
}

int main(void)
{
	tap_plan(26);
	test_batch();
	test_retry();
	test_setup();
	test_no_area();
	return tap_done();
}
