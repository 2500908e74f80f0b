// A caption's words: the one value the form, the queue, drafts, the library, photo metadata
// and the command line hand each other. A new text field is a new case of `CaptionField`.

/// One text field of a caption, in the form's order. Its raw value names it where words are
/// stored by name: the library's column, the draft file's key, `--list --json`'s key.
/// Title and Subtitle are every caption's; the others are the fields a desk turns on.
public enum CaptionField: String, CaseIterable, Sendable, Hashable {
    case title
    case subtitle
    case headline
    /// Several keywords in one text, separated by commas (`CaptionWords.keywords`).
    case keywords
    case altText = "alt_text"
    case extendedDescription = "extended_description"
    case event
    case instructions = "special_instructions"
    case jobID = "job_id"
    case sublocation
    case state

    /// Every caption has it; the form asks for it and a save waits for it.
    public static let required: [CaptionField] = [.title, .subtitle]
    /// The fields a desk may turn on, in the order the guide lists them.
    public static let optional: [CaptionField] = allCases.filter { !required.contains($0) }

    public var isOptional: Bool { !Self.required.contains(self) }

    /// The command line's option for it, without the dashes: `alt-text`.
    public var optionName: String { rawValue.replacing("_", with: "-") }

    /// Its name at the start of a sentence ("Job ID") and inside one ("job ID"), through
    /// `t`, the caller's translation.
    public func names(_ t: (String) -> String) -> (name: String, inSentence: String) {
        switch self {
        case .title: (t("Title"), t("title"))
        case .subtitle: (t("Subtitle"), t("subtitle"))
        case .headline: (t("Headline"), t("headline"))
        case .keywords: (t("Keywords"), t("keywords"))
        case .altText: (t("Alt Text"), t("alt text"))
        case .extendedDescription: (t("Extended Description"), t("extended description"))
        case .event: (t("Event"), t("event"))
        case .instructions: (t("Special Instructions"), t("special instructions"))
        case .jobID: (t("Job ID"), t("job ID"))
        case .sublocation: (t("Sublocation"), t("sublocation"))
        case .state: (t("State/Province"), t("state or province"))
        }
    }
}

/// The words of every field of one caption; "" where nothing was typed.
public struct CaptionWords: Sendable, Hashable {
    public var title: String
    public var subtitle: String
    /// The optional fields that hold words; a field set to "" is taken out, so two captions
    /// with the same words are equal.
    private var others: [CaptionField: String]

    public init(title: String = "", subtitle: String = "") {
        self.title = title
        self.subtitle = subtitle
        others = [:]
    }

    /// Each of `fields` from `words` (as a form hands over what it holds); "" in the others.
    public init(fields: [CaptionField] = CaptionField.allCases, _ words: (CaptionField) -> String) {
        self.init()
        for field in fields { self[field] = words(field) }
    }

    public static let empty = CaptionWords()

    public subscript(field: CaptionField) -> String {
        get {
            switch field {
            case .title: title
            case .subtitle: subtitle
            default: others[field] ?? ""
            }
        }
        set {
            switch field {
            case .title: title = newValue
            case .subtitle: subtitle = newValue
            // Keywords are kept as a list is written: "a, b, c", whatever separated them.
            case .keywords:
                let text = Self.keywordsText(Self.keywords(in: newValue))
                others[field] = text.isEmpty ? nil : text
            default: others[field] = newValue.isEmpty ? nil : newValue
            }
        }
    }

    /// Nothing typed in any field.
    public var isEmpty: Bool { title.isEmpty && subtitle.isEmpty && others.isEmpty }

    /// The optional fields that hold words, in `CaptionField`'s order.
    public var filledOptionalFields: [CaptionField] { CaptionField.optional.filter { others[$0] != nil } }

    /// The same caption with every field changed by `transform`.
    public func map(_ transform: (String) -> String) -> CaptionWords {
        CaptionWords { transform(self[$0]) }
    }

    /// These words with `fields` taken from `other`: what a form that shows only `fields`
    /// saves over a caption that may hold words in the others.
    public func replacing(_ fields: [CaptionField], from other: CaptionWords) -> CaptionWords {
        var words = self
        for field in fields { words[field] = other[field] }
        return words
    }

    /// The Keywords field's keywords, in order, each trimmed, none empty and none twice:
    /// the text is split at commas and semicolons, the ideographic and full-width ones too.
    public var keywords: [String] { Self.keywords(in: self[.keywords]) }

    public static func keywords(in text: String) -> [String] {
        var seen: Set<String> = []
        return text.split(whereSeparator: isKeywordSeparator)
            .map { String($0).trimmingWhiteSpace }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Commas and semicolons, the ideographic and full-width ones too.
    public static func isKeywordSeparator(_ character: Character) -> Bool {
        ",;\u{3001}\u{FF0C}\u{FF1B}".contains(character)
    }

    /// Keywords as the Keywords field holds them.
    public static func keywordsText(_ keywords: [String]) -> String { keywords.joined(separator: ", ") }
}
