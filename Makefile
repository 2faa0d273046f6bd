# stress-mm: stress-ng plugin stressors for Linux memory-management work.
#
#   make            build build/stress-mm.so and the test programs
#   make run        install what is missing, build, run vmalloc-order ~20 s
#   make check      install what is missing, build, run the test suite
#   make deps       install the Debian packages the build and tests need
#   make lint       clang-format, cppcheck and clang-tidy on the sources
#   make clean

BUILD   ?= build
CC      ?= gcc
WARN    := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wundef
CFLAGS  ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden \
	-D_GNU_SOURCE -I$(BUILD) -Icore-helpers -I.
PROBE_CFLAGS := -std=gnu11 -D_GNU_SOURCE
# -luring when the probe found liburing (expanded after config.h exists)
LDLIBS   = -lbsd -lpthread $(if $(shell grep -s "define HAVE_LIBURING" $(BUILD)/config.h),-luring) -lyaml

CORE_SRCS := $(sort $(wildcard core-helpers/*.c))
CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/obj/%.o)
PLUGIN_SRCS := stress-vmalloc-order.c stress-shm-pcp.c
FE_SRCS := stress-mm.c stress-mm-compare.c
FE_OBJS := $(FE_SRCS:%.c=$(BUILD)/obj/%.o)
PLUGIN_OBJS := $(PLUGIN_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_SRCS := $(sort $(wildcard test/unit-*.c))
UNIT_BINS := $(UNIT_SRCS:test/%.c=$(BUILD)/test/%.t)
HELPER_SRCS := $(sort $(wildcard test/helpers/*.c))
HELPER_BINS := $(HELPER_SRCS:test/helpers/%.c=$(BUILD)/test/%)
SHELL_TESTS := $(sort $(wildcard test/[0-9]*.t))

# The suite runs serially: the kernel-log mark first, the check last.
TESTS := $(filter test/00-%,$(SHELL_TESTS)) $(UNIT_BINS) \
	$(filter-out test/00-% test/99-%,$(SHELL_TESTS)) \
	$(filter test/99-%,$(SHELL_TESTS))

BENCH_BINS := $(BUILD)/bench/shm-loop

.PHONY: all deps check run lint clean bench lab lab-kernels lab-fingerprint
all: $(BUILD)/stress-mm.so $(BUILD)/stress-mm $(BUILD)/stress-mm.1 \
	$(BUILD)/stress-mm.bash-completion $(UNIT_BINS) $(HELPER_BINS) \
	$(BENCH_BINS)

include Makefile.config

$(BUILD)/obj/%.o: %.c $(BUILD)/config.h $(wildcard core-helpers/*.h) $(wildcard *.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libcore.a: $(CORE_OBJS)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

$(BUILD)/stress-mm.so: $(PLUGIN_OBJS) $(BUILD)/libcore.a
	@echo "  LD      $@"
	@$(CC) -shared -Wl,-z,defs -Wl,--as-needed -o $@ $(PLUGIN_OBJS) \
		$(BUILD)/libcore.a $(LDLIBS)

$(BUILD)/stress-mm: $(FE_OBJS) $(BUILD)/libcore.a
	@echo "  LD      $@"
	@$(CC) -o $@ $(FE_OBJS) $(BUILD)/libcore.a $(LDLIBS)

# The man page and the completion come from the parameter tables.
$(BUILD)/stress-mm.1: $(BUILD)/stress-mm
	@echo "  GEN     $@"
	@$(BUILD)/stress-mm --man > $@

$(BUILD)/stress-mm.bash-completion: $(BUILD)/stress-mm
	@echo "  GEN     $@"
	@$(BUILD)/stress-mm --completion > $@

$(BUILD)/test/%.t: test/%.c test/tap.h $(BUILD)/libcore.a
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) -Itest -o $@ $< $(BUILD)/libcore.a $(LDLIBS)

$(BUILD)/test/%: test/helpers/%.c $(BUILD)/libcore.a
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) -Itest -o $@ $< $(BUILD)/libcore.a $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(BUILD)/config.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $<

deps:
	@scripts/deps

check: deps
	@$(MAKE) --no-print-directory all
	prove --exec '' $(TESTS)

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
lab-fingerprint: deps
	@$(MAKE) --no-print-directory all
	@KERNELS="$(or $(KERNELS),$(LAB_FP_KERNELS))" LAB_CHURNS= lab/lab.sh

run: deps
	@$(MAKE) --no-print-directory all
	@scripts/run-vmalloc-order

lint: $(BUILD)/config.h
	clang-format --dry-run --Werror $(CORE_SRCS) $(PLUGIN_SRCS) $(FE_SRCS) \
		core-helpers/*.h *.h $(UNIT_SRCS) $(HELPER_SRCS) test/tap.h
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr -D_GNU_SOURCE -I$(BUILD) -Icore-helpers -I. \
		$(CORE_SRCS) $(PLUGIN_SRCS) $(FE_SRCS)
	clang-tidy --quiet $(CORE_SRCS) $(PLUGIN_SRCS) $(FE_SRCS) -- $(ALL_CFLAGS)

clean:
	rm -rf $(BUILD)
