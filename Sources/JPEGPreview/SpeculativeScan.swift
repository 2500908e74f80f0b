// Decoding one scan on two threads: the second starts in the middle of the data without
// knowing where an MCU begins there, and the first checks where the two meet.
//
// Huffman codes find their own footing: a decoder started at an arbitrary bit soon reads the
// same codes as one that started at the beginning, and once both are at the start of an MCU
// at the same bit they decode the same from there on. The first thread decodes from the
// start; each time it begins an MCU past the middle it looks for that bit among the MCU
// starts the second thread recorded. At a match, everything the second thread decoded from
// there is right, except that its DC values are sums that started from 0 instead of from the
// first thread's running predictors: a constant a component, added back. Without a match
// the first thread simply decodes to the end, so the result never depends on the guess.

import Synchronization
import Threads

#if canImport(Glibc)
    import Glibc
#endif

enum SpeculativeScan {
    enum Outcome {
        case damaged
        /// Decoded by the first thread to the end.
        case alone
        /// The second thread's part was used from the meeting on.
        case joined
        /// Restart markers split the data; each thread decoded its half.
        case split
    }

    /// Below this much data one thread is as quick as two (starting a thread and finding
    /// footing cost more than half the decode).
    static let smallestSplit = 256 << 10

    /// What the second thread found, shared with the first.
    private final class Ahead: @unchecked Sendable {
        let start: Int
        let capacity: Int
        /// The bit each recorded MCU starts at, and its DC values.
        let starts: UnsafeMutablePointer<Int>
        let values: UnsafeMutablePointer<Int32>
        /// How many MCUs are recorded; entries below it are never written again.
        let recorded = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
        /// For each recorded MCU, whether it was one the first thread would accept there: every
        /// bit pattern a code, and its end within the data (the first thread's two checks).
        let valid: UnsafeMutablePointer<Bool>

        init(start: Int, capacity: Int, stride: Int) {
            self.start = start
            self.capacity = capacity
            starts = .allocate(capacity: capacity)
            values = .allocate(capacity: capacity * stride)
            valid = .allocate(capacity: capacity)
        }

        deinit {
            starts.deallocate()
            values.deallocate()
            valid.deallocate()
        }
    }

    static func decode(
        _ data: UnsafePointer<UInt8>, bits: Int, scanner: DCScanner, geometry: MCUGeometry,
        into values: UnsafeMutablePointer<Int32>
    ) -> Outcome {
        let stride = geometry.blocksPerMCU
        let total = geometry.mcuCount
        // The second thread cannot know how many MCUs are left; the whole count bounds it.
        let ahead = Ahead(start: bits / 16 * 8, capacity: total, stride: stride)
        let predictors = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        defer { predictors.deallocate() }
        predictors.initialize(repeating: 0, count: 4)
        var meeting: (mcu: Int, recorded: Int)?
        var ok = true
        var reader = BitReader(data, startingAt: 0)
        // The second thread from the middle; this one from the start. Parallel.run joins
        // before returning, so the data and `ahead` outlive the second thread.
        Parallel.run([{ decodeAhead(data, bits: bits, scanner: scanner, ahead: ahead, stride: stride) }]) {
            var seen = 0
            for mcu in 0..<total {
                let position = reader.position
                if position >= ahead.start && seen >= 0 {
                    // `finished` first: once it is set, `recorded` is final.
                    let finished = ahead.finished.load(ordering: .acquiring)
                    let recorded = ahead.recorded.load(ordering: .acquiring)
                    while seen < recorded && ahead.starts[seen] < position { seen += 1 }
                    if seen < recorded && ahead.starts[seen] == position {
                        meeting = (mcu, seen)
                        break
                    }
                    // The second thread has stopped short of here: no meeting to look for.
                    if finished && seen == recorded { seen = -1 }
                }
                guard scanner.decodeMCU(&reader, into: values + mcu * stride, predictors: predictors),
                    reader.position <= bits
                else {
                    ok = false
                    break
                }
            }
            if meeting == nil { ahead.stop.store(true, ordering: .relaxed) }
        }
        guard ok else { return .damaged }
        guard let meeting else { return .alone }

        // The second thread's MCUs from the meeting on, with the predictors put right.
        let recorded = ahead.recorded.load(ordering: .acquiring)
        let needed = total - meeting.mcu
        // Only the MCUs taken count: the second thread may run on past the last one into
        // what follows the scan, and the first thread never reads that.
        // Where the second thread's part would not do (damage in it, or it stopped short),
        // this thread decodes on from the meeting itself: then the answer, a picture or
        // nil, is the one a single thread gives, whatever the second thread found.
        guard recorded - meeting.recorded >= needed,
            (meeting.recorded..<(meeting.recorded + needed)).allSatisfy({ ahead.valid[$0] })
        else {
            for mcu in meeting.mcu..<total {
                guard scanner.decodeMCU(&reader, into: values + mcu * stride, predictors: predictors),
                    reader.position <= bits
                else { return .damaged }
            }
            return .alone
        }
        var offsets = [Int32](repeating: 0, count: 4)
        for (number, slot) in scanner.slots.enumerated() {
            let theirs = meeting.recorded == 0 ? 0 : ahead.values[(meeting.recorded - 1) * stride + number]
            offsets[slot.component] = predictors[slot.component] &- theirs
        }
        for step in 0..<needed {
            let from = ahead.values + (meeting.recorded + step) * stride
            let to = values + (meeting.mcu + step) * stride
            for (number, slot) in scanner.slots.enumerated() {
                to[number] = from[number] &+ offsets[slot.component]
            }
        }
        return .joined
    }

    /// The second thread: decodes from the middle, recording where each MCU it thinks it
    /// sees starts, until the data ends or the first thread no longer needs it.
    private static func decodeAhead(
        _ data: UnsafePointer<UInt8>, bits: Int, scanner: DCScanner, ahead: Ahead, stride: Int
    ) {
        var reader = BitReader(data, startingAt: ahead.start / 8)
        let predictors = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        defer { predictors.deallocate() }
        predictors.initialize(repeating: 0, count: 4)
        var count = 0
        while count < ahead.capacity && reader.position < bits && !ahead.stop.load(ordering: .relaxed) {
            ahead.starts[count] = reader.position
            let decoded = scanner.decodeMCU(&reader, into: ahead.values + count * stride, predictors: predictors)
            // The end of the data checked after each MCU, as the first thread checks it: past
            // it, the zeros of the padding decode as codes.
            ahead.valid[count] = decoded && reader.position <= bits
            count += 1
            ahead.recorded.store(count, ordering: .releasing)
        }
        ahead.finished.store(true, ordering: .releasing)
    }
}
