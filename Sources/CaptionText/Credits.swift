// Standing credits: who made a photo and who may use it, set once and written with every
// caption. A new credit is a new case here; every writer and store follows the cases.

/// One standing credit, in the order Preferences and the command line give them. Its raw
/// value names it where credits are stored by name: the settings file's key, the library's
/// column (with `credit_` in front), the command line's flag.
public enum CreditField: String, CaseIterable, Sendable, Hashable {
    case creator
    case creditLine = "credit_line"
    case copyright
    case source
    case city
    case country
    case countryCode = "country_code"
}

/// The standing credits of one caption, and whether they replace what a photo already says.
public struct Credits: Sendable, Hashable {
    private var values: [CreditField: String]
    /// A photo's own value for a credit (its Creator, its copyright notice) is kept unless
    /// this is set: then the credits here replace it.
    public var replacesPhotos: Bool
    /// The stationery pad they were taken from; nil: the standing credits. Kept with each
    /// saved entry; never written into a photo.
    public var pad: String?
    /// A stationery pad's words for optional caption fields (an event, a job ID, special
    /// instructions): a caption saved with these credits takes them in each such field it
    /// leaves empty. Required fields and blank words are left out.
    public var fieldWords: [CaptionField: String] {
        didSet { fieldWords = Self.kept(fieldWords) }
    }

    public init(
        _ values: [CreditField: String] = [:], replacesPhotos: Bool = false, pad: String? = nil,
        fieldWords: [CaptionField: String] = [:]
    ) {
        self.values = values.filter { !Self.isBlank($0.value) }
        self.replacesPhotos = replacesPhotos
        self.pad = pad
        self.fieldWords = Self.kept(fieldWords)
    }

    /// The words a pad may hold: an optional field's, not blank.
    private static func kept(_ words: [CaptionField: String]) -> [CaptionField: String] {
        words.filter { $0.key.isOptional && !isBlank($0.value) }
    }

    public static let none = Credits()

    /// The credit's text; "" when it is not set.
    public subscript(field: CreditField) -> String {
        get { values[field] ?? "" }
        set { values[field] = Self.isBlank(newValue) ? nil : newValue }
    }

    /// Text that would show nothing counts as no credit.
    private static func isBlank(_ text: String) -> Bool { text.allSatisfy(\.isWhitespace) }

    /// No credit set, and no words for a field.
    public var isEmpty: Bool { values.isEmpty && fieldWords.isEmpty }

    /// The optional fields the pad has words for, in `CaptionField`'s order.
    public var filledFields: [CaptionField] { CaptionField.optional.filter { fieldWords[$0] != nil } }

    /// "Event: League final", one for each field the pad has words for, as the line under
    /// the form and `--credits` name them; `t` translates the fields' names.
    public func fieldWordLines(_ t: (String) -> String) -> [String] {
        filledFields.map { $0.names(t).name + ": " + (fieldWords[$0] ?? "") }
    }

    /// `words` with each optional field it leaves empty taken from `fieldWords`.
    public func filling(_ words: CaptionWords) -> CaptionWords {
        var filled = words
        for (field, text) in fieldWords where words[field].isEmpty { filled[field] = text }
        return filled
    }

    /// The credits that are set, in `CreditField`'s order.
    public var setFields: [CreditField] { CreditField.allCases.filter { values[$0] != nil } }

    /// The same credits with every text changed by `transform`; a credit it gives nil for
    /// is left out.
    public func compactMap(_ transform: (CreditField, String) -> String?) -> Credits {
        var mapped = Credits(replacesPhotos: replacesPhotos, pad: pad, fieldWords: fieldWords)
        for field in setFields { mapped[field] = transform(field, self[field]) ?? "" }
        return mapped
    }

    /// What goes into a photo that already says `own`: every credit, when these replace
    /// the photo's; else only those the photo has no value for.
    public func leavingOut(_ own: Set<CreditField>) -> Credits {
        guard !replacesPhotos else { return self }
        return compactMap { field, text in own.contains(field) ? nil : text }
    }

    /// The credits that speak for whoever made the photo: written into a photo another
    /// creator made, they would claim it for someone else.
    public static let authorship: Set<CreditField> = [.creditLine, .copyright, .source]

    /// What goes into a photo whose own credits are `own` (each one's text there): as
    /// `leavingOut(_:)`, and where the photo names a creator these credits do not (another
    /// photographer's picture on the desk), the credits of authorship go too, so that it
    /// never gets this desk's copyright notice under its own creator's name.
    public func leavingOut(own: [CreditField: String]) -> Credits {
        guard !replacesPhotos else { return self }
        return leavingOut(Set(own.keys).union(namesAnotherCreator(own) ? Self.authorship : []))
    }

    /// Whether a photo whose own credits are `own` names a creator other than these
    /// credits' (compared without case or surrounding space).
    public func namesAnotherCreator(_ own: [CreditField: String]) -> Bool {
        guard let theirs = own[.creator] else { return false }
        func plain(_ text: String) -> String { text.trimmingWhitespace().lowercased() }
        return plain(theirs) != plain(self[.creator])
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
