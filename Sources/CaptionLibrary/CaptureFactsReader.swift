// What the camera recorded about a photo, from wherever its format keeps it: a JPEG's APP1
// and a TIFF's directories (in the file's first 128 KB), a PNG's eXIf and a WebP's EXIF
// chunk (found by walking the chunks, which may come after the pixels), a HEIF's or AVIF's
// Exif item (libheif), and what LibRaw reads from RAWs that are no plain TIFF (CR3, RAF).

import POSIXFiles
import PhotoFormats

#if canImport(Glibc)
    import Glibc
#endif

public enum CaptureFactsReader {
    /// Exif beyond this is no camera's: a chunk claiming more is passed over.
    static let largestExif = 1 << 20

    /// The facts of the photo at `path`; `.none` when it has none or cannot be read. Reads
    /// the file: call it off the main thread.
    public static func facts(at path: String) -> CaptureFacts {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .none }
        defer { close(descriptor) }
        let head = POSIXFiles.read(descriptor, at: 0, count: 128 << 10)
        guard !head.isEmpty, case .photo(let format) = PhotoFormat.sniff(head) else { return .none }
        switch format {
        case .png:
            return pngExif(descriptor).map { bytes in bytes.withUnsafeBytes(CaptureFacts.fromExif) } ?? .none
        case .webp:
            return webPExif(descriptor).map { bytes in bytes.withUnsafeBytes(CaptureFacts.fromExif) } ?? .none
        case .heif, .avif:
            return HEIFPhoto.exif(path: path).map { bytes in bytes.withUnsafeBytes(CaptureFacts.fromHEIFExif) }
                ?? .none
        default:
            let facts = head.withUnsafeBytes(CaptureFacts.read)
            // A RAW whose Exif is not where a TIFF keeps it (CR3's boxes, RAF's header):
            // LibRaw knows each maker's layout.
            if format.isRaw, facts == .none { return RawPhoto.facts(path: path) ?? .none }
            return facts
        }
    }

    /// PNG: chunks of a 4-byte big-endian length, a 4-byte type, the data and a CRC, after
    /// the 8-byte signature; eXIf holds the Exif (a TIFF header on). The walk stops at IEND.
    private static func pngExif(_ descriptor: Int32) -> [UInt8]? {
        var offset = 8
        while true {
            let header = POSIXFiles.read(descriptor, at: offset, count: 8)
            guard header.count == 8 else { return nil }
            let length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "eXIf" {
                guard length <= largestExif else { return nil }
                let data = POSIXFiles.read(descriptor, at: offset + 8, count: length)
                return data.count == length ? data : nil
            }
            if type == "IEND" { return nil }
            offset += 12 + length
        }
    }

    /// WebP: "RIFF", a size, "WEBP", then chunks of a 4-byte tag, a 4-byte little-endian
    /// size and the data padded to an even length; EXIF holds the Exif. libwebp writes it
    /// after the image data.
    private static func webPExif(_ descriptor: Int32) -> [UInt8]? {
        var offset = 12
        while true {
            let header = POSIXFiles.read(descriptor, at: offset, count: 8)
            guard header.count == 8 else { return nil }
            let size = header[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: header[0..<4], as: UTF8.self) == "EXIF" {
                guard size <= largestExif else { return nil }
                let data = POSIXFiles.read(descriptor, at: offset + 8, count: size)
                return data.count == size ? data : nil
            }
            offset += 8 + size + (size & 1)
        }
    }
}
