// A JPEG's marker segments up to its first scan, for finding and replacing metadata blocks.

import CaptionLibrary
import PhotoFormats

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
