// Linear resampling of one axis: a plane of DC samples stretched (chroma) or shrunk (to fit
// the preview) to the size of the picture made, with weights worked out once an axis.

/// For each output position, the source samples it mixes and their weights in 256ths.
/// A triangle filter as wide as an output pixel (never narrower than a source one): plain
/// linear interpolation when stretching, an average over the footprint when shrinking, and
/// exactly the source when the sizes match.
struct Resampling {
    let count: Int
    /// Every output position mixes `taps` samples: position i, `sources[i * taps ..< (i + 1)
    /// * taps]` by the same `weights` (positions with fewer are padded with zero weights,
    /// so the loops have one shape).
    private(set) var taps = 1
    private(set) var sources: [Int] = []
    private(set) var weights: [Int32] = []
    /// Each output position is its own source sample: a copy.
    private(set) var isIdentity = true

    /// `count` positions over a picture of `pictureSize` (its eighth-size pixels), from a
    /// plane whose samples are `samplesPerPixel` to the picture's pixel (½ for chroma
    /// sampled half as finely) and of which `validSamples` cover the picture.
    init(count: Int, pictureSize: Int, samplesPerPixel: Double, validSamples: Int) {
        self.count = count
        let step = Double(pictureSize) / Double(count) * samplesPerPixel
        let radius = max(1, step)
        let last = max(validSamples - 1, 0)
        // Two passes, so that nothing is allocated a position: how many taps the widest
        // position has, then the taps.
        func span(_ position: Int) -> (centre: Double, first: Int, end: Int) {
            let centre = (Double(position) + 0.5) * step - 0.5
            return (centre, Int((centre - radius).rounded(.up)), Int((centre + radius).rounded(.down)))
        }
        for position in 0..<count {
            let (_, first, end) = span(position)
            taps = max(taps, end - first + 1)
        }
        sources = [Int](repeating: 0, count: count * taps)
        weights = [Int32](repeating: 0, count: count * taps)
        var shares = [Double](repeating: 0, count: taps)
        for position in 0..<count {
            let (centre, first, end) = span(position)
            let base = position * taps
            var used = 0
            for source in first...max(first, end) {
                let weight = 1 - abs(Double(source) - centre) / radius
                guard weight > 0 else { continue }
                // Past an edge the edge sample stands in, as libjpeg repeats it.
                let clamped = min(max(source, 0), last)
                if used > 0 && sources[base + used - 1] == clamped {
                    shares[used - 1] += weight
                } else {
                    sources[base + used] = clamped
                    shares[used] = weight
                    used += 1
                }
            }
            if used == 0 {
                sources[base] = min(max(Int(centre.rounded()), 0), last)
                shares[0] = 1
                used = 1
            }
            // Whole 256ths summing to 256 exactly: the largest share takes what rounding left;
            // unused taps keep weight 0 on the first source.
            let total = shares[0..<used].reduce(0, +)
            var sum: Int32 = 0
            var largest = 0
            for tap in 0..<used {
                weights[base + tap] = Int32((shares[tap] / total * 256).rounded())
                sum += weights[base + tap]
                if shares[tap] > shares[largest] { largest = tap }
            }
            weights[base + largest] += 256 - sum
            for tap in used..<taps { sources[base + tap] = sources[base] }
            if used != 1 || sources[base] != position { isIdentity = false }
        }
    }
}

extension Resampling {
    /// `plane` (`width` × `height` samples) resampled to `across.count` × `down.count`.
    static func resample(_ plane: [Int32], width: Int, across: Resampling, down: Resampling) -> [Int32] {
        let outWidth = across.count
        let outHeight = down.count
        var result = [Int32](repeating: 0, count: outWidth * outHeight)
        if across.isIdentity && down.isIdentity {
            plane.withUnsafeBufferPointer { from in
                result.withUnsafeMutableBufferPointer { to in
                    for row in 0..<outHeight {
                        guard let source = from.baseAddress, let target = to.baseAddress else { return }
                        (target + row &* outWidth).update(from: source + row &* width, count: outWidth)
                    }
                }
            }
            return result
        }
        let height = plane.count / max(width, 1)
        // Rows first, into 256ths, then columns; rounded once at the end.
        var wide = [Int32](repeating: 0, count: outWidth * height)
        let acrossTaps = across.taps
        let downTaps = down.taps
        plane.withUnsafeBufferPointer { from in
            wide.withUnsafeMutableBufferPointer { to in
                across.sources.withUnsafeBufferPointer { sources in
                    across.weights.withUnsafeBufferPointer { weights in
                        for row in 0..<height {
                            let line = row &* width
                            var tap = 0
                            for column in 0..<outWidth {
                                var sum: Int32 = 0
                                for _ in 0..<acrossTaps {
                                    sum &+= from[line &+ sources[tap]] &* weights[tap]
                                    tap &+= 1
                                }
                                to[row &* outWidth &+ column] = sum
                            }
                        }
                    }
                }
            }
        }
        wide.withUnsafeBufferPointer { from in
            result.withUnsafeMutableBufferPointer { to in
                down.sources.withUnsafeBufferPointer { sources in
                    down.weights.withUnsafeBufferPointer { weights in
                        for row in 0..<outHeight {
                            let out = row &* outWidth
                            // Whole rows at a time: the inner loop runs along memory.
                            for column in 0..<outWidth { to[out &+ column] = 32768 }
                            for tap in (row &* downTaps)..<(row &* downTaps &+ downTaps) {
                                let line = sources[tap] &* outWidth
                                let weight = weights[tap]
                                for column in 0..<outWidth { to[out &+ column] &+= from[line &+ column] &* weight }
                            }
                            for column in 0..<outWidth { to[out &+ column] = to[out &+ column] &>> 16 }
                        }
                    }
                }
            }
        }
        return result
    }
}
