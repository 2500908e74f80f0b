// Title Case, as agencies that ask for it write a headline: every word capitalised but the
// short articles, conjunctions and prepositions inside it; the first and the last always.

import CaptionText

enum TitleCase {
    /// Words that stay in lower case inside a headline (AP and Chicago agree on these).
    /// Words that may be adverbs ("up", "off") are capitalised: "Prices Go Up".
    static let minorWords: Set<String> = [
        "a", "an", "the", "and", "but", "or", "nor", "for", "as", "at", "by", "in", "of", "on", "per", "to", "via",
        "vs", "v",
    ]

    /// `text` in Title Case: each word's first letter made upper case where it should be;
    /// the rest of every word is left as typed ("iPhone", "McDonald", "NATO" stay).
    static func titled(_ text: String) -> String {
        var characters = Array(text)
        let words = CaptionChecks.words(characters)
        for (index, word) in words.enumerated() {
            let lower = String(characters[word]).lowercased()
            let inside = index > 0 && index < words.count - 1
            // A word after a colon starts a new phrase: capitalised whatever it is.
            let afterColon =
                index > 0 && characters[words[index - 1].upperBound..<word.lowerBound].contains(":")
            guard !(inside && !afterColon && minorWords.contains(lower)) else { continue }
            let first = characters[word.lowerBound]
            // A word starting with a digit ("4th"), or one typed with a capital inside it
            // ("iPhone", "eBay"), is the writer's.
            guard first.isLowercase, !characters[word].dropFirst().contains(where: \.isUppercase) else { continue }
            characters.replaceSubrange(word.lowerBound...word.lowerBound, with: Array(first.uppercased()))
        }
        return String(characters)
    }

    /// The headline as one finding when it is not in Title Case, with the headline titled as
    /// its suggestion (one key makes it so); nil when it is, or empty.
    static func finding(in text: String, field: CaptionField) -> CaptionFinding? {
        let titled = titled(text)
        guard titled != text else { return nil }
        return CaptionFinding(
            kind: .notTitleCase, field: field, text: text, offset: 0, length: text.count, suggestion: titled)
    }
}
