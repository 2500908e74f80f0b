// The replacement table on disk, and Photo Mechanic's code-replacement files read into it.
//
// Caption's own file is `replacements.tsv` in the user's config folder: UTF-8, one row a
// line, the code, a tab, the text. Lines starting with `#` are comments. It is the same
// shape as Photo Mechanic's files, so either can be edited in a spreadsheet.

import CaptionText

public enum ReplacementFile {
    /// Its name in the user's config folder's `caption` folder.
    public static let fileName = "replacements.tsv"

    /// The table in Caption's format: a comment line, then one `code<TAB>text` line a row.
    public static func write(_ table: ReplacementTable) -> String {
        String(decoding: ReplacementDocument(bytes: []).updated(to: table), as: UTF8.self)
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
        var bytes = Array(contents.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a byte-order mark
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            switch self.line(line, codePrefix: codePrefix, allowComments: allowComments) {
            case .nothing: continue
            case .skipped: skipped.append(index + 1)
            case .row(let row): table.set(row)
            }
        }
        return Reading(table: table, skippedLines: skipped)
    }

    /// What one line holds.
    enum Line {
        /// Blank, or a comment.
        case nothing
        /// Not a row: no tab, or no valid code.
        case skipped
        case row(Replacement)
    }

    /// One line of UTF-8 (without its line feed; a carriage return at its end is dropped),
    /// split at its tabs as bytes, since a tab is never part of another character: a
    /// roster of 100,000 codes is read in a fraction of a second.
    static func line(_ bytes: ArraySlice<UInt8>, codePrefix: String = "", allowComments: Bool = true) -> Line {
        var content = bytes
        if content.last == 0x0D { content = content.dropLast() }
        if allowComments && content.first == UInt8(ascii: "#") { return .nothing }
        func isBlank() -> Bool {
            String(decoding: content, as: UTF8.self).unicodeScalars.allSatisfy { $0.properties.isWhitespace }
        }
        guard let tab = content.firstIndex(of: 0x09) else { return isBlank() ? .nothing : .skipped }
        let rest = content[(tab + 1)...]
        let second = rest.firstIndex(of: 0x09).map { rest[..<$0] } ?? rest
        let code = field(content[..<tab])
        guard !code.isEmpty, ReplacementTable.isValidCode(codePrefix + code) else {
            return isBlank() ? .nothing : .skipped
        }
        return .row(Replacement(code: codePrefix + code, text: field(second)))
    }

    /// A field's bytes as text: unquoted (see `unquote`), a carriage return inside made a
    /// space, white space trimmed from both ends.
    static func field(_ bytes: ArraySlice<UInt8>) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        if bytes.count >= 2 && bytes.first == 0x22 && bytes.last == 0x22 { text = unquote(text) }
        if bytes.contains(0x0D) { text = oneLine(text) }
        return text.trimmingWhiteSpace
    }

    /// `"a ""b"""` -> `a "b"`: a spreadsheet's quoting of a field.
    static func unquote(_ field: String) -> String {
        guard field.utf8.count >= 2, field.hasPrefix("\""), field.hasSuffix("\"") else { return field }
        return String(field.dropFirst().dropLast()).replacing("\"\"", with: "\"")
    }

    /// A field's text is one line: tabs and line breaks would break the file's rows.
    static func oneLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }
}

/// Caption's replacement file as its lines, so that an edit changes only the rows it
/// changes: comments, blank lines and lines Caption could not read (not UTF-8, no tab, an
/// invalid code) stay byte for byte where they were. A file Caption only partly
/// understands is never rewritten from what it understood.
public struct ReplacementDocument: Sendable, Equatable {
    enum Line: Sendable, Equatable {
        /// A row: its code, and the line's bytes as read (without the line feed).
        case row(code: String, text: String, bytes: [UInt8])
        /// Anything else, kept as it is.
        case other([UInt8])
    }

    var lines: [Line]
    /// What the file holds, and the lines that were not rows (1-based).
    public let reading: ReplacementFile.Reading
    /// Whether the file ended with a line feed (kept so).
    var endsWithNewline: Bool

    public init(bytes: [UInt8]) {
        var table = ReplacementTable()
        var skipped: [Int] = []
        var lines: [Line] = []
        let raw = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        endsWithNewline = bytes.last == 0x0A || bytes.isEmpty
        let count = endsWithNewline && !raw.isEmpty ? raw.count - 1 : raw.count
        for (index, line) in raw.prefix(count).enumerated() {
            guard String(validating: line, as: UTF8.self) != nil else {
                skipped.append(index + 1)
                lines.append(.other(line))
                continue
            }
            // A line of the file starts with the byte-order mark only when it is the first.
            let content = index == 0 && line.starts(with: [0xEF, 0xBB, 0xBF]) ? line[3...] : line[...]
            switch ReplacementFile.line(content) {
            case .row(let row):
                table.set(row)
                lines.append(.row(code: row.code, text: row.text, bytes: line))
            case .skipped:
                skipped.append(index + 1)
                lines.append(.other(line))
            case .nothing:
                lines.append(.other(line))
            }
        }
        self.lines = lines
        reading = ReplacementFile.Reading(table: table, skippedLines: skipped)
    }

    /// The file's bytes with `table` as its rows: a row whose code is gone is removed, one
    /// whose text changed is written anew in its place, a new code goes just before the
    /// code that follows it in the table (so a removal undone is back in its place), or at
    /// the end (after a heading line when the file was empty); every other line is kept.
    /// Linear in the file's length: a roster of 100,000 codes is saved at once.
    public func updated(to table: ReplacementTable) -> [UInt8] {
        var inFile: Set<String> = []
        for case .row(let code, _, _) in lines { inFile.insert(code) }
        // New rows, by the code in the file they go before; nil: at the end.
        var before: [String: [Replacement]] = [:]
        var waiting: [Replacement] = []
        for row in table.rows {
            if inFile.contains(row.code) {
                if !waiting.isEmpty { before[row.code, default: []] += waiting }
                waiting = []
            } else {
                waiting.append(row)
            }
        }
        let atEnd = waiting
        var out: [[UInt8]] = []
        for line in lines {
            switch line {
            case .other(let bytes):
                out.append(bytes)
            case .row(let code, let text, let bytes):
                guard let newText = table.text(for: code) else { continue }
                if let new = before.removeValue(forKey: code) { out += new.map(ReplacementDocument.line) }
                out.append(
                    newText == text ? bytes : ReplacementDocument.line(Replacement(code: code, text: newText)))
            }
        }
        if lines.isEmpty && !atEnd.isEmpty { out.append(Array(ReplacementDocument.heading.utf8)) }
        out += atEnd.map(ReplacementDocument.line)
        var bytes = out.joined(separator: [0x0A]).map { $0 }
        if !out.isEmpty && (endsWithNewline || !atEnd.isEmpty) { bytes.append(0x0A) }
        return bytes
    }

    static let heading = "# Caption code replacements: code<TAB>text, one a line"

    static func line(_ row: Replacement) -> [UInt8] {
        Array((row.code + "\t" + ReplacementFile.oneLine(row.text)).utf8)
    }
}
