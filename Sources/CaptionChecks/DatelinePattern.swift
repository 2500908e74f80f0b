// A desk's dateline as a pattern (`CITY, STATE - MONTH D:`): the words in capitals that name
// a part stand for the caption's words, the rest is matched as written, and a description
// must open with it. Where it does not, the place it stops matching is what the form selects.

import CaptionText

/// A dateline pattern, read once from what the desk typed.
public struct DatelinePattern: Equatable, Sendable {
    /// What the desk typed, as it is said back in a finding.
    public let text: String
    let elements: [Element]

    enum Part: Equatable, Sendable {
        /// One or more words: a city, a state or a country, any case ("SPRINGFIELD", "Ill.").
        case place
        /// A month's name or its abbreviation ("May", "Sept.", "JAN").
        case month
        /// A day of the month, 1 to 31, with or without "th".
        case day
        /// A weekday's name or its abbreviation.
        case weekday
        case year
    }

    enum Element: Equatable, Sendable {
        case part(Part, name: String)
        /// White space: one or more of any kind.
        case space
        /// A hyphen, an en dash or an em dash: people type one for another.
        case dash
        /// Any other character, whatever its case.
        case literal(Character)

        /// How the pattern wrote it, for a finding to name.
        var shown: String {
            switch self {
            case .part(_, let name): name
            case .space: " "
            case .dash: "-"
            case .literal(let character): String(character)
            }
        }
    }

    /// Nil for a pattern of nothing but white space: there is nothing to ask of a caption.
    public init?(_ text: String) {
        let trimmed = text.trimmingWhiteSpace
        guard !trimmed.isEmpty else { return nil }
        self.text = trimmed
        var elements: [Element] = []
        let characters = Array(trimmed)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                while index < characters.count, characters[index].isWhitespace { index += 1 }
                elements.append(.space)
                continue
            }
            if character.isUppercase, character.isASCII {
                var end = index
                while end < characters.count, characters[end].isLetter { end += 1 }
                let word = String(characters[index..<end])
                let before = index == 0 || !characters[index - 1].isLetter
                if before, let part = Self.part(named: word) {
                    elements.append(.part(part, name: word))
                    index = end
                    continue
                }
                // A word in capitals that names no part ("AP" in "(AP)") is written as it is.
                elements += characters[index..<end].map { .literal($0) }
                index = end
                continue
            }
            elements.append(Self.isDash(character) ? .dash : .literal(character))
            index += 1
        }
        self.elements = elements
    }

    /// Whether any of the pattern's words stands for the caption's words.
    public var namesAPart: Bool {
        elements.contains {
            if case .part = $0 { return true }
            return false
        }
    }

    static func part(named word: String) -> Part? {
        switch word {
        case "CITY", "STATE", "COUNTRY": .place
        case "MONTH": .month
        case "D", "DD": .day
        case "DAY": .weekday
        case "YEAR": .year
        default: nil
        }
    }

    static func isDash(_ character: Character) -> Bool { "-–—‒―".contains(character) }

    /// Where a description stops following the pattern: the character it stopped at and the
    /// part of the pattern wanted there. Nil when it opens with the pattern.
    public struct Mismatch: Equatable, Sendable {
        public var offset: Int
        /// The pattern's words from the one wanted on, up to the next part ("MONTH", ", ").
        public var wanted: String
    }

    public func mismatch(in description: String) -> Mismatch? {
        let characters = Array(description)
        var start = 0
        while start < characters.count, characters[start].isWhitespace { start += 1 }
        var matcher = Matcher(elements: elements, characters: characters)
        if matcher.matches(element: 0, at: start) { return nil }
        return Mismatch(offset: matcher.furthest.offset, wanted: wanted(from: matcher.furthest.element))
    }

    /// What the pattern asks for from `element` on, as it was written: a part by its name,
    /// or the marks and spaces up to the next part.
    private func wanted(from element: Int) -> String {
        guard element < elements.count else { return "" }
        if case .part(_, let name) = elements[element] { return name }
        var shown = ""
        for next in elements[element...] {
            if case .part = next { break }
            shown += next.shown
        }
        return shown.trimmingWhiteSpace.isEmpty ? wanted(from: element + 1) : shown.trimmingWhiteSpace
    }
}

/// Matches the elements against the characters, trying shorter words for a place when the
/// rest does not follow, and keeps the furthest point any try reached: where the caption
/// parts from the pattern.
private struct Matcher {
    let elements: [DatelinePattern.Element]
    let characters: [Character]
    var furthest = (offset: 0, element: 0)
    /// Tries that failed, so that a place's many lengths cost no more than one pass each.
    private var failed: Set<Int> = []

    init(elements: [DatelinePattern.Element], characters: [Character]) {
        self.elements = elements
        self.characters = characters
    }

    mutating func matches(element: Int, at offset: Int) -> Bool {
        if element == elements.count { return true }
        let key = element * (characters.count + 1) + offset
        if failed.contains(key) { return false }
        if offset > furthest.offset || (offset == furthest.offset && element > furthest.element) {
            furthest = (offset, element)
        }
        for end in ends(of: elements[element], at: offset) where matches(element: element + 1, at: end) {
            return true
        }
        failed.insert(key)
        return false
    }

    /// Where `element` may end when it starts at `offset`, the longest first; none when it
    /// cannot start there.
    private func ends(of element: DatelinePattern.Element, at offset: Int) -> [Int] {
        let count = characters.count
        switch element {
        case .space:
            var end = offset
            while end < count, characters[end].isWhitespace { end += 1 }
            return end > offset ? [end] : []
        case .dash:
            return offset < count && DatelinePattern.isDash(characters[offset]) ? [offset + 1] : []
        case .literal(let wanted):
            guard offset < count else { return [] }
            return characters[offset].lowercased() == wanted.lowercased() ? [offset + 1] : []
        case .part(let part, _):
            switch part {
            case .place: return placeEnds(at: offset)
            case .month: return nameEnds(at: offset, in: Dateline.monthNames)
            case .weekday: return nameEnds(at: offset, in: Dateline.weekdayNames)
            case .day:
                guard let end = numberEnd(at: offset, digits: 1...2), let day = number(offset..<end),
                    (1...31).contains(day)
                else { return [] }
                let ordinal = word(at: end)
                if ["st", "nd", "rd", "th"].contains(String(characters[end..<ordinal]).lowercased()) {
                    return [ordinal, end]
                }
                return ordinal == end ? [end] : []
            case .year:
                guard let end = numberEnd(at: offset, digits: 4...4), let year = number(offset..<end),
                    (1800...2199).contains(year)
                else { return [] }
                return [end]
            }
        }
    }

    /// A place: words of letters (with dots, apostrophes and hyphens inside, as in "St.
    /// John's" or "Stratford-upon-Avon"), one space between them. Each word's end is a
    /// place's possible end.
    private func placeEnds(at offset: Int) -> [Int] {
        var ends: [Int] = []
        var index = offset
        while index < characters.count, characters[index].isLetter {
            var end = index
            while end < characters.count,
                characters[end].isLetter || ".'’".contains(characters[end])
                    || (characters[end] == "-" && end + 1 < characters.count && characters[end + 1].isLetter)
            {
                end += 1
            }
            ends.append(end)
            guard end < characters.count, characters[end] == " " else { break }
            index = end + 1
        }
        return ends.reversed()
    }

    /// The ends of a name of `names` starting at `offset`, as a whole word: with the dot
    /// of an abbreviation after it, and without (the pattern may write the dot itself).
    private func nameEnds(at offset: Int, in names: Set<String>) -> [Int] {
        let end = word(at: offset)
        guard end > offset, names.contains(String(characters[offset..<end]).lowercased()) else { return [] }
        return end < characters.count && characters[end] == "." ? [end + 1, end] : [end]
    }

    /// The end of the run of letters at `offset`.
    private func word(at offset: Int) -> Int {
        var end = offset
        while end < characters.count, characters[end].isLetter { end += 1 }
        return end
    }

    private func numberEnd(at offset: Int, digits: ClosedRange<Int>) -> Int? {
        var end = offset
        while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
        return digits.contains(end - offset) ? end : nil
    }

    private func number(_ range: Range<Int>) -> Int? { Int(String(characters[range])) }
}
