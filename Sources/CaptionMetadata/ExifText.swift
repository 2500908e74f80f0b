// The caption's words in an Exif block (a TIFF structure): ImageDescription, the Windows
// XP tags and UserComment, so that no Exif field keeps words the user replaced.

/// Edits the caption fields of a classic TIFF structure (a TIFF file, or the Exif block of
/// a JPEG, PNG or WebP). Only fields that are there are changed, except ImageDescription
/// with `addDescription`; a field whose new text is empty is removed. exempi already does
/// ImageDescription and UserComment in JPEG and TIFF; it does nothing with Exif in PNG and
/// WebP, and nothing with the XP tags anywhere.
enum ExifText {
    static let imageDescription: UInt16 = 270
    static let xpTitle: UInt16 = 0x9C9B
    static let xpComment: UInt16 = 0x9C9C
    static let xpSubject: UInt16 = 0x9C9F
    static let userComment: UInt16 = 0x9286
    /// The IFD0 tags that carry a caption; everything else must come through unchanged.
    static let captionTags: Set<UInt16> = [imageDescription, xpTitle, xpComment, xpSubject]

    /// `blob` with the caption in its fields, or nil when nothing needs to change (or the
    /// structure cannot be followed: then it is left alone, and the read-back says so).
    static func captioned(
        _ blob: [UInt8], title: String, description: String, addDescription: Bool, userComment doComment: Bool
    ) -> [UInt8]? {
        guard let tiff = TIFF(blob) else { return nil }
        var entries = tiff.entries.map { TIFF.NewEntry($0) }
        var changed = false
        func set(_ tag: UInt16, _ value: [UInt8]?, type: UInt16, add: Bool = false) {
            let index = entries.firstIndex { $0.entry.tag == tag }
            guard index != nil || add else { return }
            if let index {
                let old = entries[index].entry
                if let value, old.type == type, old.count == UInt32(value.count), tiff.value(of: old) == value {
                    return
                }
                entries.remove(at: index)
            }
            changed = true
            guard let value else { return }
            let entry = TIFF.Entry(tag: tag, type: type, count: UInt32(value.count), field: [0, 0, 0, 0])
            entries.append(TIFF.NewEntry(entry, data: value))
        }
        let describe = description.isEmpty ? nil : Array(description.utf8) + [0]
        set(imageDescription, describe, type: 2, add: addDescription)
        set(xpTitle, title.isEmpty ? nil : ucs2(title, little: true), type: 1)
        set(xpSubject, description.isEmpty ? nil : ucs2(description, little: true), type: 1)
        set(xpComment, description.isEmpty ? nil : ucs2(description, little: true), type: 1)

        var working = blob
        if doComment, let pointer = entries.firstIndex(where: { $0.entry.tag == TIFF.exifTag }) {
            let offset = Int(TIFF.read32(entries[pointer].entry.field, 0, tiff.littleEndian))
            if let moved = withUserComment(&working, directory: offset, tiff: tiff, description: description) {
                var entry = entries[pointer].entry
                entry.field = tiff.encode32(UInt32(moved))
                entries[pointer] = TIFF.NewEntry(entry)
                changed = true
            }
        }
        guard changed else { return nil }
        guard let grown = TIFF(working) else { return nil }
        return grown.rebuilt(entries: entries)
    }

    /// XP tags hold UCS-2 little-endian text ending in a 0 character, whatever the file's
    /// byte order (Windows writes them so, and exiftool and exiv2 read them so).
    static func ucs2(_ text: String, little: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in text.utf16 + [0] {
            let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            bytes += little ? pair : pair.reversed()
        }
        return bytes
    }

    /// Appends to `bytes` a copy of the Exif directory at `offset` whose UserComment holds
    /// `description` (or has none, when it is empty); its offset, or nil when the directory
    /// has no UserComment or already says so, or cannot be read.
    private static func withUserComment(
        _ bytes: inout [UInt8], directory offset: Int, tiff: TIFF, description: String
    ) -> Int? {
        let little = tiff.littleEndian
        guard offset >= 8, offset + 2 <= bytes.count else { return nil }
        let count = Int(little ? UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
                : UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
        guard count <= 4096, offset + 2 + 12 * count + 4 <= bytes.count else { return nil }
        var entries: [TIFF.Entry] = []
        for index in 0..<count {
            let at = offset + 2 + 12 * index
            let tag = Array(bytes[at..<(at + 2)])
            let type = Array(bytes[at + 2..<(at + 4)])
            func value16(_ b: [UInt8]) -> UInt16 { little ? UInt16(b[0]) | UInt16(b[1]) << 8 : UInt16(b[0]) << 8 | UInt16(b[1]) }
            entries.append(
                TIFF.Entry(
                    tag: value16(tag), type: value16(type), count: TIFF.read32(bytes, at + 4, little),
                    field: Array(bytes[(at + 8)..<(at + 12)])))
        }
        guard let old = entries.firstIndex(where: { $0.tag == userComment }) else { return nil }
        // "UNICODE\0" then UTF-16 in the block's byte order, as the Exif standard says.
        let comment = description.isEmpty ? nil : Array("UNICODE\u{0}".utf8) + ucs2(description, little: little).dropLast(2)
        if let comment, tiff.value(of: entries[old]) == comment, entries[old].count == UInt32(comment.count) { return nil }
        entries.remove(at: old)
        if let comment {
            if bytes.count % 2 == 1 { bytes.append(0) }
            var entry = TIFF.Entry(tag: userComment, type: 7, count: UInt32(comment.count), field: [])
            entry.field = tiff.encode32(UInt32(bytes.count))
            bytes += comment
            entries.append(entry)
        }
        entries.sort { $0.tag < $1.tag }
        let next = Array(bytes[(offset + 2 + 12 * count)..<(offset + 2 + 12 * count + 4)])
        if bytes.count % 2 == 1 { bytes.append(0) }
        let start = bytes.count
        guard start + 6 + 12 * entries.count <= Int(UInt32.max) else { return nil }
        bytes += tiff.encode16(UInt16(entries.count))
        for entry in entries {
            bytes += tiff.encode16(entry.tag) + tiff.encode16(entry.type) + tiff.encode32(entry.count) + entry.field
        }
        bytes += next
        return start
    }
}
