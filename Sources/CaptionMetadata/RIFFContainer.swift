// A WebP's RIFF chunks: its metadata chunks, and a simple WebP made extended to hold XMP.

import CaptionLibrary
import PhotoFormats

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
