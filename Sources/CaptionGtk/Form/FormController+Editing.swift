// A saved entry opened on the form for editing, while the queue waits.

import CaptionLibrary
import CaptionText
import Localization

extension FormController {
    /// Opens a saved entry in the form: the same fields and the same Enter; Done updates it.
    /// `words`: what the form shows instead of the entry's (Edit Again after a failed update).
    func edit(_ entry: CaptionLibrary.Entry, photo path: String, words: CaptionWords? = nil) {
        settleInputMethod()
        if editing == nil { keepWords() }
        claims.letGo()
        editing = (entry, path)
        send(.clear)
        binding.show(words ?? entry.words)
        load(path)
        let editingWords = tr("Editing “{title}”").replacing("{title}", with: entry.title)
        header.subtitle = editingWords
        // The header's subtitle is not read when it changes: the notification is.
        notification.show(editingWords, details: tr("Enter updates the entry"))
    }

    /// An entry deleted from the library view has left it (its Undo expired).
    func removedFromLibrary(_ entry: CaptionLibrary.Entry) { aids.completionSource?.removed(entry) }
}
