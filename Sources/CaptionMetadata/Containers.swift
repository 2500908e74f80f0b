// The photo file formats at the level of their containers (JPEG marker segments, PNG and
// RIFF chunks, TIFF directories): enough to find and replace metadata blocks and give a
// simple WebP the header that can hold XMP. Pixels are never touched.

import CMetadataSupport
import CaptionLibrary
import PhotoFormats

enum Containers {
    /// The format a file's first bytes announce (PhotoFormats knows the signatures).
    static func format(of b: [UInt8]) -> PhotoFormat? {
        PhotoFormat.of(b)
    }

    /// A simple-format WebP (one VP8 or VP8L chunk) as an extended one: a VP8X chunk with
    /// the canvas size goes in front, and nothing else changes. nil for any other file.
    static func extendedWebP(_ bytes: [UInt8]) -> [UInt8]? {
        RIFF.extended(bytes)
    }

    /// Whether Photoshop image resources hold an IPTC-IIM block (resource 0x0404). A
    /// byte search, not a walk: a false "yes" only keeps IIM that exempi rewrote.
    static func containsIIMResource(_ resources: ArraySlice<UInt8>) -> Bool {
        let marker: [UInt8] = Array("8BIM".utf8) + [0x04, 0x04]
        guard resources.count >= marker.count else { return false }
        var index = resources.startIndex
        while index + marker.count <= resources.endIndex {
            if resources[index..<(index + marker.count)].elementsEqual(marker) { return true }
            index += 1
        }
        return false
    }

    /// The parts of a photo that make its picture and colour (JPEG tables, frame and
    /// scans, ICC profile; PNG and WebP image and colour chunks), in order, for comparing a
    /// captioned copy with its original; nil for formats not compared this way (TIFF).
    static func imageParts(_ bytes: [UInt8], format: PhotoFormat) -> [[UInt8]]? {
        switch format {
        case .jpeg:
            guard let jpeg = JPEG(bytes) else { return nil }
            // Comments are words, not picture: one that held the caption changes with it.
            return jpeg.segments.filter { !JPEG.isMetadata($0, in: bytes) && $0.marker != 0xFE }
                .map { Array(bytes[$0.range]) }
                + [Array(bytes[jpeg.tail...])]
        case .png:
            guard let chunks = PNG.chunks(bytes) else { return nil }
            return chunks.filter {
                !PNG.isMetadata($0, in: bytes) && !PNG.isLegacyCaption($0, in: bytes) && !PNG.isExifText($0, in: bytes)
            }
            .map { Array(bytes[$0.range]) }
        case .webp:
            guard let chunks = RIFF.chunks(bytes) else { return nil }
            return chunks.filter { !["VP8X", "EXIF", "XMP "].contains($0.fourCC) }.map { Array(bytes[$0.range]) }
        default:
            return nil
        }
    }

    /// A photo's Exif as a TIFF structure (the TIFF file itself); nil when it has none.
    static func exifBlob(_ bytes: [UInt8], format: PhotoFormat) -> [UInt8]? {
        switch format {
        case .jpeg:
            guard let jpeg = JPEG(bytes) else { return nil }
            let header = JPEG.exif + [0]
            guard
                let segment = jpeg.segments.first(where: { $0.marker == 0xE1 && hasPrefix(bytes, $0.payload, header) })
            else { return nil }
            return Array(bytes[(segment.payload.lowerBound + header.count)..<segment.payload.upperBound])
        case .png:
            return PNG.chunks(bytes)?.first { $0.type == "eXIf" }.map { Array(bytes[$0.data]) }
        case .webp:
            guard let chunk = RIFF.chunks(bytes)?.first(where: { $0.fourCC == "EXIF" }) else { return nil }
            let prefixed = hasPrefix(bytes, chunk.data, JPEG.exif + [0])
            return Array(bytes[(chunk.data.lowerBound + (prefixed ? 6 : 0))..<chunk.data.upperBound])
        case .tiff:
            return bytes
        default:
            return nil
        }
    }

    static func hasPrefix(_ bytes: [UInt8], _ range: Range<Int>, _ prefix: [UInt8]) -> Bool {
        range.count >= prefix.count && bytes[range.lowerBound..<(range.lowerBound + prefix.count)].elementsEqual(prefix)
    }
}

// MARK: JPEG

/// The marker segments of a JPEG up to its first scan; the scans and everything after are
/// kept as they are.
struct JPEG {
    struct Segment {
        var marker: UInt8
        /// The whole segment, from its FF marker to the end of its payload.
        var range: Range<Int>
        var payload: Range<Int>
        /// A new segment's whole bytes, which `rebuilt` writes instead of `range`.
        var data: [UInt8]? = nil

        init(marker: UInt8, range: Range<Int>, payload: Range<Int>) {
            self.marker = marker
            self.range = range
            self.payload = payload
        }

        /// A segment made here, not found in the file.
        init(marker: UInt8, bytes content: [UInt8]) {
            self.init(marker: marker, range: 0..<0, payload: 0..<0)
            data = [0xFF, marker, UInt8((content.count + 2) >> 8), UInt8((content.count + 2) & 0xFF)] + content
        }
    }

    let segments: [Segment]
    /// Where the first scan (or the end of the image) starts.
    let tail: Int
    let bytes: [UInt8]

    static let exif = Array("Exif\u{0}".utf8)
    static let xmp = Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8)
    static let extendedXMP = Array("http://ns.adobe.com/xmp/extension/\u{0}".utf8)
    static let photoshop = Array("Photoshop 3.0\u{0}".utf8)

    /// Bytes between segments that are no marker are left out (JPEGSegments skips them).
    init?(_ b: [UInt8]) {
        guard let (found, tail) = b.withReader({ JPEGSegments.headers($0) }) else { return nil }
        segments = found.map { Segment(marker: $0.marker, range: $0.range, payload: $0.payload) }
        self.tail = tail
        bytes = b
    }

    static func isPhotoshop(_ segment: Segment, in b: [UInt8]) -> Bool {
        segment.marker == 0xED && Containers.hasPrefix(b, segment.payload, photoshop)
    }

    static func isMetadata(_ segment: Segment, in b: [UInt8]) -> Bool {
        if isPhotoshop(segment, in: b) { return true }
        guard segment.marker == 0xE1 else { return false }
        return [exif, xmp, extendedXMP].contains { Containers.hasPrefix(b, segment.payload, $0) }
    }

}

// MARK: PNG

enum PNG {
    struct Chunk {
        var type: String
        /// Length, type, data and CRC.
        var range: Range<Int>
        var data: Range<Int>
    }

    /// Every chunk from IHDR to IEND; nil when one runs past the end.
    static func chunks(_ b: [UInt8]) -> [Chunk]? {
        b.withReader { PNGChunks.chunks($0) }?.map { Chunk(type: $0.type, range: $0.range, data: $0.data) }
    }

    static let xmpKeyword = Array("XML:com.adobe.xmp\u{0}".utf8)

    /// A text chunk with Adobe's keyword.
    static func isXMP(_ chunk: Chunk, in b: [UInt8]) -> Bool {
        ["iTXt", "tEXt", "zTXt"].contains(chunk.type) && Containers.hasPrefix(b, chunk.data, xmpKeyword)
    }

    /// Text chunks other programs keep a title or a caption in, which Caption's words
    /// replace: PNG's own "Title" and "Description", and the IPTC that ImageMagick and
    /// exiftool keep in a "Raw profile type iptc" chunk.
    static func isLegacyCaption(_ chunk: Chunk, in b: [UInt8]) -> Bool {
        guard ["iTXt", "tEXt", "zTXt"].contains(chunk.type) else { return false }
        return ["Title", "Description", "Raw profile type iptc"].contains {
            Containers.hasPrefix(b, chunk.data, Array($0.utf8) + [0])
        }
    }

    /// A chunk: length, type, data, CRC-32 of type and data (zlib's, the CRC PNG uses).
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        func big32(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        return big32(UInt32(data.count)) + typed + big32(crc)
    }

    /// Exif as ImageMagick and exiv2 keep it, in a text chunk (`PNGTextProfile`).
    static func isExifText(_ chunk: Chunk, in b: [UInt8]) -> Bool {
        ["iTXt", "tEXt", "zTXt"].contains(chunk.type)
            && PNGTextProfile.exifKeywords.contains { Containers.hasPrefix(b, chunk.data, Array($0.utf8) + [0]) }
    }

    /// XMP and Exif (eXIf).
    static func isMetadata(_ chunk: Chunk, in b: [UInt8]) -> Bool {
        chunk.type == "eXIf" || isXMP(chunk, in: b)
    }
}

// MARK: WebP

enum RIFF {
    struct Chunk {
        var fourCC: String
        /// Header, data and the pad byte of an odd-sized chunk.
        var range: Range<Int>
        var data: Range<Int>
    }

    static let alphaFlag: UInt8 = 0x10
    static let exifFlag: UInt8 = 0x08
    static let xmpFlag: UInt8 = 0x04

    /// The chunks of a RIFF WEBP file; nil when one runs past the end.
    static func chunks(_ b: [UInt8]) -> [Chunk]? {
        b.withReader { RIFFChunks.chunks($0) }?.map { Chunk(fourCC: $0.fourCC, range: $0.range, data: $0.data) }
    }

    static func littleEndian32(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
    }

    static func littleEndian24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }

    /// A chunk: its FourCC, little-endian size, data and a pad byte when the size is odd.
    static func chunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
        let size = data.count
        return Array(fourCC.utf8) + littleEndian24(size) + [UInt8(size >> 24 & 0xFF)] + data
            + (size % 2 == 1 ? [0] : [])
    }

    /// A RIFF file of `chunks` (each its bytes, padding included), with the size it says.
    static func file(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = chunks.flatMap { $0 }
        let size = 4 + body.count
        return Array("RIFF".utf8) + littleEndian24(size) + [UInt8(size >> 24 & 0xFF)] + Array("WEBP".utf8) + body
    }

    /// See `Containers.extendedWebP`. The canvas size comes from the image chunk's own
    /// header (RFC 6386 for VP8, the lossless bitstream's header for VP8L).
    static func extended(_ b: [UInt8]) -> [UInt8]? {
        guard let chunks = chunks(b), let image = chunks.first else { return nil }
        var width = 0
        var height = 0
        var flags: UInt8 = 0
        let d = image.data
        switch image.fourCC {
        case "VP8 ":
            guard d.count >= 10, b[d.lowerBound + 3] == 0x9D, b[d.lowerBound + 4] == 0x01,
                b[d.lowerBound + 5] == 0x2A
            else { return nil }
            width = (Int(b[d.lowerBound + 6]) | Int(b[d.lowerBound + 7]) << 8) & 0x3FFF
            height = (Int(b[d.lowerBound + 8]) | Int(b[d.lowerBound + 9]) << 8) & 0x3FFF
        case "VP8L":
            guard d.count >= 5, b[d.lowerBound] == 0x2F else { return nil }
            let bits = littleEndian32(b, d.lowerBound + 1)
            width = (bits & 0x3FFF) + 1
            height = (bits >> 14 & 0x3FFF) + 1
            if bits >> 28 & 1 == 1 { flags |= alphaFlag }
        default:
            return nil  // already extended, or not a still image Caption knows
        }
        guard width > 0, height > 0 else { return nil }
        let header: [UInt8] =
            Array("VP8X".utf8) + [10, 0, 0, 0, flags, 0, 0, 0]
            + littleEndian24(width - 1) + littleEndian24(height - 1)
        return file([header] + chunks.map { Array(b[$0.range]) })
    }

    /// The VP8X flags for EXIF and XMP set exactly when those chunks are there (readers
    /// look only for what the flags announce); nil when they already are.
    static func withFlagsMatchingChunks(_ b: [UInt8]) -> [UInt8]? {
        guard let chunks = chunks(b), let header = chunks.first, header.fourCC == "VP8X", header.data.count >= 1 else {
            return nil
        }
        var flags = b[header.data.lowerBound] & ~(exifFlag | xmpFlag)
        if chunks.contains(where: { $0.fourCC == "EXIF" }) { flags |= exifFlag }
        if chunks.contains(where: { $0.fourCC == "XMP " }) { flags |= xmpFlag }
        guard flags != b[header.data.lowerBound] else { return nil }
        var result = b
        result[header.data.lowerBound] = flags
        return result
    }
}

// MARK: TIFF

/// A classic TIFF's first directory (IFD0), where TIFF keeps its XMP, IPTC and Photoshop
/// blocks and the pointers to the Exif and GPS directories, as rewritten for export; read
/// through PhotoFormats. BigTIFF is not rewritten.
struct TIFF {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// The 4-byte value field as stored: the value itself when it fits, else an offset.
        var field: [UInt8]
    }

    /// An entry to write: either the stored one unchanged, or one whose value is `data`.
    struct NewEntry {
        var entry: Entry
        var data: [UInt8]?

        init(_ entry: Entry, data: [UInt8]? = nil) {
            self.entry = entry
            self.data = data
        }
    }

    static let xmpTag: UInt16 = 700
    static let iptcTag: UInt16 = 33723
    static let photoshopTag: UInt16 = 34377
    static let exifTag: UInt16 = 34665
    static let gpsTag: UInt16 = 34853

    let bytes: [UInt8]
    let littleEndian: Bool
    let entries: [Entry]
    let nextDirectory: UInt32

    /// IFD0 as PhotoFormats' TIFFDirectory reads it (classic TIFF only: the directory is
    /// rewritten with 4-byte fields).
    init?(_ b: [UInt8]) {
        guard let directory = b.withUnsafeBytes({ TIFFDirectory.first($0) }), !directory.big,
            directory.entries.allSatisfy({ $0.fieldOffset + 4 <= b.count })
        else { return nil }
        entries = directory.entries.map { entry in
            Entry(
                tag: UInt16(entry.tag), type: UInt16(entry.type), count: UInt32(truncatingIfNeeded: entry.count),
                field: Array(b[entry.fieldOffset..<(entry.fieldOffset + 4)]))
        }
        nextDirectory = UInt32(truncatingIfNeeded: directory.next)
        littleEndian = directory.littleEndian
        bytes = b
    }

    static func read32(_ b: [UInt8], _ at: Int, _ little: Bool) -> UInt32 {
        let v = (0..<4).map { UInt32(b[at + $0]) }
        return little ? v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24 : v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3]
    }

    func encode16(_ value: UInt16) -> [UInt8] {
        let b = [UInt8(value & 0xFF), UInt8(value >> 8)]
        return littleEndian ? b : b.reversed()
    }

    func encode32(_ value: UInt32) -> [UInt8] {
        let b = (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) }
        return littleEndian ? b : b.reversed()
    }

    static func typeSize(_ type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return 1
        }
    }

    /// An entry's value bytes; nil when they lie outside the file.
    func value(of entry: Entry) -> [UInt8]? {
        let (size, overflow) = Int(entry.count).multipliedReportingOverflow(by: Self.typeSize(entry.type))
        guard !overflow else { return nil }
        if size <= 4 { return Array(entry.field[0..<size]) }
        let offset = Int(Self.read32(entry.field, 0, littleEndian))
        guard offset + size <= bytes.count else { return nil }
        return Array(bytes[offset..<(offset + size)])
    }

    /// The file with a new IFD0 of `entries` appended (values given as data appended
    /// before it) and the header pointing there. The old directory stays behind, unused:
    /// moving nothing keeps every other offset in the file valid.
    func rebuilt(entries newEntries: [NewEntry]) -> [UInt8]? {
        var result = bytes
        var entries: [Entry] = []
        for new in newEntries.sorted(by: { $0.entry.tag < $1.entry.tag }) {
            var entry = new.entry
            if let data = new.data {
                if data.count <= 4 {
                    entry.field = data + [UInt8](repeating: 0, count: 4 - data.count)
                } else {
                    if result.count % 2 == 1 { result.append(0) }  // values start on a word boundary
                    guard result.count <= Int(UInt32.max) else { return nil }
                    entry.field = encode32(UInt32(result.count))
                    result += data
                }
            }
            entries.append(entry)
        }
        if result.count % 2 == 1 { result.append(0) }
        guard result.count + 6 + 12 * entries.count <= Int(UInt32.max) else { return nil }
        let directory = UInt32(result.count)
        result += encode16(UInt16(entries.count))
        for entry in entries {
            result += encode16(entry.tag) + encode16(entry.type) + encode32(entry.count) + entry.field
        }
        result += encode32(nextDirectory)
        result.replaceSubrange(4..<8, with: encode32(directory))
        return result
    }

}
