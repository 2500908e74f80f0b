// Code replacements: a short code typed in a field (`=bb`) becomes its text (`Brooklyn
// Bridge`) when a space, a punctuation mark or Enter follows it. Pure: the window asks what
// to replace and applies it; the keystroke benchmark asks the same questions.

/// One row of the table.
public struct Replacement: Sendable, Equatable {
    public var code: String
    public var text: String

    public init(code: String, text: String) {
        self.code = code
        self.text = text
    }
}

/// The user's codes, in the order they were written. A code is matched exactly (case
/// counts, as in Photo Mechanic: lower-case codes save the Shift key).
public struct ReplacementTable: Sendable, Equatable {
    public private(set) var rows: [Replacement]
    private var byCode: [String: String]

    public init(_ rows: [Replacement] = []) {
        self.rows = []
        byCode = [:]
        for row in rows { set(row) }
    }

    public var isEmpty: Bool { rows.isEmpty }

    public func text(for code: String) -> String? { byCode[code] }

    /// Adds a row, or changes the text of the code's row; a later row for the same code
    /// wins, as a table read top to bottom would have it.
    public mutating func set(_ row: Replacement) {
        guard Self.isValidCode(row.code) else { return }
        if byCode[row.code] != nil, let index = rows.firstIndex(where: { $0.code == row.code }) {
            rows[index] = row
        } else {
            rows.append(row)
        }
        byCode[row.code] = row.text
    }

    public mutating func remove(code: String) {
        rows.removeAll { $0.code == code }
        byCode[code] = nil
    }

    /// A code is one word: not empty, no white space, and its last character does not itself
    /// end a code (a code ending in `.` could never be typed whole).
    public static func isValidCode(_ code: String) -> Bool {
        guard let last = code.unicodeScalars.last else { return false }
        return !ends(last) && !code.unicodeScalars.contains { $0.properties.isWhitespace }
    }

    /// Whether typing `scalar` after a code replaces it: white space and punctuation
    /// (Unicode's P* and S* categories, so `.`, `,`, `)`, `!`, `、` and `。` do).
    public static func ends(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
            .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// What to replace when a code ends at `end` (a position in Unicode scalars, as GTK
    /// counts an entry's characters) of `text`: the longest code that ends there and starts
    /// the text or follows white space or punctuation, so `(=bb` finds `=bb` and `x=bb`
    /// finds nothing unless `x=bb` is itself a code.
    public func match(in text: String, endingAt end: Int) -> Match? {
        guard !rows.isEmpty else { return nil }
        let scalars = Array(text.unicodeScalars)
        guard end > 0, end <= scalars.count else { return nil }
        var start = end - 1
        while start > 0 && !scalars[start - 1].properties.isWhitespace { start -= 1 }
        // Longest first: from the start of the word to the last character.
        for from in start..<end {
            guard from == start || Self.ends(scalars[from - 1]) else { continue }
            var code = String.UnicodeScalarView()
            code.append(contentsOf: scalars[from..<end])
            if let replacement = byCode[String(code)] {
                return Match(start: from, code: String(code), text: replacement)
            }
        }
        return nil
    }
}

/// A code found in a field: where it starts (scalars), the code and its text. Applied, the
/// code's characters from `start` give way to `text`; `undone` puts the code back.
public struct Match: Sendable, Equatable {
    public var start: Int
    public var code: String
    public var text: String

    public var codeLength: Int { code.unicodeScalars.count }
    public var textLength: Int { text.unicodeScalars.count }

    /// `field` with the code replaced.
    public func applied(to field: String) -> String {
        Self.splice(field, at: start, removing: codeLength, inserting: text)
    }

    /// `field` with the replaced text turned back into the code, if the text is still
    /// where it was put; nil otherwise (the user has moved on: nothing to take back).
    public func undone(in field: String) -> String? {
        let scalars = Array(field.unicodeScalars)
        guard start + textLength <= scalars.count,
            String(String.UnicodeScalarView(scalars[start..<(start + textLength)])) == text
        else { return nil }
        return Self.splice(field, at: start, removing: textLength, inserting: code)
    }

    static func splice(_ field: String, at start: Int, removing count: Int, inserting text: String) -> String {
        var scalars = Array(field.unicodeScalars)
        scalars.replaceSubrange(start..<(start + count), with: Array(text.unicodeScalars))
        return String(String.UnicodeScalarView(scalars))
    }
}
