// The caption's words in an Exif block (a TIFF structure): ImageDescription, the Windows
// XP tags and UserComment, so that no Exif field keeps words the user replaced.

import CaptionText

/// Edits the caption fields of a classic TIFF structure (a TIFF file, or the Exif block of
/// a JPEG, PNG or WebP): ImageDescription (the Metadata Working Group's place for the
/// description in Exif) and UserComment (the only place Shotwell reads a comment from) are
/// set, added where missing (UserComment where the block has an Exif directory); the XP
/// tags are changed only where present. A field whose new text is empty is removed. New
/// values and directories are appended: nothing already in the block moves, so maker
/// notes with absolute offsets stay right.
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
        _ blob: [UInt8], words: CaptionWords, credits: Credits = .none
    ) -> [UInt8]? {
        let title = words.title
        let description = words.subtitle
        guard let tiff = TIFF(blob) else { return nil }
        var entries = tiff.entries.map { TIFF.NewEntry($0) }
        var changed = false
        var orphaned: [TIFF.Entry] = []
        func set(_ tag: UInt16, _ value: [UInt8]?, type: UInt16, add: Bool = false) {
            let index = entries.firstIndex { $0.entry.tag == tag }
            guard index != nil || add else { return }
            if let index {
                let old = entries[index].entry
                if let value, old.type == type, old.count == UInt32(value.count), tiff.value(of: old) == value {
                    return
                }
                entries.remove(at: index)
                orphaned.append(old)
            }
            changed = true
            guard let value else { return }
            let entry = TIFF.Entry(tag: tag, type: type, count: UInt32(value.count), field: [0, 0, 0, 0])
            entries.append(TIFF.NewEntry(entry, data: value))
        }
        let describe = description.isEmpty ? nil : Array(description.utf8) + [0]
        set(imageDescription, describe, type: 2, add: true)
        set(xpTitle, xp(title), type: 1)
        set(xpSubject, xp(description), type: 1)
        set(xpComment, xp(description), type: 1)
        // Artist and Copyright: set where a credit is given, added where missing; a credit
        // not given leaves the photo's own value alone.
        for field in credits.setFields {
            guard let tag = field.exifTag else { continue }
            // Exif Copyright may name the photographer's and the editor's notice, each
            // ending in a 0 byte; the standing notice is the photographer's.
            set(tag, Array(credits[field].utf8) + [0], type: 2, add: true)
        }

        var working = blob
        if let pointer = entries.firstIndex(where: { $0.entry.tag == TIFF.exifTag }) {
            let offset = Int(TIFF.read32(entries[pointer].entry.field, 0, tiff.littleEndian))
            if let moved = withUserComment(&working, directory: offset, tiff: tiff, description: description) {
                var entry = entries[pointer].entry
                entry.field = tiff.encode32(UInt32(moved))
                entries[pointer] = TIFF.NewEntry(entry)
                changed = true
            }
        }
        guard changed else { return nil }
        // The old words would stay in the file as bytes no field points at any more, for
        // anyone who looks at the bytes: zeroed.
        for entry in orphaned { clear(entry, in: &working, tiff: tiff) }
        guard let grown = TIFF(working) else { return nil }
        return grown.rebuilt(entries: entries)
    }

    /// An XP tag's new value; nil (the tag goes) for empty text, and for text beyond
    /// UCS-2 (emoji and other characters past U+FFFF): exiftool 12.57 and exiv2 0.27 read
    /// XP tags as UCS-2, so a surrogate pair would show as garbage, and Windows reads the
    /// title from XMP when XPTitle is gone.
    static func xp(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value <= 0xFFFF }) else { return nil }
        return ucs2(text, little: true)
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
        guard var entries = directory(bytes, at: offset, littleEndian: little) else { return nil }
        let count = entries.count
        let comment = description.isEmpty ? nil : userCommentValue(description, littleEndian: little)
        if let old = entries.firstIndex(where: { $0.tag == userComment }) {
            if let comment, tiff.value(of: entries[old]) == comment, entries[old].count == UInt32(comment.count) {
                return nil
            }
            clear(entries[old], in: &bytes, tiff: tiff)
            entries.remove(at: old)
        } else if comment == nil {
            return nil
        }
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

    /// UserComment's value: eight bytes naming the character set, then the text. ASCII
    /// text as "ASCII"; other text within UCS-2 as "UNICODE" in the block's byte order, as
    /// the Exif standard says; text beyond UCS-2 (emoji) as UTF-8 under "ASCII": exiv2 and
    /// so GExiv2 convert "UNICODE" from UCS-2 and fail at a surrogate pair, while exiftool,
    /// exiv2 and GExiv2 all pass the bytes of "ASCII" through as UTF-8.
    static func userCommentValue(_ text: String, littleEndian little: Bool) -> [UInt8] {
        let ascii = Array("ASCII".utf8) + [0, 0, 0]
        if text.unicodeScalars.allSatisfy({ $0.isASCII }) { return ascii + Array(text.utf8) }
        if text.unicodeScalars.allSatisfy({ $0.value <= 0xFFFF }) {
            return Array("UNICODE\u{0}".utf8) + ucs2(text, little: little).dropLast(2)
        }
        return ascii + Array(text.utf8)
    }

    /// Zeroes an entry's value where it lies outside the entry (over 4 bytes).
    private static func clear(_ entry: TIFF.Entry, in bytes: inout [UInt8], tiff: TIFF) {
        let (size, overflow) = Int(entry.count).multipliedReportingOverflow(by: TIFF.typeSize(entry.type))
        guard !overflow, size > 4 else { return }
        let offset = Int(TIFF.read32(entry.field, 0, tiff.littleEndian))
        guard offset >= 8, offset + size <= bytes.count else { return }
        for index in offset..<(offset + size) { bytes[index] = 0 }
    }

    /// The entries of the directory at `offset` of a classic TIFF structure; nil when it
    /// lies outside the bytes.
    static func directory(_ bytes: [UInt8], at offset: Int, littleEndian little: Bool) -> [TIFF.Entry]? {
        guard offset >= 8, offset + 2 <= bytes.count else { return nil }
        func value16(_ at: Int) -> UInt16 {
            little ? UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 : UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
        }
        let count = Int(value16(offset))
        guard count <= 4096, offset + 2 + 12 * count + 4 <= bytes.count else { return nil }
        return (0..<count).map { index in
            let at = offset + 2 + 12 * index
            return TIFF.Entry(
                tag: value16(at), type: value16(at + 2), count: TIFF.read32(bytes, at + 4, little),
                field: Array(bytes[(at + 8)..<(at + 12)]))
        }
    }
}

/// The Exif a captioned copy must keep: every field of IFD0, the Exif directory (maker
/// notes among them) and the GPS directory, with its value, other than the caption's
/// own fields and the offsets a rewrite moves (the caption's fields may be added: an
/// ImageDescription or a UserComment where there was none).
enum ExifFields {
    /// Where values live only as offsets into the file, which a rewrite may move.
    static let offsetTags: Set<UInt16> = [
        273, 279, 324, 325, 513, 514, TIFF.exifTag, TIFF.gpsTag, 40965, TIFF.xmpTag, TIFF.iptcTag, TIFF.photoshopTag,
    ]

    static func kept(from original: [UInt8]?, in written: [UInt8]?, credits: Credits = .none) -> Bool {
        guard let original else { return true }  // nothing to keep
        // A block Caption cannot read must come through as it was, or not be written over.
        let credited = Set(credits.setFields.compactMap(\.exifTag))
        guard let before = fields(original, credited: credited) else { return written == original }
        guard let written, let after = fields(written, credited: credited) else { return false }
        return before.allSatisfy { key, value in after[key] == value }
    }

    /// (directory, tag) -> type, count and value bytes.
    static func fields(_ blob: [UInt8], credited: Set<UInt16> = []) -> [String: [UInt8]]? {
        guard let tiff = TIFF(blob) else { return nil }
        var found: [String: [UInt8]] = [:]
        func add(_ entries: [TIFF.Entry], _ directory: String, skipping: Set<UInt16>) {
            for entry in entries where !skipping.contains(entry.tag) && !offsetTags.contains(entry.tag) {
                found["\(directory).\(entry.tag)"] =
                    tiff.encode16(entry.type) + tiff.encode32(entry.count) + (tiff.value(of: entry) ?? [])
            }
        }
        add(tiff.entries, "IFD0", skipping: ExifText.captionTags.union(credited))
        for (tag, name) in [(TIFF.exifTag, "Exif"), (TIFF.gpsTag, "GPS")] {
            guard let pointer = tiff.entries.first(where: { $0.tag == tag }) else { continue }
            let offset = Int(TIFF.read32(pointer.field, 0, tiff.littleEndian))
            guard let entries = ExifText.directory(blob, at: offset, littleEndian: tiff.littleEndian) else { continue }
            add(entries, name, skipping: [ExifText.userComment])
        }
        return found
    }
}

/// Old caption values exempi leaves behind. exempi updates Exif and a TIFF's IPTC in place:
/// a value that grew is written anew elsewhere, and the old bytes stay where they were,
/// pointed at by nothing, for anyone who reads the bytes. They are zeroed, but only where
/// the bytes are still exactly the old value at the old place, and no field, directory,
/// strip, tile or thumbnail of the new structure uses any of them.
enum OldValues {
    /// The IFD0 and Exif fields whose old values may be left behind.
    static let ifd0Tags: Set<UInt16> = ExifText.captionTags.union(
        [TIFF.iptcTag, TIFF.xmpTag, TIFF.photoshopTag] + CreditField.allCases.compactMap(\.exifTag))
    static let exifTags: Set<UInt16> = [ExifText.userComment]

    static func scrubbed(_ written: [UInt8], original: [UInt8]) -> [UInt8]? {
        guard let before = TIFF(original), let after = TIFF(written) else { return nil }
        let candidates = ranges(of: before, in: original, only: true)
        guard !candidates.isEmpty else { return nil }
        let used = ranges(of: after, in: written, only: false)
        var result = written
        var changed = false
        for range in candidates where range.upperBound <= written.count {
            guard written[range].elementsEqual(original[range]), !used.contains(where: { $0.overlaps(range) }),
                written[range].contains(where: { $0 != 0 })
            else { continue }
            for index in range { result[index] = 0 }
            changed = true
        }
        return changed ? result : nil
    }

    /// With `only`, the out-of-line values of the caption fields; else everything the
    /// structure uses: its directories, every out-of-line value, and the data that strip,
    /// tile and thumbnail offsets point at.
    private static func ranges(of tiff: TIFF, in bytes: [UInt8], only: Bool) -> [Range<Int>] {
        var found: [Range<Int>] = []
        let little = tiff.littleEndian
        func value(_ entry: TIFF.Entry) -> Range<Int>? {
            let (size, overflow) = Int(entry.count).multipliedReportingOverflow(by: TIFF.typeSize(entry.type))
            guard !overflow, size > 4 else { return nil }
            let offset = Int(TIFF.read32(entry.field, 0, little))
            return offset + size <= bytes.count ? offset..<(offset + size) : nil
        }
        func integers(_ entry: TIFF.Entry) -> [Int] {
            let size = TIFF.typeSize(entry.type)
            guard let data = tiff.value(of: entry) ?? value(entry).map({ Array(bytes[$0]) }), size == 2 || size == 4
            else { return [] }
            return stride(from: 0, to: data.count - size + 1, by: size).map { at in
                size == 4
                    ? Int(TIFF.read32(data, at, little))
                    : Int(
                        little
                            ? UInt16(data[at]) | UInt16(data[at + 1]) << 8
                            : UInt16(data[at]) << 8 | UInt16(data[at + 1]))
            }
        }
        func walk(_ entries: [TIFF.Entry], at offset: Int, tags: Set<UInt16>) {
            if !only { found.append(offset..<(offset + 2 + 12 * entries.count + 4)) }
            for entry in entries {
                if only {
                    if tags.contains(entry.tag), let range = value(entry) { found.append(range) }
                    continue
                }
                if let range = value(entry) { found.append(range) }
            }
            guard !only else { return }
            let byTag = Dictionary(entries.map { ($0.tag, $0) }, uniquingKeysWith: { first, _ in first })
            for (offsets, counts) in [(UInt16(273), UInt16(279)), (324, 325), (513, 514)] {
                guard let o = byTag[offsets], let c = byTag[counts] else { continue }
                for (start, count) in zip(integers(o), integers(c)) where start >= 0 && count > 0 {
                    found.append(start..<min(bytes.count, start + count))
                }
            }
        }
        let first = Int(TIFF.read32(bytes, 4, little))
        walk(tiff.entries, at: first, tags: ifd0Tags)
        // The Exif, GPS and interoperability directories, and the thumbnail's IFD1.
        var pointers: [(Int, Set<UInt16>)] = []
        for entry in tiff.entries where entry.tag == TIFF.exifTag || entry.tag == TIFF.gpsTag {
            pointers.append((Int(TIFF.read32(entry.field, 0, little)), entry.tag == TIFF.exifTag ? exifTags : []))
        }
        if tiff.nextDirectory != 0 { pointers.append((Int(tiff.nextDirectory), [])) }
        var seen: Set<Int> = [first]
        while let (offset, tags) = pointers.popLast() {
            guard seen.insert(offset).inserted,
                let entries = ExifText.directory(bytes, at: offset, littleEndian: little)
            else { continue }
            walk(entries, at: offset, tags: tags)
            for entry in entries where entry.tag == 40965 {
                pointers.append((Int(TIFF.read32(entry.field, 0, little)), []))
            }
        }
        return found
    }
}
