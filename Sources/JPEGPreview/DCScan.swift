// Reading the entropy-coded data of a scan for its DC terms alone: every code is decoded
// (JPEG has no other way to find the next one), but AC values are skipped, not built.

/// Reads bits most significant first from unstuffed entropy data. The data must be
/// followed by at least `EntropyData.padding` readable bytes: refilling reads eight at a
/// time without checking the end, which the scan loops check once a block instead.
struct BitReader {
    private let data: UnsafePointer<UInt8>
    /// The unread bits, at the top; below `count` they continue with bits read ahead.
    private var bits: UInt64 = 0
    private(set) var count = 0
    private var next: Int

    init(_ data: UnsafePointer<UInt8>, startingAt byte: Int) {
        self.data = data
        next = byte
    }

    /// Bits consumed from the start of the data: where the next code starts.
    var position: Int { next &* 8 &- count }

    @inline(__always)
    mutating func refill() {
        // Eight bytes at once; the ones a later refill loads again land on the same bits.
        let loaded = UInt64(bigEndian: UnsafeRawPointer(data + next).loadUnaligned(as: UInt64.self))
        bits |= loaded &>> UInt64(count)
        next &+= (63 &- count) &>> 3
        count |= 56
    }

    /// The next `width` bits (1 to 32).
    @inline(__always)
    func peek(_ width: Int) -> UInt32 { UInt32(truncatingIfNeeded: bits &>> UInt64(64 &- width)) }

    @inline(__always)
    mutating func skip(_ width: Int) {
        bits &<<= UInt64(width)
        count &-= width
    }
}

/// The tables of one block position in an MCU. Not counted references: two threads read
/// them once a block, and counting would make them fight over the counts' cache lines. The
/// scanner's `tables` keeps them alive.
struct BlockSlot {
    var component: Int
    unowned(unsafe) var dc: HuffmanLookup
    unowned(unsafe) var ac: HuffmanLookup
}

/// Decodes MCUs into DC values (cumulative, as the image holds them). Plain pointers inside,
/// for the same reason as BlockSlot; whoever makes one calls `deallocate()` once both
/// threads are done with it.
struct DCScanner: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<BlockSlot>
    let tables: [HuffmanLookup]

    func deallocate() { slots.deallocate() }

    /// Decodes the MCUs `range` from byte `start` with the predictors at zero, as at the start
    /// of a scan or of a restart interval, one block's DC value each into `values` (`stride`
    /// a MCU); false on damaged data or on reading past bit `end`.
    func decode(
        _ range: Range<Int>, from start: Int, endingBy end: Int, data: UnsafePointer<UInt8>,
        stride: Int, into values: UnsafeMutablePointer<Int32>
    ) -> Bool {
        var reader = BitReader(data, startingAt: start)
        let predictors = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        defer { predictors.deallocate() }
        predictors.initialize(repeating: 0, count: 4)
        for mcu in range {
            guard decodeMCU(&reader, into: values + mcu * stride, predictors: predictors),
                reader.position <= end
            else { return false }
        }
        return true
    }

    /// Decodes one MCU at `reader`, writing one DC value a block to `output` and keeping the
    /// running predictors in `predictors` (one a component). False at a bit pattern that is
    /// no code: damaged data, or a speculative start that has not found its footing yet.
    @inline(__always)
    func decodeMCU(
        _ reader: inout BitReader, into output: UnsafeMutablePointer<Int32>,
        predictors: UnsafeMutablePointer<Int32>
    ) -> Bool {
        let lookupBits = HuffmanLookup.lookupBits
        var valid = true
        for number in 0..<slots.count {
            let slot = slots[number]
            if reader.count < 32 { reader.refill() }
            let entry = slot.dc.fast[Int(reader.peek(lookupBits))]
            var difference: Int32
            if entry & HuffmanLookup.dcValid != 0 {
                reader.skip(Int(entry & 31))
                if entry & HuffmanLookup.dcNeedsMagnitude == 0 {
                    difference = Int32(Int16(truncatingIfNeeded: entry >> 16))
                } else {
                    let size = Int((entry >> 5) & 15)
                    difference = Int32(HuffmanLookup.extend(Int(reader.peek(size)), size: size))
                    reader.skip(size)
                }
            } else if let (length, symbol) = slot.dc.slowSymbol(reader.peek(16)) {
                reader.skip(length)
                let size = Int(symbol)
                difference = size == 0 ? 0 : Int32(HuffmanLookup.extend(Int(reader.peek(size)), size: size))
                if size > 0 { reader.skip(size) }
            } else {
                valid = false
                reader.skip(1)
                difference = 0
            }
            let value = predictors[slot.component] &+ difference
            predictors[slot.component] = value
            output[number] = value
            // The AC terms: found and stepped over.
            var index = 1
            while index < 64 {
                if reader.count < 32 { reader.refill() }
                let entry = slot.ac.fast[Int(reader.peek(lookupBits))]
                if entry != 0 {
                    reader.skip(Int(entry & 31))
                    if entry & HuffmanLookup.acEndOfBlock != 0 { break }
                    index &+= Int(entry >> 5 & 31)
                } else if let (length, symbol) = slot.ac.slowSymbol(reader.peek(16)) {
                    let size = Int(symbol & 15)
                    let run = Int(symbol >> 4)
                    reader.skip(length)
                    if reader.count < 16 { reader.refill() }
                    if size > 0 {
                        reader.skip(size)
                        index &+= run &+ 1
                    } else if run == 15 {
                        index &+= 16
                    } else {
                        break
                    }
                } else {
                    valid = false
                    reader.skip(1)
                    break
                }
            }
        }
        return valid
    }
}
