// Decoding a scan that has restart markers: each interval starts afresh at a known byte with
// its predictors at zero, so two threads can each take half of the intervals, no guess needed.

enum RestartScan {
    /// Decodes the scan whose intervals start at the bytes `starts` (the first at 0) into
    /// `values`; with `threads` above 1 and enough data, the second half of the intervals on
    /// another thread.
    static func decode(_ data: UnsafePointer<UInt8>, bits: Int, starts: [Int], interval: Int, threads: Int,
                       scanner: DCScanner, geometry: MCUGeometry, into values: UnsafeMutablePointer<Int32>) -> SpeculativeScan.Outcome {
        let count = (geometry.mcuCount + interval - 1) / interval
        // A marker missing means data missing; one more than needed is harmless.
        guard interval > 0, starts.count >= count else { return .damaged }
        let run = Intervals(data: data, bits: bits, starts: starts, interval: interval, scanner: scanner,
                            geometry: geometry, values: values)
        guard threads > 1, bits / 8 >= SpeculativeScan.smallestSplit, count >= 2 else {
            return run.decode(0..<count) ? .alone : .damaged
        }
        let half = count / 2
        let secondFine = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        defer { secondFine.deallocate() }
        secondFine.initialize(to: false)
        let address = UInt(bitPattern: secondFine)
        guard let helper = HelperThread.start({
            // Written once here, read after the join.
            UnsafeMutablePointer<Bool>(bitPattern: address)?.pointee = run.decode(half..<count)
        }) else {
            return run.decode(0..<count) ? .alone : .damaged
        }
        let firstFine = run.decode(0..<half)
        helper.join()
        return firstFine && secondFine.pointee ? .split : .damaged
    }

    /// The pieces every interval needs; plain values and pointers, so both threads can hold
    /// a copy.
    private struct Intervals: @unchecked Sendable {
        let data: UnsafePointer<UInt8>
        let bits: Int
        let starts: [Int]
        let interval: Int
        let scanner: DCScanner
        let geometry: MCUGeometry
        let values: UnsafeMutablePointer<Int32>

        /// Decodes the intervals `range` (each writes only its own MCUs' values); false on
        /// damaged data, including an interval that reads into the next one.
        func decode(_ range: Range<Int>) -> Bool {
            let predictors = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
            defer { predictors.deallocate() }
            let stride = geometry.blocksPerMCU
            for index in range {
                predictors.initialize(repeating: 0, count: 4)
                var reader = BitReader(data, startingAt: starts[index])
                let end = index + 1 < starts.count ? starts[index + 1] * 8 : bits
                let first = index * interval, last = min(first + interval, geometry.mcuCount)
                for mcu in first..<last {
                    guard scanner.decodeMCU(&reader, into: values + mcu * stride, predictors: predictors),
                          reader.position <= end else { return false }
                }
            }
            return true
        }
    }
}
