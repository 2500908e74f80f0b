// The GdkPixbuf decoder behind the photo checks: a loader fed from memory that learns a
// photo's size from its header and decodes it whole, at an eighth, or not at all.

import CPixbuf
import PhotoFormats
import Pixbufs

#if canImport(Glibc)
    import Glibc
#endif

/// A GdkPixbuf loader fed from memory. Its size-prepared handler learns the pixel size
/// from the header and, for a photo over the limit or for a header-only look, asks for a
/// 0×0 result: every loader then stops before allocating pixels.
final class PhotoDecoder {
    enum Mode: Int32 {
        case headerOnly = 0
        case eighth = 1
        case full = 2
    }

    /// Written by the C handler through a pointer, so a plain C-layout struct.
    struct Probe {
        var width: Int32 = 0
        var height: Int32 = 0
        var refused = false
        var mode: Int32 = 0
    }

    /// The names of the loaders GdkPixbuf has on this system.
    static let installed: Set<String> = {
        var names: Set<String> = []
        var node = gdk_pixbuf_get_formats()
        let list = node
        while let current = node {
            if let data = current.pointee.data, let name = gdk_pixbuf_format_get_name(OpaquePointer(data)) {
                names.insert(String(cString: name))
                g_free(name)
            }
            node = current.pointee.next
        }
        g_slist_free(list)
        return names
    }()

    var refused: Bool { probe.pointee.refused }

    var headerSize: (width: Int, height: Int) { (Int(probe.pointee.width), Int(probe.pointee.height)) }

    private let loader: UnsafeMutablePointer<GdkPixbufLoader>
    private let probe: UnsafeMutablePointer<Probe>
    private var closed = false
    private(set) var failed = false

    /// A loader of the sniffed format's own GdkPixbuf module: only that parser sees the
    /// bytes, and files GdkPixbuf's own sniffing misses (BigTIFF) still reach it.
    init(mode: Mode, format: PhotoFormat) {
        var typed: UnsafeMutablePointer<GdkPixbufLoader>?
        if let name = format.pixbufLoaders.first(where: PhotoDecoder.installed.contains) {
            typed = gdk_pixbuf_loader_new_with_type(name, nil)
        }
        // gdk_pixbuf_loader_new only fails when GLib cannot allocate, which aborts first.
        loader = typed ?? gdk_pixbuf_loader_new()!
        probe = .allocate(capacity: 1)
        probe.initialize(to: Probe(mode: mode.rawValue))
        onSizePrepared(loader) { [probe] loader, width, height in
            probe.pointee.width = width
            probe.pointee.height = height
            if !PhotoInspector.fitsInMemory(width: Int(width), height: Int(height)) {
                probe.pointee.refused = true
                gdk_pixbuf_loader_set_size(loader, 0, 0)
            } else if probe.pointee.mode == PhotoDecoder.Mode.headerOnly.rawValue {
                gdk_pixbuf_loader_set_size(loader, 0, 0)
            } else if probe.pointee.mode == PhotoDecoder.Mode.eighth.rawValue {
                gdk_pixbuf_loader_set_size(loader, max(1, (width + 7) / 8), max(1, (height + 7) / 8))
            }
        }
    }

    deinit {
        _ = close()
        g_object_unref(UnsafeMutableRawPointer(loader))
        probe.deinitialize(count: 1)
        probe.deallocate()
    }

    var knowsSize: Bool { probe.pointee.width > 0 }

    var hasPixels: Bool { gdk_pixbuf_loader_get_pixbuf(loader) != nil }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !failed, !closed, let base = bytes.baseAddress, bytes.count > 0 else { return !failed }
        var error: UnsafeMutablePointer<GError>?
        let ok =
            gdk_pixbuf_loader_write(loader, base.assumingMemoryBound(to: guchar.self), gsize(bytes.count), &error) != 0
        if let error { g_error_free(error) }
        if !ok { failed = true }
        return ok
    }

    /// Ends the data; a loader must be closed before it is released.
    func close() -> Bool {
        guard !closed else { return !failed }
        closed = true
        var error: UnsafeMutablePointer<GError>?
        let ok = gdk_pixbuf_loader_close(loader, &error) != 0
        if let error { g_error_free(error) }
        if !ok { failed = true }
        return ok
    }

    /// The photo's description once the header was read, or the error naming what was
    /// wrong: too many pixels, or no readable header.
    func result(format: PhotoFormat, byteCount: Int, path: String) throws(LibraryError) -> PhotoInfo {
        let probe = probe.pointee
        if probe.refused {
            throw PhotoInspector.tooManyPixels((Int(probe.width), Int(probe.height)), path: path)
        }
        guard probe.width > 0 && probe.height > 0 else {
            throw LibraryError.make(.photoDamaged, "The photo is damaged or incomplete: {path}", ["path": path])
        }
        // A camera held sideways says so in its EXIF orientation (5 to 8 turn the picture a
        // quarter): the size a person sees is the turned one. Known once pixels were decoded.
        var width = Int(probe.width)
        var height = Int(probe.height)
        if let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader),
            let option = gdk_pixbuf_get_option(pixbuf, "orientation"),
            let orientation = Int(String(cString: option)), (5...8).contains(orientation)
        {
            swap(&width, &height)
        }
        return PhotoInfo(width: width, height: height, format: format, byteCount: byteCount)
    }
}
