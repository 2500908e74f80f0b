// Pictures in memory: an owning GdkPixbuf and the few things Caption does with one
// (decode, turn, scale, crop, save), so that no other module counts references by hand.

import CPixbuf
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// An owning reference to a GdkPixbuf, let go with its last Swift holder. A pixbuf's pixels
/// are not written once it is made and GObject reference counts are atomic, so one may be
/// handed between threads.
public final class Pixbuf: @unchecked Sendable {
    /// The GdkPixbuf, for the GTK layer's bridge (list stores, cairo surfaces).
    package let pointer: OpaquePointer

    /// Takes over a reference the caller owns (a constructor's, a "transfer full" return).
    package init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// A reference of its own to a pixbuf someone else owns (a loader's).
    package convenience init(adding pointer: OpaquePointer) {
        g_object_ref(UnsafeMutableRawPointer(pointer))
        self.init(taking: pointer)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    public var width: Int { Int(gdk_pixbuf_get_width(pointer)) }
    public var height: Int { Int(gdk_pixbuf_get_height(pointer)) }

    /// An option its loader attached ("orientation", a PNG's "tEXt::…" keys), if any.
    public func option(_ key: String) -> String? {
        gdk_pixbuf_get_option(pointer, key).map { String(cString: $0) }
    }

    /// Why a picture could not be made: GdkPixbuf's or libtiff's own words.
    public struct Failure: Error, Sendable {
        public let message: String
        /// The file is whole as far as can be told, and stored in a way no decoder here reads
        /// (a TIFF of 24-bit floating-point samples, say), rather than damaged.
        public var isUnsupported = false

        public init(message: String, isUnsupported: Bool = false) {
            self.message = message
            self.isUnsupported = isUnsupported
        }
    }

    /// The picture in the file at `path`; with `area`, scaled inside the decoder to fit it
    /// with its aspect kept (a JPEG then skips most of its work). Where GdkPixbuf's loader
    /// refuses the file, a TIFF is decoded through libtiff (TIFFPicture), up to
    /// `maximumPixels`, and a GIF or BMP that breaks a rule of form every viewer forgives is
    /// mended for the loader (LenientPicture).
    public static func load(
        path: String, fitting area: (width: Int, height: Int)? = nil, maximumPixels: Int = 1 << 30
    ) -> Result<Pixbuf, Failure> {
        let loaded = loadWithGdkPixbuf(path: path, fitting: area)
        guard case .failure = loaded else { return loaded }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return loaded }
        defer { close(descriptor) }
        let head = POSIXFiles.read(descriptor, at: 0, count: 4)
        if head == [0x49, 0x49, 0x2A, 0] || head == [0x4D, 0x4D, 0, 0x2A] || head == [0x49, 0x49, 0x2B, 0]
            || head == [0x4D, 0x4D, 0, 0x2B]
        {
            return TIFFPicture.load(path: path, fitting: area, maximumPixels: maximumPixels)
        }
        guard head.starts(with: Array("GIF8".utf8)) || head.starts(with: Array("BM".utf8)) else { return loaded }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            Int(info.st_size) <= POSIXFiles.maximumPhotoBytes,
            let mended = LenientPicture.mend(POSIXFiles.read(descriptor, at: 0, count: Int(info.st_size))),
            let picture = LenientPicture.load(mended, fitting: area)
        else { return loaded }
        return .success(picture)
    }

    private static func loadWithGdkPixbuf(
        path: String, fitting area: (width: Int, height: Int)?
    ) -> Result<
        Pixbuf, Failure
    > {
        var error: UnsafeMutablePointer<GError>?
        let loaded =
            if let area {
                gdk_pixbuf_new_from_file_at_scale(
                    path.pathBytes, Int32(max(area.width, 1)), Int32(max(area.height, 1)), 1, &error)
            } else {
                gdk_pixbuf_new_from_file(path.pathBytes, &error)
            }
        let message = error.map { String(cString: $0.pointee.message) } ?? ""
        // The GIF loader gives its picture of a file cut short with its warning as an error.
        g_clear_error(&error)
        guard let loaded else { return .failure(Failure(message: message)) }
        return .success(Pixbuf(taking: loaded))
    }

    /// A picture from encoded bytes in memory (a JPEG thumbnail, a RAW's preview), decoded
    /// to fit a square of `longestSide` when given. `acceptingPartial` takes what a loader
    /// made of data that ends early; otherwise both the data and its end must decode.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, longestSide: Int? = nil, acceptingPartial: Bool = false
    ) -> Pixbuf? {
        guard let base = bytes.baseAddress, !bytes.isEmpty, let loader = gdk_pixbuf_loader_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        if let longestSide {
            let longest = Double(max(longestSide, 1))
            onSizePrepared(loader) { loader, width, height in
                guard width > 0, height > 0 else { return }
                let scale = min(1, longest / Double(max(width, height)))
                if scale < 1 {
                    gdk_pixbuf_loader_set_size(
                        loader, max(1, Int32(Double(width) * scale)), max(1, Int32(Double(height) * scale)))
                }
            }
        }
        var error: UnsafeMutablePointer<GError>?
        let written =
            gdk_pixbuf_loader_write(
                loader, base.bindMemory(to: guchar.self, capacity: bytes.count), gsize(bytes.count), &error)
            != 0
        g_clear_error(&error)
        // Closed even after a failed write: GdkPixbuf warns of a loader let go open.
        let closed = gdk_pixbuf_loader_close(loader, &error) != 0
        g_clear_error(&error)
        guard acceptingPartial ? written || closed : written && closed,
            let picture = gdk_pixbuf_loader_get_pixbuf(loader)
        else { return nil }
        // The loader owns the picture it gives; this reference outlives the loader.
        return Pixbuf(adding: picture)
    }

    /// A new picture of `height` rows of 8-bit RGB, `stride` bytes apart from `rows`; nil
    /// when GdkPixbuf cannot make one.
    public static func rgb(width: Int, height: Int, rows: UnsafeRawPointer, stride: Int) -> Pixbuf? {
        guard width > 0, height > 0,
            let made = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))
        else { return nil }
        let pixbuf = Pixbuf(taking: made)
        guard let pixels = gdk_pixbuf_get_pixels(made) else { return nil }
        // A new pixbuf is not shared yet, so writing its pixels is allowed.
        let pixbufStride = Int(gdk_pixbuf_get_rowstride(made))
        for row in 0..<height {
            UnsafeMutableRawPointer(pixels + row * pixbufStride).copyMemory(
                from: rows + row * stride, byteCount: width * 3)
        }
        return pixbuf
    }

    /// Turned as the "orientation" option its loader read from the file says (itself when
    /// there is none).
    public func upright() -> Pixbuf {
        // A new reference, to the same pixbuf when no turn is needed.
        gdk_pixbuf_apply_embedded_orientation(pointer).map { Pixbuf(taking: $0) } ?? self
    }

    /// Turned as the EXIF `orientation` (1 to 8) says: the turn GdkPixbuf's loaders apply
    /// from the same tag.
    public func turned(orientation: Int) -> Pixbuf {
        guard orientation != 1 else { return self }
        gdk_pixbuf_set_option(pointer, "orientation", String(orientation))
        return upright()
    }

    /// Turned a number of quarter turns clockwise (1 to 3).
    public func rotated(quarterTurnsClockwise turns: Int) -> Pixbuf {
        let rotation: GdkPixbufRotation
        switch turns % 4 {
        case 1: rotation = GDK_PIXBUF_ROTATE_CLOCKWISE
        case 2: rotation = GDK_PIXBUF_ROTATE_UPSIDEDOWN
        case 3: rotation = GDK_PIXBUF_ROTATE_COUNTERCLOCKWISE
        default: return self
        }
        return gdk_pixbuf_rotate_simple(pointer, rotation).map { Pixbuf(taking: $0) } ?? self
    }

    /// Scaled to `width` × `height` (bilinear); itself when that is its size or GdkPixbuf
    /// cannot scale. `keepingOptions` carries the loader's options (its orientation) over.
    public func scaled(width: Int, height: Int, keepingOptions: Bool = false) -> Pixbuf {
        guard width != self.width || height != self.height,
            let scaled = gdk_pixbuf_scale_simple(
                pointer, Int32(max(width, 1)), Int32(max(height, 1)), GDK_INTERP_BILINEAR)
        else { return self }
        if keepingOptions { gdk_pixbuf_copy_options(pointer, scaled) }
        return Pixbuf(taking: scaled)
    }

    /// The largest size inside `area` with the aspect kept.
    public func fitting(_ area: (width: Int, height: Int), keepingOptions: Bool = false) -> Pixbuf {
        let scale = min(
            Double(max(area.width, 1)) / Double(max(width, 1)), Double(max(area.height, 1)) / Double(max(height, 1)))
        return scaled(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())), keepingOptions: keepingOptions)
    }

    /// Whether `other` has the same size, layout and pixels. Compared row by row, with no
    /// copy of either.
    public func hasSamePixels(as other: Pixbuf) -> Bool {
        let channels = gdk_pixbuf_get_n_channels(pointer)
        let bits = gdk_pixbuf_get_bits_per_sample(pointer)
        guard width == other.width, height == other.height, channels == gdk_pixbuf_get_n_channels(other.pointer),
            bits == gdk_pixbuf_get_bits_per_sample(other.pointer),
            let rows = gdk_pixbuf_read_pixels(pointer), let otherRows = gdk_pixbuf_read_pixels(other.pointer)
        else { return false }
        let rowBytes = (width * Int(channels) * Int(bits) + 7) / 8
        let stride = Int(gdk_pixbuf_get_rowstride(pointer))
        let otherStride = Int(gdk_pixbuf_get_rowstride(other.pointer))
        for y in 0..<height where memcmp(rows + y * stride, otherRows + y * otherStride, rowBytes) != 0 {
            return false
        }
        return true
    }

    /// A rectangle of it: a view of its pixels, which keeps it alive.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> Pixbuf? {
        gdk_pixbuf_new_subpixbuf(pointer, Int32(x), Int32(y), Int32(width), Int32(height)).map { Pixbuf(taking: $0) }
    }

    /// Writes it as a PNG at `path`, with `text` as the PNG's text chunks ("tEXt::Key").
    @discardableResult
    public func savePNG(to path: String, text: [(key: String, value: String)] = []) -> Result<Void, Failure> {
        var keys = text.map { strdup($0.key) } + [nil]
        var values = text.map { strdup($0.value) } + [nil]
        defer { (keys + values).forEach { free($0) } }
        var error: UnsafeMutablePointer<GError>?
        let saved = gdk_pixbuf_savev(pointer, path.pathBytes, "png", &keys, &values, &error) != 0
        let message = error.map { String(cString: $0.pointee.message) } ?? ""
        g_clear_error(&error)
        return saved ? .success(()) : .failure(Failure(message: message))
    }
}
