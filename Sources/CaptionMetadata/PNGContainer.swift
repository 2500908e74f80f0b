// A PNG's chunks, for finding and replacing its text and metadata chunks.

import CMetadataSupport
import CaptionLibrary
import PhotoFormats

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
