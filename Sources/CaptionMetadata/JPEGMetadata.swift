// A JPEG's XMP as the XMP specification stores it (a standard packet, and extended XMP in
// further APP1 segments), and its multi-picture index (MPF), whose offsets must stay true
// when the segments in front of the pictures change size.

import CaptionLibrary
import Localization

enum JPEGXMP {
    /// The most a standard packet may take: a segment's 65,533 bytes less the namespace.
    static let standardLimit = 65_533 - JPEG.xmp.count
    /// The extended parts' header: namespace, 32-character GUID, full length, offset.
    static let extendedHeader = JPEG.extendedXMP.count + 32 + 8
    static let extendedChunk = 65_533 - extendedHeader

    /// The first standard packet's bytes; nil when there is none.
    static func standard(_ jpeg: JPEG) -> [UInt8]? {
        guard let segment = jpeg.segments.first(where: { isStandard($0, jpeg.bytes) }) else { return nil }
        return Array(jpeg.bytes[(segment.payload.lowerBound + JPEG.xmp.count)..<segment.payload.upperBound])
    }

    static func isStandard(_ segment: JPEG.Segment, _ bytes: [UInt8]) -> Bool {
        segment.marker == 0xE1 && Containers.hasPrefix(bytes, segment.payload, JPEG.xmp)
    }

    static func isExtended(_ segment: JPEG.Segment, _ bytes: [UInt8]) -> Bool {
        segment.marker == 0xE1 && Containers.hasPrefix(bytes, segment.payload, JPEG.extendedXMP)
            && segment.payload.count >= extendedHeader
    }

    static func guid(of segment: JPEG.Segment, _ bytes: [UInt8]) -> String {
        let start = segment.payload.lowerBound + JPEG.extendedXMP.count
        return String(decoding: bytes[start..<(start + 32)], as: UTF8.self)
    }

    /// The extended packet whose parts carry `guid`, put together; nil when a part is
    /// missing or lies outside the length they announce. Nothing is allocated before the
    /// parts are known to fill that length exactly, so a part announcing 4 GiB in a small
    /// file costs nothing.
    static func extended(_ jpeg: JPEG, guid: String) -> [UInt8]? {
        var parts: [(offset: Int, bytes: ArraySlice<UInt8>)] = []
        var announced: Int?
        for segment in jpeg.segments where isExtended(segment, jpeg.bytes) && self.guid(of: segment, jpeg.bytes) == guid
        {
            let at = segment.payload.lowerBound + JPEG.extendedXMP.count + 32
            let length = Int(TIFF.read32(jpeg.bytes, at, false))
            guard announced == nil || announced == length else { return nil }
            announced = length
            parts.append(
                (Int(TIFF.read32(jpeg.bytes, at + 4, false)), jpeg.bytes[(at + 8)..<segment.payload.upperBound]))
        }
        guard let length = announced, parts.reduce(0, { $0 + $1.bytes.count }) == length else { return nil }
        var whole = [UInt8](repeating: 0, count: length)
        for part in parts {
            guard part.offset + part.bytes.count <= length else { return nil }
            whole.replaceSubrange(part.offset..<(part.offset + part.bytes.count), with: part.bytes)
        }
        return whole
    }

    /// Whether a part of extended XMP announces a whole larger than the file that holds it:
    /// no real packet does, and the XMP Toolkit would allocate what it announces (4 GiB)
    /// before reading a byte of it.
    static func announcesMoreThanTheFile(_ jpeg: JPEG) -> Bool {
        jpeg.segments.contains { segment in
            isExtended(segment, jpeg.bytes)
                && Int(TIFF.read32(jpeg.bytes, segment.payload.lowerBound + JPEG.extendedXMP.count + 32, false))
                    > jpeg.bytes.count
        }
    }

    /// APP1 segments holding `packet` as extended XMP under `guid`.
    static func extendedSegments(_ packet: [UInt8], guid: String) -> [JPEG.Segment] {
        stride(from: 0, to: packet.count, by: extendedChunk).map { offset in
            let part = packet[offset..<min(packet.count, offset + extendedChunk)]
            return JPEG.Segment(
                marker: 0xE1,
                bytes: JPEG.extendedXMP + Array(guid.utf8) + bigEndian32(packet.count) + bigEndian32(offset) + part)
        }
    }

    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The GUID of an extended packet: its MD5 in upper-case hexadecimal.
    static func guid(of packet: [UInt8]) -> String {
        Hash.md5(packet).map { byte in
            let digits = Array("0123456789ABCDEF".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
        }.joined()
    }
}

/// The multi-picture index (CIPA DC-007) of phones' and cameras' JPEGs: an APP2 "MPF"
/// segment whose entries give each further picture's offset from that segment's TIFF
/// header. Pictures after the first lie past the first picture's end, so a segment in
/// front that grows or shrinks moves them all by as much, and the offsets move with them.
enum MultiPicture {
    static let signature = Array("MPF\u{0}".utf8)
    static let entryTag: UInt16 = 0xB002

    static func isIndex(_ segment: JPEG.Segment, _ bytes: [UInt8]) -> Bool {
        segment.marker == 0xE2 && Containers.hasPrefix(bytes, segment.payload, signature)
    }

    /// Where the index's TIFF header starts in a file; nil when there is no index.
    static func headerOffset(_ bytes: [UInt8]) -> Int? {
        guard let jpeg = JPEG(bytes), let segment = jpeg.segments.first(where: { isIndex($0, bytes) }) else {
            return nil
        }
        return segment.payload.lowerBound + signature.count
    }

    /// `rebuilt` (whose first picture's scans and everything after them are `original`'s,
    /// from `originalTail` and `rebuiltTail` on) with the index's offsets moved by as
    /// much as the pictures moved relative to it; nil when nothing moved or there is no
    /// index, or the index cannot be read (then the caller refuses the file).
    static func adjusted(
        _ rebuilt: [UInt8], original: [UInt8], originalTail: Int, rebuiltTail: Int
    ) -> Result<[UInt8]?, EmbeddingError> {
        guard let before = headerOffset(original) else { return .success(nil) }
        guard let after = headerOffset(rebuilt) else {
            return .failure(.refused(tr("its multi-picture index was lost")))
        }
        let shift = (rebuiltTail - after) - (originalTail - before)
        guard shift != 0 else { return .success(nil) }
        guard let entries = entryTable(rebuilt, header: after) else {
            return .failure(.refused(tr("its multi-picture index cannot be read")))
        }
        var result = rebuilt
        for at in stride(from: entries.lowerBound, to: entries.upperBound, by: 16) {
            let offsetAt = at + 8
            let little = result[after] == 0x49
            let offset = Int(TIFF.read32(result, offsetAt, little))
            guard offset != 0 else { continue }  // the first picture: 0, always
            let moved = offset + shift
            guard moved > 0, moved <= Int(UInt32.max) else {
                return .failure(.refused(tr("its multi-picture index cannot be read")))
            }
            let value = (0..<4).map { UInt8(UInt32(moved) >> (8 * UInt32($0)) & 0xFF) }
            result.replaceSubrange(offsetAt..<(offsetAt + 4), with: little ? value : value.reversed())
        }
        return .success(result)
    }

    /// The MP entries' bytes (16 a picture) in a file whose index header is at `header`.
    private static func entryTable(_ bytes: [UInt8], header: Int) -> Range<Int>? {
        guard header + 8 <= bytes.count else { return nil }
        let little = bytes[header] == 0x49
        let first = header + Int(TIFF.read32(bytes, header + 4, little))
        guard let entries = ExifText.directory(Array(bytes[header...]), at: first - header, littleEndian: little),
            let entry = entries.first(where: { $0.tag == entryTag }), entry.count % 16 == 0
        else { return nil }
        let start = header + Int(TIFF.read32(entry.field, 0, little))
        let end = start + Int(entry.count)
        guard entry.count > 4, end <= bytes.count else { return nil }
        return start..<end
    }
}
