# Caption: build, run, test, benchmark and install.
# `make run` and `make test` are the two set-up commands of the README.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
BUILD_DEPS = libgtk-3-dev libsqlite3-dev libgdk-pixbuf-2.0-dev libexempi-dev libraw-dev libheif-dev libtiff-dev \
	libgspell-1-dev libpq-dev libcurl4-openssl-dev pkg-config
# GdkPixbuf's loaders for WebP, HEIF/HEIC and AVIF (docs/formats.md).
PHOTO_LOADERS = webp-pixbuf-loader heif-gdk-pixbuf libavif-gdk-pixbuf
# Other encoders than Caption's own make the format tests' files: cwebp, heif-enc, avifenc,
# cjpeg, ImageMagick, tiffcp (libtiff-tools) and Pillow; an sRGB ICC profile
# (icc-profiles-free) for the write-back tests.
# GExiv2 through Python (GObject introspection) reads captions as Shotwell and gThumb do.
# The spell-checking scenario checks against the en_US dictionary. GeoNames' cities
# (libgeonames0) give the place variables their values.
# gdb prints where a test process that ran out of time stood (build-aux/with-time-limit).
# Sending is tested against vsftpd (FTP, FTPS) and OpenSSH's SFTP on local ports, with the
# passwords in gnome-keyring (secret-tool reads them back) (with-file-servers, with-keyring).
TEST_DEPS = xvfb xauth dbus dbus-bin xdotool x11-utils imagemagick exiv2 libimage-exiftool-perl webp \
	libheif-examples libavif-bin libjpeg-turbo-progs icc-profiles-free hunspell-en-us gir1.2-gexiv2-0.10 python3-gi \
	strace postgresql libtiff-tools python3-pil time libgeonames0 gdb \
	vsftpd openssh-server openssh-sftp-server openssl gnome-keyring libsecret-tools libsecret-1-0 libcurl4
# The end-to-end suite: Debian's python3 with the AT-SPI client, the accessibility bus,
# ibus and fcitx5, each with pinyin, Hangul and Anthy engines and its GTK
# input method module, and GTK's Python bindings for the drag source that drops files on
# the window; Orca with speech-dispatcher (its generic module writes what is said to a
# log, libao's null driver plays it nowhere) and zenity, on which the Orca set-up is
# proven; openbox, a window manager for the scenarios that need windows to take focus and
# come forward.
E2E_DEPS = python3-pyatspi at-spi2-core ibus ibus-gtk3 ibus-libpinyin ibus-anthy ibus-hangul \
	fcitx5 fcitx5-chinese-addons fcitx5-hangul fcitx5-anthy fcitx5-frontend-gtk3 python3-gi gir1.2-gtk-3.0 \
	orca speech-dispatcher libao4 zenity openbox
# The core scenarios once more on Wayland: headless sway (run as an unprivileged uid through
# setpriv) and a virtual keyboard built from Tests/wayland with wayland-scanner and gcc;
# grim reads back what sway shows.
WAYLAND_DEPS = sway grim util-linux gcc libwayland-dev libxkbcommon-dev xkb-data
SCREENSHOT_DEPS = imagemagick fonts-dejavu-core python3-gi
SAMPLE = data/samples/harbour.jpg

.PHONY: all build release run startup-order test test-sanitizers test-screenshots test-unit test-startup test-e2e deps test-deps bench screenshot clean \
	lint format

all: build

deps:
	@build-aux/install-deps $(BUILD_DEPS) $(PHOTO_LOADERS)

test-deps: deps
	@build-aux/install-deps $(TEST_DEPS) $(E2E_DEPS) $(WAYLAND_DEPS)

build: deps
	$(SWIFT) build

# The release build links the Swift runtime in. With the toolchain's lld, its 25,000
# relative relocations are stored packed (DT_RELR, glibc 2.36): 600 KB less to read and
# keep in memory at every start. Each function is compiled into a section of its own, and
# lld places the ones start-up runs side by side (build-aux/startup.order, written by
# `make startup-order`): the kernel maps code 64 KB around each page touched, so start-up
# code spread over the whole text would keep most of it in memory.
STARTUP_ORDER = build-aux/startup.order
RELEASE_FLAGS = --static-swift-stdlib --disable-local-rpath \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	$(if $(shell command -v ld.lld || ls $(dir $(realpath $(shell command -v $(SWIFT))))ld.lld 2>/dev/null),\
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --symbol-ordering-file=$(CURDIR)/$(STARTUP_ORDER) -Xlinker --no-warn-symbol-ordering)

# The C and C++ files' debug information in DWARF 4, as Swift writes its own: the
# debugedit that rpm's find-debuginfo runs (5.0) stops at DWARF 5's string forms, and then
# collects no source for the RPM's debugsource package (make rpm).
RELEASE_FLAGS += -Xcc -gdwarf-4 -Xcxx -gdwarf-4

# The Swift runtime's C++ half uses a few dozen functions of libstdc++ (strings, maps,
# operator new). The release build links them in: -lstdc++ finds libstdc++.a first in
# $(STATIC_CXX), which holds only that. So the program does not load the shared libstdc++
# at start, whose symbol tables and relocations alone are 1 MB read and kept before the
# first frame; it comes later with exempi, which needs it. The program exports nothing
# (--no-export-dynamic, against the Swift runtime's -export-dynamic): no other library
# looks a symbol up in it, so every lookup at start skips its symbol table.
STATIC_CXX = .build/static-cxx
RELEASE_FLAGS += -Xswiftc -L$(CURDIR)/$(STATIC_CXX) -Xlinker --no-export-dynamic
TOOLCHAIN_CLANG = $(dir $(realpath $(shell command -v $(SWIFT))))clang

$(STATIC_CXX)/libstdc++.a:
	@archive=$$($(TOOLCHAIN_CLANG) -print-file-name=libstdc++.a); \
	case "$$archive" in /*) ;; *) echo "libstdc++.a not found: install libstdc++'s static library" \
		"(Debian: libstdc++-12-dev; Fedora: libstdc++-static)" >&2; exit 1;; esac; \
	mkdir -p $(@D) && ln -sf "$$archive" $@

# No $ORIGIN run path: the program loads no library of its own, and Debian refuses one.
release: deps $(STATIC_CXX)/libstdc++.a
	$(SWIFT) build -c release $(RELEASE_FLAGS)

run: build
	$(SWIFT) run caption $(SAMPLE)

# Every test: the engine, the library and the command line, the window in-process, and
# the real binary driven by keys; each under its own Xvfb in a throwaway D-Bus session.
test: test-deps lint
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory test-unit test-startup test-e2e test-screenshots check-data

# House style: swift format (in the toolchain) with .swift-format; `make format` applies it.
SWIFT_SOURCES = Package.swift Sources Tests Benchmarks Plugins build-aux/embed-resources
# The scripts too: shellcheck for the shell ones, pyflakes for the Python ones. And C stays
# behind CaptionGtk/Bridge: what still crosses outside it may only shrink (lint-bridge).
# CONTRIBUTING.md's table of modules names every target of Package.swift but the tests.
LINT_DEPS = shellcheck pyflakes3
lint:
	@build-aux/install-deps $(LINT_DEPS)
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_SOURCES)
	build-aux/lint-scripts
	build-aux/lint-bridge
	build-aux/check-module-table
	@if grep -rn --include='*.swift' -E '\bMutex *[(<]' Sources; then \
		echo "make lint: Threads' Lock or Locked, which ThreadSanitizer sees, not Synchronization's Mutex"; \
		exit 1; fi

format:
	$(SWIFT) format --in-place --recursive --parallel $(SWIFT_SOURCES)

# The same tests built with AddressSanitizer, then ThreadSanitizer, each in a build folder
# of its own so neither rebuilds the other, and run as make test runs them (side by side).
# Leak reports are off: GTK and fontconfig keep caches for the life of the process, and
# the RSS tests measure real growth instead; those
# four (the window's thousand cycles, `--list`'s flat memory, a thousand queued photos'
# memory, completion's answer time at 100,000 values) are left to `make test`, since under a
# sanitizer they would measure the sanitizer's quarantine, shadow memory and slowdown, not
# Caption's.
# The tests that run exiftool, exiv2 and GExiv2 over every camera fixture in every mode
# (hundreds of reader runs) are left to make test: the same writing code runs under both
# sanitizers in-process (EmbeddingTests, CreditsTests) and through the program
# (CameraPhotoTests' onlyTheCaptionChanges).
SANITIZER_SKIP = --skip 'thousandCyclesGrowMemoryByAtMostTwoMegabytes|listMemoryIsFlat|aThousandQueuedPhotosCostAtMostTenMegabytesMore|aHundredThousandValuesAnswerInMilliseconds|everyAppReadsTheNewWords|commandLineCreditsIntoCameraPhotos'
# ThreadSanitizer's runtime itself dies of SIGBUS under a file-size limit (ulimit -f), so
# the full-disk tests, which stand a full disk in with that limit, run under make test and
# AddressSanitizer only. The zoom's main-loop test measures ThreadSanitizer there (its turn
# of the loop reached 264 and 361 ms, limit 250, in 2 of 17 runs here): timed inside, the
# long turn was always the first paint of the whole 24 MP picture, 150-170 ms, and where
# timed finely all of it was spent in `Surface.logicalSize`, a read of one field through
# `cairo_surface_get_device_scale` (4 microseconds in the run that did not stall): the main
# thread stood still outside Caption's code, under the sanitizer's runtime. The test runs
# under make test (50 ms limit) and AddressSanitizer (250 ms).
THREAD_SANITIZER_SKIP = --skip 'fullDisk|fullFolder|theFullSizeDecodeNeverStallsTheMainLoop'
# Swift's crash backtracer reads the crashed process's memory, which AddressSanitizer
# reports and then waits on: a crash under a sanitizer would hang the run instead of
# failing it. Off there; the sanitizer prints its own report.
SANITIZER_ENV = SWIFT_BACKTRACE=enable=no
# Each report goes to a file of its own, and a failed stage prints them all again as its
# last lines: the end of a long log is what a CI page shows.
REPORTS = $(CURDIR)/.build/sanitizer-reports
SHOW_REPORTS = || { cat $(REPORTS)/* 2>/dev/null; exit 1; }
ASAN = $(SANITIZER_ENV) CAPTION_SANITIZER=address ASAN_OPTIONS=detect_leaks=0:log_path=$(REPORTS)/address
TSAN = $(SANITIZER_ENV) CAPTION_SANITIZER=thread \
	TSAN_OPTIONS=suppressions=$(CURDIR)/build-aux/tsan.supp:log_path=$(REPORTS)/thread
test-sanitizers: test-deps
	rm -rf $(REPORTS) && mkdir -p $(REPORTS)
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	$(ASAN) build-aux/test-side-by-side .build/asan/debug $(SANITIZER_SKIP) --skip $(DECODER_TESTS) $(SHOW_REPORTS)
	$(ASAN) $(LIMIT) $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan --filter $(DECODER_TESTS) $(SHOW_REPORTS)
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	$(TSAN) build-aux/test-side-by-side .build/tsan/debug $(SANITIZER_SKIP) $(THREAD_SANITIZER_SKIP) \
		--skip $(DECODER_TESTS) $(SHOW_REPORTS)
	$(TSAN) $(LIMIT) $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan --filter $(DECODER_TESTS) $(SHOW_REPORTS)

# make screenshot must give the same pixels twice (fixed theme, fonts, scale; no animations).
test-screenshots:
	@build-aux/install-deps $(SCREENSHOT_DEPS)
	build-aux/check-screenshots .build/debug/caption $(SAMPLE)

# A test run that hangs stops at ten minutes, saying where it stood (test-side-by-side's
# processes have twenty).
LIMIT = build-aux/with-time-limit 600
# The eighth-size decoder's tests decode large JPEGs on two threads; run beside the window
# tests they starve the main loop those time, so they run on their own, after.
DECODER_TESTS = JPEGPreviewTests
# The window's suites, in two halves, and the rest run side by side (test-side-by-side).
# The small-screen layout once more at GDK_SCALE=2 (1280×800 at 200 %).
test-unit:
	build-aux/test-side-by-side .build/debug --skip $(DECODER_TESTS)
	GDK_SCALE=2 XVFB_SCREEN=1280x800x24 $(LIMIT) build-aux/with-display $(SWIFT) test --skip-build --filter SmallScreenTests
	$(LIMIT) $(SWIFT) test --skip-build --filter $(DECODER_TESTS)

# What start-up opens before the first frame, against Tests/startup/before-first-frame
# (strace): a library or a file new there fails, whatever the milliseconds say.
test-startup:
	build-aux/with-display Tests/startup/check-startup .build/debug/caption $(SAMPLE)
	mkdir -p .build/startup
	heif-enc -q 50 -t 320 -o .build/startup/phone.heic $(SAMPLE) >/dev/null
	build-aux/with-display Tests/startup/check-startup .build/debug/caption .build/startup/phone.heic
	build-aux/with-display Tests/startup/check-startup .build/debug/caption

# Each scenario starts its own Xvfb and D-Bus session, two at a time.
test-e2e:
	Tests/e2e/run.py .build/debug/caption $(SAMPLE)

# PNGs of the window's main states, into data/screenshots.
screenshot: build
	@build-aux/install-deps $(TEST_DEPS) $(SCREENSHOT_DEPS)
	build-aux/with-display build-aux/screenshot .build/debug/caption $(SAMPLE) data/screenshots

# The benchmarks (docs/performance.md), on the release build as installed (the Swift runtime
# linked in). Libraries of 100,000 and 1,000,000 entries are made once under
# .build/bench/fixtures, through the library's bulk path, for the list, search, scrolling
# and start-up figures at those scales (the larger one opened and searched, not scrolled). The window's start-up, Enter and preview are timed from outside through the X
# server (Benchmarks/bench.py), against a C floor and against yad and zenity; with
# BASELINE=path/to/another/release/caption, also against that build in the same run.
BENCH_DEPS = yad zenity gcc libx11-dev libxdamage-dev libxtst-dev python3 sqlite3

# The symbol order the release build links with (RELEASE_FLAGS), from a run of the release
# build to its first frame under Valgrind; run again when start-up changes. What it saves
# shows in `make bench` (peak RSS at first paint).
# SwiftPM does not know the list as an input: the program is removed so that the next
# release build links it with the new one.
startup-order: release
	@build-aux/install-deps valgrind
	build-aux/with-display build-aux/startup-order .build/release/caption $(SAMPLE) $(STARTUP_ORDER)
	rm -f .build/release/caption

bench: test-deps
	@build-aux/install-deps $(BENCH_DEPS)
	$(SWIFT) build -c release $(RELEASE_FLAGS)
	mkdir -p .build/bench
	.build/release/caption-bench
	.build/release/caption-bench large .build/bench/fixtures $(SAMPLE)
	.build/release/caption-bench places
	build-aux/with-postgres sh -c '.build/release/caption-bench server .build/bench/fixtures $(SAMPLE) && \
		build-aux/with-display .build/release/caption-view-bench --server-search "$$CAPTION_TEST_POSTGRES" \
		.build/bench/fixtures/data-100000/caption && \
		.build/release/caption-bench editors .build/bench/fixtures $(SAMPLE) && \
		.build/release/caption-bench server-list .build/bench/fixtures $(SAMPLE) 100000 && \
		.build/release/caption-bench server-list .build/bench/fixtures $(SAMPLE)'
	build-aux/with-display .build/release/caption-view-bench
	build-aux/with-display .build/release/caption-view-bench --large .build/bench/fixtures/data-100000/caption
	build-aux/with-display .build/release/caption-view-bench --large --search .build/bench/fixtures/data-1000000/caption
	build-aux/with-display .build/release/caption-view-bench --preferences
	build-aux/with-display Benchmarks/bench.py --caption .build/release/caption \
		--bench .build/release/caption-bench --sample $(SAMPLE) $(if $(BASELINE),--baseline $(BASELINE))
	build-aux/with-display .build/release/caption-view-bench --zoom .build/bench/fixtures/preview-45mp.jpg
	Benchmarks/sheet-bench.py --caption .build/release/caption --out .build/bench/sheet

clean:
	$(SWIFT) package clean

# --- Installing, translations and the Debian package (docs/packaging.md, docs/translations.md) ---

APP_ID = io.github.caption_app.Caption
VERSION := $(shell sed -n 's/^public let captionVersion = "\(.*\)"$$/\1/p' Sources/CaptionCommand/Arguments.swift)
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
MANDIR = $(DATADIR)/man
LOCALEDIR = $(DATADIR)/locale
# The user's guide: share/help/LANG/caption, where `help:caption` (F1) finds it.
HELPDIR = $(DATADIR)/help
ICONDIR = $(DATADIR)/icons/hicolor
# debian/rules sets STRIP=true: dh_strip strips, keeping the symbols for a -dbgsym package.
STRIP ?= strip
LINGUAS := $(shell sed 's/\#.*//' po/LINGUAS)
HELP_LINGUAS := $(shell sed 's/\#.*//' help/LINGUAS)
HELP_FILES = $(sort $(wildcard help/C/*.page)) help/C/legal.xml
DATA_DEPS = gettext itstool yelp-tools desktop-file-utils appstream appstream-util man-db librsvg2-bin file
PACKAGE_DEPS = debhelper dpkg-dev lintian binutils strace
TRANSLATED_SCREENSHOT_DEPS = fonts-wqy-microhei
# Built from data/ and po/ by `make data`; never committed.
GENERATED = .build/data
DEB_ARCH = $(shell dpkg --print-architecture)
DEB = .build/deb/caption_$(VERSION)_$(DEB_ARCH).deb

.PHONY: pot locale help data install install-data uninstall update-caches check-data deb test-package \
	screenshot-translated spec rpm rpm-deps

# The template from the sources, and every translation merged with it (new messages
# arrive untranslated, changed ones fuzzy: `make check-data` fails until they are done).
pot:
	@build-aux/install-deps gettext
	build-aux/make-pot $(VERSION) po/caption.pot
	@for lang in $(LINGUAS); do \
		msgmerge --quiet --update --backup=off po/$$lang.po po/caption.pot || exit 1; done

# Compiled catalogues in .build/locale, where a checkout's build finds them
# (Installation.localeDirectory): then `LANGUAGE=zh_CN swift run caption` speaks Chinese.
locale:
	@build-aux/install-deps gettext
	@for lang in $(LINGUAS); do \
		mkdir -p .build/locale/$$lang/LC_MESSAGES && \
		msgfmt --check -o .build/locale/$$lang/LC_MESSAGES/caption.mo po/$$lang.po || exit 1; done

# The user's guide in each language of help/LINGUAS: the pages with help/LL/LL.po merged
# in by itstool, in .build/help/LL.
help:
	@build-aux/install-deps gettext itstool
	@for lang in $(HELP_LINGUAS); do \
		rm -rf .build/help/$$lang && mkdir -p .build/help/$$lang && \
		msgfmt --check -o .build/help/$$lang.mo help/$$lang/$$lang.po && \
		itstool -m .build/help/$$lang.mo -o .build/help/$$lang/ $(HELP_FILES) || exit 1; done

# The desktop entry and the metainfo with their translations merged in; the guide.
data: locale help
	@mkdir -p $(GENERATED)
	msgfmt --desktop -d po --template data/$(APP_ID).desktop.in -o $(GENERATED)/$(APP_ID).desktop
	msgfmt --xml -L MetaInfo -d po --template data/$(APP_ID).metainfo.xml.in -o $(GENERATED)/$(APP_ID).metainfo.xml

# Everything but the program, for `make install` and for `make check-data`'s staged tree.
install-data: data
	install -d $(DESTDIR)$(DATADIR)/applications $(DESTDIR)$(DATADIR)/metainfo \
		$(DESTDIR)$(ICONDIR)/scalable/apps $(DESTDIR)$(ICONDIR)/symbolic/apps $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(GENERATED)/$(APP_ID).desktop $(DESTDIR)$(DATADIR)/applications/
	install -m 0644 $(GENERATED)/$(APP_ID).metainfo.xml $(DESTDIR)$(DATADIR)/metainfo/
	install -m 0644 data/icons/hicolor/scalable/apps/$(APP_ID).svg $(DESTDIR)$(ICONDIR)/scalable/apps/
	install -m 0644 data/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg $(DESTDIR)$(ICONDIR)/symbolic/apps/
	install -m 0644 data/caption.1 $(DESTDIR)$(MANDIR)/man1/
	install -d $(DESTDIR)$(HELPDIR)/C/caption
	install -m 0644 $(HELP_FILES) $(DESTDIR)$(HELPDIR)/C/caption/
	@for lang in $(HELP_LINGUAS); do \
		echo "install -m 0644 .build/help/$$lang/* $(DESTDIR)$(HELPDIR)/$$lang/caption/"; \
		install -d $(DESTDIR)$(HELPDIR)/$$lang/caption && \
		install -m 0644 .build/help/$$lang/* $(DESTDIR)$(HELPDIR)/$$lang/caption/ || exit 1; done
	@for lang in $(LINGUAS); do \
		echo "install -m 0644 .build/locale/$$lang/LC_MESSAGES/caption.mo $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/"; \
		install -d $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES && \
		install -m 0644 .build/locale/$$lang/LC_MESSAGES/caption.mo $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/ || exit 1; done

# The release build (Swift runtime linked in, so the target needs no toolchain), stripped.
# The caches are the system's: updated for a real install, left alone for a staged one.
install: release install-data
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 .build/release/caption $(DESTDIR)$(BINDIR)/caption
	$(STRIP) $(DESTDIR)$(BINDIR)/caption
	@if [ -z "$(DESTDIR)" ]; then $(MAKE) --no-print-directory update-caches; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/caption \
		$(DESTDIR)$(DATADIR)/applications/$(APP_ID).desktop \
		$(DESTDIR)$(DATADIR)/metainfo/$(APP_ID).metainfo.xml \
		$(DESTDIR)$(ICONDIR)/scalable/apps/$(APP_ID).svg \
		$(DESTDIR)$(ICONDIR)/symbolic/apps/$(APP_ID)-symbolic.svg \
		$(DESTDIR)$(MANDIR)/man1/caption.1
	@for lang in C $(HELP_LINGUAS); do \
		echo "rm -rf $(DESTDIR)$(HELPDIR)/$$lang/caption"; \
		rm -rf $(DESTDIR)$(HELPDIR)/$$lang/caption; done
	@for lang in $(LINGUAS); do \
		echo "rm -f $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/caption.mo"; \
		rm -f $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/caption.mo; done
	@if [ -z "$(DESTDIR)" ]; then $(MAKE) --no-print-directory update-caches; fi

# No GSettings schema is installed (the window keeps its size in a key file), so there is
# no glib-compile-schemas. A missing tool means there is no cache to keep up to date.
update-caches:
	if command -v gtk-update-icon-cache >/dev/null; then gtk-update-icon-cache -q -t -f $(ICONDIR); fi
	if command -v update-desktop-database >/dev/null; then update-desktop-database -q $(DATADIR)/applications; fi

# Validators over the data files, the translations and a staged install of them.
check-data: data
	@build-aux/install-deps $(DATA_DEPS)
	build-aux/check-data $(VERSION)

# The .deb, built here from this tree. -d: the build dependency `swiftlang` is Debian 13's
# name for the toolchain, which this machine has outside Debian's packages. The files
# dpkg-buildpackage leaves beside the tree are moved into .build/deb.
deb: release data
	@build-aux/install-deps $(PACKAGE_DEPS)
	dpkg-buildpackage -d -b -us -uc
	@mkdir -p .build/deb
	mv ../caption_$(VERSION)_$(DEB_ARCH).* .build/deb/
	for debug in ../caption-dbgsym_$(VERSION)_$(DEB_ARCH).*deb; do [ ! -e "$$debug" ] || mv "$$debug" .build/deb/; done
	lintian --fail-on error,warning --display-info $(DEB)

# The RPM package (packaging/rpm), built here by Debian's rpmbuild in a private _topdir,
# from a tarball of this tree, like a release tarball. --nodeps: the build dependencies
# are Fedora's names (swift-lang, pkgconfig(...)), which no RPM database here provides;
# the Debian packages that stand in for them are installed instead. Then rpmlint on both.
RPM_DEPS = rpm rpmlint rpm2cpio cpio debugedit elfutils libjpeg-dev
RPM_TOPDIR = $(CURDIR)/.build/rpm
RPM_ARCH = $(shell rpm --eval '%{_arch}')
RPM = .build/rpm/RPMS/$(RPM_ARCH)/caption-$(VERSION)-1.$(RPM_ARCH).rpm
SRPM = .build/rpm/SRPMS/caption-$(VERSION)-1.src.rpm

# The spec, from packaging/rpm/caption.spec.in with VERSION and a %changelog from
# CHANGELOG.md: the one that goes into the source package.
spec:
	@mkdir -p .build/rpm/SPECS
	build-aux/make-spec $(VERSION) .build/rpm/SPECS/caption.spec

rpm-deps: deps
	@build-aux/install-deps $(RPM_DEPS) $(DATA_DEPS)

# build-aux/rpm-macros: debuginfo packages and gzipped man pages, as Fedora builds them.
# rpmlint with Fedora's settings (packaging/rpm/rpmlint.toml); it fails on any error.
# RPMBUILD_OPTIONS: more for rpmbuild (test-package passes `--without tests`).
RPMBUILD_OPTIONS =
rpm: rpm-deps
	rm -rf $(RPM_TOPDIR)
	mkdir -p $(RPM_TOPDIR)/SOURCES $(RPM_TOPDIR)/SPECS
	build-aux/make-spec $(VERSION) $(RPM_TOPDIR)/SPECS/caption.spec
	build-aux/make-tarball caption $(VERSION) $(RPM_TOPDIR)/SOURCES/caption-$(VERSION).tar.gz
	build-aux/rpm-macros >$(RPM_TOPDIR)/macros
	rpmbuild -ba --nodeps --define '_topdir $(RPM_TOPDIR)' --load $(RPM_TOPDIR)/macros $(RPMBUILD_OPTIONS) \
		$(RPM_TOPDIR)/SPECS/caption.spec
	rpmlint -c packaging/rpm/rpmlint.toml $(RPM) $(SRPM)

# The packaging acceptance: the release build has its start-up code gathered (check-order);
# a staged install holds exactly the expected files and works from there (in Chinese too);
# the .deb installs, works, and removes without a trace; the RPM holds the same files,
# requires what the program needs, and passes rpmlint. The RPM is built without its
# %check tests (a debug build of its own from the tarball, some 160 s): they are the focus
# engine's and the JPEG decoder's, which make test runs; `make rpm` alone runs them.
test-package: release data rpm-deps
	@build-aux/install-deps $(DATA_DEPS) $(PACKAGE_DEPS)
	Tests/startup/check-order .build/release/caption $(STARTUP_ORDER)
	Tests/packaging/staged-install.sh
	$(MAKE) --no-print-directory deb
	Tests/packaging/deb-roundtrip.sh $(DEB)
	$(MAKE) --no-print-directory rpm RPMBUILD_OPTIONS='--without tests'
	Tests/packaging/rpm-check.sh $(RPM) $(SRPM) $(DEB)

# The window under LANGUAGE=zh_CN, as data/screenshots/caption-zh_CN.png: the form after a
# failed save, so that the labels and a message show.
screenshot-translated: build locale
	@build-aux/install-deps $(TEST_DEPS) $(SCREENSHOT_DEPS) $(TRANSLATED_SCREENSHOT_DEPS)
	rm -rf .build/screenshots-zh_CN
	LANGUAGE=zh_CN build-aux/with-display build-aux/screenshot .build/debug/caption $(SAMPLE) .build/screenshots-zh_CN
	cp .build/screenshots-zh_CN/caption-missing.png data/screenshots/caption-zh_CN.png
