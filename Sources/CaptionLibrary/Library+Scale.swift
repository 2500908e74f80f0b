// A library of a hundred thousand entries and more: entries read as a stream or a page at
// a time (never the whole list in memory), and a search that answers any query in a few
// milliseconds.

import CSQLite
import CaptionText
import Threads

/// Where a page of entries ends, in the list's order (created time, then number).
public struct EntryCursor: Sendable, Hashable {
    public var created: Int64
    public var id: Int64

    public init(_ entry: Entry) {
        created = entry.created.millisecondsSince1970
        id = entry.id
    }
}

extension Library {
    public enum Order: Sendable {
        case newestFirst, oldestFirst

        var sql: String { self == .newestFirst ? "created DESC, id DESC" : "created ASC, id ASC" }
        var after: String { self == .newestFirst ? "(created, id) < (?1, ?2)" : "(created, id) > (?1, ?2)" }
    }

    /// Calls `body` with every entry in `order` as it is read from the library, so memory
    /// stays the same for ten entries or a million; `body` returns false to stop. The
    /// library is locked meanwhile: `body` must not call it (use `entries(after:)` pages for
    /// long work per entry).
    public func forEachEntry(_ order: Order = .newestFirst, _ body: (Entry) -> Bool) throws(LibraryError) {
        try storage.forEachEntry(order, after: nil, through: nil, limit: nil, body)
    }

    /// Every title, in no particular order, as read (for the width of `--list`'s column).
    public func forEachTitle(_ body: (String) -> Bool) throws(LibraryError) {
        try storage.forEachTitle(body)
    }

    /// Up to `limit` entries in `order` after `cursor` (from the start without one), and,
    /// with `through`, none past it. Served by the (created, id) index: a page deep in a
    /// large library costs what the first one does.
    public func entries(
        after cursor: EntryCursor?, order: Order = .newestFirst, limit: Int,
        through last: EntryCursor? = nil
    ) throws(LibraryError) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(min(limit, 4096))
        try storage.forEachEntry(order, after: cursor, through: last, limit: limit) { entry in
            entries.append(entry)
            return true
        }
        return entries
    }

    /// The entries with these numbers, in the order given; numbers with no entry are left
    /// out.
    public func entries(ids: some Collection<Int64>) throws(LibraryError) -> [Entry] {
        guard !ids.isEmpty else { return [] }
        let found = try storage.entries(ids: Array(ids))
        return ids.compactMap { found[$0] }
    }

    /// The largest entry number, 0 for an empty library.
    public func largestID() throws(LibraryError) -> Int64 { try storage.largestID() }

    /// How many entries there are.
    public func count() throws(LibraryError) -> Int { try storage.count() }

    /// The newest entry's place in the list, or nil for an empty library: a long job over
    /// every entry stops there, so entries saved while it runs are not chased.
    public func newestCursor() throws(LibraryError) -> EntryCursor? {
        try entries(after: nil, limit: 1).first.map(EntryCursor.init)
    }

    /// Where the library's contents stand: it changes with every commit, this connection's
    /// or another's, so what was read at one version is still current while it stays.
    public func contentVersion() throws(LibraryError) -> ContentVersion { try storage.contentVersion() }

    /// The search index as of now: made again only after something changed the library
    /// (this connection's commits or another's).
    public func searchIndex() throws(LibraryError) -> SearchIndex { try storage.searchIndex() }

    /// Goes on making the search index, some `rows` entries at a time, and says whether it
    /// is ready: a caller that has other work queued (a save, a page of the list) lets it
    /// run between steps.
    public func prepareSearchIndex(step rows: Int = 20_000) throws(LibraryError) -> Bool {
        try storage.prepareSearchIndex(step: rows)
    }

    /// The list the library view shows for `text`: every entry for empty text, else the
    /// entries whose title or subtitle contains it (case aside), newest first. Only the
    /// first page's matches are looked for yet: `Listing.nextPage` reads a page at a time,
    /// and `Listing.countMatches` finds the rest.
    public func listing(matching text: String) throws(LibraryError) -> Listing {
        let query = text.trimmingWhiteSpace
        if query.isEmpty { return Listing(query: query, search: nil) }
        return Listing(query: query, search: SearchScan(try searchIndex(), query: query))
    }
}

/// Where a library's contents stand, as its storage counts commits: other connections'
/// (other processes', other editors') and this connection's own.
public struct ContentVersion: Equatable, Sendable {
    /// Changes with other connections' (other processes') commits only.
    public let others: Int64
    let own: Int64
}

/// A list of entries read a page at a time: the whole library by cursor, or a search's
/// matches by number. A value: the view keeps it and hands it to the library queue for
/// the next page.
public struct Listing: Sendable {
    /// The search, white space trimmed; empty for the whole library.
    public let query: String
    /// A search's matches, found as far as the pages need them; nil for the whole library.
    private let search: SearchScan?
    /// How many entries the pages so far held.
    public private(set) var loaded = 0
    public private(set) var isComplete = false
    private var cursor: EntryCursor?

    init(query: String, search: SearchScan?) {
        self.query = query
        self.search = search
        if let search, search.ids(from: 0, limit: 1).isEmpty { isComplete = true }
    }

    /// The number of matches of a search once they have all been found (by
    /// `countMatches`, or by paging to the end); nil before, and for the whole library,
    /// which is not counted.
    public var matchCount: Int? { search?.knownCount }

    /// Finds every match of a search and says how many (nil for the whole library, or
    /// once `goOn` returns false): the rest of one pass over the index, tens of
    /// milliseconds at 1,000,000 entries, so neither on the main thread nor on the queue
    /// the next search waits on. Copies of this listing share what it found.
    public func countMatches(while goOn: () -> Bool = { true }) -> Int? { search?.count(while: goOn) }

    /// False only when the entry is sure not to be in the list: a search whose matches
    /// have all been found without it.
    public func mayHold(_ id: Int64) -> Bool { search?.mayHold(id) ?? true }

    /// The next `limit` entries, or fewer at the end (then `isComplete`).
    public mutating func nextPage(from library: Library, limit: Int) throws(LibraryError) -> [Entry] {
        guard !isComplete else { return [] }
        let page: [Entry]
        if let search {
            let ids = search.ids(from: loaded, limit: limit)
            page = try library.entries(ids: ids)
            loaded += ids.count
            isComplete = ids.count < limit || search.knownCount == loaded
        } else {
            page = try library.entries(after: cursor, limit: limit)
            loaded += page.count
            cursor = page.last.map(EntryCursor.init) ?? cursor
            isComplete = page.count < limit
        }
        return page
    }
}

/// One search's matches in a `SearchIndex`, found as far as they are asked for: a first
/// page's worth of a common word is a few entries into the index, where finding them all
/// means a pass over all of it. Shared by the copies of a `Listing` (the view's, and the
/// library queue's while it reads a page or counts).
final class SearchScan: Sendable {
    private let index: SearchIndex
    private let needle: [UInt8]
    private let progress = Locked(SearchIndex.Scan())

    init(_ index: SearchIndex, query: String) {
        self.index = index
        needle = SearchIndex.fold(Array(query.trimmingWhiteSpace.utf8)[...])
    }

    /// Up to `limit` matches from the `start`th on, newest first.
    func ids(from start: Int, limit: Int) -> [Int64] {
        progress.withLock { scan in
            index.find(needle, in: &scan, until: start + limit)
            let end = min(scan.found.count, start + limit)
            return start < end ? Array(scan.found[start..<end]) : []
        }
    }

    func mayHold(_ id: Int64) -> Bool { progress.withLock { !$0.isComplete || $0.found.contains(id) } }

    var knownCount: Int? { progress.withLock { $0.isComplete ? $0.found.count : nil } }

    /// Every match found, some thousands at a time, so that a page read meanwhile waits
    /// for one stretch and not the whole pass; nil once `goOn` says the count is no longer
    /// wanted (a newer search).
    func count(while goOn: () -> Bool) -> Int? {
        while true {
            let counted: Int? = progress.withLock { scan in
                index.find(needle, in: &scan, until: scan.found.count + 4_096)
                return scan.isComplete ? scan.found.count : nil
            }
            if let counted { return counted }
            guard goOn() else { return nil }
        }
    }
}

/// Every title and subtitle, case-folded, in one block of UTF-8 in list order (newest
/// first): a search of any length, in any script, is one pass of `memmem` over it — some
/// 5 MB for 100,000 entries, a few milliseconds — with no n-gram table to keep up to date
/// and nothing for one- and two-character queries to scan row by row in SQLite.
public final class SearchIndex: Sendable {
    /// Entry numbers, newest first (created time, then number); the text of entry `n`
    /// starts at `starts[n]`.
    let ids: [Int64]
    let created: [Int64]
    let starts: [Int32]
    /// Each field's words and a line break, the last field's and a NUL, per entry, case-folded. A search has no line break or NUL (the
    /// entry normalises them away and the query is one line), so no match spans two fields
    /// or two entries.
    let text: [UInt8]

    init(ids: [Int64], created: [Int64], starts: [Int32], text: [UInt8]) {
        self.ids = ids
        self.created = created
        self.starts = starts
        self.text = text
    }

    /// This index with `changed` entries' text taken out, and `fresh` (an index of those
    /// still in the library, as they are now) put in their places: the changed entries
    /// found in one pass over the numbers alone (most passed over by a 4,096-bit filter),
    /// the fresh ones placed by binary search, and the rest copied in runs — some
    /// milliseconds at 1,000,000 entries, where reading every entry again takes a second.
    func updating(_ changed: Set<Int64>, with fresh: SearchIndex) -> SearchIndex {
        var filter = [UInt64](repeating: 0, count: 64)
        func bit(_ id: Int64) -> (word: Int, mask: UInt64) {
            let bit = Int(UInt64(bitPattern: id) & 4095)
            return (bit >> 6, 1 << UInt64(bit & 63))
        }
        for id in changed {
            let (word, mask) = bit(id)
            filter[word] |= mask
        }
        var dropped: [Int] = []
        for (position, id) in ids.enumerated() {
            let (word, mask) = bit(id)
            if filter[word] & mask != 0 && changed.contains(id) { dropped.append(position) }
        }
        // Before the first entry that comes after it in the list (created, then number,
        // both descending); fresh is in list order, so these do not decrease.
        let inserted = fresh.ids.indices.map { insertionPoint(created: fresh.created[$0], id: fresh.ids[$0]) }
        var merged = Builder()
        merged.ids.reserveCapacity(ids.count + fresh.ids.count)
        merged.created.reserveCapacity(ids.count + fresh.ids.count)
        merged.starts.reserveCapacity(ids.count + fresh.ids.count)
        merged.text.reserveCapacity(text.count + fresh.text.count)
        var position = 0
        var nextDropped = 0
        var nextFresh = 0
        while true {
            let insertAt = nextFresh < inserted.count ? inserted[nextFresh] : Int.max
            let dropAt = nextDropped < dropped.count ? dropped[nextDropped] : Int.max
            let event = min(insertAt, dropAt, ids.count)
            keepEntries(position..<event, in: &merged)
            position = event
            if insertAt == event {
                merged.append(fresh, entry: nextFresh)
                nextFresh += 1
            } else if dropAt == event {
                position += 1
                nextDropped += 1
            } else {
                break
            }
        }
        return merged.finish()
    }

    /// The first position whose entry comes after (`created`, `id`) in the list.
    private func insertionPoint(created time: Int64, id: Int64) -> Int {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            let after = created[middle] < time || (created[middle] == time && ids[middle] < id)
            if after { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Entries `range` of this index appended to `merged` as they are, in one copy each.
    private func keepEntries(_ range: Range<Int>, in merged: inout Builder) {
        guard !range.isEmpty else { return }
        let from = Int(starts[range.lowerBound])
        let to = range.upperBound < starts.count ? Int(starts[range.upperBound]) : text.count
        let shift = Int32(merged.text.count - from)
        merged.ids.append(contentsOf: ids[range])
        merged.created.append(contentsOf: created[range])
        merged.starts.append(contentsOf: starts[range].lazy.map { $0 + shift })
        merged.text.append(contentsOf: text[from..<to])
    }

    public var count: Int { ids.count }

    /// The numbers of the entries whose title or subtitle contains `query` (case aside),
    /// newest first; every entry for an empty query.
    public func matches(_ query: String) -> [Int64] {
        let needle = SearchIndex.fold(Array(query.trimmingWhiteSpace.utf8)[...])
        guard !needle.isEmpty else { return ids }
        var scan = Scan()
        find(needle, in: &scan, until: .max)
        return scan.found
    }

    /// How far a search has gone through the text, and what it found.
    struct Scan {
        var found: [Int64] = []
        var offset = 0
        var entry = 0
        var isComplete = false
    }

    /// Goes on with `scan` until it has found `wanted` entries, or to the end. `needle` is
    /// case-folded; an empty one matches every entry.
    func find(_ needle: [UInt8], in scan: inout Scan, until wanted: Int) {
        guard !scan.isComplete, scan.found.count < wanted else { return }
        guard !needle.isEmpty else {
            scan.found = ids
            scan.isComplete = true
            return
        }
        text.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress else {
                    scan.isComplete = true
                    return
                }
                while scan.found.count < wanted {
                    guard scan.offset < haystack.count, scan.entry < starts.count,
                        let hit = caption_memmem(
                            base + scan.offset, haystack.count - scan.offset, patternBase, pattern.count)
                    else {
                        scan.isComplete = true
                        return
                    }
                    let position = Int32(base.distance(to: UnsafeRawPointer(hit)))
                    // Entries are in text order: walk forward (or leap, for a rare hit).
                    let entry = SearchIndex.entry(containing: position, starts: starts, from: scan.entry)
                    scan.found.append(ids[entry])
                    scan.entry = entry + 1
                    scan.offset = scan.entry < starts.count ? Int(starts[scan.entry]) : haystack.count
                }
            }
        }
    }

    /// The last entry starting at or before `position`, searching from `from` on.
    static func entry(containing position: Int32, starts: [Int32], from: Int) -> Int {
        var low = from
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Lower case: ASCII by a table; anything else through Swift's full Unicode mapping.
    static func fold(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        }
        return Array(String(decoding: bytes, as: UTF8.self).lowercased().utf8)
    }

    struct Builder {
        var ids: [Int64] = []
        var created: [Int64] = []
        var starts: [Int32] = []
        var text: [UInt8] = []

        /// Entries come newest first.
        mutating func start(id: Int64, created time: Int64) {
            ids.append(id)
            created.append(time)
            starts.append(Int32(text.count))
        }

        /// Entry `entry` of `index`, text and all.
        mutating func append(_ index: SearchIndex, entry: Int) {
            start(id: index.ids[entry], created: index.created[entry])
            let from = Int(index.starts[entry])
            let to = entry + 1 < index.starts.count ? Int(index.starts[entry + 1]) : index.text.count
            text.append(contentsOf: index.text[from..<to])
        }

        /// One field of the entry started last; a line break follows it, or a NUL after
        /// the last.
        mutating func add(field: UnsafeBufferPointer<UInt8>, last: Bool) {
            append(field)
            text.append(last ? 0 : 0x0A)
        }

        private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            if Self.foldsByBytes(bytes) {
                for byte in bytes { text.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte == 0 ? 0x20 : byte) }
            } else {
                text.append(
                    contentsOf: String(decoding: bytes, as: UTF8.self).lowercased().utf8.lazy.map {
                        $0 == 0 ? 0x20 : $0
                    })
            }
        }

        /// Whether lowering ASCII's capitals is all the case folding `bytes` need: ASCII,
        /// and characters from U+3000 to U+9FFF (CJK punctuation, kana, ideographs) and from
        /// U+F000 on but the full-width capitals, none of which has case. Half a library in
        /// Chinese is then folded byte by byte; Swift's full mapping made the index twice as
        /// slow to make.
        static func foldsByBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                guard index + 2 < bytes.count else { return false }
                switch lead {
                case 0xE3...0xE9:
                    index += 3
                case 0xEF:
                    // U+FF21–U+FF3A, Ａ to Ｚ: EF BC A1 to EF BC BA.
                    if bytes[index + 1] == 0xBC && (0xA1...0xBA).contains(bytes[index + 2]) { return false }
                    index += 3
                default:
                    return false
                }
            }
            return true
        }

        func finish() -> SearchIndex { SearchIndex(ids: ids, created: created, starts: starts, text: text) }
    }
}
