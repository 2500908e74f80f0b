// The replacement table on disk, and Photo Mechanic's code-replacement files read into it.
//
// Caption's own file is `replacements.tsv` in the user's config folder: UTF-8, one row a
// line, the code, a tab, the text. Lines starting with `#` are comments. It is the same
// shape as Photo Mechanic's files, so either can be edited in a spreadsheet.

public enum ReplacementFile {
    /// The table in Caption's format: a comment line, then one `code<TAB>text` line a row.
    public static func write(_ table: ReplacementTable) -> String {
        var out = "# Caption code replacements: code<TAB>text, one a line\n"
        for row in table.rows {
            out += row.code + "\t" + oneLine(row.text) + "\n"
        }
        return out
    }

    /// What a file holds, and the lines that were not rows (1-based), to be named.
    public struct Reading: Sendable, Equatable {
        public var table: ReplacementTable
        public var skippedLines: [Int]
    }

    /// Caption's own file. Blank lines and comments are passed over; a line with no tab or
    /// an invalid code is skipped and named.
    public static func read(_ contents: String) -> Reading {
        parse(contents, codePrefix: "", allowComments: true)
    }

    /// A Photo Mechanic code-replacement file: tab-separated, UTF-8, the code in the first
    /// column and the replacement in the second (Photo Mechanic allows further columns, as
    /// alternatives chosen by number; Caption takes the first). Codes there are typed
    /// between delimiters (`=CC2=`, `=` by default): here they are typed with the
    /// delimiter in front, so each code gets `delimiter` prepended. Spreadsheets may quote
    /// a field and double the quotes inside; that is undone.
    public static func importPhotoMechanic(_ contents: String, delimiter: String = "=") -> Reading {
        parse(contents, codePrefix: delimiter, allowComments: false)
    }

    private static func parse(_ contents: String, codePrefix: String, allowComments: Bool) -> Reading {
        var table = ReplacementTable()
        var skipped: [Int] = []
        var text = Substring(contents)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }  // a byte-order mark
        // Split on line feeds only: "\r\n" is one Character in Swift, so split scalars.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, scalars) in lines.enumerated() {
            var line = String(String.UnicodeScalarView(scalars))
            if line.hasSuffix("\r") { line.removeLast() }
            if line.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { continue }
            if allowComments && line.hasPrefix("#") { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map {
                unquote(String($0))
            }
            guard columns.count >= 2 else {
                skipped.append(index + 1)
                continue
            }
            let code = columns[0].trimmingWhitespace
            let replacement = oneLine(columns[1]).trimmingWhitespace
            guard !code.isEmpty, ReplacementTable.isValidCode(codePrefix + code) else {
                skipped.append(index + 1)
                continue
            }
            table.set(Replacement(code: codePrefix + code, text: replacement))
        }
        return Reading(table: table, skippedLines: skipped)
    }

    /// `"a ""b"""` -> `a "b"`: a spreadsheet's quoting of a field.
    static func unquote(_ field: String) -> String {
        guard field.count >= 2, field.hasPrefix("\""), field.hasSuffix("\"") else { return field }
        return String(field.dropFirst().dropLast()).replacing("\"\"", with: "\"")
    }

    /// A field's text is one line: tabs and line breaks would break the file's rows.
    static func oneLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
