// Spell-checking in the form's fields with gspell: misspelt words underlined as they are
// typed, in the language of the user's locale, with suggestions in the field's context menu
// (Shift+F10 or the Menu key). It draws and adds menu items only: Enter, Tab and typing
// are untouched. On by default; the main menu's switch turns it off, remembered.

import CGspell
import CGtk

@MainActor
final class SpellCheck {
    private let entries: [TextEntry]
    private var fields: [OpaquePointer] = []
    private var started = false
    /// gspell's functions, once it is opened.
    private var gspell: caption_gspell?

    /// gspell's first checker loads enchant and the language's dictionary, which cost
    /// start-up about a fifth of its time and 6 MB in front of the first frame (`make
    /// bench`): the fields are set up once the first of them has been drawn, after that
    /// frame.
    init(entries: [TextEntry]) {
        self.entries = entries
        entries.first?.pointer.afterFirstDraw { [weak self] in self?.start() }
    }

    /// Sets the fields up now, if they are not yet.
    func start() {
        guard !started else { return }
        started = true
        // Without gspell (not installed), the fields work as they are, unchecked.
        guard let gspell = caption_gspell()?.pointee else { return }
        self.gspell = gspell
        fields = entries.compactMap { (entry) -> OpaquePointer? in
            // The GspellEntry belongs to the GtkEntry and lives as long as it does.
            guard let spell = gspell.entry_get_from_gtk_entry?(caption_entry(entry.pointer)) else { return nil }
            // A checker for the locale's language (gspell_language_get_default) on the
            // entry's buffer, and inline checking on.
            gspell.entry_basic_setup?(spell)
            return spell
        }
        if !isOn { apply() }
    }

    /// Whether misspelt words are marked, and suggestions offered.
    var isOn: Bool = true {
        didSet { apply() }
    }

    private func apply() {
        for field in fields {
            gspell?.entry_set_inline_spell_checking?(field, isOn ? 1 : 0)
        }
    }
}
