// Spell-checking in the form's fields with gspell: misspelt words underlined as they are
// typed, in the language of the user's locale, with suggestions in the field's context menu
// (Shift+F10 or the Menu key). It draws and adds menu items only: Enter, Tab and typing
// are untouched. On by default; the main menu's switch turns it off, remembered.

@MainActor
final class SpellCheck {
    private let entries: [TextEntry]
    private var fields: [SpellingEntry] = []
    private var started = false

    /// gspell's first checker loads enchant and the language's dictionary, which cost
    /// start-up about a fifth of its time and 6 MB in front of the first frame (`make
    /// bench`): the fields are set up once the first of them has been drawn, after that
    /// frame.
    init(entries: [TextEntry]) {
        self.entries = entries
        entries.first?.afterFirstDraw { [weak self] in self?.start() }
    }

    /// Sets the fields up now, if they are not yet. Without gspell (not installed), the
    /// fields work as they are, unchecked.
    func start() {
        guard !started else { return }
        started = true
        fields = entries.compactMap(SpellingEntry.init)
        if !isOn { apply() }
    }

    /// Whether misspelt words are marked, and suggestions offered.
    var isOn: Bool = true {
        didSet { apply() }
    }

    private func apply() {
        for field in fields { field.setChecking(isOn) }
    }
}
