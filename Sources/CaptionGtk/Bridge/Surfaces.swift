// Pictures as cairo paints them: an owning image surface made from a pixbuf, and the one way
// the preview draws it.

import CGtk
import Pixbufs

/// An owning cairo image surface. It is made on a decoding thread and painted on the main
/// thread: its reference count is atomic and its pixels are never written once made, so
/// handing it over is safe.
final class Surface: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The size in device pixels.
    let pixelWidth: Int
    let pixelHeight: Int

    /// `pixbuf` in cairo's premultiplied format at the window's `scale`: what the preview
    /// paints as is. Made in memory, without asking the display (see the shim), so it runs
    /// on any thread.
    convenience init(_ pixbuf: Pixbuf, scale: Int) {
        // Never NULL: cairo answers a failed allocation with a surface in an error state,
        // which paints nothing.
        self.init(taking: caption_surface_from_pixbuf(pixbuf.pointer, Int32(max(scale, 1)))!)
    }

    /// An image surface.
    private convenience init(taking image: OpaquePointer) {
        self.init(
            taking: image, width: Int(cairo_image_surface_get_width(image)),
            height: Int(cairo_image_surface_get_height(image)))
    }

    private init(taking pointer: OpaquePointer, width: Int, height: Int) {
        self.pointer = pointer
        pixelWidth = width
        pixelHeight = height
    }

    /// The same picture where `widget`'s display reads it directly, so that each paint is a
    /// copy within the display: on X, an opaque photo goes into a pixmap in the X server
    /// (see the shim) and the program keeps no copy of its own; a picture with transparency
    /// goes into shared memory with the server. Itself where the widget has no window yet.
    /// It asks the display: the main thread only.
    @MainActor
    func readyForDisplay(on widget: Widget) -> Surface {
        guard let window = gtk_widget_get_window(widget.pointer) else { return self }
        if let pixmap = caption_surface_on_x_server(window, pointer) {
            return Surface(taking: pixmap, width: pixelWidth, height: pixelHeight)
        }
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

    /// The size in logical pixels: the device size over the scale it was made for.
    var logicalSize: (width: Double, height: Double) {
        var scaleX = 1.0
        var scaleY = 1.0
        cairo_surface_get_device_scale(pointer, &scaleX, &scaleY)
        return (Double(pixelWidth) / scaleX, Double(pixelHeight) / scaleY)
    }

    /// The colour at device pixel (`x`, `y`) as 0xRRGGBB; nil outside the surface. Read
    /// through a one-pixel picture, so it works on a picture the display keeps too.
    func pixel(x: Int, y: Int) -> UInt32? {
        guard (0..<pixelWidth).contains(x), (0..<pixelHeight).contains(y) else { return nil }
        // Never NULL: a failed allocation gives a surface in an error state, read as black.
        let one = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)!
        defer { cairo_surface_destroy(one) }
        let cairo = cairo_create(one)!
        var scaleX = 1.0
        var scaleY = 1.0
        cairo_surface_get_device_scale(pointer, &scaleX, &scaleY)
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cairo, pointer, 0, 0)
        // From the one pixel to the picture's device pixel (x, y), through its device scale.
        var matrix = cairo_matrix_t()
        cairo_matrix_init(&matrix, 1 / scaleX, 0, 0, 1 / scaleY, Double(x) / scaleX, Double(y) / scaleY)
        cairo_pattern_set_matrix(cairo_get_source(cairo), &matrix)
        cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_NEAREST)
        cairo_paint(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(one)
        guard let data = cairo_image_surface_get_data(one) else { return nil }
        // CAIRO_FORMAT_RGB24: one native-endian 32-bit word a pixel.
        return UnsafeRawPointer(data).load(as: UInt32.self) & 0xFF_FFFF
    }
}

/// The cairo context a widget's draw handler is given, for the length of the handler.
struct DrawingContext {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// Paints `surface` with its top left at (`x`, `y`), enlarged by `scale`. At scale 1 it
    /// is a copy to whole pixels, the cheap path; otherwise cairo's good filter smooths it.
    /// Only the picture's own rectangle is filled, so nothing is asked of it outside: a
    /// pixmap the X server keeps has no alpha channel to say where the picture ends.
    func paint(_ surface: Surface, x: Double, y: Double, scale: Double) {
        let (width, height) = surface.logicalSize
        cairo_save(pointer)
        if scale == 1 {
            cairo_set_source_surface(pointer, surface.pointer, x.rounded(.down), y.rounded(.down))
            cairo_rectangle(pointer, x.rounded(.down), y.rounded(.down), width, height)
        } else {
            cairo_translate(pointer, x, y)
            cairo_scale(pointer, scale, scale)
            cairo_set_source_surface(pointer, surface.pointer, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(pointer), CAIRO_FILTER_GOOD)
            cairo_rectangle(pointer, 0, 0, width, height)
        }
        cairo_fill(pointer)
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
