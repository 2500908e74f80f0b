// The view at 100 %: the whole photo's pixels one to one around its centre or the camera's
// focus point, moved by keys as far as the edges, left by Escape or the same key, its pixels
// let go; decoded without stalling the main loop. Photos made by ImageMagick and exiftool.

import CGtk
import CaptionTestSupport
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct ZoomWindowTests {
    let folder = Harness.temporaryDirectory("caption-zoom")
    static let grey: UInt32 = 0x808080
    static let blue: UInt32 = 0x1818D0
    static let red: UInt32 = 0xD01818

    /// A 3000 × 2000 grey photo with a 200-pixel blue square at its centre and a red one
    /// around (2500, 400); `subject` is written as Exif SubjectArea, as phones write it.
    func makePhoto(_ name: String, subject: String? = nil, orientation: Int = 1) throws -> String {
        let path = folder + "/" + name
        let made = try Tool.run(
            "convert",
            [
                "-size", "3000x2000", "xc:#808080", "-fill", "#1818D0", "-draw", "rectangle 1400,900 1599,1099",
                "-fill", "#D01818", "-draw", "rectangle 2400,300 2599,499", "-quality", "95", path,
            ])
        try #require(made.status == 0, "convert: \(made.stderr)")
        if let subject {
            let tagged = try Tool.run(
                "exiftool",
                ["-q", "-overwrite_original", "-n", "-Orientation=\(orientation)", "-SubjectArea=\(subject)", path])
            try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        }
        return path
    }

    /// The preview as it is on screen: drawn into an image the size of its allocation.
    func render(_ window: CaptionWindow) -> (pixels: [UInt32], width: Int, height: Int) {
        let widget = window.form.photos.preview.widget.pointer
        let width = Int(gtk_widget_get_allocated_width(widget))
        let height = Int(gtk_widget_get_allocated_height(widget))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        gtk_widget_draw(widget, cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!).assumingMemoryBound(to: UInt32.self)
        var pixels: [UInt32] = []
        for y in 0..<height {
            for x in 0..<width { pixels.append(data[y * stride + x] & 0xFF_FFFF) }
        }
        return (pixels, width, height)
    }

    func near(_ colour: UInt32, _ expected: UInt32) -> Bool {
        [16, 8, 0].allSatisfy { shift in
            abs(Int((colour >> UInt32(shift)) & 0xFF) - Int((expected >> UInt32(shift)) & 0xFF)) <= 12
        }
    }

    /// How many pixels of `colour` the middle row of the preview shows, and the colour at
    /// the preview's centre.
    func middleRow(_ window: CaptionWindow, _ colour: UInt32) -> (run: Int, centre: UInt32) {
        let shown = render(window)
        let row = shown.height / 2
        let pixels = shown.pixels[(row * shown.width)..<((row + 1) * shown.width)]
        return (pixels.filter { near($0, colour) }.count, shown.pixels[row * shown.width + shown.width / 2])
    }

    func openWindow(_ photo: String, library: String) throws -> CaptionWindow {
        let window = try Harness.makeWindow(library: folder + "/" + library)
        gtk_window_resize(caption_window(window.widget), 720, 640)
        Harness.waitForPhoto(window) { window.form.openPhoto(photo) }
        #expect(
            Harness.spin(seconds: 3) { window.geometry.width == 720 && window.geometry.height == 640 },
            "the window never took its size")
        return window
    }

    /// Zooms in and waits until the photo's full-size pixels are painted.
    func zoomIn(_ window: CaptionWindow) {
        var sharp = false
        window.form.zoom.onSharp = { sharp = true }
        window.activateAction("zoom")
        #expect(window.form.zoom.isZoomed)
        #expect(Harness.spin(seconds: 30) { sharp }, "the whole photo never came")
        window.form.zoom.onSharp = nil
    }

    @Test func zoomShowsThePhotosOwnPixelsAroundItsCentre() throws {
        let window = try openWindow(try makePhoto("centre.jpg"), library: "centre")
        defer { Harness.close(window) }
        let fitted = middleRow(window, Self.blue)
        // Fitted, 3000 pixels go into some 700: the square is a fifth of its size or less.
        #expect(fitted.run > 0 && fitted.run < 60, "fitted, the square is \(fitted.run) pixels wide")
        zoomIn(window)
        let zoomed = middleRow(window, Self.blue)
        #expect(abs(zoomed.run - 200) <= 2, "at 100 %, the 200-pixel square is \(zoomed.run) pixels wide")
        #expect(near(zoomed.centre, Self.blue))
        let whole = try #require(window.form.photos.preview.zoom?.whole)
        #expect((whole.pixelWidth, whole.pixelHeight) == (3000, 2000))
    }

    /// The point is where it is in the stored picture: a photo its camera turned a quarter
    /// (orientation 6) shows it turned with the rest.
    @Test(arguments: [1, 6]) func zoomCentresOnWhereTheCameraFocused(orientation: Int) throws {
        let photo = try makePhoto("focus-\(orientation).jpg", subject: "2500 400 200 200", orientation: orientation)
        let window = try openWindow(photo, library: "focus-\(orientation)")
        defer { Harness.close(window) }
        zoomIn(window)
        let zoomed = middleRow(window, Self.red)
        #expect(near(zoomed.centre, Self.red), "the centre shows \(String(zoomed.centre, radix: 16))")
        #expect(abs(zoomed.run - 200) <= 2, "the red square is \(zoomed.run) pixels wide")
    }

    @Test func theSameKeyOrEscapeReturnsAndLetsTheFullSizePixelsGo() throws {
        let window = try openWindow(try makePhoto("leave.jpg"), library: "leave")
        defer { Harness.close(window) }
        let fitted = middleRow(window, Self.blue).run
        for leave in ["zoom", "Escape"] {
            zoomIn(window)
            weak var whole = window.form.photos.preview.zoom?.whole
            #expect(whole != nil)
            if leave == "Escape" {
                Harness.press(window, keyval: GDK_KEY_Escape)
            } else {
                window.activateAction("zoom")
            }
            Harness.settle()
            #expect(!window.form.zoom.isZoomed, "\(leave) left the view at 100 %")
            #expect(whole == nil, "after \(leave), the full-size pixels are still held")
            #expect(middleRow(window, Self.blue).run == fitted, "after \(leave), the whole photo shows again")
        }
    }

    @Test func theMoveKeysWorkOnlyWhileZoomedAndStopAtTheEdge() throws {
        let window = try openWindow(try makePhoto("move.jpg"), library: "move")
        defer { Harness.close(window) }
        func enabled(_ name: String) -> Bool {
            g_action_group_get_action_enabled(caption_action_group(window.actions.pointer), name) != 0
        }
        let moves = ["move-left", "move-right", "move-up", "move-down"]
        #expect(moves.allSatisfy { !enabled($0) }, "Alt and the arrows are the field's while not zoomed")
        zoomIn(window)
        #expect(moves.allSatisfy(enabled))
        // Right until the edge: the red square (x 2400–2599) comes into the middle row's right.
        var steps = 0
        while window.form.zoom.move(.right) { steps += 1 }
        #expect(steps >= 2 && steps <= 12, "\(steps) moves to the right edge")
        #expect(!window.form.zoom.move(.right), "no move past the edge")
        let shown = render(window)
        // At the right edge the photo's last column is the view's last.
        let rightmost = shown.pixels[(shown.height / 2) * shown.width + shown.width - 1]
        #expect(near(rightmost, Self.grey))
        window.form.zoom.zoomOut()
        #expect(moves.allSatisfy { !enabled($0) })
    }

    @Test func anotherPhotoEndsTheZoom() throws {
        let first = try makePhoto("first.jpg")
        let second = try makePhoto("second.jpg")
        let window = try openWindow(first, library: "another")
        defer { Harness.close(window) }
        zoomIn(window)
        Harness.waitForPhoto(window) { window.form.openPhoto(second) }
        #expect(!window.form.zoom.isZoomed)
        #expect(window.form.photos.preview.zoom == nil)
    }

    @Test func zoomWithoutAPhotoRingsTheBell() throws {
        let window = try Harness.makeWindow(library: folder + "/none")
        defer { Harness.close(window) }
        window.activateAction("zoom")
        #expect(!window.form.zoom.isZoomed)
    }

    /// A 24-megapixel photo decoded whole while the main loop turns: no turn waits for it.
    @Test func theFullSizeDecodeNeverStallsTheMainLoop() throws {
        let path = folder + "/large.jpg"
        let made = try Tool.run("convert", ["-size", "6000x4000", "gradient:#D01818-#1818D0", "-quality", "90", path])
        try #require(made.status == 0, "convert: \(made.stderr)")
        let window = try openWindow(path, library: "large")
        defer { Harness.close(window) }
        var sharp = false
        window.form.zoom.onSharp = { sharp = true }
        var longest = 0.0
        var last = Date()
        window.activateAction("zoom")
        let deadline = Date().addingTimeInterval(60)
        while !sharp && Date() < deadline {
            g_main_context_iteration(nil, 0)
            longest = max(longest, Date().timeIntervalSince(last))
            last = Date()
            usleep(500)
        }
        #expect(sharp, "the whole photo never came")
        #expect(longest < Harness.mainLoopGapLimit, "the main loop waited \(Int(longest * 1000)) ms")
    }
}
