// Caption's own form: the photo, then the caption's text fields a form shows. The window and
// the command line both build it here, and name its items by `CaptionForm.Item`.

import CaptionText

public enum CaptionForm {
    /// An item of Caption's form. The engine knows its items by position; the form's
    /// `Layout` gives each position its name, which the rest of Caption uses.
    public enum Item: Sendable, Hashable {
        case photo
        case text(CaptionField)

        public var field: CaptionField? {
            if case .text(let field) = self { return field }
            return nil
        }
    }

    /// The items of one form, in order: the photo, then the fields it shows, Title and
    /// Subtitle first and the optional ones after them in the order given.
    public struct Layout: Sendable, Hashable {
        public let fields: [CaptionField]
        public let items: [Item]

        /// `optional`: the optional fields to show, in order (a required one there, or a
        /// field named twice, counts once, where it first comes).
        public init(optional: [CaptionField] = []) {
            var fields = CaptionField.required
            for field in optional where !fields.contains(field) { fields.append(field) }
            self.fields = fields
            items = [.photo] + fields.map(Item.text)
        }

        /// The window's form, until Preferences choose its optional fields.
        public static let window = Layout()
        /// Every field: the command line's form, which takes whatever options are given.
        public static let everyField = Layout(optional: CaptionField.optional)

        /// The photo's position: always the first.
        public var photo: Int { 0 }

        /// A required field's position: every form shows Title and Subtitle, first.
        public func requiredIndex(_ field: CaptionField) -> Int {
            precondition(!field.isOptional, "\(field) is not shown by every form")
            return 1 + (CaptionField.required.firstIndex(of: field) ?? 0)
        }

        /// The item's position; nil for a field this form does not show.
        public func index(of item: Item) -> Int? { items.firstIndex(of: item) }

        /// The item at an engine position; nil for one the form does not have.
        public func item(at index: Int) -> Item? { items.indices.contains(index) ? items[index] : nil }

        public func formItems(_ wording: Wording) -> [FormItem] {
            items.map { item in
                switch item {
                case .photo: .photo(wording.translate("Photo"))
                case .text(let field):
                    .text(
                        field.names(wording.translate).name, field.names(wording.translate).inSentence,
                        limit: CaptionForm.limit(of: field), isOptional: field.isOptional)
                }
            }
        }

        public func engine(_ wording: Wording = Wording()) -> FocusEngine {
            FocusEngine(items: formItems(wording), wording: wording)
        }

        /// The fields this form shows, as the submission stores them ("" in the others).
        public func words(of submission: Submission) -> CaptionWords {
            var words = CaptionWords.empty
            for (index, item) in items.enumerated() {
                if let field = item.field, index < submission.values.count { words[field] = submission.values[index] }
            }
            return words
        }

        /// `engine`, made for `old`, as this form: each item this form shares with `old`
        /// keeps its words and state; a field `old` did not show starts empty.
        public func carry(_ engine: FocusEngine, from old: Layout) -> FocusEngine {
            engine.rearranged(into: formItems(engine.wording), from: items.map(old.index(of:)))
        }

        /// The item of this form that has focus in `engine`; nil for the activate button or
        /// elsewhere.
        public func focusedItem(of engine: FocusEngine) -> Item? { engine.focus.flatMap(item(at:)) }
    }

    /// The most a field takes, in grapheme clusters of its normalised words. Where IIM
    /// holds less (Job ID's 32 bytes), the IIM copy is cut and XMP keeps every word.
    public static func limit(of field: CaptionField) -> Int {
        switch field {
        case .title: 120
        case .subtitle: 240
        case .headline, .event, .instructions: 256
        case .keywords: 1000
        // IPTC advises alt text of at most 250 characters.
        case .altText: 250
        case .extendedDescription: 2000
        case .jobID: 32
        case .sublocation: 128
        case .state: 64
        }
    }
}
