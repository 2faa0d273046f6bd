# shellcheck shell=bash
# lab/lib.sh - what lab/lab.sh and lab/kbuild.sh share: messages, the
# private apt configuration, and fetching Debian packages through it.
# Sourced (bash); the caller sets LAB_WHO (message prefix), LAB (the lab's
# state directory, default $BUILD/lab) and START (date +%s) first.
# LAB_OFFLINE=1 (make check's tests): nothing is fetched, neither package
# lists nor packages; what is cached is used, and a package that is not
# cached stops the script naming it.
LAB_OFFLINE=${LAB_OFFLINE:-0}

say() { echo "$LAB_WHO: [$(($(date +%s) - START))s] $*" >&2; }
die() { echo "$LAB_WHO: $*" >&2; exit 2; }

# Elapsed seconds as "12m31s".
mmss() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# --- private apt configuration -------------------------------------------
# Made from the host's Debian mirror settings: the extra suites trixie and
# sid, Acquire::Check-Valid-Until off (the archive here can be older than
# the clock); the system's apt sources are never touched and no mirror name
# is written into the repository. The lists are refreshed after 12 hours.
apt_setup() {
	local apt=$LAB/apt uri
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts"
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	[ -n "$uri" ] || die "no Debian mirror in the host's apt sources"
	printf 'deb %s trixie main\ndeb %s sid main\n' "$uri" "$uri" > "$apt/sources.list"
	cat > "$apt/apt.conf" <<EOC
Dir::Etc::sourcelist "$apt/sources.list";
Dir::Etc::sourceparts "$apt/parts";
Dir::State::Lists "$apt/lists";
Dir::Cache "$apt/cache";
Acquire::Check-Valid-Until "false";
APT::Sandbox::User "root";
EOC
	export APT_CONFIG=$apt/apt.conf
	[ "$LAB_OFFLINE" = 1 ] && return 0
	if [ ! -s "$apt/updated" ] || [ -n "$(find "$apt/updated" -mmin +720)" ]; then
		say "updating the private package lists (trixie, sid)"
		apt-get update -q > "$apt/update.log" 2>&1 ||
			die "apt-get update failed (archive unreachable?): see $apt/update.log"
		date > "$apt/updated"
	fi
}

# pkg_version PKG: the candidate version of PKG in the private lists
# (the newest of trixie and sid); empty when the archive has no such package.
pkg_version() {
	apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { if ($2 != "(none)") print $2; exit }'
}

# cached_version PKG DIR...: the newest version of PKG of which a package
# is cached in one of DIR... (LAB_OFFLINE=1); empty when none is.
cached_version() {
	local pkg=$1 d
	shift
	for d in "$@"; do
		ls "$d/${pkg}_"*.deb 2> /dev/null
	done | sed -n "s|.*/${pkg}_\([^_]*\)_[^/]*\.deb\$|\1|p" | sed 's/%3a/:/' | sort -uV | tail -n 1
}

# fetch_deb PKG VERSION DIR: prints the path of PKG_VERSION_*.deb in DIR,
# downloading it with apt-get download when it is not there yet (a
# partial download never takes the final name). A copy already in $LAB/debs
# is hardlinked instead of fetched again.
fetch_deb() {
	local pkg=$1 ver=$2 dir=$3 v f
	v=${ver//:/%3a}
	mkdir -p "$dir"
	for f in "$dir/${pkg}_${v}_"*.deb "$LAB/debs/${pkg}_${v}_"*.deb; do
		[ -s "$f" ] || continue
		case $f in "$dir"/*) ;; *) ln -f "$f" "$dir/" 2>/dev/null || cp "$f" "$dir/" ;; esac
		say "$pkg $ver: already fetched ($dir), no download"
		ls "$dir/${pkg}_${v}_"*.deb | head -1
		return 0
	done
	[ "$LAB_OFFLINE" = 1 ] &&
		die "LAB_OFFLINE=1: $pkg $ver is not cached in $dir or $LAB/debs, and nothing is fetched offline"
	say "fetching $pkg $ver"
	rm -rf "$dir/partial"
	mkdir -p "$dir/partial"
	(cd "$dir/partial" && apt-get download -q "$pkg=$ver" > "$dir/$pkg.download.log" 2>&1) ||
		die "apt-get download $pkg=$ver failed: see $dir/$pkg.download.log"
	mv "$dir/partial/"*.deb "$dir/" && rmdir "$dir/partial"
	say "$pkg $ver: fetched ($(du -h "$dir/${pkg}_${v}_"*.deb | cut -f1 | head -1))"
	ls "$dir/${pkg}_${v}_"*.deb 2>/dev/null | head -1
}
