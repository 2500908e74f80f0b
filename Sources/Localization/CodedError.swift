// A problem as Caption reports it: one translated line for people, a kind for code. The
// library's, the photo writer's and any later module's errors are this one type.

/// `message` is one line for the user, already translated; `kind` is for code (tests, the
/// window choosing where to show it, or what to offer instead).
public struct CodedError<Kind: Hashable & Sendable>: Error, Equatable, Sendable, CustomStringConvertible {
    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// Translates `template` first and fills `{key}` afterwards, so a translator may move
    /// the placeholders; an unknown key stays as written rather than losing words.
    public static func make(_ kind: Kind, _ template: String, _ values: [String: String] = [:]) -> Self {
        Self(kind, fill(tr(template), values))
    }
}
