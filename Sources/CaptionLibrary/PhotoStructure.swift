// Whether a photo file is whole: GdkPixbuf decodes a truncated JPEG, PNG, GIF or BMP
// without an error (it fills the missing rows), so the library walks each format's own
// structure to its end marker before trusting a decode.

#if canImport(Glibc)
import Glibc
#endif

enum PhotoStructure {
    static func isComplete(_ bytes: UnsafeRawBufferPointer, format: PhotoFormat) -> Bool {
        switch format {
        case .jpeg: return jpeg(bytes)
        case .png: return png(bytes)
        case .gif: return gif(bytes)
        case .webp: return webp(bytes)
        case .bmp: return bmp(bytes)
        case .tiff: return true  // libtiff reports a truncated TIFF itself
        }
    }

    private static func bigEndian32(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    private static func littleEndian32(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
    }

    private static func littleEndian16(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(b[at]) | Int(b[at + 1]) << 8
    }

    /// Markers from SOI to EOI, with each scan's entropy-coded data skipped by looking for
    /// the next 0xFF that is neither stuffing (FF 00) nor a restart marker. Bytes after
    /// EOI (some cameras pad) are allowed.
    static func jpeg(_ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        guard n >= 4, let base = b.baseAddress, b[0] == 0xFF, b[1] == 0xD8 else { return false }
        var i = 2
        var sawScan = false
        while i < n {
            guard b[i] == 0xFF else { return false }
            while i < n && b[i] == 0xFF { i += 1 }  // fill bytes
            guard i < n else { return false }
            let code = b[i]
            i += 1
            switch code {
            case 0xD9:
                return sawScan
            case 0x01, 0xD0...0xD7:
                continue
            case 0x00:
                return false
            default:
                guard i + 2 <= n else { return false }
                let length = Int(b[i]) << 8 | Int(b[i + 1])
                guard length >= 2 else { return false }
                i += length
                guard i <= n else { return false }
                guard code == 0xDA else { continue }
                sawScan = true
                while true {
                    guard i < n, let found = memchr(base + i, 0xFF, n - i) else { return false }
                    i = base.distance(to: UnsafeRawPointer(found))
                    guard i + 1 < n else { return false }
                    let next = b[i + 1]
                    if next == 0x00 || (0xD0...0xD7).contains(next) {
                        i += 2
                        continue
                    }
                    break
                }
            }
        }
        return false
    }

    /// Chunks from IHDR to IEND, each fully present.
    static func png(_ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        var i = 8
        var first = true
        var sawData = false
        while i + 12 <= n {
            let length = bigEndian32(b, i)
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: b[(i + 4)..<(i + 8)]), as: UTF8.self)
            guard length <= 0x7FFF_FFFF else { return false }
            if first && type != "IHDR" { return false }
            first = false
            i += 12 + length
            guard i <= n else { return false }
            if type == "IDAT" { sawData = true }
            if type == "IEND" { return sawData }
        }
        return false
    }

    /// Blocks from the screen descriptor to the trailer. A file that ends exactly after a
    /// complete image but lacks the trailer byte is accepted: some encoders omit it and
    /// every viewer shows such a file.
    static func gif(_ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        guard n >= 13 else { return false }
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
        var images = 0

        func skipSubBlocks() -> Bool {
            while true {
                guard i < n else { return false }
                let size = Int(b[i])
                i += 1
                if size == 0 { return true }
                i += size
                guard i <= n else { return false }
            }
        }

        while i < n {
            switch b[i] {
            case 0x3B:
                return images > 0
            case 0x21:
                i += 2
                guard i <= n, skipSubBlocks() else { return false }
            case 0x2C:
                guard i + 10 <= n else { return false }
                let flags = b[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
                i += 1  // LZW minimum code size
                guard i <= n, skipSubBlocks() else { return false }
                images += 1
            default:
                return false
            }
        }
        return images > 0 && i == n
    }

    /// The RIFF container says how long it is.
    static func webp(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count >= 12 else { return false }
        return 8 + littleEndian32(b, 4) <= b.count
    }

    /// The pixel data must be all there: for uncompressed rows it follows from the size and
    /// depth, for compressed ones from the header's image size.
    static func bmp(_ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        guard n >= 26 else { return false }
        let dataOffset = littleEndian32(b, 10)
        let headerSize = littleEndian32(b, 14)
        var width = 0, height = 0, depth = 0, compression = 0, imageSize = 0
        if headerSize == 12 {
            width = littleEndian16(b, 18)
            height = littleEndian16(b, 20)
            depth = littleEndian16(b, 24)
        } else if headerSize >= 40 && n >= 38 {
            width = Int(Int32(truncatingIfNeeded: littleEndian32(b, 18)))
            height = abs(Int(Int32(truncatingIfNeeded: littleEndian32(b, 22))))
            depth = littleEndian16(b, 28)
            compression = littleEndian32(b, 30)
            imageSize = littleEndian32(b, 34)
        } else {
            return false
        }
        guard width > 0, height > 0, depth > 0, dataOffset >= 14 + headerSize else { return false }
        let expected: Int
        if compression == 0 || compression == 3 || compression == 6 {
            let rowBytes = (width * depth + 31) / 32 * 4
            let (pixels, overflow) = rowBytes.multipliedReportingOverflow(by: height)
            guard !overflow else { return false }
            expected = dataOffset + pixels
        } else {
            expected = dataOffset + imageSize
        }
        return expected <= n
    }
}
