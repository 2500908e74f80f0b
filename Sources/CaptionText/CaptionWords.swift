// A caption's words: the one value the form, the queue, drafts, the library, photo metadata
// and the command line hand each other. A new text field is a new case and a new property here.

/// One text field of a caption, in the form's order. Its raw value names it where words are
/// stored by name: the library's column, the draft file's key.
public enum CaptionField: String, CaseIterable, Sendable, Hashable {
    case title
    case subtitle
}

/// The words of every field of one caption; "" where nothing was typed.
public struct CaptionWords: Sendable, Hashable {
    public var title: String
    public var subtitle: String

    public init(title: String = "", subtitle: String = "") {
        self.title = title
        self.subtitle = subtitle
    }

    /// Every field from `words` (as a form hands over what it holds).
    public init(_ words: (CaptionField) -> String) {
        self.init()
        for field in CaptionField.allCases { self[field] = words(field) }
    }

    public static let empty = CaptionWords()

    public subscript(field: CaptionField) -> String {
        get {
            switch field {
            case .title: title
            case .subtitle: subtitle
            }
        }
        set {
            switch field {
            case .title: title = newValue
            case .subtitle: subtitle = newValue
            }
        }
    }

    /// Nothing typed in any field.
    public var isEmpty: Bool { CaptionField.allCases.allSatisfy { self[$0].isEmpty } }

    /// The same caption with every field changed by `transform`.
    public func map(_ transform: (String) -> String) -> CaptionWords {
        CaptionWords { transform(self[$0]) }
    }
}
