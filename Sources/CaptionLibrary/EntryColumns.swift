// An entry read from a row of `Library.columns`, the same from SQLite and from PostgreSQL:
// the one place that knows which column holds what.

import CaptionText

/// A row of `Library.columns` as either database gives it.
protocol EntryColumns {
    /// The column's text; nil where it is NULL.
    func text(at column: Int) -> String?
    func integer(at column: Int) -> Int64
    /// A column that holds whether something is so.
    func flag(at column: Int) -> Bool
}

extension Entry {
    init(columns row: some EntryColumns) {
        var words = CaptionWords.empty
        for (offset, field) in CaptionField.allCases.enumerated() { words[field] = row.text(at: 1 + offset) ?? "" }
        let next = 1 + CaptionField.allCases.count
        let firstCredit = next + 8
        var credits = Credits()
        // Only the credits set: most entries have none, and setting an empty one is a
        // lookup in the credits' table, ten an entry, a million entries listed.
        for (offset, field) in CreditField.allCases.enumerated() {
            if let text = row.text(at: firstCredit + offset), !text.isEmpty { credits[field] = text }
        }
        credits.replacesPhotos = row.flag(at: firstCredit + CreditField.allCases.count)
        credits.pad = row.text(at: firstCredit + CreditField.allCases.count + 1)
        self.init(
            id: row.integer(at: 0), words: words, photo: row.text(at: next) ?? "",
            width: Int(row.integer(at: next + 1)), height: Int(row.integer(at: next + 2)),
            originalName: row.text(at: next + 3) ?? "",
            created: Timestamp(millisecondsSince1970: row.integer(at: next + 4)),
            updated: Timestamp(millisecondsSince1970: row.integer(at: next + 5)),
            source: row.text(at: next + 6), sourceSHA256: row.text(at: next + 7), credits: credits)
    }
}

extension Statement: EntryColumns {
    func text(at column: Int) -> String? { optionalText(Int32(column)) }
    func integer(at column: Int) -> Int64 { integer(Int32(column)) }
    func flag(at column: Int) -> Bool { integer(Int32(column)) != 0 }
}

/// One row of a PostgreSQL result.
struct PostgresRow: EntryColumns {
    let rows: PostgresResult
    let row: Int

    func text(at column: Int) -> String? { rows.text(row, column) }
    func integer(at column: Int) -> Int64 { rows.integer(row, column) ?? 0 }
    /// PostgreSQL's text form of a boolean.
    func flag(at column: Int) -> Bool { rows.text(row, column) == "t" }
}
