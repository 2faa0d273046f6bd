#!/bin/bash
# make install and make uninstall into a staging directory (DESTDIR): the
# files install puts down, listed and compared with what the tree says
# (front end, plugin, man page, completion, README and doc/; the native
# stress-ng's install is test/84-native-front-end.t's), their modes; the staged front end finds
# its staged plugin and runs a 3 s vmalloc-order run with it (the worker
# processes map the staged copy), with no build tree on its way and no
# DESTDIR compiled in; then uninstall removes exactly those files and
# stress-mm's own directories, and leaves everything else.
. "$(dirname "$0")/lib.sh"
need_stress_ng
[ -x "$BUILD/stress-mm" ] || skip_all "$BUILD/stress-mm not built"
plan 12

STAGE=$TMPD/stage
PREFIX=/usr/local
P=$STAGE$PREFIX
mk() { make -C "$TOP" --no-print-directory BUILD="$BUILD" "$@"; }

# Someone else's files in the same directories: uninstall keeps them.
mkdir -p "$P/bin" "$P/lib" "$P/share/man/man1" "$P/share/doc/other"
echo keep > "$P/bin/other-tool"
echo keep > "$P/lib/libother.so"
echo keep > "$P/share/man/man1/other.1"
echo keep > "$P/share/doc/other/README"
before=$(cd "$STAGE" && find . -type f | sort)

# No native stress-ng here (NATIVE_SNG=): make check builds one meanwhile,
# and whether it is there yet must not change what this test expects;
# test/84-native-front-end.t installs one.
mk install NATIVE_SNG= DESTDIR="$STAGE" > "$TMPD/install.log" 2>&1
ok $? "make install DESTDIR=$STAGE (PREFIX $PREFIX)"
sed 's/^/# /' "$TMPD/install.log" | tail -n 20

expected=$( {
	echo ".$PREFIX/bin/stress-mm 755"
	echo ".$PREFIX/lib/stress-mm/stress-mm.so 644"
	echo ".$PREFIX/share/man/man1/stress-mm.1 644"
	echo ".$PREFIX/share/bash-completion/completions/stress-mm 644"
	echo ".$PREFIX/share/doc/stress-mm/README.md 644"
	(cd "$TOP" && ls doc/*.md doc/*.svg doc/*.png 2> /dev/null) |
		sed "s|^|.$PREFIX/share/doc/stress-mm/|; s|$| 644|"
} | sort)
installed=$(cd "$STAGE" && find . -type f -printf '%p %m\n' | sort |
	grep -vxFf <(echo "$before" | sed 's/$/ 644/'))
[ "$installed" = "$expected" ]
ok $? "install put down exactly the expected files, with their modes ($(echo "$installed" | wc -l) files)"
if [ "$installed" = "$expected" ]; then
	diag "installed:" "$installed"
else
	diag "expected:" "$expected" "installed:" "$installed"
fi

cmp -s "$BUILD/stress-mm.so" "$P/lib/stress-mm/stress-mm.so" &&
	cmp -s "$BUILD/stress-mm.1" "$P/share/man/man1/stress-mm.1" &&
	cmp -s "$TOP/README.md" "$P/share/doc/stress-mm/README.md"
ok $? "the plugin, the man page and the README are the build's"

head -1 "$P/share/man/man1/stress-mm.1" | grep -q '^\.TH STRESS-MM 1' &&
	bash -n "$P/share/bash-completion/completions/stress-mm" &&
	grep -q "complete .*stress-mm" "$P/share/bash-completion/completions/stress-mm"
ok $? "the man page starts with .TH; the completion is bash that completes stress-mm"

! grep -aq "$STAGE" "$P/bin/stress-mm"
ok $? "the staging directory is not compiled into the front end"

# From / with a bare environment: no build tree on the way.
ver=$(cd / && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$P/bin/stress-mm" --version)
diag "$ver"
echo "$ver" | grep -qx "plugin: $P/lib/stress-mm/stress-mm.so (installed, ../lib/stress-mm from the front end)"
ok $? "the staged front end's --version names its staged plugin and how it found it"
echo "$ver" | grep -q "^native stress-ng: none (looked at $P/bin/stress-ng/stress-ng, "
ok $? "--version says where it looked for a native stress-ng"

# The run: the workers must map the staged plugin, not the build's.
(cd / && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$P/bin/stress-mm" \
	--vmalloc-order 1 -t 3 --yaml "$TMPD/run.yaml" > "$TMPD/run.log" 2>&1) &
run=$!
mapped=""
for _ in $(seq 1 60); do
	mapped=$(grep -l "$P/lib/stress-mm/stress-mm.so" /proc/[0-9]*/maps 2> /dev/null | head -1)
	[ -n "$mapped" ] && break
	sleep 0.1
done
wait $run
rc=$?
ops=$(yaml_bogo_ops "$TMPD/run.yaml")
[ $rc -eq 0 ] && [ "${ops:-0}" -gt 0 ]
ok $? "the staged stress-mm --vmalloc-order 1 -t 3 exits 0 with bogo-ops ${ops:-none}"
[ $rc -eq 0 ] || tail -n 5 "$TMPD/run.log" | sed 's/^/# /'
[ -n "$mapped" ]
ok $? "its workers mapped the staged plugin ($P/lib/stress-mm/stress-mm.so)"

mk uninstall DESTDIR="$STAGE" > "$TMPD/uninstall.log" 2>&1
ok $? "make uninstall DESTDIR=$STAGE"
removed=$(sed -n "s|^  RM      $STAGE|.|p" "$TMPD/uninstall.log" | sort)
diag "removed:" "$removed"
after=$(cd "$STAGE" && find . -type f | sort)
[ "$after" = "$before" ] && [ ! -e "$P/lib/stress-mm" ] &&
	[ ! -e "$P/share/doc/stress-mm" ] &&
	[ "$removed" = "$(echo "$installed" | sed 's/ [0-7]*$//')" ]
ok $? "uninstall removed every file install put down (the two lists are equal) and stress-mm's directories, nothing else"
[ "$after" = "$before" ] || diag "left or lost:" "$(diff <(echo "$before") <(echo "$after"))"

mk uninstall DESTDIR="$STAGE" > "$TMPD/uninstall2.log" 2>&1 &&
	! grep -q "RM" "$TMPD/uninstall2.log"
ok $? "a second uninstall succeeds and removes nothing"
done_testing
