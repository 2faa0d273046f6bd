# stress-mm: stress-ng plugin stressors for Linux memory-management work.
#
#   make            build build/stress-mm, build/stress-mm.so, its man page
#                   and completion, the test programs, the benchmark
#                   programs, and the front end and fuzz replays under
#                   ASan (build/asan/)
#   make run        install what is missing, build, run vmalloc-order ~20 s
#   make check      install what is missing, build, run the test suite
#   make deps       install the Debian packages the build and tests need
#   make lint       every static check: clang-format, cppcheck, clang-tidy,
#                   shellcheck, checkpatch.pl on module/ (LINT_CHECKS)
#   make install    (and uninstall, deb, deb-check: Makefile.install)
#   make stress-ng  stress-ng with vmalloc-order and shm-pcp built in, into
#                   build/stress-ng/ (STRESS_NG_SRC=DIR|TARBALL, default
#                   ../shared/fixtures/stress-ng-0.22.00.tar.xz)
#   make mmtests-check MMTESTS=DIR
#                   our stressors through mmtests (a checkout in DIR):
#                   mmtests/0*.patch, run-mmtests.sh twice,
#                   compare-kernels.sh (doc/engines.md); minutes
#   make upstream, upstream-check
#                   the patch series for stress-ng master, and its heavy
#                   checks (Makefile.upstream, doc/upstream.md)
#   make lab, lab-kernels, lab-ab, lab-native, lab-fingerprint,
#        lab-mmtests, lab-module, lab-module-bench, module
#                   other kernels under QEMU, kernels built from source,
#                   our kernel module (below; doc/lab.md, doc/module.md)
#   make fuzz       the fuzz targets (below)
#   make clean
# Benchmarks are scripts, not targets: bench/ (doc/bench.md).

BUILD   ?= build
CC      ?= gcc
WARN    := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wundef
CFLAGS  ?= -O2 -g
BASE_CFLAGS := -std=gnu11 $(WARN) $(CPPFLAGS) $(CFLAGS) -fPIC \
	-fvisibility=hidden -D_GNU_SOURCE -I$(BUILD)
PROBE_CFLAGS := -std=gnu11 -D_GNU_SOURCE

# Three worlds, one folder and one archive each (doc/layout.md):
# common (both sides read), worker (inside stress-ng's sandboxed workers)
# and front-end (the privileged stress-mm command). A folder's code sees
# only its own headers and common's: worker code cannot even include a
# front-end header, and the plugin links no front-end archive and no
# libyaml (-z defs proves that nothing is missing; test/11-layout.t reads
# its NEEDED entries).
COMMON_INC := -Icommon -Imodule -I.
WORKER_INC := $(COMMON_INC) -Iworker
# The front end is in parts by job (front-end/README.md), each
# compiled with its own folder and those of the parts below it on the
# include path, lowest first: yaml, host, counters, the run model at the
# folder's top, run, report, compare; main.c sees them all. An include
# that runs back up does not compile (test/11-layout.t says which).
FE_DIR := front-end
FE_INC_yaml     := $(COMMON_INC) -Ibpf -I$(FE_DIR)/yaml
FE_INC_host     := $(FE_INC_yaml) -I$(FE_DIR)/host
FE_INC_counters := $(FE_INC_host) -I$(FE_DIR)/counters
FE_INC_model    := $(FE_INC_counters) -I$(FE_DIR)
FE_INC_run      := $(FE_INC_model) -I$(FE_DIR)/run
FE_INC_report   := $(FE_INC_run) -I$(FE_DIR)/report
FE_INC_compare  := $(FE_INC_report) -I$(FE_DIR)/compare
FE_INC := $(FE_INC_compare)
FE_PARTS := yaml host counters run report compare
# fe_inc SRC: the include path of front-end file SRC's part
fe_inc = $(if $(filter $(FE_DIR)/main.c,$1),$(FE_INC),$(or $(strip \
	$(foreach p,$(FE_PARTS),$(if $(filter $(FE_DIR)/$p/%,$1),$(FE_INC_$p)))),$(FE_INC_model)))
WORKER_LIBS = -lbsd -lpthread
FE_LIBS  = -lyaml -lbsd -lm -lkmod -lbpf -lpthread

# The front end's BPF counters (bpf/): compiled by clang for the BPF
# target, CO-RE relocated by libbpf at load time (so built once for any
# kernel with BTF), wrapped in a skeleton header by bpftool.
BPF_CLANG ?= clang
BPF_ARCH  := $(shell uname -m | sed 's/x86_64/x86/; s/aarch64/arm64/; s/ppc64le/powerpc/; s/s390x/s390/')
BPF_MULTIARCH := $(shell $(CC) -print-multiarch 2> /dev/null)
BPF_CFLAGS := -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_$(BPF_ARCH) \
	$(if $(BPF_MULTIARCH),-I/usr/include/$(BPF_MULTIARCH)) -Ibpf
BPF_SKEL := $(BUILD)/counters.skel.h

COMMON_SRCS := $(sort $(wildcard common/*.c))
WORKER_SRCS := $(sort $(wildcard worker/*.c))
FE_LIB_SRCS := $(filter-out $(FE_DIR)/main.c,$(sort $(wildcard $(FE_DIR)/*.c \
	$(FE_PARTS:%=$(FE_DIR)/%/*.c))))
CORE_SRCS := $(COMMON_SRCS) $(WORKER_SRCS) $(FE_LIB_SRCS)
# The plugin compiles the stressor files themselves (STRESSOR_FILES): each
# glue file includes one of them, with plugin/compat/ first on the include
# path so that their "stress-ng.h" is ours (plugin/README.md).
PLUGIN_SRCS := plugin/compat.c plugin/vmalloc-module.c plugin/methods.c plugin/settings.c \
	plugin/shm-pcp.c plugin/vmalloc-order.c
PLUGIN_HDRS := $(wildcard plugin/*.h plugin/compat/*.h)
PLUGIN_INC := -Iplugin/compat -Iplugin $(WORKER_INC)
STRESSOR_FILES := $(shell scripts/stressor-files)
# The core's files: compiled as they are, each its own object of the
# plugin. The plain C ones (libc only) are libcommon's: both worlds link
# them.
PLAIN_STRESSOR_SRCS := core-vmallocinfo.c core-shm-pcp.c
STRESSOR_PARTS := $(filter-out $(PLAIN_STRESSOR_SRCS), \
	$(filter core-%.c,$(STRESSOR_FILES)))
PLUGIN_OBJS := $(PLUGIN_SRCS:%.c=$(BUILD)/obj/%.o) \
	$(STRESSOR_PARTS:%.c=$(BUILD)/obj/stressor/%.o)
FE_SRCS := $(FE_DIR)/main.c
LIBCOMMON := $(BUILD)/libcommon.a
LIBWORKER := $(BUILD)/libworker.a
LIBFE     := $(BUILD)/libfrontend.a
ALL_HDRS := $(wildcard common/*.h worker/*.h $(FE_DIR)/*.h \
	$(FE_PARTS:%=$(FE_DIR)/%/*.h))
# generated from the stressor files: the ranges and defaults of their
# size and count options (scripts/stressor-opts), for params-table.c
GEN_HDRS := $(BUILD)/stressor-opts.h

UNIT_SRCS := $(sort $(wildcard test/unit-*.c))
UNIT_BINS := $(UNIT_SRCS:test/%.c=$(BUILD)/test/%.t)
HELPER_SRCS := $(sort $(wildcard test/helpers/*.c))
HELPER_BINS := $(HELPER_SRCS:test/helpers/%.c=$(BUILD)/test/%)
SHELL_TESTS := $(sort $(wildcard test/[0-9]*.t))
TEST_INC := -Itest $(WORKER_INC) $(FE_INC)
TEST_LIBS = $(LIBFE) $(LIBWORKER) $(LIBCOMMON) $(FE_LIBS) $(WORKER_LIBS)

# The suite runs serially: the kernel-log mark first, the native
# stressors' tests after the others (make check builds their stress-ng
# meanwhile: scripts/check), the kernel-log check last.
NATIVE_TESTS := $(foreach t,$(SHELL_TESTS),$(if $(findstring -native-,$(t)),$(t)))
TESTS := $(filter test/00-%,$(SHELL_TESTS)) $(UNIT_BINS) \
	$(filter-out test/00-% test/99-% $(NATIVE_TESTS),$(SHELL_TESTS)) \
	$(NATIVE_TESTS) $(filter test/99-%,$(SHELL_TESTS))

BENCH_BINS := $(BUILD)/bench/shm-loop $(BUILD)/bench/gate-sim \
	$(BUILD)/bench/event-cost

.PHONY: all deps check run lint clean lab lab-kernels lab-fingerprint lab-ab lab-native \
	stress-ng upstream upstream-check mmtests-check lab-mmtests
all: $(BUILD)/stress-mm.so $(BUILD)/stress-mm $(BUILD)/stress-mm.1 \
	$(BUILD)/stress-mm.bash-completion $(UNIT_BINS) $(HELPER_BINS) \
	$(BENCH_BINS)

include Makefile.config
include Makefile.install
include Makefile.upstream

$(BUILD)/stressor-opts.h: scripts/stressor-opts $(filter stress-%.c,$(STRESSOR_FILES))
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@scripts/stressor-opts $(filter stress-%.c,$(STRESSOR_FILES)) > $@.tmp || \
		{ rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

$(BUILD)/obj/common/%.o: common/%.c $(BUILD)/config.h $(ALL_HDRS) $(GEN_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(BASE_CFLAGS) $(COMMON_INC) -c $< -o $@

$(BUILD)/obj/worker/%.o: worker/%.c $(BUILD)/config.h $(ALL_HDRS) $(GEN_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(BASE_CFLAGS) $(WORKER_INC) -c $< -o $@

$(BUILD)/bpf/counters.bpf.o: bpf/counters.bpf.c bpf/smm-counts.h bpf/smm-kernel.h
	@mkdir -p $(dir $@)
	@echo "  BPF     $<"
	@$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BPF_SKEL): $(BUILD)/bpf/counters.bpf.o
	@echo "  SKEL    $@"
	@bpftool gen skeleton $< name smm_counters_bpf | \
		sed '/^\treturn err;$$/s|$$| /* NOLINT(clang-analyzer-unix.Malloc): bpf_object__destroy_skeleton() frees it */|' \
		> $@.tmp && mv $@.tmp $@

$(BUILD)/obj/$(FE_DIR)/%.o: $(FE_DIR)/%.c $(BUILD)/config.h $(ALL_HDRS) $(GEN_HDRS) $(BPF_SKEL) bpf/smm-counts.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(BASE_CFLAGS) $(call fe_inc,$<) -c $< -o $@

$(BUILD)/obj/plugin/%.o: plugin/%.c $(BUILD)/config.h $(ALL_HDRS) $(GEN_HDRS) $(PLUGIN_HDRS) \
		$(STRESSOR_FILES)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(BASE_CFLAGS) $(PLUGIN_INC) -c $< -o $@

$(BUILD)/obj/stressor/%.o: %.c $(BUILD)/config.h $(PLUGIN_HDRS) $(STRESSOR_FILES)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(BASE_CFLAGS) $(PLUGIN_INC) -c $< -o $@

$(LIBCOMMON): $(COMMON_SRCS:%.c=$(BUILD)/obj/%.o) \
	$(PLAIN_STRESSOR_SRCS:%.c=$(BUILD)/obj/stressor/%.o)
$(LIBWORKER): $(WORKER_SRCS:%.c=$(BUILD)/obj/%.o)
$(LIBFE): $(FE_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
$(LIBCOMMON) $(LIBWORKER) $(LIBFE):
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

$(BUILD)/stress-mm.so: $(PLUGIN_OBJS) $(LIBWORKER) $(LIBCOMMON)
	@echo "  LD      $@"
	@$(CC) -shared -Wl,-z,defs -Wl,--as-needed $(LDFLAGS) -o $@ \
		$(PLUGIN_OBJS) $(LIBWORKER) $(LIBCOMMON) \
		$(WORKER_LIBS)

$(BUILD)/stress-mm: $(FE_SRCS:%.c=$(BUILD)/obj/%.o) $(LIBFE) $(LIBCOMMON)
	@echo "  LD      $@"
	@$(CC) -Wl,-z,defs -Wl,--as-needed $(LDFLAGS) -o $@ \
		$(FE_SRCS:%.c=$(BUILD)/obj/%.o) \
		$(LIBFE) $(LIBCOMMON) $(FE_LIBS)

# The man page and the completion come from the parameter tables.
$(BUILD)/stress-mm.1: $(BUILD)/stress-mm
	@echo "  GEN     $@"
	@$(BUILD)/stress-mm --man > $@

$(BUILD)/stress-mm.bash-completion: $(BUILD)/stress-mm
	@echo "  GEN     $@"
	@$(BUILD)/stress-mm --completion > $@

$(BUILD)/test/%.t: test/%.c test/tap.h $(LIBFE) $(LIBWORKER) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) $(TEST_INC) -o $@ $< $(TEST_LIBS)

$(BUILD)/test/%: test/helpers/%.c $(LIBFE) $(LIBWORKER) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) $(TEST_INC) -o $@ $< $(TEST_LIBS)

# The gate simulator runs the front end's own gate (gate.h).
$(BUILD)/bench/gate-sim: bench/gate-sim.c $(LIBFE) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) $(FE_INC) -o $@ $< $(LIBFE) $(LIBCOMMON) $(FE_LIBS)

# The cost per counted event runs the front end's counters (counters.h).
$(BUILD)/bench/event-cost: bench/event-cost.c $(LIBFE) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) $(FE_INC) -o $@ $< $(LIBFE) $(LIBCOMMON) $(FE_LIBS)

$(BUILD)/bench/%: bench/%.c $(BUILD)/config.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) -o $@ $<

# stress-ng with our stressors built in (native/, doc/native.md): the
# top-level stressor files, registered as the upstream series registers
# them; native/build.sh copies and registers a stress-ng tree once per
# source and lets stress-ng's make rebuild only what changed.
stress-ng:
	+@MAKE="$(MAKE)" native/build.sh $(BUILD)

# Our stressors through mmtests (github.com/gormanm/mmtests, a checkout
# in MMTESTS): mmtests/0*.patch applied to a copy, the series' stress-ng
# as its source tarball, run-mmtests.sh twice and compare-kernels.sh on
# the runs and on a copy with a planted 20% drop (mmtests/check.sh,
# doc/engines.md). Without MMTESTS, or with one that is no mmtests
# tree, it refuses in one line (exit 2). make check runs it
# (test/79-native-mmtests.t) only when MMTESTS is set: mmtests builds
# stress-ng itself, about 4 minutes on 2 CPUs.
mmtests-check:
	@MAKE="$(MAKE)" mmtests/check.sh $(BUILD)

deps:
	@scripts/deps

# The native stressors are built and tested when a stress-ng source is
# there (the default fixture, or STRESS_NG_SRC): scripts/check builds
# their stress-ng while the other tests run; their tests skip, saying
# why, when there is none.
check: deps
	@$(MAKE) --no-print-directory all
	@MAKE="$(MAKE)" scripts/check --build $(BUILD) $(TESTS)

# Other kernels under QEMU (lab/lab.sh): KERNELS, STRESS_MM_ARGS,
# GUEST_CPUS, GUEST_MEM.
lab: deps
	@$(MAKE) --no-print-directory all
	@lab/lab.sh

# Lab kernels built from Debian's linux-source-X (lab/kbuild.sh): the
# unpatched kernel and one variant per patch, cached. KERNEL_SRC (default
# 7.2), PATCHES (default lab/patches/*.patch), LAB_KCACHE (default
# build/lab-kernels), JOBS. Not part of make check (about 13 min).
lab-kernels:
	@lab/kbuild.sh build

# The fingerprint alone (no stress-mm runs), by default on the four
# kernels of the A/B question: Debian's 6.12 and 7.2, and 7.2 built here
# without and with vfree-per-page.
LAB_FP_KERNELS = trixie sid built-$(or $(KERNEL_SRC),7.2) built-$(or $(KERNEL_SRC),7.2)+vfree-per-page
# The A/B lab (lab/ab.sh): KERNEL_SRC, PATCHES, GUEST_CPUS, RUNS, ROUNDS, DURATION,
# AB_WORKLOADS, AB_EXTRA, AB_OUT. Hours under TCG; not part of make check.
lab-ab: deps
	@$(MAKE) --no-print-directory all
	@lab/ab.sh

# The vfree change's A/B through mmtests in the guests, beside stress-mm
# compare on the same boots (lab/mmtests-ab.sh, doc/engines.md).
lab-mmtests: deps
	@$(MAKE) --no-print-directory all
	@lab/mmtests-ab.sh

lab-fingerprint: deps
	@$(MAKE) --no-print-directory all
	@KERNELS="$(or $(KERNELS),$(LAB_FP_KERNELS))" LAB_CHURNS= lab/lab.sh

# The stressors built into stress-ng in a guest (doc/native.md): stack
# built in, and path module and churn module through the plugin in the
# same stress-ng, where the module loads (default built-7.2);
# lab/native-check.sh says what ran.
lab-native: deps
	@$(MAKE) --no-print-directory all stress-ng
	@KERNELS="$(or $(KERNELS),built-$(or $(KERNEL_SRC),7.2))" LAB_NATIVE=1 \
		LAB_WORKLOADS=lab/native.workloads LAB_CHURNS= lab/lab.sh
	@lab/native-check.sh $(addprefix $(or $(LAB_OUT),$(BUILD)/lab)/,$(or $(KERNELS),built-$(or $(KERNEL_SRC),7.2)))

# --- our kernel module (module/, issue 14) ----------------------------------
# make module [KERNEL=built-7.2|built-7.2+VARIANT|sid|trixie|<Debian
#   version>]: stress_mm_vmalloc.ko for that kernel in
#   build/module/<release>/ (lab/modbuild.sh: against a lab/kbuild.sh tree
#   in LAB_KCACHE, or Debian's linux-headers in a chroot of its suite).
# make module-tools: the static in-guest programs (smm-vmctl, tv-summary).
# make lab-module [KERNELS=...]: build, load, prove, fuzz and unload it in
#   one guest per kernel (default built-7.2 and sid); module.tap each.
# make lab-module-bench [KERNELS=...] [BENCH_REPEATS=5]: ns per
#   vmalloc+vfree by order next to test_vmalloc (default built-7.2 and
#   built-7.2+vmalloc-order0-alloc); lab/modtable.sh prints the table.
#   By default on one vCPU under "-icount shift=0" (BENCH_ICOUNT=0: not): the
#   guest's clock advances 1 ns per emulated instruction, so the times
#   are what the code executes, not what a busy host let QEMU run (plain
#   TCG varied 2-8x between repeats here); memory-system costs (cache
#   misses, lock contention) do not show. BENCH_ICOUNT=0 GUEST_CPUS=2
#   gives plain TCG wall-clock times.
# make lint-module: clang-format, cppcheck and clang-tidy on the in-guest
#   programs (part of make lint, which also covers the parser and its unit
#   test).
# None of it is part of make check but test/89-module.t (build, no
# loading: this host has no module support) and make lint's lint-module
# and lint-checkpatch.
MODTOOLS_DIR := $(BUILD)/module-tools
MODTOOLS := $(MODTOOLS_DIR)/smm-vmctl $(MODTOOLS_DIR)/tv-summary
VMCTL_SRCS := test/module/smm-vmctl.c test/module/vmctl-checks.c \
	test/module/vmctl-fuzz.c
TVS_SRCS := test/module/tv-summary.c $(FE_DIR)/host/test-vmalloc-log.c
MODTOOLS_SRCS := $(VMCTL_SRCS) test/module/tv-summary.c
STATIC_CFLAGS := -std=gnu11 $(WARN) -O2 -static -D_GNU_SOURCE
KERNEL ?= built-7.2

.PHONY: module module-tools lab-module lab-module-bench lint-module
module-tools: $(MODTOOLS)

$(MODTOOLS_DIR)/smm-vmctl: $(VMCTL_SRCS) test/module/vmctl.h module/stress-mm-vmalloc.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@ (static)"
	@$(CC) $(STATIC_CFLAGS) -Imodule -Itest/module -o $@ $(VMCTL_SRCS)

$(MODTOOLS_DIR)/tv-summary: $(TVS_SRCS) $(FE_DIR)/host/test-vmalloc-log.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@ (static)"
	@$(CC) $(STATIC_CFLAGS) -I$(FE_DIR)/host -o $@ $(TVS_SRCS)

module:
	@lab/modbuild.sh $(KERNEL)

lab-module: deps
	@$(MAKE) --no-print-directory all module-tools
	@KERNELS="$(or $(KERNELS),built-$(or $(KERNEL_SRC),7.2) sid)" \
		LAB_MODULE=1 LAB_CHURNS= lab/lab.sh

lab-module-bench: deps
	@$(MAKE) --no-print-directory all module-tools
	@KERNELS="$(or $(KERNELS),built-$(or $(KERNEL_SRC),7.2) built-$(or $(KERNEL_SRC),7.2)+vmalloc-order0-alloc)" \
		GUEST_CPUS=$(or $(GUEST_CPUS),1) LAB_ACCEL=tcg \
		LAB_QEMU_EXTRA="$(if $(filter 0,$(BENCH_ICOUNT)),,-icount shift=0)" \
		LAB_MODULE=bench LAB_CHURNS= lab/lab.sh

lint-module:
	clang-format --dry-run --Werror $(MODTOOLS_SRCS) test/module/vmctl.h
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr -D_GNU_SOURCE -Imodule -Itest/module \
		-I$(FE_DIR)/host $(MODTOOLS_SRCS)
	clang-tidy --quiet $(MODTOOLS_SRCS) -- -std=gnu11 $(WARN) -D_GNU_SOURCE \
		-Imodule -Itest/module -I$(FE_DIR)/host

run: deps
	@$(MAKE) --no-print-directory all
	@scripts/run-vmalloc-order

# make lint: every static check of the tree, one target each (LINT_CHECKS)
# so that a failure names its check; make check runs them once, through
# test/12-lint.t, which reports one TAP line per check. A check whose tool
# or input is missing prints "lint: SKIP <reason>" and passes.
LINT_CHECKS := lint-format lint-cppcheck lint-tidy lint-gate lint-module \
	lint-shell lint-checkpatch
.PHONY: $(LINT_CHECKS) lint-checks
lint: $(LINT_CHECKS)
lint-checks:
	@echo $(LINT_CHECKS)

# clang-tidy runs once per file, so that make -jN lint runs N at a time
# (test/12-lint.t does); a file's stamp in $(BUILD)/tidy/ says it passed,
# and goes stale when the file or any of our headers changes.
# The plugin's files are linted with their own include path (plugin/compat/
# first); the stressor files they include are in stress-ng's style, not
# ours, and clang-format does not see them.
TIDY_SRCS := $(CORE_SRCS) $(PLUGIN_SRCS) $(FE_SRCS)
TIDY_STAMPS := $(TIDY_SRCS:%.c=$(BUILD)/tidy/%.ok)
lint-format:
	clang-format --dry-run --Werror $(CORE_SRCS) $(PLUGIN_SRCS) $(FE_SRCS) \
		$(ALL_HDRS) $(PLUGIN_HDRS) $(UNIT_SRCS) $(HELPER_SRCS) test/tap.h \
		bpf/*.c bpf/*.h
lint-cppcheck: $(BUILD)/config.h $(GEN_HDRS) $(BPF_SKEL)
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr -D_GNU_SOURCE -I$(BUILD) $(TEST_INC) \
		$(CORE_SRCS) $(FE_SRCS)
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr -D_GNU_SOURCE -I$(BUILD) $(PLUGIN_INC) $(PLUGIN_SRCS) \
		$(STRESSOR_PARTS) $(PLAIN_STRESSOR_SRCS)
lint-tidy: $(BUILD)/config.h $(BPF_SKEL) $(TIDY_STAMPS)
$(BUILD)/tidy/%.ok: %.c $(ALL_HDRS) $(GEN_HDRS) $(BUILD)/config.h $(BPF_SKEL) .clang-tidy
	@mkdir -p $(dir $@)
	clang-tidy --quiet $< -- $(BASE_CFLAGS) $(TEST_INC)
	@touch $@
$(BUILD)/tidy/plugin/%.ok: plugin/%.c $(ALL_HDRS) $(PLUGIN_HDRS) $(STRESSOR_FILES) \
		$(BUILD)/config.h .clang-tidy
	@mkdir -p $(dir $@)
	clang-tidy --quiet $< -- $(BASE_CFLAGS) $(PLUGIN_INC)
	@touch $@

# shellcheck on the shell scripts that pass it today (the others: see
# doc/testing.md); debian/tests are POSIX sh.
SHELLCHECK_SRCS := .ci/run bench/native bench/stop mmtests/check.sh mmtests/short-config lab/ab-plot.sh lab/modbuild.sh \
	lab/mmtests-ab.sh lab/mmtests-guest.sh \
	lab/modplot.sh lab/modtable.sh lab/module-guest.sh lab/native-check.sh \
	lab/progress.sh native/build.sh scripts/busy scripts/checkpatch-module \
	scripts/deb scripts/deb-autopkgtest scripts/deb-check scripts/deps \
	scripts/fuzz scripts/run-vmalloc-order scripts/stressor-files scripts/stressor-opts \
	scripts/test-timeout \
	test/compare-corpus/many-runs \
	upstream/check.sh upstream/register.sh upstream/series.sh \
	upstream/style-check
lint-shell:
	@if command -v shellcheck > /dev/null; then \
		echo "  SHCHECK $(words $(SHELLCHECK_SRCS)) scripts, debian/tests"; \
		shellcheck -x $(SHELLCHECK_SRCS) && \
		shellcheck -s sh $$(sed -n 's|^Tests: |debian/tests/|p' debian/tests/control); \
	else echo "lint: SKIP shellcheck not installed (make deps)"; fi

# checkpatch.pl on module/ needs a kernel tree: KDIR, else a lab tree
# (LAB_KCACHE, default build/lab-kernels; make lab-kernels builds one).
lint-checkpatch:
	@scripts/checkpatch-module "$(BUILD)"

clean:
	rm -rf $(BUILD)

# --- stress-mm compare under the sanitizers, and its fuzzers (issue 19) -----
# build/asan/: the front end, and a replay driver for each libFuzzer target
# of test/fuzz/, built with AddressSanitizer and UBSan, no recovery (gcc's:
# nothing to install); test/97-compare-hostile.t runs them over
# test/compare-corpus/ and the fuzz corpora. Part of make all.
# make fuzz [FUZZ_SECONDS=60]: each target built with clang -fsanitize=
# fuzzer,address,undefined (Debian's clang and libclang-rt-14-dev, which
# has libFuzzer; scripts/deps fuzz installs them) and run for FUZZ_SECONDS,
# seeded from test/fuzz/corpus-*/ and test/compare-corpus/; inputs that add
# coverage are merged back into test/fuzz/corpus-*/, crashes are kept in
# build/fuzz/ (scripts/fuzz). Not part of make check.
ASAN_DIR := $(BUILD)/asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
ASAN_CFLAGS := -std=gnu11 $(WARN) -O2 -g $(ASAN_FLAGS) -D_GNU_SOURCE -I$(BUILD)
ASAN_LIB_SRCS := $(COMMON_SRCS) $(PLAIN_STRESSOR_SRCS) $(FE_LIB_SRCS)
ASAN_OBJS := $(ASAN_LIB_SRCS:%.c=$(ASAN_DIR)/obj/%.o)
FUZZ_TARGETS := report opts
FUZZ_SRCS := $(FUZZ_TARGETS:%=test/fuzz/fuzz-%.c) test/fuzz/replay.c
ASAN_BINS := $(ASAN_DIR)/stress-mm $(FUZZ_TARGETS:%=$(ASAN_DIR)/replay-%)
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang

all: $(ASAN_BINS)

$(ASAN_DIR)/obj/%.o: %.c $(BUILD)/config.h $(ALL_HDRS) $(GEN_HDRS) $(BPF_SKEL) bpf/smm-counts.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(ASAN_CFLAGS) $(FE_INC) -c $< -o $@

$(ASAN_DIR)/stress-mm: $(ASAN_DIR)/obj/$(FE_DIR)/main.o $(ASAN_OBJS)
	@echo "  LD      $@"
	@$(CC) $(ASAN_FLAGS) -o $@ $^ $(FE_LIBS)

$(ASAN_DIR)/replay-%: $(ASAN_DIR)/obj/test/fuzz/fuzz-%.o \
		$(ASAN_DIR)/obj/test/fuzz/replay.o $(ASAN_OBJS)
	@echo "  LD      $@"
	@$(CC) $(ASAN_FLAGS) -o $@ $^ $(FE_LIBS)

$(FUZZ_DIR)/fuzz-%: test/fuzz/fuzz-%.c $(ASAN_LIB_SRCS) $(BUILD)/config.h $(ALL_HDRS) $(GEN_HDRS) \
		$(BPF_SKEL) bpf/smm-counts.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@ (libFuzzer)"
	@$(FUZZ_CC) -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -D_GNU_SOURCE -I$(BUILD) $(FE_INC) \
		-o $@ $< $(ASAN_LIB_SRCS) $(FE_LIBS)

.PHONY: fuzz fuzz-deps lint-gate
fuzz-deps:
	@scripts/deps fuzz

fuzz: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%)
	@scripts/fuzz $(FUZZ_SECONDS) $(FUZZ_DIR) $(FUZZ_TARGETS)

lint-gate: $(BUILD)/config.h
	clang-format --dry-run --Werror $(FUZZ_SRCS)
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr -D_GNU_SOURCE -I$(BUILD) $(TEST_INC) $(FUZZ_SRCS)
	clang-tidy --quiet $(FUZZ_SRCS) -- $(BASE_CFLAGS) $(TEST_INC)
.SECONDARY: $(FUZZ_SRCS:%.c=$(ASAN_DIR)/obj/%.o)
