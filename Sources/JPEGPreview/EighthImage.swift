// A JPEG decoded at an eighth of its size from its DC terms alone, on two threads: what a
// preview of a camera photo needs, in about half the time libjpeg's own 1/8 scale takes.

/// An RGB picture, three bytes a pixel, rows `width * 3` bytes apart.
public struct EighthImage: Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]
    /// The EXIF orientation the picture should be shown with (1 to 8).
    public let orientation: Int
}

public enum JPEGPreview {
    /// The JPEG at `path` at an eighth of its width and height (rounded up), or smaller to
    /// fit `area`, or nil when it is not one this decoder takes (progressive,
    /// arithmetic-coded, not YCbCr or grey, 12-bit), is damaged, or
    /// cannot be read: then decode it another way. The picture is what libjpeg gives at
    /// scale 1/8 (exactly, for grey and for colour sampled as finely as brightness), with
    /// subsampled colour interpolated from its DC terms. That colour is an approximation of
    /// libjpeg's; what the tests measure (2×2, 2×1, 1×2 and 4×1 sampling, 130 × 250 to
    /// 1001 × 67 pictures, smooth and grainy): a mean difference of 0.2 to 2.7 levels a
    /// channel, the largest 16 (4×1 sampling). The tests fail above a mean of 3 (smooth)
    /// or 3.5 (grainy) and a largest of 40 or 24.
    /// One thread or two, the answer is the same: nil for the same damaged files, the same
    /// bytes otherwise (`oneThreadAndTwoAgreeOnDamagedFiles`).
    ///
    /// `area` is where the picture is shown upright: the picture comes as the file stores
    /// it, sized so that once turned by its EXIF orientation it fits `area` with its aspect
    /// kept (never larger than the eighth size). Shrinking here, from the DC terms, costs
    /// far less than scaling the eighth-size picture afterwards.
    public static func decodeEighth(
        path: String, fitting area: (width: Int, height: Int)? = nil,
        threads: Int = 2
    ) -> EighthImage? {
        guard let file = EntropyData.read(path) else { return nil }
        defer { file.deallocate() }
        return decodeEighth(file.buffer, length: file.length, fitting: area, threads: threads)?.picture
    }

    /// The same for a file's bytes. `threads` above 1 lets a second thread start in the
    /// middle of the data (see SpeculativeScan).
    public static func decodeEighth(
        _ bytes: UnsafeBufferPointer<UInt8>, fitting area: (width: Int, height: Int)? = nil,
        threads: Int = 2
    ) -> EighthImage? {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count + EntropyData.padding)
        defer { copy.deallocate() }
        _ = copy.initialize(from: bytes)
        return decodeEighth(copy, length: bytes.count, fitting: area, threads: threads)?.picture
    }

    /// Decodes `buffer[0..<length]`, unstuffing its entropy data in place; says too whether
    /// the second thread's work was used.
    static func decodeEighth(
        _ buffer: UnsafeMutableBufferPointer<UInt8>, length: Int, fitting area: (width: Int, height: Int)?,
        threads: Int
    ) -> (picture: EighthImage, outcome: SpeculativeScan.Outcome)? {
        guard let layout = JPEGHeaders.read(UnsafeBufferPointer(rebasing: buffer[0..<length])) else { return nil }
        let geometry = MCUGeometry(layout)
        var restarts: [Int] = []
        guard
            let entropyLength = EntropyData.unstuff(buffer, from: layout.entropyStart, to: length, restarts: &restarts),
            layout.restartInterval > 0 || restarts.isEmpty,
            let base = buffer.baseAddress
        else { return nil }
        // The unstuffed data now starts at entropyStart; zeros after it for the refills.
        let data = UnsafePointer(base + layout.entropyStart)
        let end = layout.entropyStart + entropyLength
        (base + end).initialize(repeating: 0, count: min(EntropyData.padding, buffer.count - end))
        guard let scanner = DCScanner(layout) else { return nil }
        defer { scanner.deallocate() }
        let values = UnsafeMutablePointer<Int32>.allocate(capacity: geometry.mcuCount * geometry.blocksPerMCU)
        defer { values.deallocate() }
        let outcome: SpeculativeScan.Outcome
        if layout.restartInterval > 0 {
            outcome = RestartScan.decode(
                data, bits: entropyLength * 8, starts: [0] + restarts,
                interval: layout.restartInterval, threads: threads,
                scanner: scanner, geometry: geometry, into: values)
        } else if threads > 1 && entropyLength >= SpeculativeScan.smallestSplit {
            outcome = SpeculativeScan.decode(
                data, bits: entropyLength * 8, scanner: scanner, geometry: geometry, into: values)
        } else {
            outcome =
                scanner.decode(
                    0..<geometry.mcuCount, from: 0, endingBy: entropyLength * 8, data: data,
                    stride: geometry.blocksPerMCU, into: values) ? .alone : .damaged
        }
        guard outcome != .damaged else { return nil }
        let size = pictureSize(layout, fitting: area)
        return (ColourConversion.picture(layout, geometry: geometry, values: values, size: size), outcome)
    }

    /// The eighth size, or the largest size within it that fits `area` once turned.
    static func pictureSize(_ layout: JPEGLayout, fitting area: (width: Int, height: Int)?) -> (width: Int, height: Int)
    {
        let width = (layout.width + 7) / 8
        let height = (layout.height + 7) / 8
        guard var area, area.width > 0, area.height > 0 else { return (width, height) }
        // Orientations 5 to 8 turn the picture a quarter: it must fit the area turned back.
        if (5...8).contains(layout.orientation) { area = (area.height, area.width) }
        let scale = min(Double(area.width) / Double(width), Double(area.height) / Double(height))
        guard scale < 1 else { return (width, height) }
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}

/// How the scan's MCUs tile the picture.
struct MCUGeometry {
    let columns: Int
    let rows: Int
    let blocksPerMCU: Int
    var mcuCount: Int { columns * rows }

    init(_ layout: JPEGLayout) {
        if layout.components.count == 1 {
            // A scan of one component is made of single blocks, whatever its sampling.
            columns = (layout.width + 7) / 8
            rows = (layout.height + 7) / 8
            blocksPerMCU = 1
        } else {
            columns = (layout.width + 8 * layout.maxHorizontalSampling - 1) / (8 * layout.maxHorizontalSampling)
            rows = (layout.height + 8 * layout.maxVerticalSampling - 1) / (8 * layout.maxVerticalSampling)
            blocksPerMCU = layout.components.reduce(0) { $0 + $1.horizontalSampling * $1.verticalSampling }
        }
    }
}

extension DCScanner {
    init?(_ layout: JPEGLayout) {
        var slots: [BlockSlot] = []
        var tables: [HuffmanLookup] = []
        for (number, component) in layout.components.enumerated() {
            guard let dc = layout.dcTables[component.dcTable], let ac = layout.acTables[component.acTable] else {
                return nil
            }
            tables += [dc, ac]
            let blocks = layout.components.count == 1 ? 1 : component.horizontalSampling * component.verticalSampling
            for _ in 0..<blocks {
                slots.append(BlockSlot(component: number, dc: dc, ac: ac))
            }
        }
        let buffer = UnsafeMutableBufferPointer<BlockSlot>.allocate(capacity: slots.count)
        _ = buffer.initialize(from: slots)
        self.init(slots: buffer, tables: tables)
    }
}
