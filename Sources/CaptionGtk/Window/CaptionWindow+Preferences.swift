// Preferences over the window, one at a time, and the keys typed while the keyboard
// moves between the two windows: none falls between them.

import CaptionLibrary
import CaptionText

extension CaptionWindow {
    func showPreferences() {
        keysGoToPreferences = true
        if let preferences { return preferences.window.present() }
        let preferences = PreferencesWindow(
            over: window, table: form.replacementTable, credits: form.standingCredits, creditsPath: creditsFile)
        preferences.onChange = { [weak self] table in self?.form.replacementTable = table }
        preferences.creditsPage.onChange = { [weak self] credits in self?.form.standingCredits = credits }
        preferences.creditsPage.onWritingChoicesChange = { WritingChoices.current = $0 }
        preferences.checksPage.onChange = { [weak self] in self?.form.checkChoices = $0 }
        preferences.fieldsPage.onChange = { [weak self] in self?.form.showFields($0) }
        preferences.creditsPage.onPadChosen = { [weak self] in self?.pads.choose($0) }
        preferences.onClose = { [weak self, weak preferences] in
            guard let self else { return }
            self.preferences = nil
            self.keysGoToPreferences = false
            // Closed by a key: kept on screen until the keyboard is here (closed by its
            // close button, GTK destroys it).
            if let preferences, preferences.isClosed { self.handBackTheKeyboard(from: preferences) }
        }
        preferences.onKeyAfterClose = { [weak self] event in
            guard let self else { return true }
            if self.window.isActive && self.keysForThisWindow.isEmpty { return self.window.handle(event) }
            self.keysForThisWindow.hold(event)
            return true
        }
        preferences.window.connect(.notify("is-active")) { [weak self, weak preferences] _ in
            guard let self, let preferences, preferences.window.isActive else { return }
            self.keysForPreferences.release(to: preferences.window)
        }
        self.preferences = preferences
        preferences.present()
    }

    /// A key typed for Preferences that came to this window: handed on at once once
    /// Preferences has the keyboard, else kept until it has.
    func passToPreferences(_ event: KeyPress, _ preferences: PreferencesWindow) {
        if preferences.window.isActive && keysForPreferences.isEmpty {
            preferences.window.handle(event)
            return
        }
        if keysForPreferences.isEmpty {
            _ = lifetime.after(milliseconds: Self.keyboardWait) { [weak self, weak preferences] in
                guard let self, let preferences else { return }
                self.keysForPreferences.release(to: preferences.window)
            }
        }
        keysForPreferences.hold(event)
    }

    func handBackTheKeyboard(from closed: PreferencesWindow) {
        dropClosedPreferences()
        closedPreferences = closed
        window.present()
        _ = lifetime.after(milliseconds: Self.keyboardWait) { [weak self, weak closed] in
            if let self, let closed, self.closedPreferences === closed { self.dropClosedPreferences() }
        }
    }

    /// This window has the keyboard (or waited long enough): the keys Preferences got after
    /// its Escape come here, in order, and Preferences goes.
    func dropClosedPreferences() {
        keysForThisWindow.release(to: window)
        closedPreferences?.window.destroy()
        closedPreferences = nil
    }
}
