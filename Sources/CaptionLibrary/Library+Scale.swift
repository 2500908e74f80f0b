// A library of a hundred thousand entries and more: entries read as a stream or a page at
// a time (never the whole list in memory), and a search that answers any query in a few
// milliseconds.

import CSQLite
import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Calls `body` with every entry in `order` as it is read from the database, so memory
    /// stays the same for ten entries or a million; `body` returns false to stop. The
    /// library is locked meanwhile: `body` must not call it (use `entries(after:)` pages for
    /// long work per entry).
    public func forEachEntry(_ order: Order = .newestFirst, _ body: (Entry) -> Bool) throws(LibraryError) {
        try database.withLock { (db) throws(LibraryError) in
            let statement = try db.prepare("SELECT \(Library.columns) FROM entries ORDER BY \(order.sql)")
            while try statement.step() {
                if !body(Library.entry(statement)) { return }
            }
        }
    }

    /// Every title, in no particular order, as read (for the width of `--list`'s column).
    public func forEachTitle(_ body: (String) -> Bool) throws(LibraryError) {
        try database.withLock { (db) throws(LibraryError) in
            let statement = try db.prepare("SELECT title FROM entries")
            while try statement.step() {
                if !body(statement.text(0)) { return }
            }
        }
    }

    /// Up to `limit` entries in `order` after `cursor` (from the start without one), and,
    /// with `through`, none past it. Served by the (created, id) index: a page deep in a
    /// large library costs what the first one does.
    public func entries(
        after cursor: EntryCursor?, order: Order = .newestFirst, limit: Int,
        through last: EntryCursor? = nil
    ) throws(LibraryError) -> [Entry] {
        try database.withLock { (db) throws(LibraryError) -> [Entry] in
            var conditions: [String] = []
            if cursor != nil { conditions.append(order.after) }
            if last != nil {
                conditions.append(order == .newestFirst ? "(created, id) >= (?3, ?4)" : "(created, id) <= (?3, ?4)")
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let statement = try db.prepare(
                "SELECT \(Library.columns) FROM entries \(filter) ORDER BY \(order.sql) LIMIT ?5")
            if let cursor {
                statement.bind(1, cursor.created)
                statement.bind(2, cursor.id)
            }
            if let last {
                statement.bind(3, last.created)
                statement.bind(4, last.id)
            }
            statement.bind(5, Int64(limit))
            var entries: [Entry] = []
            entries.reserveCapacity(min(limit, 4096))
            while try statement.step() { entries.append(Library.entry(statement)) }
            return entries
        }
    }

    /// The entries with these numbers, in the order given; numbers with no entry are left
    /// out.
    public func entries(ids: some Collection<Int64>) throws(LibraryError) -> [Entry] {
        guard !ids.isEmpty else { return [] }
        let found = try database.withLock { (db) throws(LibraryError) -> [Int64: Entry] in
            // One bound parameter, a JSON array of numbers: no SQL is ever spliced.
            let statement = try db.prepare(
                "SELECT \(Library.columns) FROM entries WHERE id IN (SELECT value FROM json_each(?))")
            statement.bind(1, "[" + ids.map(String.init).joined(separator: ",") + "]")
            var found: [Int64: Entry] = [:]
            found.reserveCapacity(ids.count)
            while try statement.step() {
                let entry = Library.entry(statement)
                found[entry.id] = entry
            }
            return found
        }
        return ids.compactMap { found[$0] }
    }

    /// The largest entry number, 0 for an empty library.
    public func largestID() throws(LibraryError) -> Int64 {
        try database.withLock { (db) throws(LibraryError) -> Int64 in
            try db.integer("SELECT coalesce(max(id), 0) FROM entries")
        }
    }

    /// How many entries there are.
    public func count() throws(LibraryError) -> Int {
        try database.withLock { (db) throws(LibraryError) -> Int in Int(try db.integer("SELECT count(*) FROM entries"))
        }
    }

    /// The newest entry's place in the list, or nil for an empty library: a long job over
    /// every entry stops there, so entries saved while it runs are not chased.
    public func newestCursor() throws(LibraryError) -> EntryCursor? {
        try entries(after: nil, limit: 1).first.map(EntryCursor.init)
    }

    /// Where the library's contents stand: it changes with every commit, this connection's
    /// or another's, so what was read at one version is still current while it stays.
    public func contentVersion() throws(LibraryError) -> ContentVersion {
        try database.withLock { (db) throws(LibraryError) -> ContentVersion in try Library.contentVersion(db) }
    }

    private static func contentVersion(_ db: Database) throws(LibraryError) -> ContentVersion {
        ContentVersion(others: try db.integer("PRAGMA data_version"), own: db.commits)
    }

    /// The search index as of now: made again only after something changed the library
    /// (this connection's commits or another's).
    public func searchIndex() throws(LibraryError) -> SearchIndex {
        try database.withLock { (db) throws(LibraryError) -> SearchIndex in
            let key = try Library.contentVersion(db)
            if let index = db.searchIndex, let known = db.searchIndexKey, known == key { return index }
            let statement = try db.prepare(
                "SELECT id, \(Library.fieldColumns) FROM entries ORDER BY created DESC, id DESC")
            let fields = Int32(CaptionField.allCases.count)
            var builder = SearchIndex.Builder()
            while try statement.step() {
                builder.start(id: statement.integer(0))
                for column in 1...fields { builder.add(field: statement.bytes(column), last: column == fields) }
            }
            let index = builder.finish()
            db.searchIndex = index
            db.searchIndexKey = key
            return index
        }
    }

    /// The list the library view shows for `text`: every entry for empty text, else the
    /// entries whose title or subtitle contains it (case aside), newest first. Nothing is
    /// read yet: `Listing.nextPage` reads a page at a time.
    public func listing(matching text: String) throws(LibraryError) -> Listing {
        let query = text.trimmingWhiteSpace
        if query.isEmpty { return Listing(query: query, ids: nil) }
        return Listing(query: query, ids: try searchIndex().matches(query))
    }
}

/// `PRAGMA data_version` counts other connections' commits and not this one's, which
/// `Database` counts itself: together they change with every commit.
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
