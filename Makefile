# Caption: build, run, test, benchmark and install.
# `make run` and `make test` are the two set-up commands of the README.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
BUILD_DEPS = libgtk-3-dev libsqlite3-dev libgdk-pixbuf-2.0-dev pkg-config
TEST_DEPS = xvfb xauth dbus dbus-bin xdotool x11-utils at-spi2-core python3-pyatspi
SAMPLE = data/samples/harbour.jpg

.PHONY: all build release run test deps test-deps bench clean

all: build

deps:
	@build-aux/install-deps $(BUILD_DEPS)

test-deps: deps
	@build-aux/install-deps $(TEST_DEPS)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: build
	$(SWIFT) run caption $(SAMPLE)

# Every test: the engine, the library and the command line, and the window under a
# private Xvfb in a throwaway D-Bus session.
test: test-deps
	$(SWIFT) build --build-tests
	build-aux/with-display $(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build -c release --product caption-bench
	.build/release/caption-bench

clean:
	$(SWIFT) package clean
