// The small picture of itself a photo carries: a JPEG's Exif thumbnail, a camera RAW's
// smallest preview. Found from the file's first bytes, so the window can show it while the
// photo itself is decoded.

/// Where an embedded picture's bytes are in the file, and how they are coded.
public struct EmbeddedPicture: Equatable, Sendable {
    public enum Coding: Equatable, Sendable {
        /// A JPEG file of its own.
        case jpeg
        /// Uncompressed 8-bit RGB, row after row with no padding.
        case rgb(width: Int, height: Int)
    }

    /// Offsets in the file (not in the Exif block).
    public var range: Range<Int>
    public var coding: Coding
    /// The width its directory gives; nil when it does not (a JPEG thumbnail's IFD1 need
    /// not say).
    public var width: Int?
    /// The photo's Exif orientation (1 to 8), which its embedded pictures share: they are
    /// stored as the photo's pixels are, not turned.
    public var orientation = 1

    /// The Exif thumbnail of the JPEG whose first bytes are `head`: the JPEG that IFD1's
    /// JPEGInterchangeFormat points at, within the Exif block. Nil when there is none, or
    /// its pointers lie outside the block (then it is not what the file's writer meant).
    /// The Exif block is the first APP1 segment and is at most 64 KB, so a head of 128 KB
    /// holds it even behind a large APP0 or ICC segment.
    public static func inJPEG(_ head: UnsafeRawBufferPointer) -> EmbeddedPicture? {
        let reader = ByteReader(head)
        guard reader.matches([0xFF, 0xD8]) else { return nil }
        var at = 2
        while let (_, code, codeAt) = JPEGSegments.nextMarker(reader, from: at) {
            // The Exif block comes before the first scan.
            guard code != 0xDA, code != 0xD9 else { return nil }
            if code == 0x01 || (0xD0...0xD7).contains(code) {  // no length of their own
                at = codeAt + 1
                continue
            }
            guard let length = reader.u16(codeAt + 1), length >= 2 else { return nil }
            let payload = (codeAt + 3)..<(codeAt + 1 + length)
            if code == 0xE1, reader.matches(Array("Exif".utf8) + [0, 0], at: payload.lowerBound) {
                guard payload.upperBound <= head.count else { return nil }
                return thumbnail(inExif: head, tiffAt: payload.lowerBound + 6, end: payload.upperBound)
            }
            at = payload.upperBound
        }
        return nil
    }

    private static func thumbnail(inExif bytes: UnsafeRawBufferPointer, tiffAt start: Int, end: Int) -> EmbeddedPicture?
    {
        let tiff = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        guard let ifd0 = TIFFDirectory.first(tiff), ifd0.next != 0, let ifd1 = ifd0.directory(at: ifd0.next),
            let offset = ifd1.integer(513), let length = ifd1.integer(514), length > 4,
            ByteReader(tiff).contains(offset, length),
            ByteReader(tiff).matches([0xFF, 0xD8], at: offset)
        else { return nil }
        // 6 is "old-style JPEG", which is what Exif says a JPEG thumbnail is; a thumbnail
        // said to be anything else is not read as one.
        if let compression = ifd1.integer(259), compression != 6 { return nil }
        return EmbeddedPicture(
            range: (start + offset)..<(start + offset + length), coding: .jpeg, width: ifd1.integer(256),
            orientation: orientation(ifd0))
    }

    /// The smallest picture from `minimumWidth` to `maximumWidth` wide that a TIFF-based
    /// camera RAW (DNG, CR2, NEF, ARW) keeps besides its sensor data: in the chain of
    /// directories from IFD0 and in their SubIFDs, a JPEG (compression 6 or 7) or an
    /// uncompressed 8-bit RGB strip. The sensor data (a colour filter array or linear raw) is
    /// never one, nor is a full-size preview: the photo's own decode shows that. Only
    /// directories and pictures inside `bytes` count.
    public static func inTIFF(
        _ bytes: UnsafeRawBufferPointer, minimumWidth: Int = 120, maximumWidth: Int = 2048
    ) -> EmbeddedPicture? {
        guard let first = TIFFDirectory.first(bytes) else { return nil }
        let reader = ByteReader(bytes)
        var found: [EmbeddedPicture] = []
        var pending: [TIFFDirectory] = [first]
        var seen: Set<Int> = []
        var visited = 0
        while let directory = pending.popLast(), visited < 32 {
            visited += 1
            if let picture = picture(in: directory, reader) { found.append(picture) }
            for offset in (directory.integers(330) ?? []) + (directory.next != 0 ? [directory.next] : [])
            where seen.insert(offset).inserted {
                if let next = directory.directory(at: offset) { pending.append(next) }
            }
        }
        var smallest = found.filter { (minimumWidth...maximumWidth).contains($0.width ?? 0) }.min {
            ($0.width ?? 0) < ($1.width ?? 0)
        }
        smallest?.orientation = orientation(first)
        return smallest
    }

    private static func orientation(_ ifd0: TIFFDirectory) -> Int {
        guard ifd0.entry(0x0112)?.type == 3, let value = ifd0.integer(0x0112), (1...8).contains(value) else { return 1 }
        return value
    }

    private static func picture(in directory: TIFFDirectory, _ reader: ByteReader) -> EmbeddedPicture? {
        // 32803: a colour filter array, 34892: linear raw — the sensor's data, not a picture.
        let photometric = directory.integer(262)
        guard photometric != 32803, photometric != 34892, let width = directory.integer(256) else { return nil }
        switch directory.integer(259) {
        case 6, 7:
            let start = directory.integer(513) ?? directory.integers(273)?.first
            let length = directory.integer(514) ?? directory.integers(279)?.first
            guard let start, let length, length > 4, reader.contains(start, length),
                reader.matches([0xFF, 0xD8], at: start)
            else { return nil }
            return EmbeddedPicture(range: start..<(start + length), coding: .jpeg, width: width)
        case 1:
            guard photometric == 2, directory.integer(277) == 3, directory.integers(258) == [8, 8, 8],
                (directory.integer(284) ?? 1) == 1, let height = directory.integer(257),
                let starts = directory.integers(273), let lengths = directory.integers(279),
                let start = starts.first, starts.count == lengths.count
            else { return nil }
            // Strips one after another, as every writer lays out a thumbnail.
            let size = width * 3 * height
            var end = start
            for (strip, length) in zip(starts, lengths) {
                guard strip == end else { return nil }
                end += length
            }
            guard width > 0, height > 0, end - start == size, reader.contains(start, size) else { return nil }
            return EmbeddedPicture(range: start..<end, coding: .rgb(width: width, height: height), width: width)
        default:
            return nil
        }
    }
}
