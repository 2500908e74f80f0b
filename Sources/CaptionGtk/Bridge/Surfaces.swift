// Pictures as cairo paints them: an owning image surface made from a pixbuf, and the one way
// the preview draws it.

import CGtk
import Pixbufs

/// An owning cairo image surface. It is made on a decoding thread and painted on the main
/// thread: its reference count is atomic and its pixels are never written once made, so
/// handing it over is safe.
final class Surface: @unchecked Sendable {
    fileprivate let pointer: OpaquePointer

    /// `pixbuf` in cairo's premultiplied format at the window's `scale`: what the preview
    /// paints as is. It touches no GDK state, so it runs on any thread.
    init(_ pixbuf: Pixbuf, scale: Int) {
        // Never NULL: cairo answers a failed allocation with a surface in an error state,
        // which paints nothing.
        pointer = gdk_cairo_surface_create_from_pixbuf(pixbuf.pointer, Int32(max(scale, 1)), nil)!
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
    fileprivate let pointer: OpaquePointer

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
}
