// The window on small screens: a phone (360×640 logical pixels), 1280×800 at 200 % (640×400
// logical) and the standard size. Nothing is cut off: the window takes the size it is given,
// the header keeps its controls, and every field and the button are inside the window or,
// where the form scrolls, brought into view when they get focus.

import CGtk
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct SmallScreenTests {
    let folder = Harness.temporaryDirectory("caption-small")

    /// The widget's rectangle in the window's coordinates.
    func frame(
        _ widget: UnsafeMutablePointer<GtkWidget>, in window: CaptionWindow
    ) -> (x: Int, y: Int, width: Int, height: Int) {
        var x: Int32 = 0
        var y: Int32 = 0
        gtk_widget_translate_coordinates(widget, window.widget, 0, 0, &x, &y)
        return (
            Int(x), Int(y), Int(gtk_widget_get_allocated_width(widget)), Int(gtk_widget_get_allocated_height(widget))
        )
    }

    func windowSize(_ window: CaptionWindow) -> (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_size(caption_window(window.widget), &width, &height)
        return (Int(width), Int(height))
    }

    /// The title bar's buttons as GNOME, GNOME Mobile and Phosh have them by default
    /// (button-layout 'appmenu:close'; Caption has no app menu): the close button alone.
    /// GTK's own default without a desktop adds minimize and maximize, which a phone has not.
    func sized(_ width: Int, _ height: Int) throws -> CaptionWindow {
        try Harness.start()
        caption_object_set_string(
            UnsafeMutableRawPointer(gtk_settings_get_default()), "gtk-decoration-layout", ":close")
        let window = try Harness.makeWindow(
            library: folder + "/library", stateFile: folder + "/window-\(width)x\(height).ini")
        gtk_window_resize(caption_window(window.widget), Int32(width), Int32(height))
        _ = Harness.spin(seconds: 3) {
            windowSize(window) == (width, height) && window.window.allocatedWidth == width
                && window.window.allocatedHeight == height
        }
        return window
    }

    /// The window is exactly the size given, and every control lies inside it across; the
    /// fields and the button also down, once each has had focus (the form may scroll).
    func checkFits(_ width: Int, _ height: Int, scrolls: Bool) throws {
        let window = try sized(width, height)
        defer { gtk_widget_destroy(window.widget) }
        #expect(windowSize(window) == (width, height), "the window is \(windowSize(window)), not \(width)×\(height)")
        let allocated = (width: window.window.allocatedWidth, height: window.window.allocatedHeight)
        let header: [(String, UnsafeMutablePointer<GtkWidget>)] = [
            ("the menu button", window.menuButton.pointer), ("the view switcher", window.switcher.pointer),
        ]
        for (name, widget) in header {
            let box = frame(widget, in: window)
            #expect(gtk_widget_get_mapped(widget) != 0, "\(name) is not shown")
            #expect(
                box.x >= 0 && box.x + box.width <= allocated.width && box.width > 0,
                "\(name) at x \(box.x), \(box.width) wide, in a window \(allocated.width) wide")
        }
        let view = window.form.view
        let form: [(String, UnsafeMutablePointer<GtkWidget>)] = [
            ("Choose Photo…", view.photoButton.pointer), ("Title", view.titleEntry.pointer),
            ("Subtitle", view.subtitleEntry.pointer), ("the Next/Done button", view.activateButton.pointer),
        ]
        func isInside(_ box: (x: Int, y: Int, width: Int, height: Int)) -> Bool {
            box.x >= 0 && box.x + box.width <= allocated.width && box.y >= 0 && box.y + box.height <= allocated.height
        }
        for (name, widget) in form {
            gtk_widget_grab_focus(widget)
            // Where the form scrolls, the field with focus is brought into view.
            _ = Harness.spin(seconds: 2) { isInside(frame(widget, in: window)) }
            let box = frame(widget, in: window)
            #expect(
                box.x >= 0 && box.x + box.width <= allocated.width,
                "\(name) at x \(box.x), \(box.width) wide, in a window \(allocated.width) wide")
            #expect(
                box.y >= 0 && box.y + box.height <= allocated.height,
                "\(name) at y \(box.y), \(box.height) high, in a window \(allocated.height) high")
            #expect(box.width >= 40 && box.height >= 20, "\(name) is squeezed to \(box.width)×\(box.height)")
        }
        let preview = frame(view.preview.widget.pointer, in: window)
        if !scrolls {
            #expect(preview.height >= Int(PhotoPreview.smallest.height), "the preview is \(preview.height) high")
        }
    }

    @Test func aPhoneScreenOf360By640FitsTheWholeWindow() throws {
        try checkFits(360, 640, scrolls: false)
    }

    /// 1280×800 at 200 % gives the window at most 640×400 logical pixels.
    @Test func a1280By800ScreenAt200PercentFitsWithTheFormScrolling() throws {
        try checkFits(640, 400, scrolls: true)
    }

    @Test func theStandardSizeShowsEverythingWithALargePreview() throws {
        try checkFits(WindowGeometry.standard.width, WindowGeometry.standard.height, scrolls: false)
        let window = try sized(WindowGeometry.standard.width, WindowGeometry.standard.height)
        defer { gtk_widget_destroy(window.widget) }
        #expect(window.form.view.preview.widget.allocatedHeight >= 240, "the preview got small at the standard size")
    }

    /// The screen the tests run on, in logical pixels: 1280×1024 normally, and 640×400 when
    /// make test runs this suite on a 1280×800 screen at GDK_SCALE=2.
    func screen() throws -> (width: Int, height: Int) {
        try Harness.start()
        let display = try #require(gdk_display_get_default())
        let monitor = try #require(gdk_display_get_monitor(display, 0))
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        return (Int(area.width), Int(area.height))
    }

    /// Turns the main loop until the window has drawn `count` more frames: each lays out what
    /// changed before it paints, so a resize a change asks for is made by then.
    func drawFrames(_ window: CaptionWindow, _ count: Int = 2) {
        guard let clock = gtk_widget_get_frame_clock(window.widget) else { return }
        let target = gdk_frame_clock_get_frame_counter(clock) + count
        let drawn = Harness.spin(seconds: 5) {
            gtk_widget_queue_draw(window.widget)
            return gdk_frame_clock_get_frame_counter(clock) >= target
        }
        #expect(drawn, "the window drew no frame")
    }

    /// A server's long message (an address or a path with no space to break at) and a claim
    /// notice longer than the notification's width: the window keeps its width, and both are
    /// shown whole, on more lines, not cut.
    @Test func longMessagesWrapAndNeverWidenTheWindow() throws {
        let window = try sized(640, 480)
        defer { gtk_widget_destroy(window.widget) }
        drawFrames(window)
        let allocated = window.window.allocatedWidth
        let address = "postgresql://caption_admin@" + String(repeating: "desk-server-", count: 30) + "example.org/desk"
        window.messages.show(problem: "The library's server could not be reached (timeout expired): " + address)
        let notice =
            "Ben Carvalho on desk-2 is captioning “IMG_20261206_142233_long_name.jpg”; Ctrl+Page Down goes on, and your words wait with it"
        window.notification.show(notice, seconds: nil)
        #expect(Harness.spin(seconds: 3) { window.notification.isShowing })
        drawFrames(window)
        #expect(windowSize(window) == (640, 480), "the window grew to \(windowSize(window))")
        #expect(window.window.allocatedWidth == allocated)
        for label in [window.messages.labelWidget, window.notification.labelWidget].compactMap({ $0 }) {
            let layout = gtk_label_get_layout(caption_label(label.pointer))
            #expect(pango_layout_is_ellipsized(layout) == 0, "“\(label.text)” is cut")
            #expect(pango_layout_get_line_count(layout) > 1, "“\(label.text)” is on one line")
        }
    }

    /// The window as large as the whole screen it runs on fits it.
    @Test func aWindowAsLargeAsTheScreenFits() throws {
        let (width, height) = try screen()
        try checkFits(width, height, scrolls: height < 640)
    }

    /// GDK_SCALE=2 (make test runs this suite once more with it, on a 1280×800 screen): the
    /// same logical layout on twice the pixels.
    @Test func theScaleFactorAndScreenAreTheEnvironments() throws {
        let window = try sized(360, 640)
        defer { gtk_widget_destroy(window.widget) }
        let environment = ProcessInfo.processInfo.environment
        let wanted = Int(environment["GDK_SCALE"] ?? "1") ?? 1
        #expect(window.window.scaleFactor == wanted)
        // XVFB_SCREEN is with-display's screen, "1280x800x24": its pixels over the scale.
        let pixels = (environment["XVFB_SCREEN"] ?? "1280x1024x24").split(separator: "x").compactMap { Int($0) }
        let logical = try screen()
        #expect([logical.width * wanted, logical.height * wanted] == Array(pixels.prefix(2)))
    }
}
