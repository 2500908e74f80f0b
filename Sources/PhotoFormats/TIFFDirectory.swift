// A TIFF's first directory (IFD0), classic or BigTIFF, read for what intake needs: which
// camera RAW it is, if any, and the sample layout (to name what cannot be decoded).

public struct TIFFDirectory {
    public struct Entry {
        public var tag: Int
        public var type: Int
        public var count: Int
        /// Where the value is: inside the entry when it fits, else where the entry points.
        public var valueOffset: Int
        /// Where the entry's value field is (4 bytes in a classic TIFF, 8 in BigTIFF).
        public var fieldOffset: Int
    }

    public let big: Bool
    public let littleEndian: Bool
    public let entries: [Entry]
    /// Where the next directory starts (0: none).
    public let next: Int
    private let reader: ByteReader

    public static let dngVersionTag = 50706
    public static let makeTag = 271
    public static let newSubfileTypeTag = 254
    public static let subIFDsTag = 330

    /// IFD0 of `bytes`, or nil when they are no TIFF or the directory lies outside them.
    public static func first(_ bytes: UnsafeRawBufferPointer) -> TIFFDirectory? {
        var reader = ByteReader(bytes)
        guard let order = reader.u16(0), order == 0x4949 || order == 0x4D4D else { return nil }
        reader.littleEndian = order == 0x4949
        switch reader.u16(2) {
        case 42:
            guard let start = reader.u32(4) else { return nil }
            return TIFFDirectory(reader, at: start, big: false)
        case 43:
            guard reader.u16(4) == 8, reader.u16(6) == 0, let start = reader.u64(8) else { return nil }
            return TIFFDirectory(reader, at: start, big: true)
        default:
            return nil
        }
    }

    private init?(_ reader: ByteReader, at start: Int, big: Bool) {
        guard start >= 8 else { return nil }
        let entrySize = big ? 20 : 12
        let countSize = big ? 8 : 2
        let fieldSize = big ? 8 : 4
        guard let count = big ? reader.u64(start) : reader.u16(start), count <= 4096,
            reader.contains(start + countSize, count * entrySize)
        else { return nil }
        var entries: [Entry] = []
        for index in 0..<count {
            let at = start + countSize + index * entrySize
            guard let tag = reader.u16(at), let type = reader.u16(at + 2),
                let valueCount = big ? reader.u64(at + 4) : reader.u32(at + 4)
            else { return nil }
            let field = at + (big ? 12 : 8)
            let size = TIFFDirectory.typeSize(type).multipliedReportingOverflow(by: valueCount)
            guard !size.overflow else { continue }
            let offset = size.partialValue <= fieldSize ? field : ((big ? reader.u64(field) : reader.u32(field)) ?? -1)
            entries.append(Entry(tag: tag, type: type, count: valueCount, valueOffset: offset, fieldOffset: field))
        }
        self.entries = entries
        self.next =
            (big
                ? reader.u64(start + countSize + count * entrySize) : reader.u32(start + countSize + count * entrySize))
            ?? 0
        self.big = big
        self.littleEndian = reader.littleEndian
        self.reader = reader
    }

    /// Another directory of the same TIFF, at `offset` (the Exif directory a pointer tag
    /// names); nil when it lies outside the data.
    public func directory(at offset: Int) -> TIFFDirectory? {
        TIFFDirectory(reader, at: offset, big: big)
    }

    public static func typeSize(_ type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12, 16, 17, 18: return 8
        default: return 1
        }
    }

    public func entry(_ tag: Int) -> Entry? { entries.first { $0.tag == tag } }

    /// Every value of an integer entry; nil when they lie outside the data.
    public func integers(_ tag: Int) -> [Int]? {
        guard let entry = entry(tag) else { return [] }
        let size: Int
        switch entry.type {
        case 3, 8: size = 2
        case 4, 9, 13: size = 4
        case 16, 17, 18: size = 8
        default: return nil
        }
        guard entry.count <= 1 << 20, reader.contains(entry.valueOffset, entry.count * size) else { return nil }
        var values: [Int] = []
        values.reserveCapacity(entry.count)
        for index in 0..<entry.count {
            guard
                let value = size == 8
                    ? reader.u64(entry.valueOffset + index * 8)
                    : reader.number(entry.valueOffset + index * size, size).map({ Int($0) })
            else { return nil }
            values.append(value)
        }
        return values
    }

    /// Whether the pictures every directory points at (strips, tiles, embedded JPEG
    /// previews), in the chain from IFD0 and in its SubIFDs, lie inside `bytes`: a camera
    /// RAW cut short fails here, where LibRaw reads it without complaint.
    public static func picturesAreWithin(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var directory = first(bytes) else { return false }
        var pending: [Int] = []
        var seen: Set<Int> = []
        var visited = 0
        while true {
            visited += 1
            guard visited <= 64 else { return false }
            for (offsets, counts) in [(273, 279), (324, 325), (513, 514)] {
                guard let starts = directory.integers(offsets), let lengths = directory.integers(counts) else {
                    return false
                }
                for (start, length) in zip(starts, lengths) where length > 0 {
                    guard directory.reader.contains(start, length) else { return false }
                }
            }
            guard let subdirectories = directory.integers(330) else { return false }
            pending += subdirectories
            if directory.next != 0 { pending.append(directory.next) }
            // A pointer to no directory (some writers leave garbage in the last "next"
            // field) is passed over, as libtiff passes over it: the pictures decide.
            var read: TIFFDirectory?
            while read == nil, let following = pending.popLast() {
                if seen.insert(following).inserted {
                    read = TIFFDirectory(directory.reader, at: following, big: directory.big)
                }
            }
            guard let read else { return true }
            directory = read
        }
    }

    /// Every value of an unsigned RATIONAL entry; nil when it is another type, lies outside
    /// the data or divides by zero.
    public func rationals(_ tag: Int) -> [Double]? {
        guard let entry = entry(tag), entry.type == 5, entry.count <= 64,
            reader.contains(entry.valueOffset, entry.count * 8)
        else { return nil }
        var values: [Double] = []
        for index in 0..<entry.count {
            guard let numerator = reader.u32(entry.valueOffset + index * 8),
                let denominator = reader.u32(entry.valueOffset + index * 8 + 4), denominator != 0
            else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }

    /// The first value of an integer entry.
    public func integer(_ tag: Int) -> Int? {
        guard let entry = entry(tag), entry.count >= 1 else { return nil }
        switch entry.type {
        case 1, 6, 7: return reader.u8(entry.valueOffset).map { Int($0) }
        case 3, 8: return reader.u16(entry.valueOffset)
        case 4, 9, 13: return reader.u32(entry.valueOffset)
        case 16, 17, 18: return reader.u64(entry.valueOffset)
        default: return nil
        }
    }

    /// An ASCII entry's text.
    public func text(_ tag: Int) -> String? {
        guard let entry = entry(tag), entry.type == 2 else { return nil }
        return reader.text(entry.valueOffset, min(entry.count, 256))
    }

    /// The camera RAW this TIFF is, when it is one: DNG by its version tag, CR2 by Canon's
    /// mark after the header, NEF and ARW by their maker and their shape: the sensor's data
    /// in a SubIFD and, in IFD0, only a reduced-resolution preview (NewSubfileType 1). A
    /// Nikon or Sony photo saved as TIFF by an editor keeps the camera's Make and may carry a
    /// thumbnail in a SubIFD (GIMP writes one), but its IFD0 is the full picture.
    public var cameraRaw: PhotoFormat? {
        if entry(Self.dngVersionTag) != nil { return .dng }
        if !big, reader.matches([0x43, 0x52, 0x02], at: 8) { return .cr2 }
        let make = (text(Self.makeTag) ?? "").uppercased()
        let sensorElsewhere = entry(Self.subIFDsTag) != nil && (integer(Self.newSubfileTypeTag) ?? 0) & 1 == 1
        if make.hasPrefix("NIKON") && sensorElsewhere { return .nef }
        if make.hasPrefix("SONY") && sensorElsewhere { return .arw }
        return nil
    }

    /// The picture's size as a viewer shows it: turned a quarter when its orientation (5 to
    /// 8) says so; nil when the directory gives none.
    public var shownSize: (width: Int, height: Int)? {
        guard let width = integer(256), let height = integer(257), width > 0, height > 0 else { return nil }
        return (5...8).contains(integer(274) ?? 1) ? (height, width) : (width, height)
    }

    /// The bits of each sample and their kind (1 unsigned, 2 signed, 3 floating point).
    public var sampleLayout: (bits: Int, format: Int) {
        (integer(258) ?? 1, integer(339) ?? 1)
    }
}
