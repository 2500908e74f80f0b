// HEIF and AVIF through libheif (opened on the first such photo, not at start): the
// thumbnail phones store beside the photo, and the photo's Exif.

import CHeif
import POSIXFiles
import Pixbufs

#if canImport(Glibc)
    import Glibc
#endif

public enum HEIFPhoto {
    /// The widest thumbnail of a HEIF taken (phones store one of 320 or 512 pixels).
    public static let widestThumbnail = 1024

    /// The stored thumbnail, turned as libheif turns the photo; nil when there is none, it is
    /// wider than `widestThumbnail`, or libheif is not installed. Reads the file: call it off
    /// the main thread.
    public static func thumbnail(path: String) -> Pixbuf? {
        var decoded = caption_heif_picture()
        guard caption_heif_thumbnail(path.pathBytes, Int32(widestThumbnail), &decoded) != 0 else { return nil }
        defer { caption_heif_release(&decoded) }
        guard let rows = decoded.pixels else { return nil }
        return Pixbuf.rgb(
            width: Int(decoded.width), height: Int(decoded.height), rows: rows, stride: Int(decoded.stride))
    }

    /// The primary picture's Exif item as HEIF stores it (a 4-byte offset to the TIFF
    /// header, then the Exif); nil when there is none or libheif is not installed.
    public static func exif(path: String) -> [UInt8]? {
        var size = 0
        guard let block = caption_heif_exif(path.pathBytes, CaptureFactsReader.largestExif, &size) else { return nil }
        defer { free(block) }
        return Array(UnsafeBufferPointer(start: block, count: size))
    }
}
