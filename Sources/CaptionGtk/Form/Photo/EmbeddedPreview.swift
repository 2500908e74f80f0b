// The small picture a photo carries of itself, made ready to show while the photo decodes.

import CGtk
import CHeif
import CaptionLibrary
import POSIXFiles
import PhotoFormats

#if canImport(Glibc)
    import Glibc
#endif

extension PhotoDecoder {
    /// How much of the file is read to find the picture: a JPEG's Exif block is within its
    /// first 64 KB; a RAW's directories and smallest preview are near its start.
    static let embeddedSearchLength = 512 << 10

    /// The widest thumbnail of a HEIF taken (phones store one of 320 or 512 pixels).
    static let widestHEIFThumbnail = 1024

    /// The photo's embedded picture (a JPEG's Exif thumbnail, a RAW's smallest preview, a
    /// HEIF's thumbnail), cropped of the black bars cameras pad a 3:2 photo's 4:3 thumbnail
    /// with and turned as the photo is: the photo's shape, so the preview scales it up into
    /// the very place the photo will take, with no jump when the photo replaces it. nil when
    /// the photo has none or it does not decode. `info` is the photo's own (from
    /// `PhotoInspector`).
    static func embedded(_ path: String, info: PhotoInfo, scale: Int) -> DecodedPhoto? {
        if info.format == .heif || info.format == .avif { return heifThumbnail(path, info: info, scale: scale) }
        guard info.format == .jpeg || info.format.isRaw, let head = readHead(path) else { return nil }
        let found = head.withUnsafeBytes {
            info.format == .jpeg ? EmbeddedPicture.inJPEG($0) : EmbeddedPicture.inTIFF($0)
        }
        guard let found, let picture = head.withUnsafeBytes({ pixbuf(found, in: $0) }) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(picture)) }
        let quarterTurn = found.orientation >= 5
        // A RAW's size is given as the camera was held; a JPEG's as stored.
        let stored =
            info.format.isRaw && quarterTurn
            ? PixelSize(width: info.height, height: info.width) : PixelSize(width: info.width, height: info.height)
        guard stored.width > 0, stored.height > 0, let cropped = crop(picture, toShapeOf: stored) else { return nil }
        let upright = turned(cropped, orientation: found.orientation)
        defer { g_object_unref(UnsafeMutableRawPointer(upright)) }
        guard let surface = gdk_cairo_surface_create_from_pixbuf(upright, Int32(max(scale, 1)), nil) else { return nil }
        return DecodedPhoto(
            surface: SharedSurface(pointer: surface),
            width: quarterTurn ? stored.height : stored.width, height: quarterTurn ? stored.width : stored.height,
            source: .embedded)
    }

    /// libheif turns the thumbnail as it turns the photo, and the photo's size is given
    /// turned: only the bars are left to crop.
    private static func heifThumbnail(_ path: String, info: PhotoInfo, scale: Int) -> DecodedPhoto? {
        var decoded = caption_heif_picture()
        guard info.width > 0, info.height > 0,
            caption_heif_thumbnail(path.pathBytes, Int32(widestHEIFThumbnail), &decoded) != 0
        else { return nil }
        defer { caption_heif_release(&decoded) }
        let width = Int(decoded.width)
        let height = Int(decoded.height)
        guard let source = decoded.pixels,
            let pixbuf = rgbPixbuf(width: width, height: height, rows: source, stride: Int(decoded.stride))
        else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let photo = PixelSize(width: info.width, height: info.height)
        guard let cropped = crop(pixbuf, toShapeOf: photo) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(cropped)) }
        guard let surface = gdk_cairo_surface_create_from_pixbuf(cropped, Int32(max(scale, 1)), nil) else { return nil }
        return DecodedPhoto(
            surface: SharedSurface(pointer: surface), width: info.width, height: info.height, source: .embedded)
    }

    private static func readHead(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: embeddedSearchLength)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(filled))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        guard filled > 0 else { return nil }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// The picture's pixels as a new pixbuf, or nil.
    private static func pixbuf(_ picture: EmbeddedPicture, in bytes: UnsafeRawBufferPointer) -> OpaquePointer? {
        let data = UnsafeRawBufferPointer(rebasing: bytes[picture.range])
        switch picture.coding {
        case .jpeg:
            guard let loader = gdk_pixbuf_loader_new() else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
            var error: UnsafeMutablePointer<GError>?
            let written =
                gdk_pixbuf_loader_write(loader, data.bindMemory(to: guchar.self).baseAddress, gsize(data.count), &error)
                != 0
            g_clear_error(&error)
            // Closed even after a failed write: GdkPixbuf warns of a loader let go open.
            let closed = gdk_pixbuf_loader_close(loader, &error) != 0
            g_clear_error(&error)
            guard written, closed, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
            // The loader owns the pixbuf it gives; this reference outlives the loader.
            return OpaquePointer(g_object_ref(UnsafeMutableRawPointer(pixbuf)))
        case .rgb(let width, let height):
            return data.baseAddress.flatMap { rgbPixbuf(width: width, height: height, rows: $0, stride: width * 3) }
        }
    }

    /// The middle of `picture` in the shape of `photo` (a new reference): cameras pad a
    /// thumbnail of another shape with black bars, centred. Within 2 % it is the same shape.
    private static func crop(_ picture: OpaquePointer, toShapeOf photo: PixelSize) -> OpaquePointer? {
        let width = Int(gdk_pixbuf_get_width(picture))
        let height = Int(gdk_pixbuf_get_height(picture))
        let wanted = Double(photo.width) / Double(photo.height)
        let shape = Double(width) / Double(height)
        guard abs(shape / wanted - 1) > 0.02 else {
            return OpaquePointer(g_object_ref(UnsafeMutableRawPointer(picture)))
        }
        let size =
            shape > wanted
            ? PixelSize(width: max(1, Int((Double(height) * wanted).rounded())), height: height)
            : PixelSize(width: width, height: max(1, Int((Double(width) / wanted).rounded())))
        // A view of the picture's pixels, which it keeps alive.
        return gdk_pixbuf_new_subpixbuf(
            picture, Int32((width - size.width) / 2), Int32((height - size.height) / 2), Int32(size.width),
            Int32(size.height))
    }
}
