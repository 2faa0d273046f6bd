/* LIBS: -lbpf
 * libbpf: the front end's counters as BPF programs
 * (core-helpers/front-end/bpf-counters.c, bpf/counters.bpf.c), loaded
 * through a skeleton. Required: Debian package libbpf-dev (and bpftool,
 * clang to build the programs).
 */
#include <bpf/libbpf.h>

int main(void)
{
	return libbpf_num_possible_cpus() > 0 && bpf_object__open_skeleton(0, 0);
}
