// Completion offers from earlier captions: every distinct title (or subtitle) the library
// holds, how often and when last it was used, and the few that match what is being typed,
// ranked by both. Held in memory so a keystroke costs microseconds at 100,000 entries; the
// library is read once, off the main thread, and each save is added as it happens.

import CaptionText

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

extension FieldUsage {
    /// The keyword lists' usage as one usage per keyword, in the order first met. A keyword
    /// in several lists, in whatever case, is one: it adds their counts, takes the latest
    /// use, and is spelt as where it was used most.
    public static func eachKeyword(of lists: [FieldUsage]) -> [FieldUsage] {
        var order: [String] = []
        var merged: [String: (usage: FieldUsage, spellings: [String: Int])] = [:]
        for list in lists {
            for keyword in CaptionWords.keywords(in: list.text) {
                let key = keyword.lowercased()
                var known = merged[key] ?? (FieldUsage(text: keyword, count: 0, lastUsed: list.lastUsed), [:])
                if known.usage.count == 0 { order.append(key) }
                known.usage.count += list.count
                if list.lastUsed.millisecondsSince1970 > known.usage.lastUsed.millisecondsSince1970 {
                    known.usage.lastUsed = list.lastUsed
                }
                known.spellings[keyword, default: 0] += list.count
                merged[key] = known
            }
        }
        return order.compactMap { key in
            guard var known = merged[key] else { return nil }
            // The most used spelling; among equals, the first in byte order, so that the
            // answer does not depend on the order the library gave the rows.
            known.usage.text =
                known.spellings.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? known.usage.text
            return known.usage
        }
    }
}

public struct CompletionIndex: Sendable {
    /// Every value's folded text (see `fold`) as UTF-8, one after another in byte order, so
    /// a prefix is a contiguous run found by binary search; `folded[starts[i]..<starts[i+1]]`
    /// is value i's. Packed rather than one String each: 100,000 values take a few
    /// megabytes instead of tens, and comparing is memcmp.
    private var folded: [UInt8] = []
    private var starts: [Int] = [0]
    /// The values as written, packed the same way, and their uses.
    private var written: [UInt8] = []
    private var writtenStarts: [Int] = [0]
    private var counts: [Int] = []
    private var lastUsed: [Int64] = []
    /// Values holding Chinese, Japanese or Korean, searched by substring too (these scripts
    /// put no spaces between words, so a word may start anywhere), byte by byte: Swift's
    /// Character-by-Character `contains` took fifty times as long.
    private var cjk: [Int] = []

    /// How many offers at most: as many as fit under a field without scrolling.
    public static let limit = 6
    /// A use this long ago counts half as much as one now (milliseconds: 30 days).
    public static let halfLife: Double = 30 * 24 * 3600 * 1000

    public init(_ usage: [FieldUsage] = []) {
        let sorted = usage.map { (Array(Self.fold($0.text).utf8), $0) }.sorted {
            $0.0.lexicographicallyPrecedes($1.0)
        }
        folded.reserveCapacity(sorted.reduce(0) { $0 + $1.0.count })
        starts.reserveCapacity(sorted.count + 1)
        for (key, value) in sorted {
            folded += key
            starts.append(folded.count)
            written += value.text.utf8
            writtenStarts.append(written.count)
            counts.append(value.count)
            lastUsed.append(value.lastUsed.millisecondsSince1970)
        }
        cjk = (0..<counts.count).filter { Self.isCJK(value(at: $0)) }
    }

    public var count: Int { counts.count }

    /// Value i as written.
    private func value(at index: Int) -> String {
        written.withUnsafeBufferPointer {
            String(
                decoding: UnsafeBufferPointer(rebasing: $0[writtenStarts[index]..<writtenStarts[index + 1]]),
                as: UTF8.self)
        }
    }

    /// Runs `body` with value i's folded bytes.
    private func withKey<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        folded.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[starts[index]..<starts[index + 1]])) }
    }

    /// The position of the value written exactly `text` among those folding to `key`, or
    /// where such a value would go.
    private func find(_ text: String, key: [UInt8]) -> (index: Int, found: Bool) {
        var index = lowerBound(key)
        while index < count, key.withUnsafeBytes({ k in withKey(index) { Self.compare($0, k) == 0 } }) {
            if value(at: index) == text { return (index, true) }
            index += 1
        }
        return (index, false)
    }

    /// A value was saved: one use more, now.
    public mutating func record(_ text: String, at time: Timestamp) {
        guard !text.isEmpty else { return }
        let key = Array(Self.fold(text).utf8)
        let (index, found) = find(text, key: key)
        if found {
            counts[index] += 1
            lastUsed[index] = max(lastUsed[index], time.millisecondsSince1970)
            return
        }
        let bytes = Array(text.utf8)
        folded.insert(contentsOf: key, at: starts[index])
        starts.insert(starts[index], at: index)
        for later in (index + 1)..<starts.count { starts[later] += key.count }
        written.insert(contentsOf: bytes, at: writtenStarts[index])
        writtenStarts.insert(writtenStarts[index], at: index)
        for later in (index + 1)..<writtenStarts.count { writtenStarts[later] += bytes.count }
        counts.insert(1, at: index)
        lastUsed.insert(time.millisecondsSince1970, at: index)
        // Only the CJK positions past the new one move: no pass over every value's text.
        cjk = cjk.map { $0 >= index ? $0 + 1 : $0 }
        if Self.isCJK(text) { cjk.insert(index, at: cjk.firstIndex { $0 > index } ?? cjk.count) }
    }

    /// A saved value was taken back (Undo of a save): one use less.
    public mutating func forget(_ text: String) {
        let (index, found) = find(text, key: Array(Self.fold(text).utf8))
        guard found else { return }
        counts[index] -= 1
        guard counts[index] <= 0 else { return }
        let keyLength = starts[index + 1] - starts[index]
        folded.removeSubrange(starts[index]..<starts[index + 1])
        starts.remove(at: index + 1)
        for later in (index + 1)..<starts.count { starts[later] -= keyLength }
        let textLength = writtenStarts[index + 1] - writtenStarts[index]
        written.removeSubrange(writtenStarts[index]..<writtenStarts[index + 1])
        writtenStarts.remove(at: index + 1)
        for later in (index + 1)..<writtenStarts.count { writtenStarts[later] -= textLength }
        counts.remove(at: index)
        lastUsed.remove(at: index)
        cjk = cjk.compactMap { $0 == index ? nil : ($0 > index ? $0 - 1 : $0) }
    }

    /// The values that complete `typed`, best first: those starting with it (letter case
    /// aside) and, when it holds Chinese, Japanese or Korean, those containing it. The
    /// value typed exactly is no offer: there is nothing left to complete.
    public func offers(for typed: String, now: Timestamp, limit: Int = CompletionIndex.limit) -> [String] {
        let key = Array(Self.fold(typed).utf8)
        guard !key.isEmpty else { return [] }
        var candidates: [Int] = []
        key.withUnsafeBytes { needle in
            var index = lowerBound(key)
            while index < count, withKey(index, { $0.starts(with: needle) }) {
                candidates.append(index)
                index += 1
            }
            if Self.isCJK(typed) {
                for index in cjk where withKey(index, { !$0.starts(with: needle) && Self.contains($0, needle) }) {
                    candidates.append(index)
                }
            }
        }
        return top(candidates.filter { value(at: $0) != typed }, limit, now: now).map { value(at: $0) }
    }

    /// How often, weighed by how recently: each use counts 1 now, ½ a half-life ago.
    func score(_ index: Int, now: Timestamp) -> Double {
        let age = Double(max(0, now.millisecondsSince1970 - lastUsed[index]))
        return Double(counts[index]) * Self.halve(age / Self.halfLife)
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
            if lastUsed[a.0] != lastUsed[b.0] { return lastUsed[a.0] > lastUsed[b.0] }
            return value(at: a.0) < value(at: b.0)
        }
        var best: [(Int, Double)] = []
        best.reserveCapacity(limit + 1)
        for candidate in candidates {
            let scored = (candidate, score(candidate, now: now))
            if best.count == limit, let last = best.last, !before(scored, last) { continue }
            let at = best.firstIndex { before(scored, $0) } ?? best.count
            best.insert(scored, at: at)
            if best.count > limit { best.removeLast() }
        }
        return best.map(\.0)
    }

    /// The first value whose folded bytes are not below `key`.
    private func lowerBound(_ key: [UInt8]) -> Int {
        key.withUnsafeBytes { needle in
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                if withKey(middle, { Self.compare($0, needle) < 0 }) { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Byte order, as memcmp, the shorter first when one begins the other.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
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
    /// Keywords are offered one by one: each keyword's uses are those of every entry whose
    /// keywords name it.
    public func usage(of field: CaptionField) throws(LibraryError) -> [FieldUsage] {
        let usage = try storage.usage(of: field)
        return field == .keywords ? FieldUsage.eachKeyword(of: usage) : usage
    }
}
