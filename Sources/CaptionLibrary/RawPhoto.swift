// Camera RAW through LibRaw: its size, for intake, and the preview its camera embedded, for
// the window. The RAW's own pixels are never developed: Caption stores the file as it is
// and shows what the camera showed on its screen.

import CLibRaw
import CPixbuf
import POSIXFiles
import PhotoFormats
import Pixbufs

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

    /// The embedded preview, decoded to fit `area` when it is a JPEG and turned as the
    /// camera was held; nil when the RAW has none LibRaw can give. Slow work (reading the
    /// file, decoding): call it off the main thread.
    public static func preview(path: String, fitting area: (width: Int, height: Int)) -> Pixbuf? {
        var flip: Int32 = 0
        guard let image = caption_raw_thumbnail(path.pathBytes, nil, 0, &flip) else { return nil }
        return pixbuf(image, flip: flip, fitting: area)
    }

    /// What the camera recorded, as LibRaw reads it from the RAW's own structures (for
    /// those whose Exif is no plain TIFF directory: CR3, RAF); nil when LibRaw cannot open
    /// it. LibRaw reads the camera's clock as local time, so turning its timestamp back
    /// into local time gives the clock as the camera showed it, in any time zone.
    public static func facts(path: String) -> CaptureFacts? {
        var read = caption_raw_facts()
        guard caption_raw_read_facts(path.pathBytes, &read) != 0 else { return nil }
        func text<T>(_ field: inout T) -> String? {
            withUnsafeBytes(of: &field) { bytes in
                CaptureFacts.clean(String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
            }
        }
        var captured: String?
        if read.taken > 0 {
            var seconds = time_t(read.taken)
            var clock = tm()
            if localtime_r(&seconds, &clock) != nil {
                func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : String(value) }
                // Exif's own form: "2024:05:17 14:03:22".
                captured =
                    "\(clock.tm_year + 1900):\(two(clock.tm_mon + 1)):\(two(clock.tm_mday)) "
                    + "\(two(clock.tm_hour)):\(two(clock.tm_min)):\(two(clock.tm_sec))"
            }
        }
        return CaptureFacts(
            captured: captured, camera: CaptureFacts.camera(make: text(&read.make), model: text(&read.model)),
            lens: text(&read.lens))
    }

    /// Whether the RAW in memory has an embedded preview that decodes: a RAW cut short
    /// whose preview is still all there is a photo the window can show.
    static func hasPreview(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var flip: Int32 = 0
        guard let base = bytes.baseAddress, let image = caption_raw_thumbnail(nil, base, bytes.count, &flip) else {
            return false
        }
        return pixbuf(image, flip: 0, fitting: (64, 64)) != nil
    }

    /// `image` (consumed) as a picture fitted to `area` and turned by `flip`, or nil.
    private static func pixbuf(
        _ image: UnsafeMutablePointer<libraw_processed_image_t>, flip: Int32, fitting area: (width: Int, height: Int)
    ) -> Pixbuf? {
        defer { caption_raw_free(image) }
        guard let data = caption_raw_image_data(image) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(image.pointee.data_size))
        let picture: Pixbuf?
        switch image.pointee.type {
        case LIBRAW_IMAGE_JPEG:
            // Scaled inside the decoder, either way round, as it is turned afterwards.
            picture = Pixbuf.decode(bytes, longestSide: max(area.width, area.height, 1), acceptingPartial: true)
        case LIBRAW_IMAGE_BITMAP:
            let width = Int(image.pointee.width)
            let height = Int(image.pointee.height)
            guard image.pointee.colors == 3, image.pointee.bits == 8, width > 0, height > 0,
                bytes.count >= width * height * 3, let rows = bytes.baseAddress
            else { return nil }
            picture = Pixbuf.rgb(width: width, height: height, rows: rows, stride: width * 3)
        default:
            return nil
        }
        // LibRaw's flip: 3 upside down, 5 a quarter counter-clockwise, 6 a quarter clockwise.
        let turns = [3: 2, 5: 3, 6: 1][flip] ?? 0
        return picture?.rotated(quarterTurnsClockwise: turns)
    }
}

/// Decoding through GdkPixbuf's whole-file loaders (its `load` from a file, not the
/// incremental one): some files decode only that way, arithmetic-coded JPEGs among them, and
/// the TIFFs GdkPixbuf refuses go on to libtiff there. The bytes are handed over in an
/// anonymous memory file, so what is decoded is exactly what was checked, whatever the file
/// on disk has become since.
enum WholeFileDecode {
    /// The decoded picture (fitted inside `area` when given), or why not: no loader can
    /// show it, or its header (or `size`, when the loader cannot tell it without decoding)
    /// gives more pixels than a photo may have.
    static func pixbuf(
        _ bytes: UnsafeRawBufferPointer, size: (width: Int, height: Int)?,
        fitting area: (width: Int, height: Int)? = nil
    ) -> Result<Pixbuf, Pixbuf.Failure> {
        let descriptor = caption_memory_file()
        guard descriptor >= 0, POSIXFiles.writeAll(descriptor, bytes) == nil else {
            if descriptor >= 0 { close(descriptor) }
            return .failure(Pixbuf.Failure(message: "no memory file"))
        }
        defer { close(descriptor) }
        let path = "/proc/self/fd/\(descriptor)"
        var width: Int32 = 0
        var height: Int32 = 0
        var known = size
        if gdk_pixbuf_get_file_info(path.pathBytes, &width, &height) != nil, width > 0, height > 0 {
            known = (Int(width), Int(height))
        }
        guard let known, PhotoInspector.fitsInMemory(width: known.width, height: known.height) else {
            return .failure(Pixbuf.Failure(message: "too large to decode, or of no known size"))
        }
        return Pixbuf.load(path: path, fitting: area, maximumPixels: PhotoInspector.maximumPixels)
    }
}
