// A section of the primary menu's radio items over names read again as the menu opens (the
// stationery pads, the destinations): a "none" item first, then one item a name; rebuilt
// when the names change, and in the menu only while there is any.

@MainActor
final class ChoiceSection {
    /// The items, for the menu to hold as a section.
    let menu = Menu()
    /// The names the items show, in order.
    private(set) var names: [String] = []
    /// Told when the section should appear in the menu (the first name) or go (the last).
    var onNeeded: ((Bool) -> Void)?
    private let action: String
    private let none: (label: String, word: String)
    private let label: (Int, String) -> String

    /// Items of the stateful action `action` ("win.…"): `none` first, then each name, its
    /// word the name itself and its label what `label` makes of its place and its name.
    init(action: String, none: (label: String, word: String), label: @escaping (Int, String) -> String) {
        self.action = action
        self.none = none
        self.label = label
    }

    /// The items for `names`, rebuilt only when they changed.
    func show(_ found: [String]) {
        guard found != names else { return }
        let had = !names.isEmpty
        names = found
        menu.removeAll()
        guard !found.isEmpty else {
            if had { onNeeded?(false) }
            return
        }
        menu.append(none.label, action: action, word: none.word)
        for (index, name) in found.enumerated() {
            menu.append(label(index, name), action: action, word: name)
        }
        if !had { onNeeded?(true) }
    }

    /// Underscores in a name are shown, not taken as mnemonics.
    static func escaped(_ name: String) -> String { name.replacing("_", with: "__") }
}
