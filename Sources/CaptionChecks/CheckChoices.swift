// Which checks a desk wants at Done and in caption --check: each may be switched off in
// Preferences, and a switch applies to the window and the command line alike.

/// A check as Preferences names it: the kinds of finding it makes.
public enum CaptionCheck: String, CaseIterable, Sendable {
    /// Placeholders, codes and variables left in.
    case leftovers
    case doubledWords = "doubled_words"
    /// Brackets and quotation marks not closed.
    case brackets
    /// Names spelt otherwise than the code replacements spell them.
    case names
    /// A description without a place or a date: off unless a desk asks for it.
    case dateline
    /// A headline not in Title Case: off unless a desk asks for it.
    case headlineCase = "headline_case"
}

extension CaptionFinding.Kind {
    public var check: CaptionCheck {
        switch self {
        case .placeholder, .unfilledVariable, .unreplacedCode: .leftovers
        case .doubledWord: .doubledWords
        case .unbalanced: .brackets
        case .nameNearMiss: .names
        case .noPlace, .noDate: .dateline
        case .notTitleCase: .headlineCase
        }
    }
}

/// The checks switched off. All are on unless the user switched one off, but the
/// dateline's and the headline's case: most captions are not a wire's, and they would speak
/// at every Done.
public struct CheckChoices: Sendable, Equatable {
    public var off: Set<CaptionCheck>

    public static let offByDefault: Set<CaptionCheck> = [.dateline, .headlineCase]

    public init(off: Set<CaptionCheck> = CheckChoices.offByDefault) { self.off = off }

    public func allows(_ check: CaptionCheck) -> Bool { !off.contains(check) }

    public subscript(check: CaptionCheck) -> Bool {
        get { allows(check) }
        set {
            if newValue { off.remove(check) } else { off.insert(check) }
        }
    }
}
