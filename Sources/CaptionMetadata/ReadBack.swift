// The check before a captioned copy replaces the user's photo: the caption is there, the
// pixels decode the same, and everything else in the file came through.

import CExempi
import CPixbuf
import CaptionLibrary
import Localization

#if canImport(Glibc)
    import Glibc
#endif

enum ReadBack {
    /// Why `written` (at `copy`) must not replace `original` (at `path`), in words; nil
    /// when it may.
    static func problem(
        original: [UInt8], written: [UInt8], at copy: String, path: String, format: PhotoFormat,
        caption: PhotoCaption
    ) -> String? {
        let wanted = PhotoCaption(
            title: PhotoMetadata.meaningful(PhotoMetadata.xmlSafe(caption.title ?? "")),
            description: PhotoMetadata.meaningful(PhotoMetadata.xmlSafe(caption.description ?? "")))
        guard PhotoMetadata.read(copy) == wanted else { return tr("the caption is not in it") }
        guard samePixels(path, copy) else { return tr("its pixels differ") }
        if let parts = Containers.imageParts(original, format: format),
            parts != Containers.imageParts(written, format: format)
        {
            return tr("its image data or colour profile differ")
        }
        guard
            ExifFields.kept(
                from: Containers.exifBlob(original, format: format), in: Containers.exifBlob(written, format: format))
        else { return tr("its Exif data differ") }
        guard otherXMPKept(original: path, written: copy, format: format) else { return tr("its other XMP differs") }
        return nil
    }

    /// Whether both files decode (GdkPixbuf) to the same size, layout and pixels; false
    /// when either does not decode. Compared row by row, so that a large photo costs its
    /// two decodes and no copies of them.
    static func samePixels(_ first: String, _ second: String) -> Bool {
        guard let a = decode(first) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(a)) }
        guard let b = decode(second) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(b)) }
        let width = gdk_pixbuf_get_width(a)
        let height = gdk_pixbuf_get_height(a)
        let channels = gdk_pixbuf_get_n_channels(a)
        let bits = gdk_pixbuf_get_bits_per_sample(a)
        guard width == gdk_pixbuf_get_width(b), height == gdk_pixbuf_get_height(b),
            channels == gdk_pixbuf_get_n_channels(b), bits == gdk_pixbuf_get_bits_per_sample(b),
            let rowsA = gdk_pixbuf_read_pixels(a), let rowsB = gdk_pixbuf_read_pixels(b)
        else { return false }
        let rowBytes = (Int(width) * Int(channels) * Int(bits) + 7) / 8
        let strideA = Int(gdk_pixbuf_get_rowstride(a))
        let strideB = Int(gdk_pixbuf_get_rowstride(b))
        for y in 0..<Int(height) where memcmp(rowsA + y * strideA, rowsB + y * strideB, rowBytes) != 0 {
            return false
        }
        return true
    }

    private static func decode(_ path: String) -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        let loaded = gdk_pixbuf_new_from_file(path, &error)
        g_clear_error(&error)
        return loaded
    }

    /// Every leaf of the original's XMP is in the copy with the same value, except the
    /// caption's own properties and those the toolkit moves into Exif (tiff:, exif:) or
    /// stamps itself (x:xmptk).
    static func otherXMPKept(original: String, written: String, format: PhotoFormat) -> Bool {
        let before = Embedder.storedPacket(original)
        guard case .text(let old) = before else { return true }  // none, or damaged and written fresh
        guard case .text(let new) = Embedder.storedPacket(written) else { return false }
        return Exempi.locked { () -> Bool in
            guard let oldPacket = old.withUnsafeBytes({ XMPPacket(parsing: $0) }),
                let newPacket = new.withUnsafeBytes({ XMPPacket(parsing: $0) })
            else { return false }
            let after = newPacket.leaves()
            let replaced: Set<Substring> = ["dc:title", "dc:description", "photoshop:Headline"]
            let moved: Set<String> = [XMPPacket.exif, "http://ns.adobe.com/tiff/1.0/", "adobe:ns:meta/"]
            for (key, value) in oldPacket.leaves() {
                let (schema, name) = key
                if replaced.contains(name.prefix { $0 != "[" && $0 != "/" }) || moved.contains(schema) { continue }
                if after.first(where: { $0.key == key })?.value != value { return false }
            }
            return true
        }
    }
}

extension XMPPacket {
    /// Every leaf property: (schema, path) and its value. Inside `Exempi.locked`.
    func leaves() -> [(key: (String, String), value: String)] {
        guard let iterator = xmp_iterator_new(pointer, nil, nil, XmpIterOptions(XMP_ITER_JUSTLEAFNODES.rawValue))
        else { return [] }
        defer { xmp_iterator_free(iterator) }
        var found: [(key: (String, String), value: String)] = []
        let schema = XMPString()
        let name = XMPString()
        let value = XMPString()
        var options: UInt32 = 0
        while xmp_iterator_next(iterator, schema.pointer, name.pointer, value.pointer, &options) {
            found.append((key: (schema.string, name.string), value: value.string))
        }
        return found
    }
}
