// A server library's reading: entries by id, page and search, the search index, counts.

import CaptionText
import POSIXFiles
import PhotoFormats
import Threads

#if canImport(Glibc)
    import Glibc
#endif

extension PostgresStorage {
    func entry(id: Int64) throws(LibraryError) -> Entry? {
        let rows = try read { (db) throws(LibraryError) -> PostgresResult in
            try db.execute("SELECT \(Self.columns) FROM caption.entries WHERE id = $1", [String(id)])
        }
        return rows.rowCount == 1 ? Self.entry(rows, 0) : nil
    }

    /// The whole list in one statement, its rows handed on as they come (the library is
    /// locked meanwhile, as a folder's is); a page or a span a page at a time by the
    /// (created, id) index, the connection free between pages.
    func forEachEntry(
        _ order: Library.Order, after cursor: EntryCursor?, through last: EntryCursor?, limit: Int?,
        _ body: (Entry) -> Bool
    ) throws(LibraryError) {
        let newest = order == .newestFirst
        if limit == nil && last == nil {
            // The whole list (`--list`): one COPY whose rows are handed on as they come, as
            // psql's copy of them would come. A COPY takes no parameters: the cursor's two
            // integers are written into it.
            var filter = ""
            if let cursor {
                filter = "WHERE (created, id) \(newest ? "<" : ">") (\(cursor.created), \(cursor.id))"
            }
            let direction = newest ? "DESC" : "ASC"
            let sql = """
                COPY (SELECT \(Self.columns) FROM caption.entries \(filter) \
                ORDER BY created \(direction), id \(direction)) TO STDOUT
                """
            try state.withLock { (state) throws(LibraryError) in
                try reconnectIfLost(&state)
                var handedOn = false
                func stream(_ db: PostgresConnection) throws(LibraryError) {
                    try db.copyOut(sql) { line in
                        handedOn = true
                        return body(Entry(columns: CopyRow(line)))
                    }
                }
                do throws(LibraryError) {
                    try stream(state.db)
                } catch  where error.kind == .unreachable && !state.db.isOpen && !handedOn {
                    // As a read is, on a new connection when the server ended the old one
                    // (a restart), unless rows were handed on: they would come twice.
                    try reconnectIfLost(&state)
                    try stream(state.db)
                }
            }
            return
        }
        var cursor = cursor
        var left = limit ?? Int.max
        while left > 0 {
            let size = min(left, Self.pageSize)
            var conditions: [String] = []
            var parameters: [String?] = []
            if let cursor {
                parameters += [String(cursor.created), String(cursor.id)]
                conditions.append("(created, id) \(newest ? "<" : ">") ($1, $2)")
            }
            if let last {
                parameters += [String(last.created), String(last.id)]
                conditions.append(
                    "(created, id) \(newest ? ">=" : "<=") ($\(parameters.count - 1), $\(parameters.count))")
            }
            parameters.append(String(size))
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let sql = """
                SELECT \(Self.columns) FROM caption.entries \(filter)
                ORDER BY created \(newest ? "DESC" : "ASC"), id \(newest ? "DESC" : "ASC") LIMIT $\(parameters.count)
                """
            let rows = try read { (db) throws(LibraryError) -> PostgresResult in try db.execute(sql, parameters) }
            for row in 0..<rows.rowCount {
                let entry = Self.entry(rows, row)
                if !body(entry) { return }
                cursor = EntryCursor(entry)
            }
            guard rows.rowCount == size else { return }
            left -= size
        }
    }

    /// The trigram indexes serve the LIKE.
    func entries(matching query: String) throws(LibraryError) -> [Entry] {
        var escaped = ""
        for character in query {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        let condition = (CaptionField.required.map { "lower(\($0.rawValue))" } + [PostgresSchema.optionalText])
            .map { "\($0) LIKE '%' || lower($1) || '%'" }
            .joined(separator: " OR ")
        return try read { (db) throws(LibraryError) -> [Entry] in
            Self.entries(
                try db.execute(
                    "SELECT \(Self.columns) FROM caption.entries WHERE \(condition) ORDER BY created DESC, id DESC",
                    [escaped]))
        }
    }

    func entries(ids: [Int64]) throws(LibraryError) -> [Int64: Entry] {
        // One parameter, an array of numbers: no SQL is ever spliced.
        let rows = try read { (db) throws(LibraryError) -> PostgresResult in
            try db.execute(
                "SELECT \(Self.columns) FROM caption.entries WHERE id = ANY($1::bigint[])",
                ["{" + ids.map(String.init).joined(separator: ",") + "}"])
        }
        var found: [Int64: Entry] = [:]
        found.reserveCapacity(rows.rowCount)
        for row in 0..<rows.rowCount {
            let entry = Self.entry(rows, row)
            found[entry.id] = entry
        }
        return found
    }

    func forEachTitle(_ body: (String) -> Bool) throws(LibraryError) {
        var after: Int64 = 0
        while true {
            let rows = try read { (db) throws(LibraryError) -> PostgresResult in
                try db.execute(
                    "SELECT id, title FROM caption.entries WHERE id > $1 ORDER BY id LIMIT $2",
                    [String(after), String(Self.pageSize * 10)])
            }
            for row in 0..<rows.rowCount {
                if !body(rows.text(row, 1) ?? "") { return }
                after = rows.integer(row, 0) ?? after
            }
            guard rows.rowCount == Self.pageSize * 10 else { return }
        }
    }

    func usage(of field: CaptionField) throws(LibraryError) -> [FieldUsage] {
        let column = field.rawValue
        let rows = try read { (db) throws(LibraryError) -> PostgresResult in
            try db.execute(
                "SELECT \(column), count(*), max(updated) FROM caption.entries WHERE \(column) <> '' GROUP BY \(column)"
            )
        }
        return (0..<rows.rowCount).map {
            FieldUsage(
                text: rows.text($0, 0) ?? "", count: Int(rows.integer($0, 1) ?? 0),
                lastUsed: Timestamp(millisecondsSince1970: rows.integer($0, 2) ?? 0))
        }
    }

    func largestID() throws(LibraryError) -> Int64 {
        try read { (db) throws(LibraryError) -> Int64 in
            try db.execute("SELECT coalesce(max(id), 0) FROM caption.entries").integer(0, 0) ?? 0
        }
    }

    func count() throws(LibraryError) -> Int {
        try read { (db) throws(LibraryError) -> Int in
            Int(try db.execute("SELECT count(*) FROM caption.entries").integer(0, 0) ?? 0)
        }
    }

    /// Every commit of every editor counts one change; this connection's own are told apart.
    func contentVersion() throws(LibraryError) -> ContentVersion {
        try state.withLock { (state) throws(LibraryError) -> ContentVersion in
            try reconnectIfLost(&state)
            return try Self.version(state)
        }
    }

    private static func version(_ state: Connection) throws(LibraryError) -> ContentVersion {
        let changes = try state.db.execute("SELECT changes FROM caption.library").integer(0, 0) ?? 0
        return ContentVersion(others: changes - state.commits, own: state.commits)
    }

    func changeCounter() throws(LibraryError) -> Int64 { try contentVersion().others }

    /// In one step: the index is read in one snapshot (below).
    func prepareSearchIndex(step rows: Int) throws(LibraryError) -> Bool {
        _ = try searchIndex()
        return true
    }

    /// Read in one snapshot with the count of changes it holds, so the index is never
    /// taken for newer than it is: whole the first time, then (where the server numbers
    /// commits) only the entries changed and removed by commits after the one it holds.
    func searchIndex() throws(LibraryError) -> SearchIndex {
        try state.withLock { (state) throws(LibraryError) -> SearchIndex in
            try reconnectIfLost(&state)
            if let cached = state.searchIndex, cached.version == (try Self.version(state)) { return cached.index }
            let db = state.db
            try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            defer { _ = try? db.execute("COMMIT") }
            let version = try Self.version(state)
            let through = version.others + version.own
            let columns = "id, created, \(Library.fieldColumns)"
            let index: SearchIndex
            if numbersChanges, let cached = state.searchIndex {
                let since = [String(cached.through)]
                let fresh = Self.searchIndex(
                    try db.execute(
                        "SELECT \(columns) FROM caption.entries WHERE changed_at > $1 ORDER BY created DESC, id DESC",
                        since))
                let removed = try db.execute("SELECT id FROM caption.removed WHERE changed_at > $1", since)
                var changed = Set(fresh.ids)
                for row in 0..<removed.rowCount { changed.insert(removed.integer(row, 0) ?? 0) }
                index = cached.index.updating(changed, with: fresh)
            } else {
                index = Self.searchIndex(
                    try db.execute("SELECT \(columns) FROM caption.entries ORDER BY created DESC, id DESC"))
                state.indexReadsWhole += 1
            }
            state.searchIndex = (version, index, through)
            return index
        }
    }

    /// For tests: how many times the search index was read whole.
    var searchIndexReadsWhole: Int { state.withLock { $0.indexReadsWhole } }

    /// The index of rows of `id, created,` and the caption's fields, newest first.
    private static func searchIndex(_ rows: PostgresResult) -> SearchIndex {
        let fields = CaptionField.allCases.count
        var builder = SearchIndex.Builder()
        for row in 0..<rows.rowCount {
            builder.start(id: rows.integer(row, 0) ?? 0, created: rows.integer(row, 1) ?? 0)
            for column in 2...(fields + 1) {
                rows.withBytes(row, column) { builder.add(field: $0, last: column == fields + 1) }
            }
        }
        return builder.finish()
    }
}
