// Caption's own form: the photo, then each of the caption's text fields. The window and the
// command line both build it here, and name its items by `CaptionForm.Item`.

import CaptionText

public enum CaptionForm {
    /// An item of Caption's form. The engine knows its items by position; this is the name
    /// the rest of Caption uses for each.
    public enum Item: Sendable, Hashable {
        case photo
        case text(CaptionField)

        /// The window's items: the photo first, then the form's fields.
        public static let all: [Item] = [.photo] + CaptionForm.fields.map(Item.text)

        /// Its position among the engine's items: the photo, then every field in
        /// `CaptionField`'s order, of which a form shows the first (`items(_:fields:)`).
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

    /// The fields the window's form shows, in order: the ones every caption has. The
    /// optional fields are stored, written into photos and given on the command line.
    public static let fields = CaptionField.required

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

    /// The field's name at the start of a sentence and inside one, translated.
    public static func names(of field: CaptionField, _ wording: Wording) -> (name: String, inSentence: String) {
        field.names(wording.translate)
    }

    public static func items(_ wording: Wording, fields: [CaptionField] = fields) -> [FormItem] {
        precondition(fields.elementsEqual(CaptionField.allCases.prefix(fields.count)), "a form shows the first fields")
        return ([Item.photo] + fields.map(Item.text)).map { item in
            switch item {
            case .photo: .photo(wording.translate("Photo"))
            case .text(let field):
                .text(
                    names(of: field, wording).name, names(of: field, wording).inSentence,
                    limit: limit(of: field), isOptional: field.isOptional)
            }
        }
    }

    public static func engine(_ wording: Wording = Wording(), fields: [CaptionField] = fields) -> FocusEngine {
        FocusEngine(items: items(wording, fields: fields), wording: wording)
    }
}

extension FocusEngine {
    /// The item of Caption's form that has focus; nil for the activate button or elsewhere.
    public var focusedItem: CaptionForm.Item? { focus.flatMap(CaptionForm.Item.init(index:)) }
}

extension Submission {
    /// The form's fields, as they are to be stored ("" in every field the form does not show).
    public var words: CaptionWords {
        var words = CaptionWords.empty
        for field in CaptionField.allCases where CaptionForm.Item.text(field).index < values.count {
            words[field] = values[CaptionForm.Item.text(field).index]
        }
        return words
    }
}
