// The ISO base media file format (HEIF, AVIF, Canon CR3): boxes, the file type's brands, and
// the primary picture's size and turn, so a 24-megapixel HEIC is measured without decoding.

public enum ISOBMFF {
    public struct Box {
        public var type: String
        /// The whole box, header included, and its contents.
        public var range: Range<Int>
        public var contents: Range<Int>
    }

    /// The boxes laid end to end in `range`; nil when one runs past its end (a box may be
    /// cut short only at the very end of the file, which `lenientEnd` allows).
    public static func boxes(_ reader: ByteReader, in range: Range<Int>, lenientEnd: Bool = false) -> [Box]? {
        var boxes: [Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            guard let size32 = reader.u32(at), let type = reader.fourCC(at + 4) else { return nil }
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let large = reader.u64(at + 8) else { return nil }
                header = 16
                size = large
            } else if size32 == 0 {
                size = range.upperBound - at
            }
            guard size >= header else { return nil }
            if size > range.upperBound - at {
                guard lenientEnd else { return nil }
                size = range.upperBound - at
            }
            boxes.append(Box(type: type, range: at..<(at + size), contents: (at + header)..<(at + size)))
            at += size
        }
        return boxes
    }

    /// The major and compatible brands of the leading `ftyp` box; nil when there is none.
    public static func brands(_ head: UnsafeRawBufferPointer) -> Set<String>? {
        let reader = ByteReader(head)
        guard reader.fourCC(4) == "ftyp", let size = reader.u32(0), size >= 16, size <= 4096 else { return nil }
        var brands: Set<String> = []
        if let major = reader.fourCC(8) { brands.insert(major) }
        var at = 16
        while at + 4 <= min(size, head.count) {
            if let brand = reader.fourCC(at) { brands.insert(brand) }
            at += 4
        }
        return brands
    }

    /// The primary picture's size from its `ispe` property, turned by its `irot` (a
    /// quarter turn swaps the sides); nil when the `meta` box does not say.
    public static func primarySize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        let reader = ByteReader(bytes)
        guard let top = boxes(reader, in: 0..<bytes.count, lenientEnd: true),
            let meta = top.first(where: { $0.type == "meta" }),
            // meta is a full box: version and flags first.
            let inMeta = boxes(reader, in: (meta.contents.lowerBound + 4)..<meta.contents.upperBound),
            let pitm = inMeta.first(where: { $0.type == "pitm" }),
            let iprp = inMeta.first(where: { $0.type == "iprp" }),
            let inIprp = boxes(reader, in: iprp.contents),
            let ipco = inIprp.first(where: { $0.type == "ipco" }),
            let properties = boxes(reader, in: ipco.contents),
            let ipma = inIprp.first(where: { $0.type == "ipma" })
        else { return nil }
        let pitmVersion = reader.u8(pitm.contents.lowerBound) ?? 0
        guard
            let primary = pitmVersion == 0
                ? reader.u16(pitm.contents.lowerBound + 4)
                : reader.u32(pitm.contents.lowerBound + 4)
        else { return nil }
        // ipma: for each item, its property indices (1-based into ipco).
        guard let version = reader.u8(ipma.contents.lowerBound),
            let flags = reader.number(ipma.contents.lowerBound + 1, 3),
            let itemCount = reader.u32(ipma.contents.lowerBound + 4)
        else { return nil }
        var at = ipma.contents.lowerBound + 8
        var indices: [Int] = []
        for _ in 0..<min(itemCount, 65_536) {
            guard let item = version < 1 ? reader.u16(at) : reader.u32(at) else { return nil }
            at += version < 1 ? 2 : 4
            guard let count = reader.u8(at) else { return nil }
            at += 1
            var found: [Int] = []
            for _ in 0..<Int(count) {
                if flags & 1 == 1 {
                    guard let value = reader.u16(at) else { return nil }
                    found.append(value & 0x7FFF)
                    at += 2
                } else {
                    guard let value = reader.u8(at) else { return nil }
                    found.append(Int(value & 0x7F))
                    at += 1
                }
            }
            if item == primary {
                indices = found
                break
            }
        }
        var size: (width: Int, height: Int)?
        var quarterTurn = false
        for index in indices where index >= 1 && index <= properties.count {
            let property = properties[index - 1]
            if property.type == "ispe", let width = reader.u32(property.contents.lowerBound + 4),
                let height = reader.u32(property.contents.lowerBound + 8)
            {
                size = (width, height)
            } else if property.type == "irot", let angle = reader.u8(property.contents.lowerBound) {
                quarterTurn = angle & 1 == 1
            }
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return quarterTurn ? (size.height, size.width) : size
    }
}
