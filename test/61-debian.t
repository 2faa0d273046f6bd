#!/bin/bash
# debian/ against the tree, without building a package (make deb and make
# deb-check do that; doc/install.md has their results): one version
# everywhere (the changelog, the front end's --version, DKMS's source
# directory), the libraries Makefile.config requires among the
# Build-Depends, stress-ng by version, the files debian/*.install ship
# are the ones make install and module/ have, the module DKMS builds is
# the one module/Kbuild makes, every Files: pattern of the copyright file
# matches, and every licence it names is defined.
. "$(dirname "$0")/lib.sh"
command -v dpkg-parsechangelog > /dev/null || skip_all "dpkg-dev not installed (make deps)"
[ -x "$BUILD/stress-mm" ] || skip_all "$BUILD/stress-mm not built"
plan 9
D=$TOP/debian

ver=$(cd "$TOP" && dpkg-parsechangelog -S Version)
[ -n "$ver" ] && "$BUILD/stress-mm" --version | head -1 | grep -qx "stress-mm $ver" &&
	grep -q "^PACKAGE_VERSION=\"#MODULE_VERSION#\"$" "$D/stress-mm-dkms.dkms" &&
	grep -q 'dh_dkms -V $(DEB_VERSION_UPSTREAM)' "$D/rules"
ok $? "one version: the changelog's ($ver) is the front end's and DKMS's"

missing=""
for r in $(sed -n 's/^REQUIRED := //p; s/^\t*HAVE_/HAVE_/p' "$TOP/Makefile.config" | tr ' ' '\n' | sed -n 's/^HAVE_[A-Z_]*:\(.*\)$/\1/p' | sort -u); do
	[ "$r" = libc6-dev ] && continue
	grep -q "^ *$r,\?$\|[ ,]$r[, ]" "$D/control" || missing="$missing $r"
done
[ -z "$missing" ]
ok $? "Build-Depends has the libraries the build requires${missing:+ (missing:$missing)}"

grep -q "^Depends: stress-ng (>= 0.14.04), \${misc:Depends}, \${shlibs:Depends}$" "$D/control"
ok $? "stress-mm depends on stress-ng >= 0.14.04 (--plugin-so) and its libraries (shlibs)"

# make install, as debian/rules runs it, staged: in a package build there is
# no native stress-ng (NATIVE_SNG=), whatever this tree has built
make -C "$TOP" --no-print-directory BUILD="$BUILD" install NATIVE_SNG= DESTDIR="$TMPD/s" > "$TMPD/i.log" 2>&1 ||
	{ cat "$TMPD/i.log" | sed 's/^/# /'; }
staged=$(cd "$TMPD/s/usr/local" && find . -type f | sed 's|^\./|usr/|' | grep -v '^usr/share/doc/' | sort)
shipped=$(grep -v '/$' "$D/stress-mm.install" | sort)
[ -n "$staged" ] && [ "$staged" = "$shipped" ] && grep -qx "usr/share/doc/stress-mm/" "$D/stress-mm.install"
ok $? "debian/stress-mm.install ships what make install puts down (and its docs)"
[ "$staged" = "$shipped" ] || diag "make install:" "$staged" "stress-mm.install:" "$shipped"

want=$(cd "$TOP/module" && ls Kbuild Makefile ./*.c ./*.h | sed 's|^\./||' | sort)
have=$(sed -n 's|^module/\([^ ]*\) usr/src/stress-mm-${env:DEB_VERSION_UPSTREAM}/$|\1|p' "$D/stress-mm-dkms.install" | sort)
[ "$want" = "$have" ]
ok $? "stress-mm-dkms ships every file of module/ into /usr/src/stress-mm-VERSION"

ko=$(sed -n 's/^obj-m += \(.*\)\.o$/\1/p' "$TOP/module/Kbuild")
grep -qx "BUILT_MODULE_NAME\[0\]=\"$ko\"" "$D/stress-mm-dkms.dkms" &&
	grep -qx 'MAKE\[0\]="make KDIR=${kernel_source_dir}"' "$D/stress-mm-dkms.dkms" &&
	grep -q '^KDIR ?=' "$TOP/module/Makefile"
ok $? "dkms.conf builds $ko with module/Makefile against each kernel's headers (KDIR)"

bad=""
while read -r pat; do
	# shellcheck disable=SC2086
	(cd "$TOP" && ls -d $pat > /dev/null 2>&1) || bad="$bad $pat"
done < <(awk '/^Files:/ { sub(/^Files: */, ""); print; f = 1; next }
	f && /^ +[^ ]/ { sub(/^ +/, ""); print; next } { f = 0 }' "$D/copyright" | tr ' ' '\n' | grep .)
[ -z "$bad" ]
ok $? "every Files: pattern of debian/copyright matches a file${bad:+ (none for:$bad)}"

undef=""
for l in $(sed -n 's/^License: //p' "$D/copyright" | sort -u | tr ' ' '_'); do
	l=${l//_/ }
	grep -q "^License: $l$" "$D/copyright" &&
		[ "$(grep -A1 "^License: $l$" "$D/copyright" | grep -c '^ ')" -ge 1 ] || undef="$undef [$l]"
done
[ -z "$undef" ]
ok $? "every licence named in debian/copyright has its text${undef:+ (not:$undef)}"

# debian/tests (autopkgtest): each Tests: entry is an executable script,
# each Test-Command names a program, every restriction is one autopkgtest
# knows (make deb-check runs them; make lint shellchecks them)
known=" allow-stderr breaks-testbed build-needed flaky hint-testsuite-triggers isolation-container isolation-machine needs-internet needs-reboot needs-root needs-sudo rw-build-tree skip-foreign-architecture skip-not-installable skippable superficial "
T=$D/tests
bad=""
for t in $(sed -n 's/^Tests: //p' "$T/control"); do
	[ -x "$T/$t" ] || bad="$bad $t:not-executable"
done
for r in $(sed -n 's/^Restrictions: //p' "$T/control" | tr ', ' '\n\n' | grep . | sort -u); do
	case $known in *" $r "*) ;; *) bad="$bad restriction:$r" ;; esac
done
n=$(grep -c "^Tests: \|^Test-Command: " "$T/control")
[ "$n" -ge 4 ] && [ -z "$bad" ]
ok $? "debian/tests: $n tests, executable, known restrictions${bad:+ (bad:$bad)}"
done_testing
