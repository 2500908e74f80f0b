// Which optional fields the window's form shows, and in what order: chosen in Preferences,
// kept in the settings file beside the credits.

import CaptionText

/// The optional fields in the order the user arranged them, and those turned on. The form
/// shows Title and Subtitle, then the ones turned on in this order.
public struct FormChoices: Sendable, Equatable {
    /// Every optional field, each once.
    public private(set) var order: [CaptionField]
    public var on: Set<CaptionField>

    /// `order`: fields the user arranged; the rest follow in CaptionField's order. Required
    /// fields, and a field named twice, are left out.
    public init(order: [CaptionField] = [], on: Set<CaptionField> = []) {
        var arranged: [CaptionField] = []
        for field in order + CaptionField.optional where field.isOptional && !arranged.contains(field) {
            arranged.append(field)
        }
        self.order = arranged
        self.on = on.filter(\.isOptional)
    }

    /// The fields the form shows after Title and Subtitle, in order.
    public var shown: [CaptionField] { order.filter(on.contains) }

    /// Moves `field` `step` places (−1: up), within the list; false where it cannot go.
    @discardableResult
    public mutating func move(_ field: CaptionField, by step: Int) -> Bool {
        guard let from = order.firstIndex(of: field), order.indices.contains(from + step) else { return false }
        order.swapAt(from, from + step)
        return true
    }
}
