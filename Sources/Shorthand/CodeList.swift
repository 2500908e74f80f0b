// The code replacements as the Preferences window edits them: rows in the file's order,
// each with an id that outlives edits, a search over them, and removals that can be undone.
// Pure, so that a season's roster of 100,000 codes is tested and timed without a window.

import CaptionText

public struct CodeList: Sendable, Equatable {
    /// A row as shown: its code may be empty or not yet valid while it is being typed.
    public struct Row: Sendable, Equatable, Identifiable {
        public let id: Int
        public var code: String
        public var text: String
    }

    /// A removed row and the place it had, to put it back there.
    public struct Removal: Sendable, Equatable {
        public let row: Row
        public let index: Int
    }

    public private(set) var rows: [Row]
    private var nextID: Int

    public init(_ table: ReplacementTable = ReplacementTable()) {
        rows = table.rows.enumerated().map { Row(id: $0.offset, code: $0.element.code, text: $0.element.text) }
        nextID = rows.count
    }

    public var count: Int { rows.count }

    /// What the rows say, as the form uses it: rows without a valid code are left out, and
    /// of a code written twice the later row wins.
    public var table: ReplacementTable {
        ReplacementTable(rows.map { Replacement(code: $0.code, text: $0.text) })
    }

    public func index(of id: Int) -> Int? { rows.firstIndex { $0.id == id } }

    public func row(_ id: Int) -> Row? { index(of: id).map { rows[$0] } }

    /// Adds a row at the end and returns it.
    @discardableResult
    public mutating func append(_ replacement: Replacement = Replacement(code: "", text: "")) -> Row {
        let row = Row(id: nextID, code: replacement.code, text: replacement.text)
        nextID += 1
        rows.append(row)
        return row
    }

    /// Changes a row's code and text; returns its index, nil when there is no such row.
    @discardableResult
    public mutating func update(_ id: Int, code: String, text: String) -> Int? {
        guard let index = index(of: id) else { return nil }
        rows[index].code = code
        rows[index].text = text
        return index
    }

    public mutating func remove(_ id: Int) -> Removal? {
        guard let index = index(of: id) else { return nil }
        return Removal(row: rows.remove(at: index), index: index)
    }

    /// Puts a removed row back where it was (or at the end, if the list has since become
    /// shorter); returns the index it went to.
    @discardableResult
    public mutating func restore(_ removal: Removal) -> Int {
        let index = min(removal.index, rows.count)
        rows.insert(removal.row, at: index)
        return index
    }

    /// The indices of the rows whose code or text contains `query`, ignoring case; every
    /// row for an empty query.
    public func indices(matching query: String) -> [Int] {
        let needle = query.trimmingWhiteSpace.lowercased()
        guard !needle.isEmpty else { return Array(rows.indices) }
        return rows.indices.filter {
            rows[$0].code.lowercased().contains(needle) || rows[$0].text.lowercased().contains(needle)
        }
    }

    /// Takes in imported codes: a code already here gets the imported text, a new one is
    /// added at the end. Returns how many were added and how many changed.
    @discardableResult
    public mutating func merge(_ imported: ReplacementTable) -> (added: Int, changed: Int) {
        var byCode: [String: Int] = [:]
        for (index, row) in rows.enumerated() { byCode[row.code] = index }
        var added = 0
        var changed = 0
        for replacement in imported.rows {
            if let index = byCode[replacement.code] {
                if rows[index].text != replacement.text {
                    rows[index].text = replacement.text
                    changed += 1
                }
            } else {
                byCode[replacement.code] = rows.count
                append(replacement)
                added += 1
            }
        }
        return (added, changed)
    }
}
