// Camera RAW through LibRaw: its size, for intake, and the preview its camera embedded, for
// the window. The RAW's own pixels are never developed: Caption stores the file as it is
// and shows what the camera showed on its screen.

import CLibRaw
import CPixbuf
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

public enum RawPhoto {
    /// Whether LibRaw can be opened (it is opened on the first RAW photo, not at start).
    static var isAvailable: Bool { caption_raw_available() != 0 }

    /// The size a RAW's directories give, turned as the camera was held; nil when LibRaw
    /// cannot open it.
    static func size(path: String) -> (width: Int, height: Int)? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard caption_raw_size(path.pathBytes, nil, 0, &width, &height) != 0 else { return nil }
        return (Int(width), Int(height))
    }

    static func size(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard let base = bytes.baseAddress, caption_raw_size(nil, base, bytes.count, &width, &height) != 0 else {
            return nil
        }
        return (Int(width), Int(height))
    }

    /// The embedded preview as a GdkPixbuf (a new reference, as an opaque pointer), decoded
    /// to fit `area` when it is a JPEG and turned as the camera was held; nil when the RAW
    /// has none LibRaw can give. Slow work (reading the file, decoding): call it off the
    /// main thread.
    public static func preview(path: String, fitting area: (width: Int, height: Int)) -> OpaquePointer? {
        var flip: Int32 = 0
        guard let image = caption_raw_thumbnail(path.pathBytes, nil, 0, &flip) else { return nil }
        return pixbuf(image, flip: flip, fitting: area)
    }

    /// Whether the RAW in memory has an embedded preview that decodes: a RAW cut short
    /// whose preview is still all there is a photo the window can show.
    static func hasPreview(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var flip: Int32 = 0
        guard let base = bytes.baseAddress, let image = caption_raw_thumbnail(nil, base, bytes.count, &flip),
            let pixbuf = pixbuf(image, flip: 0, fitting: (64, 64))
        else { return false }
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        return true
    }

    /// `image` (consumed) as a pixbuf fitted to `area` and turned by `flip`, or nil.
    private static func pixbuf(
        _ image: UnsafeMutablePointer<libraw_processed_image_t>, flip: Int32, fitting area: (width: Int, height: Int)
    ) -> OpaquePointer? {
        defer { caption_raw_free(image) }
        let data = caption_raw_image_data(image)
        let count = Int(image.pointee.data_size)
        var pixbuf: OpaquePointer?
        switch image.pointee.type {
        case LIBRAW_IMAGE_JPEG:
            pixbuf = decodeJPEG(data, count: count, fitting: area)
        case LIBRAW_IMAGE_BITMAP:
            let width = Int(image.pointee.width)
            let height = Int(image.pointee.height)
            guard image.pointee.colors == 3, image.pointee.bits == 8, width > 0, height > 0,
                count >= width * height * 3,
                let made = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)),
                let pixels = gdk_pixbuf_get_pixels(made)
            else { return nil }
            let stride = Int(gdk_pixbuf_get_rowstride(made))
            for row in 0..<height {
                (pixels + row * stride).update(from: data! + row * width * 3, count: width * 3)
            }
            pixbuf = made
        default:
            return nil
        }
        guard let pixbuf else { return nil }
        let rotation: GdkPixbufRotation
        switch flip {
        case 3: rotation = GDK_PIXBUF_ROTATE_UPSIDEDOWN
        case 5: rotation = GDK_PIXBUF_ROTATE_COUNTERCLOCKWISE
        case 6: rotation = GDK_PIXBUF_ROTATE_CLOCKWISE
        default: return pixbuf
        }
        guard let turned = gdk_pixbuf_rotate_simple(pixbuf, rotation) else { return pixbuf }
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        return turned
    }

    /// A JPEG from memory, scaled inside the decoder to fit `area` (either way round, as
    /// it is turned afterwards).
    private static func decodeJPEG(
        _ data: UnsafePointer<UInt8>?, count: Int, fitting area: (width: Int, height: Int)
    ) -> OpaquePointer? {
        guard let data, count > 0 else { return nil }
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let longest = Int32(max(area.width, area.height, 1))
        onSizePrepared(loader) { loader, width, height in
            guard width > 0, height > 0 else { return }
            let scale = min(1, Double(longest) / Double(max(width, height)))
            if scale < 1 {
                gdk_pixbuf_loader_set_size(
                    loader, max(1, Int32(Double(width) * scale)), max(1, Int32(Double(height) * scale)))
            }
        }
        var error: UnsafeMutablePointer<GError>?
        let written = gdk_pixbuf_loader_write(loader, data, gsize(count), &error) != 0
        g_clear_error(&error)
        let closed = gdk_pixbuf_loader_close(loader, &error) != 0
        g_clear_error(&error)
        guard written || closed, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return pixbuf
    }
}

/// Decoding through GdkPixbuf's whole-file loaders (its `load` from a file, not the
/// incremental one): some files decode only that way, arithmetic-coded JPEGs among them.
/// The bytes are handed over in an anonymous memory file, so what is decoded is exactly
/// what was checked, whatever the file on disk has become since.
enum WholeFileDecode {
    /// A new reference to the decoded picture, or nil when no loader can show it or its
    /// header (or `size`, when the loader cannot tell it without decoding) gives more
    /// pixels than a photo may have.
    static func pixbuf(_ bytes: UnsafeRawBufferPointer, size: (width: Int, height: Int)?) -> OpaquePointer? {
        let descriptor = caption_memory_file()
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard POSIXFiles.writeAll(descriptor, bytes) == nil else { return nil }
        let path = "/proc/self/fd/\(descriptor)"
        var width: Int32 = 0
        var height: Int32 = 0
        var pixels = size.map { $0.width * $0.height }
        if gdk_pixbuf_get_file_info(path.pathBytes, &width, &height) != nil, width > 0, height > 0 {
            pixels = Int(width) * Int(height)
        }
        guard let pixels, pixels <= PhotoInspector.maximumPixels else { return nil }
        var error: UnsafeMutablePointer<GError>?
        let pixbuf = gdk_pixbuf_new_from_file(path.pathBytes, &error)
        g_clear_error(&error)
        guard let pixbuf else { return nil }
        return pixbuf
    }
}
