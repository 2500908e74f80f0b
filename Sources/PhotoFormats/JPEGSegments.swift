// JPEG's marker segments, walked once for everyone: intake (is the file whole?), metadata
// (the APPn blocks) and the eighth-size decoder (its tables). Lenient where every decoder
// is: bytes between segments that are no marker are skipped, as libjpeg skips them (with
// its warning "extraneous bytes before marker"); photo editors write such files.

#if canImport(Glibc)
    import Glibc
#endif

public enum JPEGSegments {
    public struct Segment {
        public var marker: UInt8
        /// The whole segment, from its FF marker to the end of its payload.
        public var range: Range<Int>
        public var payload: Range<Int>
    }

    /// The next marker at or after `start`: where its FF (the first of any fill bytes) is,
    /// and its code; stray bytes before it are skipped. nil at the end of the data.
    public static func nextMarker(_ reader: ByteReader, from start: Int) -> (at: Int, code: UInt8, codeAt: Int)? {
        var at = start
        while true {
            while let byte = reader.u8(at), byte != 0xFF { at += 1 }
            var code = at
            while reader.u8(code) == 0xFF { code += 1 }
            guard let value = reader.u8(code) else { return nil }
            // FF 00 is no marker (only stuffing inside a scan has it): keep looking.
            if value == 0x00 {
                at = code + 1
                continue
            }
            return (at, value, code)
        }
    }

    /// The segments after SOI up to the first scan (SOS) or the end (EOI): each with its
    /// range, and where the SOS or EOI marker starts. nil when SOI is missing or a
    /// segment runs past the end of the data.
    public static func headers(_ reader: ByteReader) -> (segments: [Segment], tail: Int)? {
        guard reader.matches([0xFF, 0xD8]) else { return nil }
        var segments: [Segment] = []
        var at = 2
        while true {
            guard let (start, code, codeAt) = nextMarker(reader, from: at) else { return nil }
            if code == 0xDA || code == 0xD9 { return (segments, start) }
            if code == 0x01 || (0xD0...0xD7).contains(code) {  // no length of their own
                segments.append(
                    Segment(marker: code, range: start..<(codeAt + 1), payload: (codeAt + 1)..<(codeAt + 1)))
                at = codeAt + 1
                continue
            }
            guard let length = reader.u16(codeAt + 1), length >= 2, reader.contains(codeAt + 1, length) else {
                return nil
            }
            segments.append(
                Segment(
                    marker: code, range: start..<(codeAt + 1 + length),
                    payload: (codeAt + 3)..<(codeAt + 1 + length)))
            at = codeAt + 1 + length
        }
    }

    /// Whether the file is whole: markers from SOI to the first EOI, each scan's
    /// entropy-coded data skipped to the next marker that is neither stuffing nor a restart.
    /// What follows the first EOI is not looked at: phones put a gain map (Ultra HDR) or
    /// more pictures (MPF: portrait depth, previews) there, and cameras pad.
    public static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let reader = ByteReader(bytes)
        guard let base = bytes.baseAddress, reader.matches([0xFF, 0xD8]) else { return false }
        let n = bytes.count
        var at = 2
        var sawScan = false
        while true {
            guard let (_, code, codeAt) = nextMarker(reader, from: at) else { return false }
            at = codeAt + 1
            switch code {
            case 0xD9:
                return sawScan
            case 0x01, 0xD0...0xD7:
                continue
            default:
                guard let length = reader.u16(at), length >= 2, reader.contains(at, length) else { return false }
                at += length
                guard code == 0xDA else { continue }
                sawScan = true
                while true {
                    guard at < n, let found = memchr(base + at, 0xFF, n - at) else { return false }
                    at = base.distance(to: UnsafeRawPointer(found))
                    guard let next = reader.u8(at + 1) else { return false }
                    if next == 0x00 || next == 0xFF || (0xD0...0xD7).contains(next) {
                        at += next == 0xFF ? 1 : 2
                        continue
                    }
                    break
                }
            }
        }
    }
}

public enum PNGChunks {
    public struct Chunk {
        public var type: String
        /// Length, type, data and CRC.
        public var range: Range<Int>
        public var data: Range<Int>
    }

    /// Every chunk from the first to IEND; nil when one runs past the end or IEND is missing.
    public static func chunks(_ reader: ByteReader) -> [Chunk]? {
        var chunks: [Chunk] = []
        var at = 8
        while let length = reader.u32(at), length <= 0x7FFF_FFFF, let type = reader.fourCC(at + 4) {
            guard reader.contains(at, 12 + length) else { return nil }
            chunks.append(Chunk(type: type, range: at..<(at + 12 + length), data: (at + 8)..<(at + 8 + length)))
            at += 12 + length
            if type == "IEND" { return chunks }
        }
        return nil
    }

    /// Whether the file is whole: IHDR first, image data, IEND, every chunk all there.
    public static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let chunks = chunks(ByteReader(bytes)), chunks.first?.type == "IHDR" else { return false }
        return chunks.contains { $0.type == "IDAT" }
    }
}

public enum RIFFChunks {
    public struct Chunk {
        public var fourCC: String
        /// Header, data and the pad byte of an odd-sized chunk.
        public var range: Range<Int>
        public var data: Range<Int>
    }

    /// The chunks of a RIFF file after its 12-byte header, as far as the size it gives;
    /// nil when one runs past it.
    public static func chunks(_ reader: ByteReader) -> [Chunk]? {
        var le = reader
        le.littleEndian = true
        guard reader.count >= 12 else { return nil }
        guard let riffSize = le.u32(4) else { return nil }
        let end = min(reader.count, 8 + riffSize)
        var chunks: [Chunk] = []
        var at = 12
        while at + 8 <= end {
            guard let size = le.u32(at + 4), let fourCC = le.fourCC(at) else { return nil }
            let padded = size + (size & 1)
            guard size <= end - at - 8 else { return nil }
            chunks.append(
                Chunk(fourCC: fourCC, range: at..<min(end, at + 8 + padded), data: (at + 8)..<(at + 8 + size)))
            at += 8 + padded
        }
        return chunks
    }

    /// Whether the file holds all the RIFF container says it holds.
    public static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var reader = ByteReader(bytes)
        reader.littleEndian = true
        guard let size = reader.u32(4) else { return false }
        return 8 + size <= bytes.count && chunks(reader) != nil
    }
}
