// The names a desk spells one way (its code files' texts), and the words of a caption that
// come within a typing slip of one without being it: "Barak Obama" for "Barack Obama".

/// Names indexed for near misses: by their number of words and the initials of their
/// first and last words, so that a caption is held against the few names it could be a
/// slip of, not against a season's roster of thousands. A slip in an initial is not
/// looked for: typing slips are rarely the first letter, and a word with another initial
/// is more often another name.
public struct NameRoster: Sendable {
    struct Key: Hashable, Sendable {
        var words: Int
        var first: Character
        var last: Character
    }

    struct Name: Sendable {
        var text: String
        var characters: [Character]
    }

    private var byInitials: [Key: [Name]] = [:]
    private var exact: Set<String> = []
    /// The most words a name has: the longest run of words held against the roster.
    private(set) var longestName = 0

    public static let empty = NameRoster(names: [])

    public var isEmpty: Bool { exact.isEmpty }

    /// `names` as they are: each one word or more, spelt as the desk spells it.
    public init(names: some Sequence<String>) {
        for name in names {
            let words = name.split(whereSeparator: \.isWhitespace).map(String.init)
            guard !words.isEmpty, let first = words.first?.first, let last = words.last?.first else { continue }
            let text = words.joined(separator: " ")
            guard !exact.contains(text), Self.threshold(forLength: text.count) > 0 else { continue }
            exact.insert(text)
            longestName = max(longestName, words.count)
            let entry = Name(text: text, characters: Array(text))
            byInitials[Key(words: words.count, first: Self.folded(first), last: Self.folded(last)), default: []]
                .append(entry)
        }
    }

    /// The names in code replacements' texts: a text whose words all start with a capital
    /// is a name; one that goes on with other words ("Cristiano Ronaldo #7 of Portugal")
    /// gives its leading capitalised words, when there are two or more.
    public init(replacementTexts texts: some Sequence<String>) {
        self.init(names: texts.compactMap(Self.name(in:)))
    }

    /// The name a code's text begins with: its leading capitalised words, a comma after one
    /// ending them ("Rui Costa, coach"); the whole text when it is one word, else at least two.
    static func name(in text: String) -> String? {
        var name: [Substring] = []
        var wholeText = true
        for word in text.split(whereSeparator: \.isWhitespace) {
            let bare = word.last.map { ",;:".contains($0) } == true ? word.dropLast() : word
            guard bare.first?.isUppercase == true, bare.allSatisfy({ $0.isLetter || "'’-".contains($0) }) else {
                wholeText = false
                break
            }
            name.append(bare)
            if bare.count != word.count {
                wholeText = false
                break
            }
        }
        guard !name.isEmpty, wholeText || name.count >= 2 else { return nil }
        return name.joined(separator: " ")
    }

    /// How many slips a name of `length` characters may be from words that are taken for
    /// it: none for four or fewer (too many words are that close), one up to eight, two past.
    static func threshold(forLength length: Int) -> Int {
        length <= 4 ? 0 : length <= 8 ? 1 : 2
    }

    static func folded(_ character: Character) -> Character {
        Character(character.lowercased())
    }

    /// Whether `words` are one of the names, as spelt.
    func contains(_ words: [String]) -> Bool { exact.contains(words.joined(separator: " ")) }

    /// The name `words` (joined by single spaces, `count` of them) are a slip of, if any:
    /// the closest, and never when they are a name themselves.
    func nearMiss(_ words: [String]) -> String? {
        guard let first = words.first?.first, let last = words.last?.first else { return nil }
        let text = words.joined(separator: " ")
        guard !exact.contains(text) else { return nil }
        let characters = Array(text)
        var best: (name: String, distance: Int)?
        for name in byInitials[Key(words: words.count, first: Self.folded(first), last: Self.folded(last))] ?? [] {
            let limit = min(Self.threshold(forLength: name.characters.count), (best?.distance ?? 3) - 1)
            guard limit > 0, abs(name.characters.count - characters.count) <= limit,
                let distance = Self.distance(characters, name.characters, atMost: limit)
            else { continue }
            best = (name.text, distance)
        }
        return best?.name
    }

    /// Edits (a character put in, left out, changed, or two swapped) from `a` to `b`, when
    /// at most `limit`; nil past it. Letter case counts: "barack" is a slip of "Barack".
    static func distance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        if a == b { return 0 }
        var before = [Int](0...b.count)
        var previous = [Int](repeating: 0, count: b.count + 1)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where i <= a.count {
            current[0] = i
            var lowest = current[0]
            for j in 1...max(b.count, 1) where j <= b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(before[j] + 1, current[j - 1] + 1, before[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previous[j - 2] + 1) }
                current[j] = value
                lowest = min(lowest, value)
            }
            if lowest > limit { return nil }
            (previous, before, current) = (before, current, previous)
        }
        return before[b.count] <= limit ? before[b.count] : nil
    }
}
