// From DC terms to RGB pixels, with libjpeg's arithmetic so the result matches its 1/8 scale.

enum ColourConversion {
    /// libjpeg's fixed-point YCbCr → RGB tables (jdcolor.c), 16 fraction bits.
    private struct Tables {
        var redFromCr = [Int32](repeating: 0, count: 256)
        var blueFromCb = [Int32](repeating: 0, count: 256)
        var greenFromCr = [Int32](repeating: 0, count: 256)
        var greenFromCb = [Int32](repeating: 0, count: 256)

        init() {
            func fixed(_ value: Double) -> Int32 { Int32(value * 65536 + 0.5) }
            for index in 0..<256 {
                let x = Int32(index) - 128
                redFromCr[index] = (fixed(1.40200) * x + 32768) >> 16
                blueFromCb[index] = (fixed(1.77200) * x + 32768) >> 16
                greenFromCr[index] = -fixed(0.71414) * x
                greenFromCb[index] = -fixed(0.34414) * x + 32768
            }
        }
    }

    private static let tables = Tables()

    /// The sample an 8×8 block's DC term gives at scale 1/8 (libjpeg's jpeg_idct_1x1).
    @inline(__always)
    private static func sample(_ value: Int32, _ quantiser: Int32) -> Int32 {
        let coefficient = Int32(Int16(truncatingIfNeeded: value))
        return clamp(((coefficient &* quantiser &+ 4) >> 3) &+ 128)
    }

    @inline(__always)
    private static func clamp(_ value: Int32) -> Int32 { min(max(value, 0), 255) }

    static func picture(_ layout: JPEGLayout, geometry: MCUGeometry, values: UnsafeMutablePointer<Int32>) -> EighthImage {
        let width = (layout.width + 7) / 8, height = (layout.height + 7) / 8
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let planes = layout.components.indices.map {
            samplePlane(layout, geometry: geometry, values: values, component: $0)
                .resized(width: width, height: height, maxHorizontal: layout.maxHorizontalSampling,
                         maxVertical: layout.maxVerticalSampling)
        }
        pixels.withUnsafeMutableBufferPointer { out in
            if planes.count == 1 {
                for (index, value) in planes[0].enumerated() {
                    let grey = UInt8(truncatingIfNeeded: value)
                    out[index * 3] = grey; out[index * 3 + 1] = grey; out[index * 3 + 2] = grey
                }
                return
            }
            let tables = Self.tables
            tables.redFromCr.withUnsafeBufferPointer { redFromCr in
            tables.blueFromCb.withUnsafeBufferPointer { blueFromCb in
            tables.greenFromCr.withUnsafeBufferPointer { greenFromCr in
            tables.greenFromCb.withUnsafeBufferPointer { greenFromCb in
            planes[0].withUnsafeBufferPointer { luma in
            planes[1].withUnsafeBufferPointer { blue in
            planes[2].withUnsafeBufferPointer { red in
                // Samples are 0…255 (sample() clamps), so the table indices hold.
                for index in 0..<(width * height) {
                    let lumaValue = luma[index], cb = Int(blue[index]), cr = Int(red[index])
                    out[index &* 3] = UInt8(truncatingIfNeeded: clamp(lumaValue &+ redFromCr[cr]))
                    out[index &* 3 &+ 1] = UInt8(truncatingIfNeeded: clamp(lumaValue &+ ((greenFromCb[cb] &+ greenFromCr[cr]) &>> 16)))
                    out[index &* 3 &+ 2] = UInt8(truncatingIfNeeded: clamp(lumaValue &+ blueFromCb[cb]))
                }
            }}}}}}}
        }
        return EighthImage(width: width, height: height, pixels: pixels, orientation: layout.orientation)
    }

    /// One component's samples, a block each, laid out as a picture.
    private struct Plane {
        var width: Int
        var samples: [Int32]
        var horizontal: Int
        var vertical: Int

        var height: Int { samples.count / max(width, 1) }

        /// The samples at the picture's size: cut to it when the component is sampled as
        /// finely as the finest, otherwise spread over it linearly (libjpeg's "fancy"
        /// upsampling does the same for a factor of 2), so colour edges do not come out as
        /// steps two or four pixels wide.
        func resized(width outWidth: Int, height outHeight: Int, maxHorizontal: Int, maxVertical: Int) -> [Int32] {
            var result = [Int32](repeating: 0, count: outWidth * outHeight)
            let planeHeight = height, planeWidth = width
            if horizontal == maxHorizontal && vertical == maxVertical {
                samples.withUnsafeBufferPointer { from in
                    result.withUnsafeMutableBufferPointer { to in
                        for row in 0..<outHeight {
                            for column in 0..<outWidth { to[row * outWidth + column] = from[row * planeWidth + column] }
                        }
                    }
                }
                return result
            }
            let across = taps(count: outWidth, factor: horizontal, of: maxHorizontal, size: planeWidth)
            let down = taps(count: outHeight, factor: vertical, of: maxVertical, size: planeHeight)
            var wide = [Int32](repeating: 0, count: outWidth * planeHeight)
            samples.withUnsafeBufferPointer { from in
                wide.withUnsafeMutableBufferPointer { to in
                    for row in 0..<planeHeight {
                        let line = row * planeWidth
                        for column in 0..<outWidth {
                            let tap = across[column]
                            to[row &* outWidth &+ column] = from[line &+ tap.first] &* (16 &- tap.weight)
                                &+ from[line &+ tap.second] &* tap.weight
                        }
                    }
                }
            }
            wide.withUnsafeBufferPointer { from in
                result.withUnsafeMutableBufferPointer { to in
                    for row in 0..<outHeight {
                        let tap = down[row]
                        let first = tap.first * outWidth, second = tap.second * outWidth
                        for column in 0..<outWidth {
                            let value = from[first &+ column] &* (16 &- tap.weight) &+ from[second &+ column] &* tap.weight
                            to[row &* outWidth &+ column] = (value &+ 128) &>> 8
                        }
                    }
                }
            }
            return result
        }

        /// For each output position, the two samples it lies between and the second's
        /// weight in sixteenths.
        private func taps(count: Int, factor: Int, of finest: Int, size: Int) -> [(first: Int, second: Int, weight: Int32)] {
            (0..<count).map { position in
                if factor == finest { return (min(position, size - 1), min(position, size - 1), 0) }
                let centre = (Double(position) + 0.5) * Double(factor) / Double(finest) - 0.5
                guard centre > 0 else { return (0, 0, 0) }
                let first = min(Int(centre), size - 1)
                return (first, min(first + 1, size - 1), Int32((centre - Double(Int(centre))) * 16 + 0.5))
            }
        }
    }

    private static func samplePlane(_ layout: JPEGLayout, geometry: MCUGeometry, values: UnsafeMutablePointer<Int32>,
                                    component: Int) -> Plane {
        let quantiser = layout.dcQuantisers[component]
        let info = layout.components[component]
        if geometry.blocksPerMCU == 1 {
            // Single blocks in raster order.
            var samples = [Int32](repeating: 0, count: geometry.mcuCount)
            for index in 0..<geometry.mcuCount { samples[index] = sample(values[index], quantiser) }
            return Plane(width: geometry.columns, samples: samples, horizontal: 1, vertical: 1)
        }
        // Within an MCU a component's blocks come row by row, after the earlier components'.
        let first = layout.components[..<component].reduce(0) { $0 + $1.horizontalSampling * $1.verticalSampling }
        let across = info.horizontalSampling, down = info.verticalSampling
        let width = geometry.columns * across
        var samples = [Int32](repeating: 0, count: width * geometry.rows * down)
        samples.withUnsafeMutableBufferPointer { samples in
            for row in 0..<geometry.rows {
                for column in 0..<geometry.columns {
                    let mcu = values + (row * geometry.columns + column) * geometry.blocksPerMCU + first
                    for blockRow in 0..<down {
                        for blockColumn in 0..<across {
                            samples[(row * down + blockRow) * width + column * across + blockColumn] =
                                sample(mcu[blockRow * across + blockColumn], quantiser)
                        }
                    }
                }
            }
        }
        return Plane(width: width, samples: samples, horizontal: across, vertical: down)
    }
}
