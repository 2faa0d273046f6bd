#!/bin/bash
# The lab's smoke test: boot one Debian kernel (the newest 6.12 of trixie)
# under QEMU, prove the io-uring buffers and fdtable paths there with the
# raised limits, run both stressors for a few seconds, and check that the
# fingerprint and the YAML came back whole. Nothing is fetched
# (LAB_OFFLINE=1): the kernel is the one a make lab KERNELS=trixie left in
# build/lab (its package in build/lab/debs, or extracted), and without one
# this is a skip that says so, as it is when qemu cannot run. The first
# boot is made to die before init (LAB_INJECT_EARLY_DEATH=1): the lab
# must retry it and say so, and the four boots left still cover real early
# deaths (about 1 TCG boot in 7 here: only four in a row, about 1 in 2400,
# fail it).
# The boot's progress lines carry its elapsed time and what is left.
. "$(dirname "$0")/lib.sh"
need_stress_ng
command -v qemu-system-x86_64 > /dev/null || skip_all "qemu-system-x86_64 missing (make deps)"
[ -x /bin/busybox ] || skip_all "busybox-static missing (make deps)"
# The newest 6.12 the lab has cached, as lab/lab.sh resolves "trixie"
# offline; LAB_SMOKE_KERNEL names another.
k=${LAB_SMOKE_KERNEL:-$(ls "$BUILD"/lab/debs/linux-image-6.12.*-cloud-amd64_*.deb "$BUILD"/lab/6.12.*/pkg/boot/vmlinuz-* 2> /dev/null |
	sed -n 's|.*/linux-image-\(6\.12\.[^_]*\)-cloud-amd64_.*|\1|p; s|.*/lab/\(6\.12\.[^/]*\)/pkg/boot/.*|\1|p' | sort -V | tail -n 1)}
[ -n "$k" ] || skip_all "no trixie kernel cached: no $BUILD/lab/debs/linux-image-6.12.*-cloud-amd64_*.deb and no $BUILD/lab/6.12.*/pkg (make check fetches nothing; make lab KERNELS=trixie fetches it once)"
plan 11

BUILD=$BUILD LAB_OFFLINE=1 LAB_CHURNS=stack LAB_PROVE=1 LAB_INJECT_EARLY_DEATH=1 LAB_BOOT_RETRIES=4 GUEST_MEM=3G GUEST_TIMEOUT=400 \
	KERNELS=$k STRESS_MM_ARGS="--vmalloc-order 1 --vmalloc-order-method stack --shm-pcp 1 --shm-pcp-bytes 1M -t 3" \
	"$TOP/lab/lab.sh" > "$TMPD/lab.log" 2>&1
rc=$?
diag "$(cat "$TMPD/lab.log")"
ok $rc "make lab (one kernel) exits 0"
grep -q "boot died before init; retry 1 of 4; its first console lines:" "$TMPD/lab.log" &&
	grep -q "reached init after [1-4] retried boot" "$TMPD/lab.log"
ok $? "a boot that died before init was retried and reported"
k=$(sed -n 's/^lab: \[[0-9]*s\] kernels: //p' "$TMPD/lab.log" | awk '{ print $1 }')
dir=$BUILD/lab/$k
# One of the three labels of a kernel whose orders were observed
# (lab/fingerprint.awk; test/87-lab-fingerprint.t checks which is which).
grep -q "^label: stacks allocated as order-0 pages (bulk), freed as order-0 pages$\|^label: stacks allocated as order-2 blocks, freed as order-[02] \(pages\|blocks\)$" "$dir/fingerprint"
ok $? "the fingerprint came back with its label ($(grep '^label:' "$dir/fingerprint"))"
[ "$(sed -n 's/^stacks: //p' "$dir/fingerprint")" -gt 1000 ] 2>/dev/null
ok $? "the fingerprint counted thread stacks"
[ "$(yaml_bogo_ops "$dir/run-stack.yaml" 1)" -gt 0 ] 2>/dev/null &&
	[ "$(yaml_bogo_ops "$dir/run-stack.yaml" 2)" -gt 0 ] 2>/dev/null
ok $? "the YAML came back with bogo-ops of both stressors"
grep -q "^  kernel-release: $k" "$dir/run-stack.yaml" && grep -q "^  counters:" "$dir/run-stack.yaml"
ok $? "the YAML is the guest's stress-mm report (kernel $k, counters)"
grep -q "io-uring buffers: page tables of a .* registered buffer are vmalloc areas" "$dir/prove-io-uring.log" 2>/dev/null
ok $? "io-uring buffers proven in the guest with RLIMIT_MEMLOCK raised"
diag "$(cat "$dir/prove-io-uring.log" 2>/dev/null)"
grep -q "fdtable: fd tables up to fd [0-9]* .* are vmalloc areas" "$dir/prove-fdtable.log" 2>/dev/null
ok $? "fdtable proven in the guest with RLIMIT_NOFILE raised"
diag "$(cat "$dir/prove-fdtable.log" 2>/dev/null)"
# A missing kernel name, run directory or console log fails these three;
# "find" and "! grep" alone would pass on nothing.
[ -n "$k" ] && [ -d "$dir" ] && [ -s "$dir/run-stack.yaml" ] &&
	[ -z "$(find "$dir" -name '*.yaml' -size 0)" ] && [ ! -e "$dir/run-stack.yaml.missing" ]
ok $? "the run directory has its YAML: none empty, no run reported missing"
[ -n "$k" ] && grep -F "] $k: stack: stress-mm " "$TMPD/lab.log" |
	grep -qE " \[boot [0-9]+m[0-9]{2}s, (about [0-9]+m[0-9]{2}s left|overdue: estimated [0-9]+m[0-9]{2}s)\]$"
ok $? "the boot's progress lines say its elapsed time and what is left"
[ -n "$k" ] && [ -s "$dir/console.log" ] &&
	! grep -aqE "Kernel panic|BUG:|WARNING:|Oops" "$dir/console.log"
ok $? "a console log, without panic, BUG, WARNING or Oops"
done_testing
