// Caption's own form: the photo, then each of the caption's text fields. The window and the
// command line both build it here, and name its items by `CaptionForm.Item`.

import CaptionText

public enum CaptionForm {
    /// An item of Caption's form. The engine knows its items by position; this is the name
    /// the rest of Caption uses for each.
    public enum Item: Sendable, Hashable {
        case photo
        case text(CaptionField)

        /// The photo first, then the fields in `CaptionField`'s order.
        public static let all: [Item] = [.photo] + CaptionField.allCases.map(Item.text)

        /// Its position among the engine's items.
        public var index: Int {
            switch self {
            case .photo: 0
            // Every field is among allCases, so the search always finds it.
            case .text(let field): 1 + CaptionField.allCases.firstIndex(of: field)!
            }
        }

        /// The item at an engine position; nil for one the form does not have.
        public init?(index: Int) {
            guard Item.all.indices.contains(index) else { return nil }
            self = Item.all[index]
        }

        public var field: CaptionField? {
            if case .text(let field) = self { return field }
            return nil
        }
    }

    /// The most a field takes, in grapheme clusters of its normalised words.
    public static func limit(of field: CaptionField) -> Int {
        switch field {
        case .title: 120
        case .subtitle: 240
        }
    }

    public static func items(_ wording: Wording) -> [FormItem] {
        let t = wording.translate
        return Item.all.map { item in
            switch item {
            case .photo: .photo(t("Photo"))
            case .text(.title): .text(t("Title"), t("title"), limit: limit(of: .title))
            case .text(.subtitle): .text(t("Subtitle"), t("subtitle"), limit: limit(of: .subtitle))
            }
        }
    }

    public static func engine(_ wording: Wording = Wording()) -> FocusEngine {
        FocusEngine(items: items(wording), wording: wording)
    }
}

extension FocusEngine {
    /// The item of Caption's form that has focus; nil for the activate button or elsewhere.
    public var focusedItem: CaptionForm.Item? { focus.flatMap(CaptionForm.Item.init(index:)) }
}

extension Submission {
    /// Every field of Caption's form, as it is to be stored.
    public var words: CaptionWords { CaptionWords { values[CaptionForm.Item.text($0).index] } }
}
