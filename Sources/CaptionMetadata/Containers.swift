// The photo file formats at the level of their containers (JPEG marker segments, PNG and
// RIFF chunks, TIFF directories, each in a file of its own): enough to find and replace
// metadata blocks and give a simple WebP the header that can hold XMP. Pixels are never
// touched.

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
