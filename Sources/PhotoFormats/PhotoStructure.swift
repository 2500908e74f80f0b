// Whether a photo file is whole: GdkPixbuf decodes a truncated JPEG, PNG, GIF or BMP
// without an error (it fills the missing rows), so intake walks each format's own
// structure to its end marker to tell the user a photo it accepts is incomplete.

public enum PhotoStructure {
    /// Whether the file is all there, as far as its format can tell without decoding.
    public static func isComplete(_ bytes: UnsafeRawBufferPointer, format: PhotoFormat) -> Bool {
        switch format {
        case .jpeg: return JPEGSegments.isComplete(bytes)
        case .png: return PNGChunks.isComplete(bytes)
        case .gif: return gif(bytes)
        case .webp: return RIFFChunks.isComplete(bytes)
        case .bmp: return bmp(bytes)
        case .heif, .avif, .cr3: return isoBMFF(bytes)
        // libtiff reports a truncated TIFF itself. LibRaw reads a RAW cut short without a
        // word, so its directories' pictures must all be there.
        case .tiff: return true
        case .dng, .cr2, .nef, .arw, .orf, .rw2: return TIFFDirectory.picturesAreWithin(bytes)
        case .raf: return raf(bytes)
        }
    }

    /// A GIF's or BMP's picture size from its first 26 bytes, as its header gives it (a BMP
    /// stored top row first gives a negative height); nil for other formats or a size of 0.
    public static func headerSize(_ head: UnsafeRawBufferPointer, format: PhotoFormat) -> (width: Int, height: Int)? {
        let size: (Int, Int)
        switch format {
        case .gif where head.count >= 10:
            size = (littleEndian16(head, 6), littleEndian16(head, 8))
        case .bmp where head.count >= 26 && littleEndian32(head, 14) >= 40:
            let height = Int32(truncatingIfNeeded: littleEndian32(head, 22))
            size = (Int(Int32(truncatingIfNeeded: littleEndian32(head, 18))), Int(height.magnitude))
        default:
            return nil
        }
        return size.0 > 0 && size.1 > 0 ? size : nil
    }

    private static func littleEndian32(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
    }

    private static func littleEndian16(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(b[at]) | Int(b[at + 1]) << 8
    }

    /// Fujifilm's header gives where its JPEG preview and its CFA data are (big-endian
    /// offset and length at 84, and at 100): both must be in the file.
    static func raf(_ b: UnsafeRawBufferPointer) -> Bool {
        let reader = ByteReader(b)
        for at in [84, 100] {
            guard let offset = reader.u32(at), let length = reader.u32(at + 4), reader.contains(offset, length) else {
                return false
            }
        }
        return true
    }

    /// Every top-level box all there (the pictures are in `mdat`).
    static func isoBMFF(_ b: UnsafeRawBufferPointer) -> Bool {
        guard let boxes = ISOBMFF.boxes(ByteReader(b), in: 0..<b.count) else { return false }
        return boxes.contains { $0.type == "meta" || $0.type == "moov" }
    }

    /// Blocks from the screen descriptor to the trailer. A file that ends exactly after a
    /// complete image but lacks the trailer byte is accepted: some encoders omit it and
    /// every viewer shows such a file.
    public static func gif(_ b: UnsafeRawBufferPointer) -> Bool {
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
                // Bytes that are no block after a whole image: decoders stop there and show it.
                return images > 0
            }
        }
        return images > 0 && i == n
    }

    /// The pixel data must be all there: for uncompressed rows it follows from the size and
    /// depth, for compressed ones from the header's image size.
    public static func bmp(_ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        guard n >= 26 else { return false }
        let dataOffset = littleEndian32(b, 10)
        let headerSize = littleEndian32(b, 14)
        var width = 0
        var height = 0
        var depth = 0
        var compression = 0
        var imageSize = 0
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
            // Compressed rows with no size given (0 is allowed for them): the decoder judges.
            expected = dataOffset + (imageSize > 0 ? imageSize : 1)
        }
        return expected <= n
    }
}
