// The check before a captioned copy replaces the user's photo: the caption is there, the
// pixels decode the same, and everything else in the file came through.

import CExempi
import CaptionLibrary
import CaptionText
import Localization
import Pixbufs

#if canImport(Glibc)
    import Glibc
#endif

enum ReadBack {
    /// Why `written` (at `copy`) must not replace `original` (at `path`), in words; nil
    /// when it may.
    static func problem(
        original: [UInt8], written: [UInt8], at copy: String, path: String, format: PhotoFormat,
        caption: CaptionWords, credits: Credits = .none
    ) -> String? {
        guard PhotoMetadata.read(copy).holds(caption.map(PhotoMetadata.xmlSafe)) else {
            return tr("the caption is not in it")
        }
        guard creditsRead(in: written, at: copy, format: format, wanted: credits) else {
            return tr("the credits are not in it")
        }
        let parts = Containers.imageParts(original, format: format)
        if let parts, parts != Containers.imageParts(written, format: format) {
            return tr("its image data or colour profile differ")
        }
        // A JPEG's or a PNG's pixels are what a decoder makes of the parts just compared
        // byte for byte (every segment or chunk but the metadata): decoding both copies
        // would prove nothing more, and costs two full decodes (0.2 s at 12 MP). Other
        // formats are decoded and compared.
        if parts == nil || !(format == .jpeg || format == .png) {
            guard samePixels(path, copy) else { return tr("its pixels differ") }
        }
        guard
            ExifFields.kept(
                from: Containers.exifBlob(original, format: format), in: Containers.exifBlob(written, format: format),
                credits: credits)
        else { return tr("its Exif data differ") }
        guard
            otherXMPKept(
                original: original, written: written, originalPath: path, writtenPath: copy, format: format,
                credits: credits, fields: caption.filledOptionalFields)
        else { return tr("its other XMP differs") }
        return nil
    }

    /// Whether both files decode (GdkPixbuf) to the same size, layout and pixels; false
    /// when either does not decode. Compared row by row, so that a large photo costs its
    /// two decodes and no copies of them.
    static func samePixels(_ first: String, _ second: String) -> Bool {
        guard case .success(let a) = Pixbuf.load(path: first), case .success(let b) = Pixbuf.load(path: second)
        else { return false }
        return a.hasSamePixels(as: b)
    }

    /// Every leaf of the original's XMP (extended XMP included) is in the copy with the
    /// same value, except the caption's own properties (the optional `fields` written
    /// among them), the credits written, the extended XMP's GUID (it is the
    /// extended packet's checksum) and the toolkit's stamp (x:xmptk names the writer).
    static func otherXMPKept(
        original: [UInt8], written: [UInt8], originalPath: String, writtenPath: String, format: PhotoFormat,
        credits: Credits = .none, fields: [CaptionField] = []
    ) -> Bool {
        let before = storedPackets(original, path: originalPath, format: format)
        guard !before.isEmpty else { return true }
        let after = storedPackets(written, path: writtenPath, format: format)
        return Exempi.locked { () -> Bool in
            let parsedBefore = before.compactMap { packet in packet.withUnsafeBytes { XMPPacket(parsing: $0) } }
            // A packet that did not parse was unreadable to everyone, and is written fresh.
            guard parsedBefore.count == before.count else { return true }
            var kept: [String: String] = [:]
            for packet in after {
                guard let parsed = packet.withUnsafeBytes({ XMPPacket(parsing: $0) }) else { return false }
                for (key, value) in parsed.leaves() { kept[key.0 + " " + key.1] = value }
            }
            let replaced = Set<Substring>(
                ["dc:title", "dc:description", "photoshop:Headline", "exif:UserComment"]
                    + credits.setFields.map { Substring($0.xmpPrefixedName) }
                    + fields.map { Substring($0.xmpPrefixedName) })
            let stamps: Set<String> = ["adobe:ns:meta/ xmptk", XMPEdit.xmpNote + " xmpNote:HasExtendedXMP"]
            for packet in parsedBefore {
                for (key, value) in packet.leaves() {
                    let (schema, name) = key
                    if replaced.contains(name.prefix { $0 != "[" && $0 != "/" }) || stamps.contains(schema + " " + name)
                    {
                        continue
                    }
                    if kept[schema + " " + name] != value { return false }
                }
            }
            return true
        }
    }

    /// The XMP packets a file stores (a JPEG's extended XMP as a second one), read by
    /// Caption's own walkers; a GIF's through exempi.
    /// Whether the written XMP says each credit that was to be written, as written.
    static func creditsRead(in written: [UInt8], at path: String, format: PhotoFormat, wanted: Credits) -> Bool {
        guard !wanted.isEmpty else { return true }
        let packets = storedPackets(written, path: path, format: format)
        return Exempi.locked { () -> Bool in
            let parsed = packets.compactMap { packet in packet.withUnsafeBytes { XMPPacket(parsing: $0) } }
            return wanted.setFields.allSatisfy { field in
                parsed.contains { $0.credit(field) == PhotoMetadata.xmlSafe(wanted[field]) }
            }
        }
    }

    static func storedPackets(_ bytes: [UInt8], path: String, format: PhotoFormat) -> [[UInt8]] {
        switch format {
        case .jpeg:
            guard let jpeg = JPEG(bytes), let standard = JPEGXMP.standard(jpeg) else { return [] }
            let guid = Exempi.locked { () -> String? in
                standard.withUnsafeBytes { XMPPacket(parsing: $0) }?.text(XMPEdit.xmpNote, "HasExtendedXMP")
            }
            return [standard] + [guid.flatMap { JPEGXMP.extended(jpeg, guid: $0) }].compactMap { $0 }
        case .png:
            guard let chunk = PNG.chunks(bytes)?.first(where: { PNG.isXMP($0, in: bytes) }),
                let text = PNGTextProfile.text(of: chunk, in: bytes)
            else { return [] }
            return [text.text]
        case .webp:
            return (RIFF.chunks(bytes)?.first { $0.fourCC == "XMP " }).map { [Array(bytes[$0.data])] } ?? []
        case .tiff:
            guard let tiff = TIFF(bytes), let entry = tiff.entries.first(where: { $0.tag == TIFF.xmpTag }),
                let value = tiff.value(of: entry)
            else { return [] }
            return [value]
        default:
            guard case .text(let text) = Embedder.storedPacket(path) else { return [] }
            return [text]
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
