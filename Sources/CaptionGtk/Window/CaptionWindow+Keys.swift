// Keys no widget took (Ctrl+V, Escape), the view made ready before each key, and files
// and images dropped on the window.

import CGtk

extension CaptionWindow {
    /// Keys no widget took: Ctrl+V where no field pastes (the photo or the activate button
    /// has focus), and Escape, connected after the window's own handler, which gives the key
    /// to the focused widget (an input method, a popup) first.
    func connectKeys() {
        window.connect(.notify("is-active")) { [weak self] _ in
            guard let self, self.window.isActive else { return }
            self.keysGoToPreferences = false
            // Keys still kept for a Preferences that never had the keyboard go to it first.
            if let preferences = self.preferences { self.keysForPreferences.release(to: preferences.window) }
            self.dropClosedPreferences()
        }
        // Before any widget or input method sees a key, the view is made what the keys
        // before it left it: the form's photo words read (FormController.beforeKey), the
        // library's search answered (LibraryController.answerSearch). It takes no key.
        window.connect(.keyPress, after: false) { [weak self] event in
            guard let self else { return false }
            if self.keysGoToPreferences, let preferences = self.preferences {
                self.passToPreferences(event, preferences)
                return true
            }
            if self.isShowingLibrary {
                self.libraryController.answerSearch(before: event)
            } else {
                self.form.beforeKey()
                if self.messages.takesMnemonic(event) { return true }
            }
            return false
        }
        window.connect(.keyPress, after: true) { [weak self] event in
            guard let self else { return false }
            let key = event.key
            if key == GDK_KEY_v || key == GDK_KEY_V, event.has(GDK_CONTROL_MASK) {
                if !self.form.pastePhoto() { self.window.errorBell() }
                return true
            }
            guard key == GDK_KEY_Escape else { return false }
            if self.isShowingLibrary {
                self.libraryController.escape()
            } else if self.form.zoom.isZoomed {
                // What the user last asked for goes first.
                self.form.zoom.zoomOut(saying: true)
            } else if self.messages.isShowing {
                self.messages.dismiss()
            } else if self.notification.isShowing {
                self.notification.hide()
            } else {
                return false
            }
            return true
        }
    }

    /// Files and image data dropped anywhere on the window join the queue.
    func acceptDrops() {
        window.acceptFileAndImageDrops()
        window.connect(.dragDataReceived) { [weak self] selection in
            self?.form.receive(PhotoIntake.dropped(uris: selection.uris, image: selection.image))
        }
    }
}
