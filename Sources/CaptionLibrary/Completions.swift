// Completion offers from earlier captions: every distinct title (or subtitle) the library
// holds, how often and when last it was used, and the few that match what is being typed,
// ranked by both. Held in memory so a keystroke costs microseconds at 100,000 entries; the
// library is read once, off the main thread, and each save is added as it happens.

#if canImport(Glibc)
    import Glibc
#endif

/// One distinct value of a field: how many entries use it, and when one last did.
public struct FieldUsage: Sendable, Equatable {
    public var text: String
    public var count: Int
    public var lastUsed: Timestamp

    public init(text: String, count: Int, lastUsed: Timestamp) {
        self.text = text
        self.count = count
        self.lastUsed = lastUsed
    }
}

/// Which field's values to offer.
public enum CompletionField: Sendable {
    case title, subtitle

    var column: String { self == .title ? "title" : "subtitle" }
}

public struct CompletionIndex: Sendable {
    /// Values in the order of their folded text, so a prefix is a contiguous run.
    private var keys: [String] = []
    private var values: [FieldUsage] = []
    /// Values holding Chinese, Japanese or Korean, searched by substring (these scripts put
    /// no spaces between words, so a word may start anywhere): their positions, and their
    /// folded text as UTF-8, searched byte by byte (memmem), which is what makes a
    /// substring search over 50,000 values take a millisecond rather than Swift's
    /// Character-by-Character `contains`, fifty.
    private var cjk: [Int] = []
    private var cjkBytes: [[UInt8]] = []

    /// How many offers at most: as many as fit under a field without scrolling.
    public static let limit = 6
    /// A use this long ago counts half as much as one now (milliseconds: 30 days).
    public static let halfLife: Double = 30 * 24 * 3600 * 1000

    public init(_ usage: [FieldUsage] = []) {
        let sorted = usage.map { (Self.fold($0.text), $0) }.sorted { $0.0 < $1.0 }
        keys = sorted.map(\.0)
        values = sorted.map(\.1)
        reindexCJK()
    }

    public var count: Int { values.count }

    /// A value was saved: one use more, now.
    public mutating func record(_ text: String, at time: Timestamp) {
        guard !text.isEmpty else { return }
        let key = Self.fold(text)
        var index = lowerBound(key)
        while index < keys.count, keys[index] == key {
            if values[index].text == text {
                values[index].count += 1
                values[index].lastUsed = max(values[index].lastUsed, time)
                return
            }
            index += 1
        }
        keys.insert(key, at: index)
        values.insert(FieldUsage(text: text, count: 1, lastUsed: time), at: index)
        // Only the CJK positions past the new one move: no pass over every value.
        cjk = cjk.map { $0 >= index ? $0 + 1 : $0 }
        if Self.isCJK(text) {
            let at = cjk.firstIndex { $0 > index } ?? cjk.count
            cjk.insert(index, at: at)
            cjkBytes.insert(Array(key.utf8), at: at)
        }
    }

    /// A saved value was taken back (Undo of a save): one use less.
    public mutating func forget(_ text: String) {
        let key = Self.fold(text)
        var index = lowerBound(key)
        while index < keys.count, keys[index] == key {
            if values[index].text == text {
                values[index].count -= 1
                if values[index].count <= 0 {
                    keys.remove(at: index)
                    values.remove(at: index)
                    if let at = cjk.firstIndex(of: index) {
                        cjk.remove(at: at)
                        cjkBytes.remove(at: at)
                    }
                    cjk = cjk.map { $0 > index ? $0 - 1 : $0 }
                }
                return
            }
            index += 1
        }
    }

    /// The values that complete `typed`, best first: those starting with it (letter case
    /// aside) and, when it holds Chinese, Japanese or Korean, those containing it. The
    /// value typed exactly is no offer: there is nothing left to complete.
    public func offers(for typed: String, now: Timestamp, limit: Int = CompletionIndex.limit) -> [String] {
        let key = Self.fold(typed)
        guard !key.isEmpty else { return [] }
        var candidates: [Int] = []
        var index = lowerBound(key)
        while index < keys.count, keys[index].hasPrefix(key) {
            if values[index].text != typed { candidates.append(index) }
            index += 1
        }
        if Self.isCJK(typed) {
            let needle = Array(key.utf8)
            needle.withUnsafeBytes { needle in
                for (position, bytes) in cjkBytes.enumerated() {
                    let found = bytes.withUnsafeBytes { Self.contains($0, needle) }
                    // A prefix match is already a candidate.
                    if found && !bytes.starts(with: needle) { candidates.append(cjk[position]) }
                }
            }
        }
        return top(candidates, limit, now: now).map { values[$0].text }
    }

    /// How often, weighed by how recently: each use counts 1 now, ½ a half-life ago.
    func score(_ usage: FieldUsage, now: Timestamp) -> Double {
        let age = Double(max(0, now.millisecondsSince1970 - usage.lastUsed.millisecondsSince1970))
        return Double(usage.count) * Self.halve(age / Self.halfLife)
    }

    /// 2^-x without Foundation.
    static func halve(_ x: Double) -> Double {
        var result = 1.0
        var rest = x
        while rest >= 1 {
            result /= 2
            rest -= 1
            if result < 1e-12 { return result }
        }
        // 2^-r for r in [0, 1): a short series of e^(-r ln 2) is close enough for ranking.
        let y = -rest * 0.6931471805599453
        return result * (1 + y + y * y / 2 + y * y * y / 6 + y * y * y * y / 24)
    }

    /// The best `limit` by score, then the most recent, then the text: a stable order, so
    /// the list does not shuffle between keystrokes. Kept in a list of `limit` as the
    /// candidates pass, rather than sorting thousands of them for a one-letter prefix.
    private func top(_ candidates: [Int], _ limit: Int, now: Timestamp) -> [Int] {
        func before(_ a: (Int, Double), _ b: (Int, Double)) -> Bool {
            if a.1 != b.1 { return a.1 > b.1 }
            let (x, y) = (values[a.0], values[b.0])
            if x.lastUsed != y.lastUsed { return x.lastUsed > y.lastUsed }
            return x.text < y.text
        }
        var best: [(Int, Double)] = []
        best.reserveCapacity(limit + 1)
        for candidate in candidates {
            let scored = (candidate, score(values[candidate], now: now))
            if best.count == limit, let last = best.last, !before(scored, last) { continue }
            let at = best.firstIndex { before(scored, $0) } ?? best.count
            best.insert(scored, at: at)
            if best.count > limit { best.removeLast() }
        }
        return best.map(\.0)
    }

    private func lowerBound(_ key: String) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func reindexCJK() {
        cjk = values.indices.filter { Self.isCJK(values[$0].text) }
        cjkBytes = cjk.map { Array(keys[$0].utf8) }
    }

    /// Whether `needle` occurs in `haystack`, byte for byte (glibc's memmem is a GNU
    /// extension Swift does not import): memchr finds each candidate start, memcmp checks it.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first, let base = haystack.baseAddress, let wanted = needle.baseAddress else {
            return needle.isEmpty
        }
        var start = 0
        while haystack.count - start >= needle.count {
            guard let hit = memchr(base + start, Int32(first), haystack.count - start - needle.count + 1) else {
                return false
            }
            if memcmp(hit, wanted, needle.count) == 0 { return true }
            start = UnsafeRawPointer(hit) - base + 1
        }
        return false
    }

    /// Letter case aside, for matching: "brook" finds "Brooklyn Bridge".
    static func fold(_ text: String) -> String { text.lowercased() }

    /// Whether the text holds Han, kana or Hangul.
    static func isCJK(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF,
                0x20000...0x3134F:
                return true
            default:
                return false
            }
        }
    }
}

extension Library {
    /// Every distinct value of a field, with its use count and last use: what a
    /// `CompletionIndex` is built from. One pass over the table; call it off the main thread.
    public func usage(of field: CompletionField) throws(LibraryError) -> [FieldUsage] {
        try database.withLock { (db) throws(LibraryError) -> [FieldUsage] in
            let column = field.column
            let statement = try db.prepare(
                "SELECT \(column), COUNT(*), MAX(updated) FROM entries WHERE \(column) <> '' GROUP BY \(column)")
            var usage: [FieldUsage] = []
            while try statement.step() {
                usage.append(
                    FieldUsage(
                        text: statement.text(0), count: Int(statement.integer(1)),
                        lastUsed: Timestamp(millisecondsSince1970: statement.integer(2))))
            }
            return usage
        }
    }
}
