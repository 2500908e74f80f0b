// What the window tests share: a display, a main loop to turn, photos and libraries to use.

import CGtk
import CaptionTestSupport
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
enum Harness {
    private static var initialised = false

    /// GTK on the test's display. A missing display fails the test: `make test` always
    /// provides one, so a skip here would hide a broken set-up.
    static func start() throws {
        if !initialised {
            // The simple input method, so that the composition test is the same everywhere.
            setenv("GTK_IM_MODULE", "gtk-im-context-simple", 1)
            setenv("GTK_THEME", "Adwaita", 1)
            setenv("NO_AT_BRIDGE", "1", 1)
            try #require(gtk_init_check(nil, nil) != 0, "no display: run the tests with `make test`")
            initialised = true
        }
    }

    /// A window on `library`, shown and active; it remembers its size in `stateFile` (the
    /// user's config folder, under make test a private one, when nil). Its standing credits
    /// are in `creditsFile`, by default one of its own beside the library, so that no test
    /// writes another's credits; the photos it sends wait in `sendQueueFile`, by default one
    /// of its own beside the library too.
    static func makeWindow(
        library: String, stateFile: String? = nil, creditsFile: String? = nil, sendQueueFile: String? = nil
    ) throws
        -> CaptionWindow
    {
        try start()
        let window = CaptionWindow(
            application: nil, libraryLocation: library, stateFile: stateFile,
            creditsFile: creditsFile ?? library + ".credits.ini",
            sendQueueFile: sendQueueFile ?? library + ".send-queue")
        gtk_widget_show_all(window.widget)
        gtk_window_present(caption_window(window.widget))
        settle()
        return window
    }

    /// Runs `action` and waits until the photo it put on the form has been checked whole.
    static func waitForPhoto(
        _ window: CaptionWindow, sourceLocation: SourceLocation = #_sourceLocation,
        _ action: () -> Void
    ) {
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        action()
        #expect(spin { settled }, "the photo never finished loading", sourceLocation: sourceLocation)
        window.form.onPhotoSettled = nil
    }

    /// What an entry shows.
    static func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_entry_get_text(caption_entry(entry)))
    }

    /// Turns the main loop until `condition` holds or `seconds` pass; returns the condition.
    @discardableResult
    static func spin(seconds: Double = 10, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            if g_main_context_iteration(nil, 0) == 0 { usleep(1_000) }
        }
        return true
    }

    /// Opens `path` on the form and turns the main loop until the photo is checked whole
    /// and its preview painted; returns the longest gap between two turns, in seconds, and
    /// whether the photo settled within `seconds`.
    static func longestMainLoopGap(
        opening path: String, in window: CaptionWindow, seconds: Double = 30
    )
        -> (longest: Double, settled: Bool)
    {
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        defer { window.form.onPhotoSettled = nil }
        var longest = 0.0
        var last = Date()
        func turn() {
            g_main_context_iteration(nil, 0)
            let now = Date()
            longest = max(longest, now.timeIntervalSince(last))
            last = now
        }
        window.form.openPhoto(path)
        let deadline = Date().addingTimeInterval(seconds)
        while !settled && Date() < deadline {
            turn()
            usleep(500)
        }
        // Include the paint of the decoded preview.
        for _ in 0..<20 { turn() }
        return (longest, settled)
    }

    /// Whether the tests run under a sanitizer (make test-sanitizers), where instrumented
    /// code runs several times slower and time bounds are wider.
    static var isUnderSanitizer: Bool { ProcessInfo.processInfo.environment["CAPTION_SANITIZER"] != nil }

    /// The longest main-loop gap a test allows; under a sanitizer the bound only guards
    /// against a decode on the main thread.
    static var mainLoopGapLimit: Double { isUnderSanitizer ? 0.250 : 0.050 }

    /// How long a burst of work on the main thread (a huge paste laid out and refused) may
    /// take before a test calls it a freeze: the 100,000-character paste took 340 ms plain,
    /// 720 ms under ASan and 1,118 ms under TSan in one CI run, so 1 s was a coin toss there.
    static var freezeLimit: Double { isUnderSanitizer ? 4.0 : 1.0 }

    /// Lets pending events (focus, redraws) happen.
    static func settle() {
        for _ in 0..<50 where g_main_context_iteration(nil, 0) != 0 {}
    }

    /// Closes a window a test made, after giving what is still on its way to the form (a
    /// photo's words, its check, a decode) time to arrive. Nothing is checked after it: the
    /// time only keeps that work from running on into the next test and loading the
    /// machine under it; destroying a window with work on its way is safe either way
    /// (LifetimeTests).
    static func close(_ window: CaptionWindow, after milliseconds: Int = 300) {
        pump(milliseconds: milliseconds)
        gtk_widget_destroy(window.widget)
    }

    /// Sets a field's text, as typing it would, and lets the form hear of it.
    static func type(_ entry: TextEntry, _ text: String) {
        gtk_entry_set_text(caption_entry(entry.pointer), text)
        settle()
    }

    /// A scratch folder for the rest of the test run, removed when the process ends.
    static func temporaryDirectory(_ name: String = "caption-test") -> String {
        ScratchFolders.keep(Scratch(name)).path
    }

    /// A JPEG of the given size, with some texture so it compresses like a photo.
    static func makePhoto(
        width: Int32 = 320, height: Int32 = 200, in directory: String,
        name: String = "photo.jpg", noise: Bool = false
    ) -> String {
        let path = directory + "/" + name
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height)!
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        var seed: UInt32 = 12345
        for y in 0..<Int(height) {
            for x in 0..<Int(width) {
                let offset = y * stride + x * 3
                seed = seed &* 1_103_515_245 &+ 12345
                let grain = noise ? UInt8(truncatingIfNeeded: seed >> 24) / 4 : 0
                pixels[offset] = UInt8(truncatingIfNeeded: x * 255 / Int(width)) &+ grain
                pixels[offset + 1] = UInt8(truncatingIfNeeded: y * 255 / Int(height)) &+ grain
                pixels[offset + 2] = 160 &+ grain
            }
        }
        let keys = [strdup("quality"), nil]
        let values = [strdup("90"), nil]
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        var keysCopy = keys
        var valuesCopy = values
        let saved = gdk_pixbuf_savev(pixbuf, path, "jpeg", &keysCopy, &valuesCopy, nil)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        precondition(saved != 0, "could not write the test photo \(path)")
        return path
    }

    static func focusedWidget(_ window: CaptionWindow) -> UnsafeMutablePointer<GtkWidget>? {
        gtk_window_get_focus(caption_window(window.widget))
    }

    /// A key press sent through the window, as the X server would deliver it: the window
    /// hands it to the focused widget, whose input method sees it first.
    static func press(_ window: CaptionWindow, keyval: Int32, state: GdkModifierType = GdkModifierType(0)) {
        send(window, [GDK_KEY_PRESS, GDK_KEY_RELEASE], keyval: keyval, state: state)
    }

    /// Turns the main loop for a while. It is for proving that something does not happen
    /// within that time, or for pacing what a test simulates (a file written in pieces);
    /// never for waiting for something to happen: `spin` waits for that by its condition.
    static func pump(milliseconds: Int) {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        while Date() < deadline {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1_000) }
        }
    }

    /// Key events as the X server sends them, one by one (a press alone, a release alone).
    /// `settling: false` leaves the main loop unturned after it: the next key comes before
    /// anything that answers later, as from a typist ahead of a busy machine.
    static func send(
        _ window: CaptionWindow, _ types: [GdkEventType], keyval: Int32,
        state: GdkModifierType = GdkModifierType(0), settling: Bool = true
    ) {
        send(toplevel: window.widget, types, keyval: keyval, state: state, settling: settling)
    }

    /// A key press sent through another of the app's windows (Preferences).
    static func press(
        toplevel: UnsafeMutablePointer<GtkWidget>, keyval: Int32, state: GdkModifierType = GdkModifierType(0)
    ) {
        send(toplevel: toplevel, [GDK_KEY_PRESS, GDK_KEY_RELEASE], keyval: keyval, state: state)
    }

    static func send(
        toplevel: UnsafeMutablePointer<GtkWidget>, _ types: [GdkEventType], keyval: Int32,
        state: GdkModifierType = GdkModifierType(0), settling: Bool = true
    ) {
        // A key may close the window (Escape in Preferences): held, it is only destroyed,
        // and the release that follows has nowhere to go.
        g_object_ref(UnsafeMutableRawPointer(toplevel))
        defer { g_object_unref(UnsafeMutableRawPointer(toplevel)) }
        for type in types {
            guard let gdkWindow = gtk_widget_get_window(toplevel) else { return }
            let event = gdk_event_new(type)!
            event.pointee.key.window = gdkWindow
            // gdk_event_free drops a reference to the event's window.
            g_object_ref(UnsafeMutableRawPointer(gdkWindow))
            event.pointee.key.keyval = UInt32(keyval)
            event.pointee.key.state = state.rawValue
            event.pointee.key.send_event = 1
            event.pointee.key.time = UInt32(GDK_CURRENT_TIME)
            let display = gdk_display_get_default()
            let seat = gdk_display_get_default_seat(display)
            gdk_event_set_device(event, gdk_seat_get_keyboard(seat))
            var keys: UnsafeMutablePointer<GdkKeymapKey>?
            var count: Int32 = 0
            if gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(display), UInt32(keyval), &keys, &count)
                != 0,
                let keys, count > 0
            {
                event.pointee.key.hardware_keycode = UInt16(keys[0].keycode)
                event.pointee.key.group = UInt8(keys[0].group)
                g_free(keys)
            }
            gtk_main_do_event(event)
            gdk_event_free(event)
        }
        if settling { settle() }
    }
}

/// Scratch folders that live as long as the test process: suites are structs, with no end
/// to clean up at. Not on the main actor: the process may end on another thread.
private enum ScratchFolders {
    nonisolated(unsafe) private static var kept: [Scratch] = []
    private static let lock = NSLock()

    static func keep(_ scratch: Scratch) -> Scratch {
        lock.lock()
        defer { lock.unlock() }
        if kept.isEmpty { atexit { ScratchFolders.removeAll() } }
        kept.append(scratch)
        return scratch
    }

    private static func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        kept.removeAll()
    }
}
