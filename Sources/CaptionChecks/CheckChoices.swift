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
        case .noPlace, .noDate, .notAsDateline: .dateline
        case .notTitleCase: .headlineCase
        }
    }
}

/// The checks switched off. All are on unless the user switched one off, but the
/// dateline's and the headline's case: most captions are not a wire's, and they would speak
/// at every Done.
public struct CheckChoices: Sendable, Equatable {
    public var off: Set<CaptionCheck>
    /// How a description opens on this desk (`CITY, STATE - MONTH D:`), for the dateline
    /// check; empty: a place and a date anywhere in it, in the wire's order or not.
    public var datelinePattern: String

    public static let offByDefault: Set<CaptionCheck> = [.dateline, .headlineCase]

    public init(off: Set<CaptionCheck> = CheckChoices.offByDefault, datelinePattern: String = "") {
        self.off = off
        self.datelinePattern = datelinePattern
    }

    public func allows(_ check: CaptionCheck) -> Bool { !off.contains(check) }

    public subscript(check: CaptionCheck) -> Bool {
        get { allows(check) }
        set {
            if newValue { off.remove(check) } else { off.insert(check) }
        }
    }
}

/// A stationery pad's own checks: the switches it names override Preferences' while it is
/// in use (an agency's pad may ask for the dateline and Title Case, a local paper's not),
/// and its dateline pattern, when it has one, replaces the desk's. A check it does not name
/// follows Preferences.
public struct PadChecks: Sendable, Equatable {
    public var on: Set<CaptionCheck>
    public var off: Set<CaptionCheck>
    public var datelinePattern: String?

    public init(on: Set<CaptionCheck> = [], off: Set<CaptionCheck> = [], datelinePattern: String? = nil) {
        self.on = on
        self.off = off.subtracting(on)
        self.datelinePattern = datelinePattern
    }

    /// Every check as `choices` has it, with its pattern: what a pad takes when it is given
    /// checks of its own.
    public init(owning choices: CheckChoices) {
        self.init(
            on: Set(CaptionCheck.allCases.filter(choices.allows)), off: choices.off,
            datelinePattern: choices.datelinePattern)
    }

    public static let none = PadChecks()

    /// Whether the pad says anything of the checks.
    public var isEmpty: Bool { on.isEmpty && off.isEmpty && datelinePattern == nil }

    /// `choices` with the pad's switches and pattern over them.
    public func applied(to choices: CheckChoices) -> CheckChoices {
        var applied = choices
        applied.off.subtract(on)
        applied.off.formUnion(off)
        if let datelinePattern { applied.datelinePattern = datelinePattern }
        return applied
    }
}
