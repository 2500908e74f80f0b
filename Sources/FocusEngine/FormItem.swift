// The items a form is made of, and what makes each one complete.

/// One item of a form, in form order: a text field with a length limit, or a photo.
public struct FormItem: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A text field; `limit` counts grapheme clusters of the normalised value.
        case text(limit: Int)
        case photo
    }

    /// The name at the start of a sentence ("Title"), already translated by the caller.
    public var name: String
    /// The name inside a sentence ("title"), for messages that name several items.
    public var nameInSentence: String
    public var kind: Kind
    /// A text item that may stay empty. Enter still leads to it once per photo, so a desk
    /// that turned a field on reaches it without the mouse; after that, it waits for no one.
    public var isOptional: Bool

    public init(name: String, nameInSentence: String? = nil, kind: Kind, isOptional: Bool = false) {
        self.name = name
        self.nameInSentence = nameInSentence ?? name
        self.kind = kind
        self.isOptional = isOptional
    }

    public static func text(
        _ name: String, _ nameInSentence: String? = nil, limit: Int, isOptional: Bool = false
    ) -> FormItem {
        FormItem(name: name, nameInSentence: nameInSentence, kind: .text(limit: limit), isOptional: isOptional)
    }

    public static func photo(_ name: String) -> FormItem {
        FormItem(name: name, kind: .photo)
    }

    public var isText: Bool {
        if case .text = kind { return true }
        return false
    }
}

/// Where a photo item stands. Only the GTK layer (or the command line) knows the file;
/// the engine needs to know whether it counts.
public enum PhotoState: Sendable, Hashable {
    case empty
    /// Being decoded. Counts as complete for the label and for Enter routing, so a fast
    /// typist is never sent back to the photo button; a submit waits for the outcome.
    case loading
    case loaded
    /// Did not decode; the message names the problem ("Not an image: …").
    case failed(message: String)

    var countsAsComplete: Bool {
        switch self {
        case .loading, .loaded: return true
        case .empty, .failed: return false
        }
    }
}

/// Why an item is not complete.
public enum Problem: Sendable, Hashable {
    case required
    case tooLong(limit: Int)
    case noPhoto
    case photoFailed(message: String)
}
