// Whether a description says where and when, as a wire caption must: the AP's order is who
// or what, then the city, then the date. Words, not meaning: a date is a day's or a month's
// name, a year or a numeric date; a place is a dateline in capitals, a place the photo's GPS
// gives, or a capitalised word after "in", "at", "near" or "outside".

enum Dateline {
    static let monthNames: Set<String> = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
        "dec",
    ]

    static let weekdays: Set<String> = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// With abbreviations, for a pattern's DAY only: "sun" or "sat" alone says no date.
    static let weekdayNames = weekdays.union(["mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"])

    static let dayAndMonthNames = monthNames.union(weekdays).union(["today", "yesterday", "tonight"])

    static let placeWords: Set<String> = ["in", "at", "near", "outside", "from"]

    static func hasDate(_ words: [String]) -> Bool {
        words.contains { word in
            if dayAndMonthNames.contains(word.lowercased()) { return true }
            // A year, or a numeric date as one word (2024-05-17).
            let parts = word.split(separator: "-")
            if parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) {
                if let year = Int(parts[0]), parts[0].count == 4, (1800...2199).contains(year) { return true }
            }
            return false
        }
    }

    /// `places`: names the caption may hold as they are (the photo's city, state, country).
    static func hasPlace(_ text: String, words: [String], places: [String]) -> Bool {
        // A dateline: the caption opens with words in capitals, then a comma, a dash or a
        // bracket ("LISBON, Portugal –", "LISBON (AP) —").
        let opening = text.prefix { !",(–—-".contains($0) }
        if opening.count < text.count, opening.contains(where: \.isLetter),
            opening.allSatisfy({ !$0.isLetter || $0.isUppercase }),
            opening.filter(\.isLetter).count >= 2
        {
            return true
        }
        // "Lisbon's castle" names Lisbon: a possessive is the name it ends.
        let lowered = Set(
            words.map { word in
                let plain = word.lowercased()
                for ending in ["'s", "’s"] where plain.hasSuffix(ending) { return String(plain.dropLast(2)) }
                return plain
            })
        for place in places where !place.isEmpty {
            let placeWords = place.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.lowercased() }
            if !placeWords.isEmpty, placeWords.allSatisfy(lowered.contains) { return true }
        }
        return zip(words, words.dropFirst()).contains { before, after in
            // "in May" is a date, not a place.
            placeWords.contains(before.lowercased()) && after.first?.isUppercase == true
                && !dayAndMonthNames.contains(after.lowercased())
        }
    }
}
