// Checks of a caption's words before they are saved: what an editor would send back —
// placeholders left in, a code or a variable not replaced, a word typed twice, a bracket
// or a quotation mark not closed.

import CaptionText
import Localization

/// One thing a check found in a field: the words, where they are, and what to say.
public struct CaptionFinding: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        /// "Name to come", "TK", "XXX": words meant to be replaced before sending.
        case placeholder
        /// A `{…}` left as it is.
        case unfilledVariable
        /// A code (`=bb`) that was never replaced by its text.
        case unreplacedCode
        /// The same word twice in a row.
        case doubledWord
        /// A bracket or quotation mark opened and not closed, or closed and never opened.
        case unbalanced
        /// Words within a slip of a name the desk spells otherwise ("Barak Obama").
        case nameNearMiss
        /// A description that says no place, or no date.
        case noPlace
        case noDate
        /// A description that does not open with the desk's dateline pattern.
        case notAsDateline
        /// A headline not in Title Case, where the desk asks for it.
        case notTitleCase
    }

    public var kind: Kind
    public var field: CaptionField
    /// The words found, as the field has them.
    public var text: String
    /// Where they are in the field, in characters: what a text entry selects.
    public var offset: Int
    public var length: Int
    /// What the words should be, where a check knows: the name they are a slip of.
    public var suggestion: String?
    /// For a dateline that does not follow the desk's pattern: the pattern, and the part
    /// of it wanted where the words part from it.
    public var pattern: String?
    public var wanted: String?

    public init(
        kind: Kind, field: CaptionField, text: String, offset: Int, length: Int, suggestion: String? = nil,
        pattern: String? = nil, wanted: String? = nil
    ) {
        self.kind = kind
        self.field = field
        self.text = text
        self.offset = offset
        self.length = length
        self.suggestion = suggestion
        self.pattern = pattern
        self.wanted = wanted
    }

    /// What the form and the command line say: the field, the words and why.
    public var message: String {
        let template =
            switch kind {
            case .placeholder: tr("{field}: “{text}” is a placeholder left in")
            case .unfilledVariable: tr("{field}: “{text}” was never filled in")
            case .unreplacedCode: tr("{field}: the code “{text}” was not replaced")
            case .doubledWord: tr("{field}: “{text}” is typed twice")
            case .unbalanced: tr("{field}: “{text}” is not closed or not opened")
            case .nameNearMiss: tr("{field}: “{text}” is spelt “{name}” in the codes")
            case .noPlace: tr("{field} says no place, as a wire caption must (a city, or a dateline)")
            case .noDate: tr("{field} says no date, as a wire caption must (a day, a month or a year)")
            case .notTitleCase: tr("{field} is not in Title Case: “{name}”")
            case .notAsDateline:
                text.isEmpty
                    ? tr("{field} does not open with the dateline “{pattern}”: it ends where “{wanted}” is wanted")
                    : tr("{field} does not open with the dateline “{pattern}”: “{wanted}” is wanted at “{text}”")
            }
        let name = field.names { tr($0) }.name
        return template.replacing("{field}", with: name).replacing("{name}", with: suggestion ?? "")
            .replacing("{pattern}", with: pattern ?? "").replacing("{wanted}", with: wanted ?? "")
            .replacing("{text}", with: text)
    }
}

public enum CaptionChecks {
    /// Everything found in `words`, field by field, each field's findings in the order
    /// they come in it. `variables`: names a `{name}` may hold and still be filled later
    /// (the form checks the words as typed, before its variables are expanded); nil when
    /// the words are final and no `{…}` in them is to be filled (a library's entries,
    /// saved expanded, where a brace left is one the user meant).
    /// `names`: the names the desk spells one way, for words a slip away from one.
    /// `choices`: the checks switched off find nothing. `places`: where the photo was taken
    /// (its city, state, country), which the description may name as its place.
    public static func findings(
        in words: CaptionWords, variables: Set<String>? = [], names: NameRoster = .empty,
        choices: CheckChoices = CheckChoices(), places: [String] = []
    ) -> [CaptionFinding] {
        var found = CaptionField.allCases.flatMap { field in
            findings(
                in: words[field], field: field, variables: variables,
                names: choices.allows(.names) ? names : .empty
            )
            .filter { choices.allows($0.kind.check) }
        }
        // The description is where a wire caption says where and when; said after the
        // rest, at its end, where the words would go. A desk's pattern says how it opens.
        let description = words.subtitle
        if choices.allows(.dateline), description.contains(where: { !$0.isWhitespace }) {
            let characters = Array(description)
            if let pattern = DatelinePattern(choices.datelinePattern) {
                if let mismatch = pattern.mismatch(in: description) {
                    // The word where it parts from the pattern (the next one, where that is a
                    // space), selected as a slip would be.
                    var start = mismatch.offset
                    while start < characters.count, characters[start].isWhitespace { start += 1 }
                    var end = start
                    while end < characters.count, !characters[end].isWhitespace { end += 1 }
                    found.append(
                        CaptionFinding(
                            kind: .notAsDateline, field: .subtitle, text: String(characters[start..<end]),
                            offset: start, length: end - start, pattern: pattern.text, wanted: mismatch.wanted))
                }
            } else {
                let tokens = self.words(characters).map { String(characters[$0]) }
                let end = characters.count
                if !Dateline.hasPlace(description, words: tokens, places: places) {
                    found.append(CaptionFinding(kind: .noPlace, field: .subtitle, text: "", offset: end, length: 0))
                }
                if !Dateline.hasDate(tokens) {
                    found.append(CaptionFinding(kind: .noDate, field: .subtitle, text: "", offset: end, length: 0))
                }
            }
        }
        if choices.allows(.headlineCase), let finding = TitleCase.finding(in: words[.headline], field: .headline) {
            found.append(finding)
        }
        return found
    }

    static func findings(
        in text: String, field: CaptionField, variables: Set<String>? = [], names: NameRoster = .empty
    ) -> [CaptionFinding] {
        let characters = Array(text)
        let tokens = words(characters)
        var found: [CaptionFinding] = []
        func add(_ kind: CaptionFinding.Kind, _ range: Range<Int>) {
            found.append(
                CaptionFinding(
                    kind: kind, field: field, text: String(characters[range]), offset: range.lowerBound,
                    length: range.count))
        }
        for (index, token) in tokens.enumerated() {
            let word = String(characters[token])
            if isPlaceholder(word) { add(.placeholder, token) }
            // "to come", as in "Name to come" or "Details to come".
            if word.lowercased() == "to", index + 1 < tokens.count,
                String(characters[tokens[index + 1]]).lowercased() == "come"
            {
                let start = index > 0 && isWordBefore(tokens[index - 1], token, characters) ? tokens[index - 1] : token
                add(.placeholder, start.lowerBound..<tokens[index + 1].upperBound)
            }
            if token.lowerBound > 0, characters[token.lowerBound - 1] == "=",
                token.lowerBound < 2 || characters[token.lowerBound - 2].isWhitespace
            {
                add(.unreplacedCode, (token.lowerBound - 1)..<token.upperBound)
            }
            if index > 0, word.count > 1 || word.first?.isLetter == true,
                word.lowercased() == String(characters[tokens[index - 1]]).lowercased(),
                characters[tokens[index - 1].upperBound..<token.lowerBound].allSatisfy(\.isWhitespace),
                !word.allSatisfy(\.isNumber)
            {
                add(.doubledWord, tokens[index - 1].lowerBound..<token.upperBound)
            }
        }
        if let variables {
            found += unfilled(characters).filter { !variables.contains(String(characters[$0].dropFirst().dropLast())) }
                .map {
                    CaptionFinding(
                        kind: .unfilledVariable, field: field, text: String(characters[$0]), offset: $0.lowerBound,
                        length: $0.count)
                }
        }
        if let range = unbalanced(characters) { add(.unbalanced, range) }
        for (range, name) in nearMisses(characters, tokens, names) {
            found.append(
                CaptionFinding(
                    kind: .nameNearMiss, field: field, text: String(characters[range]), offset: range.lowerBound,
                    length: range.count, suggestion: name))
        }
        return found.sorted { $0.offset < $1.offset }
    }

    /// Runs of capitalised words, the longest first, held against the roster; the words of
    /// one found are not looked at again.
    static func nearMisses(
        _ characters: [Character], _ tokens: [Range<Int>], _ names: NameRoster
    ) -> [(Range<Int>, String)] {
        guard !names.isEmpty else { return [] }
        var found: [(Range<Int>, String)] = []
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            guard characters[tokens[index].lowerBound].isUppercase else { continue }
            for count in stride(from: min(names.longestName, tokens.count - index), through: 1, by: -1) {
                let run = tokens[index..<(index + count)]
                let spaced = zip(run, run.dropFirst()).allSatisfy { before, after in
                    characters[before.upperBound..<after.lowerBound].allSatisfy(\.isWhitespace)
                }
                guard spaced else { continue }
                let words = run.map { String(characters[$0]) }
                // A name spelt right is passed over whole: none of its words is a slip.
                if names.contains(words) {
                    index += count - 1
                    break
                }
                if let name = names.nearMiss(words) {
                    found.append((tokens[index].lowerBound..<tokens[index + count - 1].upperBound, name))
                    index += count - 1
                    break
                }
            }
        }
        return found
    }

    /// Words: runs of letters and digits (an apostrophe or hyphen inside one joins it).
    static func words(_ characters: [Character]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, character) in characters.enumerated() {
            let inside =
                character.isLetter || character.isNumber
                || (start != nil && "'’-".contains(character) && index + 1 < characters.count
                    && (characters[index + 1].isLetter || characters[index + 1].isNumber))
            if inside {
                if start == nil { start = index }
            } else if let begun = start {
                ranges.append(begun..<index)
                start = nil
            }
        }
        if let begun = start { ranges.append(begun..<characters.count) }
        return ranges
    }

    /// The marks desks use for words to come: XXX (or more X), TK, TKTK, TBD, TBA.
    static func isPlaceholder(_ word: String) -> Bool {
        if word.count >= 3, word.allSatisfy({ $0 == "X" || $0 == "x" }) { return true }
        return ["TK", "TKTK", "TKK", "TBD", "TBA"].contains(word)
    }

    private static func isWordBefore(_ before: Range<Int>, _ word: Range<Int>, _ characters: [Character]) -> Bool {
        characters[before.upperBound..<word.lowerBound].allSatisfy { $0 == " " }
    }

    /// `{…}` left in the words: a variable not expanded (or never one). `{{` is a brace as
    /// text, as the variables have it.
    static func unfilled(_ characters: [Character]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var index = 0
        while index < characters.count {
            if characters[index] == "{" {
                if index + 1 < characters.count, characters[index + 1] == "{" {
                    index += 2
                    continue
                }
                if let close = characters[(index + 1)...].firstIndex(of: "}"), close > index + 1,
                    !characters[(index + 1)..<close].contains("{")
                {
                    found.append(index..<(close + 1))
                    index = close + 1
                    continue
                }
            }
            index += 1
        }
        return found
    }

    /// Pairs that open and close; a straight double quotation mark is its own pair.
    static let pairs: [(open: Character, close: Character)] = [
        ("(", ")"), ("[", "]"), ("“", "”"), ("«", "»"), ("「", "」"), ("『", "』"), ("（", "）"),
    ]

    /// The first mark left unpaired: a closing one with none open, else the innermost one
    /// never closed; an odd straight quotation mark last.
    static func unbalanced(_ characters: [Character]) -> Range<Int>? {
        var open: [(character: Character, at: Int)] = []
        for (index, character) in characters.enumerated() {
            if pairs.contains(where: { $0.open == character }) {
                open.append((character, index))
            } else if let pair = pairs.first(where: { $0.close == character }) {
                guard let last = open.last, last.character == pair.open else { return index..<(index + 1) }
                open.removeLast()
            }
        }
        if let unclosed = open.last { return unclosed.at..<(unclosed.at + 1) }
        let straight = characters.indices.filter { characters[$0] == "\"" }
        if straight.count % 2 == 1, let last = straight.last { return last..<(last + 1) }
        return nil
    }
}
