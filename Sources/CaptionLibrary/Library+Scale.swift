// A library of a hundred thousand entries and more: entries read as a stream or a page at
// a time (never the whole list in memory), and a search that answers any query in a few
// milliseconds.

import CSQLite
import CaptionText

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

    /// The list the library view shows for `text`: every entry for empty text, else the
    /// entries whose title or subtitle contains it (case aside), newest first. Nothing is
    /// read yet: `Listing.nextPage` reads a page at a time.
    public func listing(matching text: String) throws(LibraryError) -> Listing {
        let query = text.trimmingWhiteSpace
        if query.isEmpty { return Listing(query: query, ids: nil) }
        return Listing(query: query, ids: try searchIndex().matches(query))
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
    /// A search's matches, newest first; nil for the whole library.
    public let ids: [Int64]?
    /// How many entries the pages so far held.
    public private(set) var loaded = 0
    public private(set) var isComplete = false
    private var cursor: EntryCursor?

    init(query: String, ids: [Int64]?) {
        self.query = query
        self.ids = ids
        if ids?.isEmpty == true { isComplete = true }
    }

    /// The number of matches of a search (nil for the whole library, which is not counted).
    public var matchCount: Int? { ids?.count }

    /// The next `limit` entries, or fewer at the end (then `isComplete`).
    public mutating func nextPage(from library: Library, limit: Int) throws(LibraryError) -> [Entry] {
        guard !isComplete else { return [] }
        let page: [Entry]
        if let ids {
            let end = min(ids.count, loaded + limit)
            page = try library.entries(ids: ids[loaded..<end])
            loaded = end
            isComplete = end == ids.count
        } else {
            page = try library.entries(after: cursor, limit: limit)
            loaded += page.count
            cursor = page.last.map(EntryCursor.init) ?? cursor
            isComplete = page.count < limit
        }
        return page
    }
}

/// Every title and subtitle, case-folded, in one block of UTF-8 in list order (newest
/// first): a search of any length, in any script, is one pass of `memmem` over it — some
/// 5 MB for 100,000 entries, a few milliseconds — with no n-gram table to keep up to date
/// and nothing for one- and two-character queries to scan row by row in SQLite.
public final class SearchIndex: Sendable {
    /// Entry numbers, newest first; the text of entry `n` starts at `starts[n]`.
    let ids: [Int64]
    let starts: [Int32]
    /// Each field's words and a line break, the last field's and a NUL, per entry, case-folded. A search has no line break or NUL (the
    /// entry normalises them away and the query is one line), so no match spans two fields
    /// or two entries.
    let text: [UInt8]

    init(ids: [Int64], starts: [Int32], text: [UInt8]) {
        self.ids = ids
        self.starts = starts
        self.text = text
    }

    public var count: Int { ids.count }

    /// The numbers of the entries whose title or subtitle contains `query` (case aside),
    /// newest first; every entry for an empty query.
    public func matches(_ query: String) -> [Int64] {
        let needle = SearchIndex.fold(Array(query.trimmingWhiteSpace.utf8)[...])
        guard !needle.isEmpty else { return ids }
        var found: [Int64] = []
        text.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress else { return }
                var offset = 0
                var entry = 0
                while offset < haystack.count {
                    guard let hit = caption_memmem(base + offset, haystack.count - offset, patternBase, pattern.count)
                    else { break }
                    let position = Int32(base.distance(to: UnsafeRawPointer(hit)))
                    // Entries are in text order: walk forward (or leap, for a rare hit).
                    entry = SearchIndex.entry(containing: position, starts: starts, from: entry)
                    found.append(ids[entry])
                    entry += 1
                    guard entry < starts.count else { break }
                    offset = Int(starts[entry])
                }
            }
        }
        return found
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
        var starts: [Int32] = []
        var text: [UInt8] = []

        mutating func start(id: Int64) {
            ids.append(id)
            starts.append(Int32(text.count))
        }

        /// One field of the entry started last; a line break follows it, or a NUL after
        /// the last.
        mutating func add(field: UnsafeBufferPointer<UInt8>, last: Bool) {
            append(field)
            text.append(last ? 0 : 0x0A)
        }

        private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            if bytes.allSatisfy({ $0 < 0x80 }) {
                for byte in bytes { text.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
            } else {
                text.append(
                    contentsOf: String(decoding: bytes, as: UTF8.self).lowercased().utf8.lazy.map {
                        $0 == 0 ? 0x20 : $0
                    })
            }
        }

        func finish() -> SearchIndex { SearchIndex(ids: ids, starts: starts, text: text) }
    }
}
