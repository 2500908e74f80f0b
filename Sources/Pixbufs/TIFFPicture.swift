// TIFFs that GdkPixbuf's loader refuses, decoded through libtiff: by libtiff's RGBA interface
// where it reads the picture (CMYK, YCbCr, palettes, odd layouts), else from the samples
// themselves (12-, 24- and 32-bit integers, floating point, 16-bit CMYK). Either way strip by
// strip or tile by tile, averaged down to the size asked for, so a preview of a large TIFF
// never holds the whole picture.

import CPixbuf
import CTiff
import POSIXFiles

enum TIFFPicture {
    /// The most libtiff may allocate at once for one strip or tile: more is a damaged or
    /// hostile file, not a photo.
    static let largestAllocation: Int64 = 256 << 20

    /// The first picture of the TIFF at `path`, fitted inside `area` when given (never
    /// enlarged); a failure says why in libtiff's words or ours. A picture of more than
    /// `maximumPixels` is refused before any is decoded.
    static func load(
        path: String, fitting area: (width: Int, height: Int)?, maximumPixels: Int
    ) -> Result<Pixbuf, Pixbuf.Failure> {
        var file = caption_tiff()
        guard caption_tiff_open(path.pathBytes, largestAllocation, &file) != 0 else {
            return .failure(Pixbuf.Failure(message: message(file, or: "libtiff cannot open it")))
        }
        defer { caption_tiff_close(&file) }
        let layout = Layout(&file)
        guard layout.width > 0, layout.height > 0 else {
            return .failure(Pixbuf.Failure(message: "the TIFF gives no picture size"))
        }
        guard layout.width * layout.height <= maximumPixels else {
            return .failure(Pixbuf.Failure(message: "the picture has too many pixels"))
        }
        var scale = 1.0
        if let area {
            scale = min(
                1, Double(max(area.width, 1)) / Double(layout.width),
                Double(max(area.height, 1)) / Double(layout.height))
        }
        let size = (
            width: max(1, Int((Double(layout.width) * scale).rounded())),
            height: max(1, Int((Double(layout.height) * scale).rounded()))
        )
        let result: Result<Canvas, Pixbuf.Failure>
        if let samples = SampleLayout(layout) {
            result = samples.decode(&file, layout, into: size)
        } else if layout.sampleFormat != 3, caption_tiff_rgba_ok(&file) != 0 {
            result = decodeRGBA(&file, layout, into: size)
        } else {
            let reason =
                layout.sampleFormat == 3
                ? "\(layout.bitsPerSample)-bit floating-point samples" : message(file, or: "an unknown layout")
            return .failure(Pixbuf.Failure(message: reason, isUnsupported: true))
        }
        switch result {
        case .failure(let failure): return .failure(failure)
        case .success(let canvas):
            guard let pixbuf = canvas.pixbuf() else {
                return .failure(Pixbuf.Failure(message: "no memory for the picture"))
            }
            // As GdkPixbuf's loader does, the turn is left to the caller (upright()). libtiff's
            // RGBA interface has already applied orientations 1 to 4 and read 5 to 8 as those;
            // what remains of 5 and 7 is the transposition of 5, of 6 and 8 that of 7.
            let turn =
                canvas.flipped ? [5: 5, 7: 5, 6: 7, 8: 7][layout.orientation] ?? 1 : layout.orientation
            if (2...8).contains(turn) { gdk_pixbuf_set_option(pixbuf.pointer, "orientation", String(turn)) }
            return .success(pixbuf)
        }
    }

    static func message(_ file: caption_tiff, or fallback: String) -> String {
        var file = file
        let text = String(cString: caption_tiff_error(&file))
        return text.isEmpty ? fallback : text
    }

    /// The tags that say how the first picture is stored.
    struct Layout {
        var width = 0
        var height = 0
        var bitsPerSample = 1
        var samplesPerPixel = 1
        /// 1 unsigned integer, 2 signed integer, 3 floating point.
        var sampleFormat = 1
        var photometric = -1
        /// 1 interleaved ("chunky"), 2 one plane a sample.
        var planar = 1
        var inkSet = 1
        var orientation = 1
        var tiled = false
        var rowsPerStrip = 0
        var tileWidth = 0
        var tileHeight = 0

        init(_ file: inout caption_tiff) {
            func u32(_ tag: Int32) -> Int? {
                var value: UInt32 = 0
                return caption_tiff_u32(&file, UInt32(tag), &value) != 0 ? Int(value) : nil
            }
            func u16(_ tag: Int32) -> Int? {
                var value: UInt16 = 0
                return caption_tiff_u16(&file, UInt32(tag), &value) != 0 ? Int(value) : nil
            }
            width = u32(TIFFTAG_IMAGEWIDTH) ?? 0
            height = u32(TIFFTAG_IMAGELENGTH) ?? 0
            bitsPerSample = u16(TIFFTAG_BITSPERSAMPLE) ?? 1
            samplesPerPixel = u16(TIFFTAG_SAMPLESPERPIXEL) ?? 1
            sampleFormat = u16(TIFFTAG_SAMPLEFORMAT) ?? 1
            photometric = u16(TIFFTAG_PHOTOMETRIC) ?? -1
            planar = u16(TIFFTAG_PLANARCONFIG) ?? 1
            inkSet = u16(TIFFTAG_INKSET) ?? 1
            orientation = u16(TIFFTAG_ORIENTATION) ?? 1
            tiled = caption_tiff_is_tiled(&file) != 0
            rowsPerStrip = min(u32(TIFFTAG_ROWSPERSTRIP) ?? height, height)
            tileWidth = u32(TIFFTAG_TILEWIDTH) ?? 0
            tileHeight = u32(TIFFTAG_TILELENGTH) ?? 0
        }
    }

    /// Through libtiff's RGBA interface, a strip or a tile at a time. It gives each region
    /// bottom row first, whatever the file's own order.
    private static func decodeRGBA(
        _ file: inout caption_tiff, _ layout: Layout, into size: (width: Int, height: Int)
    ) -> Result<Canvas, Pixbuf.Failure> {
        var canvas = Canvas(source: (layout.width, layout.height), target: size, kind: .rgba)
        canvas.flipped = true
        let regionWidth = layout.tiled ? layout.tileWidth : layout.width
        let regionHeight = layout.tiled ? layout.tileHeight : max(layout.rowsPerStrip, 1)
        guard regionWidth > 0, regionHeight > 0, regionWidth * regionHeight <= Int(largestAllocation / 4) else {
            return .failure(Pixbuf.Failure(message: "its strips or tiles are too large"))
        }
        var raster = [UInt32](repeating: 0, count: regionWidth * regionHeight)
        var row = [Float](repeating: 0, count: regionWidth * 4)
        for top in stride(from: 0, to: layout.height, by: regionHeight) {
            for left in stride(from: 0, to: layout.width, by: regionWidth) {
                let read = raster.withUnsafeMutableBufferPointer { buffer in
                    // A non-empty array's base address is never nil.
                    layout.tiled
                        ? caption_tiff_read_rgba_tile(&file, UInt32(left), UInt32(top), buffer.baseAddress!)
                        : caption_tiff_read_rgba_strip(&file, UInt32(top), buffer.baseAddress!)
                }
                guard read != 0 else {
                    return .failure(Pixbuf.Failure(message: message(file, or: "a strip or tile does not decode")))
                }
                let rows = min(regionHeight, layout.height - top)
                let columns = min(regionWidth, layout.width - left)
                // A strip holds its own rows only; a tile is always whole, its rows at the top.
                let filled = layout.tiled ? regionHeight : rows
                for index in 0..<rows {
                    let base = (filled - 1 - index) * regionWidth
                    for column in 0..<columns {
                        let pixel = raster[base + column]
                        row[column * 4] = Float(pixel & 0xFF) / 255
                        row[column * 4 + 1] = Float(pixel >> 8 & 0xFF) / 255
                        row[column * 4 + 2] = Float(pixel >> 16 & 0xFF) / 255
                        row[column * 4 + 3] = Float(pixel >> 24) / 255
                    }
                    canvas.add(row: top + index, from: left, count: columns, values: row, channel: nil)
                }
            }
        }
        return .success(canvas)
    }
}

/// Samples libtiff's RGBA interface does not take, read as numbers: grey, RGB or CMYK, of
/// any integer width up to 32 bits or floating point of 32 or 64.
private struct SampleLayout {
    let colours: Int
    let bits: Int
    let format: Int
    /// Samples of one pixel in one strip or tile: all of them, or one when planes are apart.
    let interleaved: Int
    let kind: Canvas.Kind
    /// Unsigned integers map their whole range to black and white. Floating point and
    /// signed integers have no such range: theirs is the first of 0…1, 0…255 and 0…65535
    /// that holds every sample (the ranges scanners, ImageMagick and Pillow write them in),
    /// else the picture's own lowest to highest.
    let byRange: Bool

    init?(_ layout: TIFFPicture.Layout) {
        let plainWidth = [1, 2, 4, 8, 16].contains(layout.bitsPerSample)
        switch layout.photometric {
        case 0, 1:
            colours = 1
            kind = layout.photometric == 0 ? .whiteIsZero : .grey
        case 2:
            colours = 3
            kind = .rgb
        case 5 where layout.inkSet == 1:
            colours = 4
            kind = .cmyk
        default:
            return nil
        }
        // What libtiff's RGBA interface reads itself is left to it; it reads signed samples
        // as if unsigned.
        let unusual = layout.sampleFormat != 1 || !plainWidth || (kind == .cmyk && layout.bitsPerSample != 8)
        guard unusual, layout.samplesPerPixel >= colours else { return nil }
        bits = layout.bitsPerSample
        format = layout.sampleFormat
        if format == 3 {
            guard bits == 16 || bits == 32 || bits == 64 else { return nil }
        } else {
            guard (1...32).contains(bits) else { return nil }
        }
        interleaved = layout.planar == 2 ? 1 : layout.samplesPerPixel
        byRange = format != 1
    }

    /// Every strip or tile, once for the range (when needed) and once for the picture.
    func decode(
        _ file: inout caption_tiff, _ layout: TIFFPicture.Layout, into size: (width: Int, height: Int)
    ) -> Result<Canvas, Pixbuf.Failure> {
        var canvas = Canvas(source: (layout.width, layout.height), target: size, kind: kind)
        var range: (low: Double, high: Double) = (0, Double((1 << min(bits, 32)) - 1))
        if byRange {
            var low = Double.infinity
            var high = -Double.infinity
            let scanned = regions(&file, layout) { region, rows, rowBytes, columns, _, _, _ in
                for row in 0..<rows {
                    for column in 0..<columns {
                        for sample in 0..<interleaved where interleaved == 1 || sample < colours {
                            let value = self.value(region, row * rowBytes, column * interleaved + sample)
                            if value.isFinite {
                                low = min(low, value)
                                high = max(high, value)
                            }
                        }
                    }
                }
            }
            if case .failure(let failure) = scanned { return .failure(failure) }
            if !low.isFinite { (low, high) = (0, 1) }
            if low >= 0, let nominal = [1.0, 255, 65535].first(where: { high <= $0 }) {
                range = (0, nominal)
            } else {
                range = (low, high > low ? high : low + 1)
            }
        }
        let span = range.high - range.low
        var row = [Float](repeating: 0, count: max(layout.width, layout.tileWidth) * colours)
        let drawn = regions(&file, layout) { region, rows, rowBytes, columns, left, top, plane in
            let channels = interleaved == 1 ? 1 : colours
            for index in 0..<rows {
                for column in 0..<columns {
                    for channel in 0..<channels {
                        var value = self.value(region, index * rowBytes, column * interleaved + channel)
                        value = value.isFinite ? (value - range.low) / span : 0
                        row[column * channels + channel] = Float(min(max(value, 0), 1))
                    }
                }
                canvas.add(
                    row: top + index, from: left, count: columns, values: row,
                    channel: interleaved == 1 ? plane : nil)
            }
        }
        if case .failure(let failure) = drawn { return .failure(failure) }
        return .success(canvas)
    }

    /// Sample `index` of the row starting at `start` in `region`, as a number.
    private func value(_ region: UnsafeRawBufferPointer, _ start: Int, _ index: Int) -> Double {
        switch (format, bits) {
        case (3, 16):
            let half = region.loadUnaligned(fromByteOffset: start + index * 2, as: UInt16.self)
            return Double(Float16(bitPattern: half))
        case (3, 32): return Double(region.loadUnaligned(fromByteOffset: start + index * 4, as: Float.self))
        case (3, _): return region.loadUnaligned(fromByteOffset: start + index * 8, as: Double.self)
        case (2, 8): return Double(Int8(bitPattern: region[start + index]))
        case (2, 16): return Double(region.loadUnaligned(fromByteOffset: start + index * 2, as: Int16.self))
        case (2, 32): return Double(region.loadUnaligned(fromByteOffset: start + index * 4, as: Int32.self))
        case (_, 8): return Double(region[start + index])
        case (_, 16): return Double(region.loadUnaligned(fromByteOffset: start + index * 2, as: UInt16.self))
        case (_, 32): return Double(region.loadUnaligned(fromByteOffset: start + index * 4, as: UInt32.self))
        case (_, 24):
            // libtiff hands 24-bit samples over in the machine's order (little-endian here).
            let at = start + index * 3
            return Double(Int(region[at]) | Int(region[at + 1]) << 8 | Int(region[at + 2]) << 16)
        default:
            // Other widths are packed most significant bit first, as stored.
            var value = 0
            var bit = start * 8 + index * bits
            for _ in 0..<bits {
                value = value << 1 | Int(region[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
                bit += 1
            }
            return Double(value)
        }
    }

    /// Calls `body` with each strip or tile decoded: its bytes, rows, bytes a row, columns,
    /// where it starts and its plane.
    private func regions(
        _ file: inout caption_tiff, _ layout: TIFFPicture.Layout,
        _ body: (UnsafeRawBufferPointer, Int, Int, Int, Int, Int, Int) -> Void
    ) -> Result<Void, Pixbuf.Failure> {
        let planes = interleaved == 1 ? colours : 1
        let regionWidth = layout.tiled ? layout.tileWidth : layout.width
        let regionHeight = layout.tiled ? layout.tileHeight : max(layout.rowsPerStrip, 1)
        let rowBytes = (regionWidth * interleaved * bits + 7) / 8
        let size = Int(layout.tiled ? caption_tiff_tile_size(&file) : caption_tiff_strip_size(&file))
        guard regionWidth > 0, size > 0, size >= rowBytes * min(regionHeight, layout.height) else {
            return .failure(Pixbuf.Failure(message: "its strips or tiles do not match its size"))
        }
        var buffer = [UInt8](repeating: 0, count: size)
        let stripsPerPlane = (layout.height + regionHeight - 1) / regionHeight
        for plane in 0..<planes {
            for top in stride(from: 0, to: layout.height, by: regionHeight) {
                for left in stride(from: 0, to: layout.width, by: regionWidth) {
                    let got = buffer.withUnsafeMutableBytes { bytes in
                        // A non-empty array's base address is never nil.
                        layout.tiled
                            ? caption_tiff_read_tile(
                                &file, UInt32(left), UInt32(top), UInt16(plane), bytes.baseAddress!, Int64(size))
                            : caption_tiff_read_strip(
                                &file, UInt32(plane * stripsPerPlane + top / regionHeight), bytes.baseAddress!,
                                Int64(size))
                    }
                    let rows = min(regionHeight, layout.height - top)
                    guard got >= 0, Int(got) >= rowBytes * (layout.tiled ? regionHeight : rows) else {
                        return .failure(
                            Pixbuf.Failure(message: TIFFPicture.message(file, or: "a strip or tile does not decode")))
                    }
                    buffer.withUnsafeBytes {
                        body($0, rows, rowBytes, min(regionWidth, layout.width - left), left, top, plane)
                    }
                }
            }
        }
        return .success(())
    }
}

/// The picture being made: each source pixel's samples (0…1) added to the target pixel it
/// falls in, the sums divided at the end. Box averaging: every source pixel counts once.
struct Canvas {
    enum Kind {
        case grey, whiteIsZero, rgb, cmyk, rgba

        var channels: Int {
            switch self {
            case .grey, .whiteIsZero: 1
            case .rgb: 3
            case .cmyk, .rgba: 4
            }
        }
    }

    let kind: Kind
    let width: Int
    let height: Int
    /// Whether libtiff's RGBA interface made it (which applies the file's orientation in part).
    var flipped = false
    private var sums: [Float]
    private let source: (width: Int, height: Int)
    /// How many source pixels fall in each target column and row.
    private let perColumn: [Float]
    private let perRow: [Float]

    init(source: (width: Int, height: Int), target: (width: Int, height: Int), kind: Kind) {
        self.kind = kind
        self.source = source
        width = target.width
        height = target.height
        sums = [Float](repeating: 0, count: target.width * target.height * kind.channels)
        func counts(_ from: Int, _ to: Int) -> [Float] {
            var count = [Float](repeating: 0, count: to)
            for at in 0..<from { count[Canvas.target(at, from, to)] += 1 }
            return count
        }
        perColumn = counts(source.width, target.width)
        perRow = counts(source.height, target.height)
    }

    /// The target column (or row) source column `at` of `from` falls in, of `to`.
    private static func target(_ at: Int, _ from: Int, _ to: Int) -> Int {
        min(at * to / from, to - 1)
    }

    /// Adds `count` pixels of source row `row` from column `from`: every channel, or only
    /// `channel` when the picture's planes come apart.
    mutating func add(row: Int, from: Int, count: Int, values: [Float], channel: Int?) {
        let channels = kind.channels
        let base = Canvas.target(row, source.height, height) * width
        for column in 0..<count {
            let at = (base + Canvas.target(from + column, source.width, width)) * channels
            if let channel {
                sums[at + channel] += values[column]
            } else {
                for part in 0..<channels { sums[at + part] += values[column * channels + part] }
            }
        }
    }

    /// The averages as 8-bit RGB (RGBA for libtiff's RGBA interface), or nil without memory.
    func pixbuf() -> Pixbuf? {
        let alpha = kind == .rgba
        guard let made = gdk_pixbuf_new(GDK_COLORSPACE_RGB, alpha ? 1 : 0, 8, Int32(width), Int32(height)),
            let pixels = gdk_pixbuf_get_pixels(made)
        else { return nil }
        let picture = Pixbuf(taking: made)
        let stride = Int(gdk_pixbuf_get_rowstride(made))
        let channels = kind.channels
        func byte(_ value: Float) -> UInt8 { UInt8(min(max(value * 255, 0), 255).rounded()) }
        for y in 0..<height {
            // A new pixbuf is not shared yet, so writing its pixels is allowed.
            let out = pixels + y * stride
            for x in 0..<width {
                let count = perColumn[x] * perRow[y]
                let at = (y * width + x) * channels
                let mean = { (part: Int) in count > 0 ? self.sums[at + part] / count : 0 }
                switch kind {
                case .grey, .whiteIsZero:
                    let level = byte(kind == .grey ? mean(0) : 1 - mean(0))
                    (out[x * 3], out[x * 3 + 1], out[x * 3 + 2]) = (level, level, level)
                case .rgb:
                    (out[x * 3], out[x * 3 + 1], out[x * 3 + 2]) = (byte(mean(0)), byte(mean(1)), byte(mean(2)))
                case .cmyk:
                    let white = 1 - mean(3)
                    out[x * 3] = byte((1 - mean(0)) * white)
                    out[x * 3 + 1] = byte((1 - mean(1)) * white)
                    out[x * 3 + 2] = byte((1 - mean(2)) * white)
                case .rgba:
                    for part in 0..<4 { out[x * 4 + part] = byte(mean(part)) }
                }
            }
        }
        return picture
    }
}
