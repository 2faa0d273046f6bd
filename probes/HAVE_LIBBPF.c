/* LIBS: -lbpf
 * libbpf: the front end's counters as BPF programs
 * (front-end/counters/bpf-counters.c, bpf/counters.bpf.c), loaded
 * through a skeleton. Required: Debian package libbpf-dev (and bpftool,
 * clang to build the programs). Linked, never run.
 */
#include <bpf/libbpf.h>

int main(void)
{
	struct bpf_object_skeleton *s = 0;

	return libbpf_num_possible_cpus() > 0 &&
	       bpf_object__open_skeleton(s, 0);
}
