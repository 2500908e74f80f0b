// The preview's pictures are made without the display: pixel for pixel what GDK's own
// conversion gives, and no shared memory attached to the X server from a decoding thread;
// shown, an opaque one is kept by the X server.

import CGtk
import Foundation
import Pixbufs
import Testing

@testable import CaptionGtk

@MainActor
@Suite(.serialized) struct SurfaceTests {
    /// A pixbuf of pseudo-random pixels, with or without alpha.
    func noise(width: Int32, height: Int32, alpha: Bool) -> Pixbuf {
        let pointer = gdk_pixbuf_new(GDK_COLORSPACE_RGB, alpha ? 1 : 0, 8, width, height)!
        let stride = Int(gdk_pixbuf_get_rowstride(pointer))
        let pixels = gdk_pixbuf_get_pixels(pointer)!
        let channels = alpha ? 4 : 3
        var seed: UInt32 = 2024
        for y in 0..<Int(height) {
            for x in 0..<Int(width) * channels {
                seed = seed &* 1_103_515_245 &+ 12345
                pixels[y * stride + x] = UInt8(truncatingIfNeeded: seed >> 23)
            }
        }
        return Pixbuf(taking: pointer)
    }

    /// Every 32-bit pixel of an image surface.
    func words(_ surface: OpaquePointer) -> [UInt32] {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        return (0..<height).flatMap { y in
            (0..<width).map { x in data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) }
        }
    }

    @Test(arguments: [false, true]) func theSurfaceHoldsWhatGDKsConversionGives(alpha: Bool) throws {
        try Harness.start()
        let pixbuf = noise(width: 97, height: 61, alpha: alpha)
        let ours = Surface(pixbuf, scale: 2)
        let gdk = try #require(gdk_cairo_surface_create_from_pixbuf(pixbuf.pointer, 2, nil))
        defer { cairo_surface_destroy(gdk) }
        #expect(cairo_image_surface_get_format(ours.pointer) == cairo_image_surface_get_format(gdk))
        #expect(ours.logicalSize.width == 48.5 && ours.logicalSize.height == 30.5)
        // RGB24 leaves the top byte undefined: GDK's is 0xFF, and only the colour is compared.
        let mask: UInt32 = alpha ? 0xFFFF_FFFF : 0x00FF_FFFF
        #expect(words(ours.pointer).map { $0 & mask } == words(gdk).map { $0 & mask })
    }

    /// System V shared memory segments the process has mapped.
    func sharedSegments() throws -> Int {
        try String(contentsOfFile: "/proc/self/maps", encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("/SYSV") }.count
    }

    @Test func makingASurfaceAsksNothingOfTheDisplay() throws {
        try Harness.start()
        let before = try sharedSegments()
        // On X, GDK's conversion of a picture this size attaches shared memory to the server.
        let surfaces = (0..<2).map { _ in Surface(noise(width: 3000, height: 2000, alpha: false), scale: 1) }
        #expect(surfaces.allSatisfy { $0.pixelWidth == 3000 })
        #expect(try sharedSegments() == before, "a surface was made in memory shared with the display")
    }

    /// A drawing area in a realised window, as the preview is.
    func realisedArea() -> (window: UnsafeMutablePointer<GtkWidget>, area: Widget) {
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let area = Widget.drawingArea()
        gtk_container_add(caption_container(window), area.pointer)
        gtk_widget_realize(window)
        gtk_widget_realize(area.pointer)
        return (window, area)
    }

    @Test func anOpaquePictureShownIsKeptByTheXServerPixelForPixel() throws {
        try Harness.start()
        let (window, area) = realisedArea()
        defer { gtk_widget_destroy(window) }
        let picture = Surface(noise(width: 97, height: 61, alpha: false), scale: 2)
        let before = try sharedSegments()
        let shown = picture.readyForDisplay(on: area)
        #expect(cairo_surface_get_type(shown.pointer) == CAIRO_SURFACE_TYPE_XLIB)
        #expect(try sharedSegments() == before, "the picture went through memory shared with the server")
        #expect(shown.pixelWidth == 97 && shown.pixelHeight == 61)
        #expect(shown.logicalSize.width == 48.5 && shown.logicalSize.height == 30.5)
        let pixels = words(picture.pointer)
        for (x, y) in [(0, 0), (96, 0), (0, 60), (96, 60), (48, 30), (13, 57)] {
            let colour = pixels[y * 97 + x] & 0xFF_FFFF
            #expect(picture.pixel(x: x, y: y) == colour, "the picture's pixel (\(x), \(y))")
            #expect(shown.pixel(x: x, y: y) == colour, "the shown picture's pixel (\(x), \(y))")
        }
        #expect(shown.pixel(x: 97, y: 0) == nil)
        // Asking the area's X window for the pixmap would have made the area a native window,
        // which paints black where GTK draws its background.
        #expect(gdk_window_has_native(gtk_widget_get_window(area.pointer)) == 0)
    }

    @Test func aPictureWithTransparencyShownStaysWithTheProgram() throws {
        try Harness.start()
        let (window, area) = realisedArea()
        defer { gtk_widget_destroy(window) }
        let picture = Surface(noise(width: 40, height: 30, alpha: true), scale: 1)
        let shown = picture.readyForDisplay(on: area)
        #expect(cairo_surface_get_type(shown.pointer) == CAIRO_SURFACE_TYPE_IMAGE)
        #expect(shown.pixel(x: 39, y: 29) == picture.pixel(x: 39, y: 29))
    }
}
