// gspell's inline checking of one field, through the library opened when first needed.

import CGspell
import CGtk

/// A field's gspell entry: misspelt words underlined, suggestions in its context menu.
@MainActor
struct SpellingEntry {
    private let pointer: OpaquePointer
    private let gspell: caption_gspell

    /// Sets `entry` up for checking in the language of the user's locale, checking on; nil
    /// when gspell is not installed.
    init?(_ entry: TextEntry) {
        guard let gspell = caption_gspell()?.pointee,
            // The GspellEntry belongs to the GtkEntry and lives as long as it does.
            let pointer = gspell.entry_get_from_gtk_entry?(caption_entry(entry.pointer))
        else { return nil }
        self.gspell = gspell
        self.pointer = pointer
        // A checker for the locale's language (gspell_language_get_default) on the entry's
        // buffer, and inline checking on.
        gspell.entry_basic_setup?(pointer)
    }

    func setChecking(_ on: Bool) { gspell.entry_set_inline_spell_checking?(pointer, on ? 1 : 0) }
}
