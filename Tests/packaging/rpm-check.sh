#!/bin/sh
# The RPM packages `make rpm` built: the binary package holds exactly the files of a staged
# `make install` and of the .deb (as `rpm2cpio | cpio -t` lists them; each distribution's
# doc and licence folder aside, and man pages compared without their .gz), its program is
# stripped, works, and has its debug information in caption-debuginfo; it requires GTK 3,
# SQLite, exempi, every library the program links, and the image loaders; the source
# package holds the spec made from this tree; rpmlint finds no error, and every warning
# it gives is one that packaging/rpm/caption.spec.in explains.
# Run from the top of the checkout after `make rpm deb`.
# Usage: rpm-check.sh PACKAGE.rpm PACKAGE.src.rpm PACKAGE.deb
set -u
rpm=$1
srpm=$2
deb=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
suite="rpm"
# shellcheck source=build-aux/checks.sh
. "$(dirname "$0")/../../build-aux/checks.sh"
version=$(sed -n 's/^public let captionVersion = "\(.*\)"$/\1/p' Sources/CaptionCommand/Arguments.swift)
arch=$(rpm --eval '%{_arch}')

check "make rpm built caption-$version-1.$arch.rpm" test -f "$rpm" -a "${rpm##*/}" = "caption-$version-1.$arch.rpm" || finish
check "make rpm built caption-$version-1.src.rpm" test -f "$srpm" -a "${srpm##*/}" = "caption-$version-1.src.rpm" || finish

# The payload as rpm2cpio | cpio -t lists it, files and symbolic links only.
rpm2cpio "$rpm" | (cd "$work" && cpio -t -v --quiet) >"$work/cpio" 2>&1
sed -n 's|^[-l].* \./\([^ ]*\)\( -> .*\)\{0,1\}$|\1|p' "$work/cpio" | LC_ALL=C sort >"$work/rpm-all"
# Each distribution's own doc and licence folders, and compressed man pages, normalised.
normalise() { grep -vE '^usr/share/(doc|licenses)/caption(-[0-9][^/]*)?/' | sed 's|^\(usr/share/man/.*\)\.gz$|\1|' | LC_ALL=C sort; }
normalise <"$work/rpm-all" >"$work/rpm-files"

make --no-print-directory install DESTDIR="$work/stage" PREFIX=/usr >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; echo "make install into a staging folder failed"; }
(cd "$work/stage" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort) >"$work/staged"
check "the RPM holds exactly the files of a staged make install" \
    diff -u --label "make install" --label "${rpm##*/}" "$work/staged" "$work/rpm-files"

dpkg-deb --fsys-tarfile "$deb" | tar -tv | sed -n 's|^[-l].* \./\([^ ]*\)\( -> .*\)\{0,1\}$|\1|p' |
    normalise >"$work/deb-files"
check "the RPM holds exactly the Debian package's files" \
    diff -u --label "${deb##*/}" --label "${rpm##*/}" "$work/deb-files" "$work/rpm-files"
check "the RPM installs the man page gzipped, as Fedora does" grep -qx 'usr/share/man/man1/caption.1.gz' "$work/rpm-all"
check "the RPM has its licence and docs in their places" sh -c "
    rpm -qp --licensefiles '$rpm' | grep -qE '^/usr/share/licenses/caption[^/]*/LICENSE\$' || { echo 'no LICENSE'; exit 1; }
    for doc in README.md CHANGELOG.md; do
        rpm -qp --docfiles '$rpm' | grep -qE \"^/usr/share/doc/caption[^/]*/\$doc\\\$\" || { echo \"no \$doc\"; exit 1; }
    done"
# %find_lang marks each catalogue with its language, without the region (zh for zh_CN).
check "the translation is marked with its language (%find_lang)" sh -c "
    rpm -qp --qf '[%{FILELANGS} %{FILENAMES}\n]' '$rpm' | grep -qxE 'zh(_CN)? /usr/share/locale/zh_CN/LC_MESSAGES/caption.mo'"

# The program, out of the payload.
mkdir -p "$work/root"
rpm2cpio "$rpm" | (cd "$work/root" && cpio -i -d --quiet)
binary=$work/root/usr/bin/caption
check "the RPM's program is stripped" sh -c "! readelf -S '$binary' | grep -q '\.symtab'"
check "the RPM's program runs: caption --version" sh -c "[ \"\$(env -u DISPLAY -u WAYLAND_DISPLAY '$binary' --version)\" = 'caption $version' ]"
debuginfo=$(dirname "$rpm")/caption-debuginfo-$version-1.$arch.rpm
check "caption-debuginfo holds the debug information of the program's build id" sh -c "
    id=\$(readelf -n '$binary' | sed -n 's/^ *Build ID: *//p')
    [ -n \"\$id\" ] || { echo 'the program has no build id'; exit 1; }
    rpm2cpio '$debuginfo' | cpio -t --quiet | grep -qxF \"./usr/lib/debug/.build-id/\$(echo \$id | cut -c1-2)/\$(echo \$id | cut -c3-).debug\" ||
        { echo \"no debug file for build id \$id in ${debuginfo##*/}\"; exit 1; }"

rpm -qp --requires "$rpm" >"$work/requires"
for wanted in 'libgtk-3\.so\.0' 'libsqlite3\.so\.0' 'libexempi\.so\.[0-9]+' \
    'libraw_r\.so\.[0-9]+' 'libgspell-1\.so\.2' \
    'webp-pixbuf-loader' 'heif-pixbuf-loader' 'avif-pixbuf-loader'; do
    check "rpm -qp --requires names $wanted" sh -c "cat '$work/requires' | grep -E '^$wanted(\(|\$)'"
done
check "rpm -qp --requires names every library the program links" sh -c "
    missing=0
    for library in \$(readelf -d '$binary' | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        grep -qF \"\$library(\" '$work/requires' || { echo \"not required: \$library\"; missing=1; }
    done
    exit \$missing"
check "rpm -qp --requires names every library the program opens (dlopen)" sh -c "
    missing=0
    opened=\$(strings -a '$binary' | grep -oE 'lib(exempi|raw_r|gspell-1)\.so\.[0-9]+\$' | sort -u)
    [ \$(echo \"\$opened\" | wc -w) -eq 3 ] || { echo \"the program names \$opened\"; exit 1; }
    for library in \$opened; do
        grep -qF \"\$library(\" '$work/requires' || { echo \"not required: \$library\"; missing=1; }
    done
    exit \$missing"

# The source package: the spec as make-spec writes it from this tree, and the tarball.
rpm2cpio "$srpm" | (cd "$work" && mkdir source && cd source && cpio -i --quiet)
build-aux/make-spec "$version" "$work/fresh.spec"
check "the source package holds caption.spec and caption-$version.tar.gz" \
    test -f "$work/source/caption.spec" -a -f "$work/source/caption-$version.tar.gz"
check "its spec is the one packaging/rpm/caption.spec.in and CHANGELOG.md give now" \
    diff -u --label "${srpm##*/}: caption.spec" --label "make-spec" "$work/source/caption.spec" "$work/fresh.spec"
# make test-package builds --without tests; a distribution's build runs them in %check.
check "its %check runs the focus engine's and the decoder's tests unless built --without tests" sh -c "
    rpmspec -P '$work/source/caption.spec' | sed -n '/^%check/,/^%files/p' | grep -q '^swift test --filter ' &&
        ! rpmspec -P --without tests '$work/source/caption.spec' | sed -n '/^%check/,/^%files/p' | grep -q '^swift test'"
check "the package's version and its newest changelog entry are the Makefile's $version-1" sh -c "
    [ \"\$(rpm -qp --qf '%{VERSION}-%{RELEASE}' '$rpm')\" = '$version-1' ] &&
    rpm -qp --changelog '$srpm' | head -1 | grep -q ' - $version-1\$'"

# rpmlint, as make rpm runs it: no error; each warning explained in the spec's header.
rpmlint -c packaging/rpm/rpmlint.toml "$rpm" "$srpm" >"$work/rpmlint" 2>&1
echo $? >"$work/rpmlint-status"
check "rpmlint: no error" sh -c "
    sed -n '/ packages and .* specfiles checked/p' '$work/rpmlint'
    grep -q ' 0 errors, ' '$work/rpmlint' && [ \$(cat '$work/rpmlint-status') -eq 0 ] || { cat '$work/rpmlint'; exit 1; }"
check "rpmlint: every warning is explained in packaging/rpm/caption.spec.in" sh -c "
    unexplained=0
    for id in \$(sed -n 's/^[^ ]*: W: \([^ ]*\).*/\1/p' '$work/rpmlint' | sort -u); do
        grep -qE \"^# - (.*, )?\$id[:,]\" packaging/rpm/caption.spec.in || { echo \"unexplained: \$id\"; unexplained=1; }
    done
    exit \$unexplained"
finish
