// When a text field shows how long its value is against its limit: past 80 % of it.

import CaptionText

/// The count beside a field ("112 / 120"), from 80 % of the limit on, counted as the
/// engine counts (grapheme clusters of the normalised value).
public struct LengthCounter: Sendable, Equatable {
    public let count: Int
    public let limit: Int

    /// The share of the limit from which the counter shows.
    public static let threshold = 0.8

    /// The counter for `text` in a field limited to `limit`, or nil while it is short.
    public init?(text: String, limit: Int) {
        let count = TextNormalization.length(TextNormalization.normalize(text))
        guard limit > 0, Double(count) > Double(limit) * Self.threshold else { return nil }
        self.count = count
        self.limit = limit
    }

    /// Over the limit: a save would be refused.
    public var isOver: Bool { count > limit }
}

extension FocusEngine {
    /// The counter of text item `item` as it stands, or nil (short, or not a text item).
    public func lengthCounter(for item: Int) -> LengthCounter? {
        guard items.indices.contains(item), case .text(let limit) = items[item].kind else { return nil }
        return LengthCounter(text: texts[item], limit: limit)
    }
}
