#!/bin/sh
# lab/native-check.sh DIR...: what the lab-native workloads (lab/native.workloads)
# did in each kernel's DIR (build/lab/<kernel>/run-<name>.yaml): per
# workload the integration that ran, the exit status, bogo-ops, the
# module's allocations or the churn companions', and the module path's
# proof (area size, pages, order) or why it did not run. Exit 1 when a
# native-* workload did not run built in, did not exit 0 or made no
# bogo-op (built in, no record counts allocations), or a plugin-*module
# one did not run the plugin, did not exit 0 or made no allocation
# through the module (the plugin's kind, plugin/vmalloc-module.c).
set -u
[ $# -ge 1 ] || { echo "usage: $0 DIR..." >&2; exit 1; }
bad=0
# field FILE KEY: the first "KEY: value" under the stressors' section.
field() {
	awk -v k="$2:" '/^  stressors:/ { f = 1 } f && $1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$1"
}
# proof FILE: the module path's entry under paths, one line.
proof() {
	awk '/^      paths:/ { p = 1; next } p && /^        module:/ { m = 1; next }
		m && !/^          / { exit } m { sub(/^ */, ""); printf "%s ", $0 }' "$1"
}
for dir in "$@"; do
	printf '%s\n' "${dir##*/}:"
	printf '  %-20s %-11s %-4s %-9s %-10s %s\n' workload integration exit bogo-ops allocs "module path"
	for y in "$dir"/run-*.yaml; do
		[ -s "$y" ] || continue
		name=${y##*/run-}
		name=${name%.yaml}
		integ=$(field "$y" integration)
		st=$(awk '/^  exit-status:/ { print $2; exit }' "$y")
		ops=$(field "$y" bogo-ops)
		allocs=$(field "$y" allocations)
		churn=$(field "$y" churn-allocations)
		[ "${allocs:-0}" = 0 ] && allocs=${churn:-0}
		pr=$(proof "$y")
		printf '  %-20s %-11s %-4s %-9s %-10s %s\n' "$name" "${integ:-?}" "${st:-?}" \
			"${ops:-?}" "$allocs" "${pr:-none}"
		case $name in
		native-*)
			[ "$integ" = native ] && [ "$st" = 0 ] && [ "${ops:-0}" -gt 0 ] || bad=1
			;;
		plugin-*module)
			[ "$integ" = plugin ] && [ "$st" = 0 ] && [ "${allocs:-0}" -gt 0 ] || bad=1
			;;
		esac
	done
done
exit $bad
