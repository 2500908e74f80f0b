# Caption: build, run, test, benchmark and install.
# `make run` and `make test` are the two set-up commands of the README.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
BUILD_DEPS = libgtk-3-dev libsqlite3-dev libgdk-pixbuf-2.0-dev pkg-config
TEST_DEPS = xvfb xauth dbus dbus-bin xdotool x11-utils
# The end-to-end suite: Debian's python3 with the AT-SPI client, the accessibility bus,
# and ibus with a pinyin engine and its GTK input method module.
E2E_DEPS = python3-pyatspi at-spi2-core ibus ibus-gtk3 ibus-libpinyin
SCREENSHOT_DEPS = imagemagick fonts-dejavu-core
SAMPLE = data/samples/harbour.jpg

.PHONY: all build release run test test-unit test-e2e deps test-deps bench screenshot clean

all: build

deps:
	@build-aux/install-deps $(BUILD_DEPS)

test-deps: deps
	@build-aux/install-deps $(TEST_DEPS) $(E2E_DEPS)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: build
	$(SWIFT) run caption $(SAMPLE)

# Every test: the engine, the library and the command line, the window in-process, and
# the real binary driven by keys; each under its own Xvfb in a throwaway D-Bus session.
test: test-deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory test-unit test-e2e

test-unit:
	build-aux/with-display $(SWIFT) test --skip-build

# Each scenario starts its own Xvfb and D-Bus session, two at a time.
test-e2e:
	Tests/e2e/run.py .build/debug/caption $(SAMPLE)

# PNGs of the window's main states, into data/screenshots.
screenshot: build
	@build-aux/install-deps $(TEST_DEPS) $(SCREENSHOT_DEPS)
	build-aux/with-display build-aux/screenshot .build/debug/caption $(SAMPLE) data/screenshots

bench: deps
	$(SWIFT) build -c release --product caption-bench
	.build/release/caption-bench

clean:
	$(SWIFT) package clean
