// Decoding a scan that has restart markers: each interval starts afresh at a known byte with
// its predictors at zero, so two threads can each take half of the intervals, no guess needed.

import Threads

enum RestartScan {
    /// Decodes the scan whose intervals start at the bytes `starts` (the first at 0) into
    /// `values`; with `threads` above 1 and enough data, the second half of the intervals on
    /// another thread.
    static func decode(
        _ data: UnsafePointer<UInt8>, bits: Int, starts: [Int], interval: Int, threads: Int,
        scanner: DCScanner, geometry: MCUGeometry, into values: UnsafeMutablePointer<Int32>
    ) -> SpeculativeScan.Outcome {
        let count = (geometry.mcuCount + interval - 1) / interval
        // A marker missing means data missing; one more than needed is harmless.
        guard interval > 0, starts.count >= count else { return .damaged }
        let run = Intervals(
            data: data, bits: bits, starts: starts, interval: interval, scanner: scanner,
            geometry: geometry, values: values)
        guard threads > 1, bits / 8 >= SpeculativeScan.smallestSplit, count >= 2 else {
            return run.decode(0..<count) ? .alone : .damaged
        }
        let half = count / 2
        var firstFine = false
        var secondFine = false
        // Parallel.run joins the second thread before returning.
        Parallel.run([{ secondFine = run.decode(half..<count) }]) { firstFine = run.decode(0..<half) }
        return firstFine && secondFine ? .split : .damaged
    }

    /// The pieces every interval needs.
    private struct Intervals {
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
            range.allSatisfy { index in
                let end = index + 1 < starts.count ? starts[index + 1] * 8 : bits
                let first = index * interval
                return scanner.decode(
                    first..<min(first + interval, geometry.mcuCount), from: starts[index], endingBy: end,
                    data: data, stride: geometry.blocksPerMCU, into: values)
            }
        }
    }
}
