// Pictures as cairo paints them: an owning image surface made from a pixbuf, and the one way
// the preview draws it.

import CGtk
import Pixbufs

/// An owning cairo image surface. It is made on a decoding thread and painted on the main
/// thread: its reference count is atomic and its pixels are never written once made, so
/// handing it over is safe.
final class Surface: @unchecked Sendable {
    let pointer: OpaquePointer

    /// `pixbuf` in cairo's premultiplied format at the window's `scale`: what the preview
    /// paints as is. Made in memory, without asking the display (see the shim), so it runs
    /// on any thread.
    init(_ pixbuf: Pixbuf, scale: Int) {
        // Never NULL: cairo answers a failed allocation with a surface in an error state,
        // which paints nothing.
        pointer = caption_surface_from_pixbuf(pixbuf.pointer, Int32(max(scale, 1)))!
    }

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// The same picture where `widget`'s display reads it directly (on X, shared memory
    /// with the server), so that each paint is a copy on the server rather than an upload
    /// through a second buffer; itself where the widget has no window yet. It asks the
    /// display: the main thread only.
    @MainActor
    func readyForDisplay(on widget: Widget) -> Surface {
        guard let window = gtk_widget_get_window(widget.pointer) else { return self }
        var scale = 1.0
        var unused = 1.0
        cairo_surface_get_device_scale(pointer, &scale, &unused)
        guard
            let copy = gdk_window_create_similar_image_surface(
                window, cairo_image_surface_get_format(pointer), Int32(pixelWidth), Int32(pixelHeight),
                Int32(scale))
        else { return self }
        guard cairo_surface_status(copy) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(copy)
            return self
        }
        let cairo = cairo_create(copy)!
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cairo, pointer, 0, 0)
        cairo_paint(cairo)
        cairo_destroy(cairo)
        return Surface(taking: copy)
    }

    deinit {
        cairo_surface_destroy(pointer)
    }

    /// The size in device pixels.
    var pixelWidth: Int { Int(cairo_image_surface_get_width(pointer)) }
    var pixelHeight: Int { Int(cairo_image_surface_get_height(pointer)) }

    /// The size in logical pixels: the device size over the scale it was made for.
    var logicalSize: (width: Double, height: Double) {
        var scaleX = 1.0
        var scaleY = 1.0
        cairo_surface_get_device_scale(pointer, &scaleX, &scaleY)
        return (Double(pixelWidth) / scaleX, Double(pixelHeight) / scaleY)
    }

    /// The colour at device pixel (`x`, `y`) as 0xRRGGBB; nil outside the surface.
    func pixel(x: Int, y: Int) -> UInt32? {
        guard (0..<pixelWidth).contains(x), (0..<pixelHeight).contains(y),
            let data = cairo_image_surface_get_data(pointer)
        else { return nil }
        cairo_surface_flush(pointer)
        let stride = Int(cairo_image_surface_get_stride(pointer))
        // CAIRO_FORMAT_RGB24 or ARGB32: one native-endian 32-bit word a pixel.
        return UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self) & 0xFF_FFFF
    }
}

/// The cairo context a widget's draw handler is given, for the length of the handler.
struct DrawingContext {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// Paints `surface` with its top left at (`x`, `y`), enlarged by `scale`. At scale 1 it
    /// is a copy to whole pixels, the cheap path; otherwise cairo's good filter smooths it.
    func paint(_ surface: Surface, x: Double, y: Double, scale: Double) {
        cairo_save(pointer)
        if scale == 1 {
            cairo_set_source_surface(pointer, surface.pointer, x.rounded(.down), y.rounded(.down))
        } else {
            cairo_translate(pointer, x, y)
            cairo_scale(pointer, scale, scale)
            cairo_set_source_surface(pointer, surface.pointer, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(pointer), CAIRO_FILTER_GOOD)
        }
        cairo_paint(pointer)
        cairo_restore(pointer)
    }

    /// Paints the part of `surface` (one pixel to one device pixel, its top left at `x`,
    /// `y`) that falls inside the `width` × `height` area at the origin, through a picture
    /// of that part alone. Painted directly, a large picture (a 45 MP photo's 180 MB) went
    /// whole into a shared-memory segment that cairo's X backend made for it and kept.
    func paintVisiblePart(of surface: Surface, x: Double, y: Double, width: Double, height: Double) {
        let (photoWidth, photoHeight) = surface.logicalSize
        let left = max(0, x.rounded(.down))
        let top = max(0, y.rounded(.down))
        let right = min(width, x.rounded(.down) + photoWidth)
        let bottom = min(height, y.rounded(.down) + photoHeight)
        guard right > left, bottom > top else { return }
        var scaleX = 1.0
        var scaleY = 1.0
        cairo_surface_get_device_scale(surface.pointer, &scaleX, &scaleY)
        // Never NULL: a failed allocation gives a surface in an error state, painting nothing.
        let part = cairo_image_surface_create(
            cairo_image_surface_get_format(surface.pointer), Int32(((right - left) * scaleX).rounded(.up)),
            Int32(((bottom - top) * scaleY).rounded(.up)))!
        defer { cairo_surface_destroy(part) }
        cairo_surface_set_device_scale(part, scaleX, scaleY)
        let copy = cairo_create(part)!
        cairo_set_operator(copy, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(copy, surface.pointer, x.rounded(.down) - left, y.rounded(.down) - top)
        cairo_paint(copy)
        cairo_destroy(copy)
        cairo_save(pointer)
        cairo_set_source_surface(pointer, part, left, top)
        cairo_rectangle(pointer, left, top, right - left, bottom - top)
        cairo_fill(pointer)
        cairo_restore(pointer)
    }
}
