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

    /// The picture at `size` (at most the eighth size, with its aspect), every component
    /// resampled straight from its DC samples to that size.
    static func picture(
        _ layout: JPEGLayout, geometry: MCUGeometry, values: UnsafeMutablePointer<Int32>,
        size: (width: Int, height: Int)
    ) -> EighthImage {
        let eighthWidth = (layout.width + 7) / 8
        let eighthHeight = (layout.height + 7) / 8
        let width = size.width
        let height = size.height
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        // Both chroma planes share their weights.
        var acrossWeights: [Double: Resampling] = [:]
        var downWeights: [Double: Resampling] = [:]
        let planes = layout.components.indices.map { component in
            let plane = samplePlane(layout, geometry: geometry, values: values, component: component)
            // A grey file's one component covers the picture whatever its sampling factors say.
            let alone = layout.components.count == 1
            let across = alone ? 1 : Double(plane.horizontal) / Double(layout.maxHorizontalSampling)
            let down = alone ? 1 : Double(plane.vertical) / Double(layout.maxVerticalSampling)
            let horizontal =
                acrossWeights[across]
                ?? Resampling(
                    count: width, pictureSize: eighthWidth, samplesPerPixel: across,
                    validSamples: Int((Double(eighthWidth) * across).rounded(.up)))
            let vertical =
                downWeights[down]
                ?? Resampling(
                    count: height, pictureSize: eighthHeight, samplesPerPixel: down,
                    validSamples: Int((Double(eighthHeight) * down).rounded(.up)))
            acrossWeights[across] = horizontal
            downWeights[down] = vertical
            return Resampling.resample(plane.samples, width: plane.width, across: horizontal, down: vertical)
        }
        pixels.withUnsafeMutableBufferPointer { out in
            if planes.count == 1 {
                for (index, value) in planes[0].enumerated() {
                    let grey = UInt8(truncatingIfNeeded: value)
                    out[index * 3] = grey
                    out[index * 3 + 1] = grey
                    out[index * 3 + 2] = grey
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
                                            let lumaValue = luma[index]
                                            let cb = Int(blue[index])
                                            let cr = Int(red[index])
                                            out[index &* 3] = UInt8(
                                                truncatingIfNeeded: clamp(lumaValue &+ redFromCr[cr]))
                                            out[index &* 3 &+ 1] = UInt8(
                                                truncatingIfNeeded: clamp(
                                                    lumaValue &+ ((greenFromCb[cb] &+ greenFromCr[cr]) &>> 16)))
                                            out[index &* 3 &+ 2] = UInt8(
                                                truncatingIfNeeded: clamp(lumaValue &+ blueFromCb[cb]))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return EighthImage(width: width, height: height, pixels: pixels, orientation: layout.orientation)
    }

    /// One component's samples, a block each, laid out as a picture.
    private struct Plane {
        var width: Int
        var samples: [Int32]
        var horizontal: Int
        var vertical: Int
    }

    private static func samplePlane(
        _ layout: JPEGLayout, geometry: MCUGeometry, values: UnsafeMutablePointer<Int32>,
        component: Int
    ) -> Plane {
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
        let across = info.horizontalSampling
        let down = info.verticalSampling
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
