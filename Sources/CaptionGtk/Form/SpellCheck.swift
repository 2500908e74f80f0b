// Spell-checking in the form's fields with gspell: misspelt words underlined as they are
// typed, in the language of the user's locale, with suggestions in the field's context menu
// (Shift+F10 or the Menu key). It draws and adds menu items only: Enter, Tab and typing
// are untouched. On by default; the main menu's switch turns it off, remembered.

import CGspell
import CGtk

@MainActor
final class SpellCheck {
    private let fields: [OpaquePointer]

    init(entries: [TextEntry]) {
        fields = entries.compactMap { (entry) -> OpaquePointer? in
            // The GspellEntry belongs to the GtkEntry and lives as long as it does.
            guard let spell = gspell_entry_get_from_gtk_entry(caption_entry(entry.pointer)) else { return nil }
            // A checker for the locale's language (gspell_language_get_default) on the
            // entry's buffer, and inline checking on.
            gspell_entry_basic_setup(spell)
            return spell
        }
    }

    /// Whether misspelt words are marked, and suggestions offered.
    var isOn: Bool = true {
        didSet {
            for field in fields {
                gspell_entry_set_inline_spell_checking(field, isOn ? 1 : 0)
            }
        }
    }
}
