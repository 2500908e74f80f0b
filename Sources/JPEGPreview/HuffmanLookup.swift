// A JPEG Huffman table made for speed: codes up to `lookupBits` long are found with one
// look-up that also says how many bits the coefficient after the code takes.

/// Built as JPEG's Annex C builds canonical codes. The fast entries are packed in a UInt32:
///
/// - for a DC table: bits 0–4 the bits to consume, bit 9 "the magnitude did not fit, read
///   `size` (bits 5–8) more", bit 10 "valid", bits 16–31 the DC difference as an Int16;
/// - for an AC table: bits 0–4 the bits of code and magnitude together (the magnitude is
///   skipped, never read: only DC terms make an eighth-size picture), bits 5–9 how far the
///   coefficient index moves, bit 10 "end of block", bit 14 "valid". (Entries that also
///   held the code after, when it fit, made decoding 10 % slower here: more branches.)
///
/// A zero entry means the code is longer than the look-up, or no code at all.
///
/// A class so that the look-up lives at one address for as long as a scan points into it.
final class HuffmanLookup {
    // Computed, not stored: a stored static is reached through a lazy accessor, a call in
    // the innermost loop that cost 7 % of the decode.
    static var lookupBits: Int { 10 }

    static var dcValid: UInt32 { 1 << 10 }
    static var dcNeedsMagnitude: UInt32 { 1 << 9 }
    static var acValid: UInt32 { 1 << 14 }
    static var acEndOfBlock: UInt32 { 1 << 10 }

    let fast: UnsafeMutablePointer<UInt32>
    /// For codes longer than the look-up: the largest code of each length (-1: none) and
    /// the offset from a code to its symbol's index.
    private let maxCode: [Int32]
    private let valueOffset: [Int32]
    private let symbols: [UInt8]

    init?(counts: [UInt8], symbols: [UInt8], isDC: Bool) {
        guard counts.count == 16 else { return nil }
        // The codes first, checked, so that nothing is allocated for a broken table.
        var codes: [(code: Int32, length: Int, symbol: UInt8)] = []
        var maxCode = [Int32](repeating: -1, count: 18)
        var valueOffset = [Int32](repeating: 0, count: 17)
        var code: Int32 = 0
        for length in 1...16 {
            let count = Int(counts[length - 1])
            if count > 0 {
                valueOffset[length] = Int32(codes.count) - code
                for _ in 0..<count {
                    guard codes.count < symbols.count else { return nil }
                    let symbol = symbols[codes.count]
                    // More codes than this length can hold is no prefix code (and would
                    // write past the look-up); a DC difference has at most 11 bits.
                    guard code < 1 << length, !(isDC && symbol > 15) else { return nil }
                    codes.append((code, length, symbol))
                    code += 1
                }
                maxCode[length] = code - 1
            }
            code <<= 1
        }
        maxCode[17] = Int32.max
        self.symbols = symbols
        self.maxCode = maxCode
        self.valueOffset = valueOffset
        fast = .allocate(capacity: 1 << Self.lookupBits)
        fast.initialize(repeating: 0, count: 1 << Self.lookupBits)
        for entry in codes where entry.length <= Self.lookupBits {
            fill(code: entry.code, length: entry.length, symbol: entry.symbol, isDC: isDC)
        }
    }

    deinit { fast.deallocate() }

    private func fill(code: Int32, length: Int, symbol: UInt8, isDC: Bool) {
        let spare = Self.lookupBits - length
        let size = Int(symbol & 15)
        for suffix in 0..<(1 << spare) {
            var entry: UInt32
            if isDC {
                if length + size <= Self.lookupBits {
                    let magnitude = (suffix >> (spare - size)) & ((1 << size) - 1)
                    let difference = HuffmanLookup.extend(magnitude, size: size)
                    entry = UInt32(length + size) | Self.dcValid | UInt32(UInt16(bitPattern: Int16(difference))) << 16
                } else {
                    entry = UInt32(length) | UInt32(size) << 5 | Self.dcNeedsMagnitude | Self.dcValid
                }
            } else {
                let run = Int(symbol >> 4)
                if size == 0 {
                    // 0xF0 skips sixteen zeros; any other run with no size ends the block,
                    // as libjpeg reads it.
                    entry =
                        run == 15
                        ? UInt32(length) | 16 << 5 | Self.acValid
                        : UInt32(length) | Self.acEndOfBlock | Self.acValid
                } else {
                    entry = UInt32(length + size) | UInt32(run + 1) << 5 | Self.acValid
                }
            }
            fast[Int(code) << spare | suffix] = entry
        }
    }

    /// A code longer than the look-up: its length and symbol, from the next 16 bits; nil
    /// when they start no code.
    @inline(__always)
    func slowSymbol(_ next16: UInt32) -> (length: Int, symbol: UInt8)? {
        var length = Self.lookupBits + 1
        while length <= 16 {
            let code = Int32(next16 >> UInt32(16 - length))
            if code <= maxCode[length] {
                let index = Int(code + valueOffset[length])
                guard index >= 0, index < symbols.count else { return nil }
                return (length, symbols[index])
            }
            length += 1
        }
        return nil
    }

    /// The signed value of `size` magnitude bits (JPEG's EXTEND).
    @inline(__always)
    static func extend(_ magnitude: Int, size: Int) -> Int {
        size == 0 ? 0 : magnitude < 1 << (size - 1) ? magnitude - (1 << size) + 1 : magnitude
    }
}
