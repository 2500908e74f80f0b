// Saving the form into the library off the main thread, emptying it for the next photo, and
// Undo.

import CGtk
import CaptionLibrary
import FocusEngine
import Localization

extension CaptionWindow {
    // MARK: Saving

    func save(_ submission: Submission) {
        guard let path = photoPath else { return }
        let title = submission.values[CaptionForm.title]
        let subtitle = submission.values[CaptionForm.subtitle]
        isSaving = true
        gtk_widget_set_sensitive(activateButton, 0)
        let loaded = loadedPhoto
        // Editing a saved entry updates its words; its photo is already in the library.
        let editedID = editing?.entry.id
        library.perform({ library throws(LibraryError) in
            if let editedID { return try library.update(id: editedID, title: title, subtitle: subtitle) }
            if let loaded { return try library.add(loaded, title: title, subtitle: subtitle) }
            return try library.add(photoAt: path, title: title, subtitle: subtitle)
        }, completion: { [weak self] result in
            guard let self else { return }
            self.isSaving = false
            gtk_widget_set_sensitive(self.activateButton, 1)
            switch result {
            case .success(let entry) where editedID != nil:
                self.edited(entry)
                self.onSaved?(entry)
            case .success(let entry):
                self.saved(entry, from: path)
            case .failure(let error):
                // Everything typed stays; the library says what went wrong.
                self.saveError = error.message
                self.refresh()
            }
        })
    }

    func saved(_ entry: Entry, from path: String) {
        // The saved photo leaves the queue; the next one, if any, takes its place.
        queue.removeCurrent()
        showCurrentPhoto()
        notification.show(tr("Saved “{title}”").replacing("{title}", with: entry.title)) { [weak self] in
            self?.undo(entry, from: path)
        }
        onSaved?(entry)
    }

    /// Empties the form when no photo is left to caption.
    func clearForm() {
        loadedPhoto = nil
        photoRequest += 1
        preview.clear()
        gtk_label_set_text(caption_label(photoName), "")
        settingText = true
        gtk_entry_set_text(caption_entry(titleEntry), "")
        gtk_entry_set_text(caption_entry(subtitleEntry), "")
        settingText = false
        send(.clear)
        refreshPosition()
    }

    /// Undo of a save: the entry leaves the library, and its photo and words come back to
    /// the form in front of whatever the user moved on to (whose words are kept).
    func undo(_ entry: Entry, from path: String) {
        settleInputMethod()
        library.perform({ library throws(LibraryError) in
            _ = try library.remove(id: entry.id)
        }, completion: { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result {
                self.saveError = error.message
                self.refresh()
                return
            }
            self.queue.keep(title: self.text(of: self.titleEntry), subtitle: self.text(of: self.subtitleEntry))
            self.queue.restore(QueuedPhoto(path: path, title: entry.title, subtitle: entry.subtitle))
            self.showCurrentPhoto()
        })
    }

    func setText(_ entry: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        inputMethods.whileWindowSetsText { gtk_entry_set_text(caption_entry(entry), text) }
    }
}
