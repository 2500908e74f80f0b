// The parts of a JPEG's headers that decoding it at an eighth of its size needs.

import PhotoFormats

/// A colour component of the frame, with the tables the scan gives it.
struct FrameComponent {
    var id: UInt8
    var horizontalSampling: Int
    var verticalSampling: Int
    var quantTable: Int
    var dcTable = 0
    var acTable = 0
}

/// What the headers say, for a baseline (or extended sequential) Huffman-coded JPEG with one
/// interleaved scan: the only kind the eighth-size decoder takes. Everything else (progressive,
/// arithmetic coding, CMYK, RGB, 12-bit samples) is left to GdkPixbuf.
struct JPEGLayout {
    var width = 0
    var height = 0
    /// In scan order.
    var components: [FrameComponent] = []
    /// Each component's DC quantiser.
    var dcQuantisers: [Int32] = []
    var dcTables: [HuffmanLookup?] = [nil, nil, nil, nil]
    var acTables: [HuffmanLookup?] = [nil, nil, nil, nil]
    /// Where the entropy-coded data starts, just after the scan header.
    var entropyStart = 0
    /// The EXIF orientation (1 to 8); 1 when there is none.
    var orientation = 1
    /// MCUs between restart markers (DRI); 0 when there are none.
    var restartInterval = 0

    var maxHorizontalSampling: Int { components.map(\.horizontalSampling).max() ?? 1 }
    var maxVerticalSampling: Int { components.map(\.verticalSampling).max() ?? 1 }
}

enum JPEGHeaders {
    /// The layout of `bytes`, or nil when they are not a JPEG the eighth-size decoder takes.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> JPEGLayout? {
        guard bytes.count > 4 else { return nil }
        // The segments come from PhotoFormats' walker, as intake and metadata get them.
        let reader = ByteReader(UnsafeRawBufferPointer(bytes))
        guard let (segments, tail) = JPEGSegments.headers(reader) else { return nil }
        var layout = JPEGLayout()
        var quantisers = [Int32?](repeating: nil, count: 4)
        var frame: [FrameComponent] = []
        var adobeTransform: Int?
        var sawOrientation = false
        for found in segments {
            let segment = UnsafeBufferPointer(rebasing: bytes[found.payload])
            switch found.marker {
            case 0x01, 0xD0...0xD7: continue  // no length
            case 0xD8: return nil  // a second start
            case 0xC0, 0xC1:
                guard frame.isEmpty, let read = readFrame(segment, into: &layout) else { return nil }
                frame = read
            case 0xC2, 0xC3, 0xC5...0xC7, 0xC8...0xCB, 0xCD...0xCF:
                return nil  // progressive, lossless, hierarchical or arithmetic-coded
            case 0xC4:
                guard readHuffmanTables(segment, into: &layout) else { return nil }
            case 0xDB:
                guard readQuantisers(segment, into: &quantisers) else { return nil }
            case 0xDD:
                guard segment.count == 2 else { return nil }
                layout.restartInterval = Int(segment[0]) << 8 | Int(segment[1])
            case 0xE1 where !sawOrientation:
                if let orientation = ExifOrientation.read(segment) {
                    layout.orientation = orientation
                    sawOrientation = true
                }
            case 0xEE:
                // Adobe's marker: transform 0 means the three components are RGB, not YCbCr.
                if segment.count >= 12, Array(segment[0..<5]) == Array("Adobe".utf8) {
                    adobeTransform = Int(segment[11])
                }
            default: break  // APPn, COM and the like
            }
        }
        // The walk stops at the first scan, or at an end before any: only a scan will do.
        guard let (_, code, codeAt) = JPEGSegments.nextMarker(reader, from: tail), code == 0xDA,
            let length = reader.u16(codeAt + 1), length >= 2, reader.contains(codeAt + 1, length)
        else { return nil }
        let scan = UnsafeBufferPointer(rebasing: bytes[(codeAt + 3)..<(codeAt + 1 + length)])
        guard !frame.isEmpty, readScan(scan, frame: frame, into: &layout) else { return nil }
        layout.entropyStart = codeAt + 1 + length
        return finish(layout, quantisers: quantisers, adobeTransform: adobeTransform)
    }

    private static func readFrame(
        _ segment: UnsafeBufferPointer<UInt8>, into layout: inout JPEGLayout
    ) -> [FrameComponent]? {
        guard segment.count >= 6, segment[0] == 8 else { return nil }  // 8-bit samples only
        layout.height = Int(segment[1]) << 8 | Int(segment[2])
        layout.width = Int(segment[3]) << 8 | Int(segment[4])
        let count = Int(segment[5])
        // A height of 0 is defined later by a DNL marker, which nobody writes.
        guard layout.width > 0, layout.height > 0, count == 1 || count == 3,
            segment.count == 6 + 3 * count
        else { return nil }
        var components: [FrameComponent] = []
        for number in 0..<count {
            let base = 6 + 3 * number
            let horizontal = Int(segment[base + 1] >> 4)
            let vertical = Int(segment[base + 1] & 15)
            let table = Int(segment[base + 2])
            guard (1...4).contains(horizontal), (1...4).contains(vertical), table < 4,
                !components.contains(where: { $0.id == segment[base] })
            else { return nil }
            components.append(
                FrameComponent(
                    id: segment[base], horizontalSampling: horizontal,
                    verticalSampling: vertical, quantTable: table))
        }
        return components
    }

    private static func readHuffmanTables(_ segment: UnsafeBufferPointer<UInt8>, into layout: inout JPEGLayout) -> Bool
    {
        var index = 0
        while index < segment.count {
            guard index + 17 <= segment.count else { return false }
            let kind = segment[index] >> 4
            let slot = Int(segment[index] & 15)
            guard kind <= 1, slot < 4 else { return false }
            let counts = Array(segment[(index + 1)..<(index + 17)])
            let total = counts.reduce(0) { $0 + Int($1) }
            guard total <= 256, index + 17 + total <= segment.count else { return false }
            let symbols = Array(segment[(index + 17)..<(index + 17 + total)])
            guard let table = HuffmanLookup(counts: counts, symbols: symbols, isDC: kind == 0) else { return false }
            if kind == 0 { layout.dcTables[slot] = table } else { layout.acTables[slot] = table }
            index += 17 + total
        }
        return true
    }

    private static func readQuantisers(_ segment: UnsafeBufferPointer<UInt8>, into quantisers: inout [Int32?]) -> Bool {
        var index = 0
        while index < segment.count {
            let precision = segment[index] >> 4
            let slot = Int(segment[index] & 15)
            let size = precision == 0 ? 64 : 128
            guard precision <= 1, slot < 4, index + 1 + size <= segment.count else { return false }
            // The first value, in either order, is the DC coefficient's.
            quantisers[slot] =
                precision == 0
                ? Int32(segment[index + 1])
                : Int32(segment[index + 1]) << 8 | Int32(segment[index + 2])
            index += 1 + size
        }
        return true
    }

    private static func readScan(
        _ segment: UnsafeBufferPointer<UInt8>, frame: [FrameComponent], into layout: inout JPEGLayout
    ) -> Bool {
        guard segment.count >= 1 else { return false }
        let count = Int(segment[0])
        // One scan holding every component: baseline files interleave all of them.
        guard count == frame.count, segment.count == 4 + 2 * count else { return false }
        var components: [FrameComponent] = []
        for number in 0..<count {
            let base = 1 + 2 * number
            guard var component = frame.first(where: { $0.id == segment[base] }),
                !components.contains(where: { $0.id == component.id })
            else { return false }
            component.dcTable = Int(segment[base + 1] >> 4)
            component.acTable = Int(segment[base + 1] & 15)
            guard component.dcTable < 4, component.acTable < 4,
                layout.dcTables[component.dcTable] != nil, layout.acTables[component.acTable] != nil
            else { return false }
            components.append(component)
        }
        let spectrum = 1 + 2 * count
        guard segment[spectrum] == 0, segment[spectrum + 1] == 63, segment[spectrum + 2] == 0 else { return false }
        layout.components = components
        return true
    }

    private static func finish(_ layout: JPEGLayout, quantisers: [Int32?], adobeTransform: Int?) -> JPEGLayout? {
        var layout = layout
        if layout.components.count == 3 {
            // Only YCbCr: RGB files say so with Adobe's transform 0 or components named R, G, B.
            if adobeTransform == 0 { return nil }
            if layout.components.map(\.id) == Array("RGB".utf8) { return nil }
            // Blocks in one MCU: the standard allows at most 10.
            guard layout.components.reduce(0, { $0 + $1.horizontalSampling * $1.verticalSampling }) <= 10 else {
                return nil
            }
        }
        var dcQuantisers: [Int32] = []
        for component in layout.components {
            guard let quantiser = quantisers[component.quantTable], quantiser > 0 else { return nil }
            dcQuantisers.append(quantiser)
        }
        layout.dcQuantisers = dcQuantisers
        return layout
    }
}

/// The orientation tag of an EXIF block (APP1), as cameras record how they were held; its
/// TIFF directory is read by PhotoFormats.
enum ExifOrientation {
    static func read(_ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        guard segment.count >= 14, Array(segment[0..<6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] else { return nil }
        let tiff = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: segment[6...]))
        guard let directory = TIFFDirectory.first(tiff), directory.entry(0x0112)?.type == 3,
            let value = directory.integer(0x0112), (1...8).contains(value)
        else { return nil }
        return value
    }
}
