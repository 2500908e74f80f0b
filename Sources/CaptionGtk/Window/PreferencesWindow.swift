// The Preferences window (Ctrl+comma, or Preferences in the main menu), four pages switched
// from its header bar (or Ctrl+Page Up and Down): the code replacements as a searchable
// list, the chosen row edited in two fields under it, removals undone with Ctrl+Z, and codes
// imported from Photo Mechanic; the standing credits; the form's fields (FieldsPage); the
// checks at Done (ChecksPage). All are saved as they change (GNOME's preferences apply at
// once, with no Apply button).

import CGtk
import CaptionLibrary
import CaptionMetadata
import CaptionText
import Localization
import Shorthand

@MainActor
final class PreferencesWindow {
    let window: Window
    /// A lasting line under the buttons: lines of the file Caption could not read, a
    /// file that could not be written.
    let status: Label
    /// What was just done, said as it appears (a removal, with Undo; an import; a search's
    /// count), as the main window says its saves.
    let notification: InAppNotification
    /// The Preferences window's own life, ended when it is destroyed.
    let lifetime = Lifetime()
    let builder = Builder(EmbeddedResources.preferencesUI)
    let list: TreeView
    let searchField: TextEntry
    let codeField: TextEntry
    let textField: TextEntry
    let removeButton: Button
    let addButton: Button
    let path: String
    /// Every row, in the file's order.
    var codes: CodeList
    /// The rows the list shows, by id, in order: all of them, or a search's matches.
    var shown: [Int] = []
    /// The list's model; a new one is filled for each search before it is attached, since
    /// rows inserted into an attached store make the view lay out again each time.
    var store: CodeStore
    /// Removed rows, the last on top, for Ctrl+Z.
    var removals: [CodeList.Removal] = []
    /// Set while the fields are filled from the list, so that filling is not an edit.
    var filling = false
    /// Set while a row is being removed: the remove button is renamed when focus next
    /// reaches it, not while a screen reader may still take it for the focus.
    var removing = false
    /// Typing is saved once it pauses: a roster of thousands of codes is not rewritten
    /// at every key.
    var pendingSave: SourceHandle?
    /// The rows changed since they were last written.
    var unsaved = false
    /// The search the list shows the matches of.
    var shownQuery = ""
    static let saveDelay: UInt32 = 400
    /// The table changed: the form uses it from the next key on.
    var onChange: ((ReplacementTable) -> Void)?
    /// The window closed.
    var onClose: (() -> Void)?
    /// Keys typed after Escape closed the window that the display server still gave it
    /// (before the main window had the keyboard back): they belong to the main window.
    var onKeyAfterClose: ((KeyPress) -> Bool)?
    /// Closed, and on screen only until the main window has the keyboard again.
    private(set) var isClosed = false
    /// The pages: codes, credits, the form's fields and checks.
    let pages: Stack
    /// The standing credits, or the stationery pad's in use.
    let creditsPage: CreditsPage
    /// The checks at Done, Preferences' or the pad's.
    let checksPage: ChecksPage
    /// The form's optional fields, turned on and arranged.
    let fieldsPage: FieldsPage

    init(
        over parent: Window, table: ReplacementTable, credits: StandingCredits = .none,
        path: String = ReplacementStore.defaultPath, creditsPath: String = CreditsFile.defaultPath
    ) {
        self.path = path
        notification = InAppNotification(lifetime: lifetime)
        codes = CodeList(table)
        window = Window.toplevel()
        parent.adopt(window)
        window.setDefaultSize(width: 600, height: 560)
        window.title = tr("Preferences")
        let header = HeaderBar(title: tr("Preferences"))
        header.setCustomTitle(builder["switcher", as: Widget.self])
        window.setTitlebar(header)
        pages = builder["pages"]
        let overlay = Widget.overlay()
        overlay.add(pages)
        overlay.addOverlay(notification.widget)
        window.setContent(overlay)
        list = builder["list"]
        searchField = builder["search"]
        codeField = builder["code"]
        textField = builder["text"]
        removeButton = builder["remove"]
        addButton = builder["add"]
        status = builder["status"]
        codeField.accessibleName = tr("Code")
        textField.accessibleName = tr("Text for the code")
        for field in [codeField, textField] {
            field.setPlaceholder(fill(tr("for example {example}"), ["example": field.placeholder]))
        }
        creditsPage = CreditsPage(builder, credits: credits, path: creditsPath, window: window, lifetime: lifetime)
        checksPage = ChecksPage(builder, path: creditsPath, pad: credits.pad, lifetime: lifetime)
        fieldsPage = FieldsPage(builder, path: creditsPath)
        store = CodeStore()
        showRows(matching: "")
        sayWhatThePageIs()
        let skipped = ReplacementStore.reading(path).skippedLines
        if !skipped.isEmpty {
            // Said, so that nobody takes the missing codes for lost ones.
            status.text = fill(
                tr("Lines {lines} of {file} are not codes Caption can read; they stay in the file as they are"),
                [
                    "lines": skipped.prefix(10).map(String.init).joined(separator: ", ")
                        + (skipped.count > 10 ? "…" : ""),
                    "file": path,
                ])
        }
        connectSignals()
    }

    private func connectSignals() {
        list.connect(.cursorChanged) { [weak self] in self?.showSelected() }
        // Enter on a row: its text is what is edited most.
        list.connect(.rowActivated) { [weak self] _ in self?.textField.grabFocus() }
        list.connect(.keyPress, after: false) { [weak self] event in
            let key = event.key
            guard let self, key == GDK_KEY_Delete || key == GDK_KEY_KP_Delete else { return false }
            self.removeSelected()
            return true
        }
        // Once typing pauses (GtkSearchEntry waits 150 ms): each key in a roster of 100,000
        // codes does not refill the list.
        searchField.connect(.searchChanged) { [weak self] in
            guard let self, self.searchField.text != self.shownQuery else { return }
            self.showRows(matching: self.searchField.text)
            self.sayMatches()
        }
        searchField.connect(.activate) { [weak self] in self?.focusList() }
        searchField.connect(.keyPress, after: false) { [weak self] event in
            guard let self, event.key == GDK_KEY_Down else { return false }
            self.focusList()
            return true
        }
        codeField.connect(.changed) { [weak self] in self?.edited() }
        textField.connect(.changed) { [weak self] in self?.edited() }
        codeField.connect(.activate) { [weak self] in self?.textField.grabFocus() }
        textField.connect(.activate) { [weak self] in self?.focusList() }
        removeButton.connect(.clicked) { [weak self] in self?.removeSelected() }
        // Named as focus reaches it, before a screen reader hears of the focus: renamed
        // while it has focus (its row removed), it would be read again with the next code,
        // as if that were what went.
        removeButton.connect(.focusIn) { [weak self] in
            self?.nameRemoveButton()
            return false
        }
        addButton.connect(.clicked) { [weak self] in self?.addCode() }
        addButton.clicksAtOnceByMnemonic()
        creditsPage.say = { [weak self] in self?.say($0) }
        let importButton: Button = builder["import"]
        importButton.connect(.clicked) { [weak self] in self?.chooseImport() }
        importButton.clicksAtOnceByMnemonic()
        window.connect(.keyPress, after: false) { [weak self] event in
            guard let self else { return false }
            if self.isClosed { return self.onKeyAfterClose?(event) ?? true }
            let key = event.key
            // A key that acts on the list acts on the matches of the search as typed, even
            // before the search's pause has passed.
            if Self.actsOnTheList(key), self.isShowingCodes, self.searchField.text != self.shownQuery {
                self.showRows(matching: self.searchField.text)
                self.sayMatches()
            }
            if key == GDK_KEY_Escape && self.creditsPage.padRow.isNaming {
                self.creditsPage.padRow.cancelNaming()
                return true
            }
            if key == GDK_KEY_Escape {
                // While the list is searched, Escape clears the search, as in GNOME's lists;
                // the next one closes.
                if !self.searchField.text.isEmpty {
                    self.searchField.text = ""
                    self.showRows(matching: "")
                    self.sayMatches()
                } else {
                    self.close()
                }
                return true
            }
            if (key == GDK_KEY_Page_Down || key == GDK_KEY_Page_Up) && event.has(GDK_CONTROL_MASK) {
                self.show(self.page(after: key == GDK_KEY_Page_Down ? 1 : -1))
                return true
            }
            // The codes' own keys; in the credits' fields, Ctrl+Z is the field's undo.
            guard self.isShowingCodes else { return false }
            if (key == GDK_KEY_z || key == GDK_KEY_Z) && event.has(GDK_CONTROL_MASK) {
                self.undoRemoval()
                return true
            }
            if key == GDK_KEY_f && event.has(GDK_CONTROL_MASK) {
                self.searchField.grabFocus()
                return true
            }
            return false
        }
        window.connect(.deleteEvent) { [weak self] in
            self?.saveNow()
            self?.creditsPage.saveNow()
            self?.notification.finish()
            self?.onClose?()
            return false
        }
        // Closed with the main window (Ctrl+Q): what was typed last is saved too, without a
        // word, since the widgets are going.
        window.connect(.destroy) { [weak self] in
            self?.notification.finish()
            self?.saveNow(reporting: false)
            self?.creditsPage.saveNow(reporting: false)
            self?.checksPage.saveNow()
            self?.lifetime.end()
        }
    }

    /// Opens in the search, as GNOME's settings do (Down or Tab goes to the first code), or
    /// on Add Code when there is none yet; either says what codes do.
    func present() {
        window.showAll()
        window.present()
        if shown.isEmpty { addButton.grabFocus() } else { searchField.grabFocus() }
    }

    enum Page: String, CaseIterable {
        case codes, credits, fields, checks
    }

    var isShowingCredits: Bool { pages.visibleChildName == Page.credits.rawValue }
    var isShowingCodes: Bool { pages.visibleChildName == Page.codes.rawValue }

    /// The page `step` pages on from the one shown, round from the last to the first.
    private func page(after step: Int) -> Page {
        let shown = Page.allCases.firstIndex { $0.rawValue == pages.visibleChildName } ?? 0
        let count = Page.allCases.count
        return Page.allCases[((shown + step) % count + count) % count]
    }

    /// Shows `page`, focus in its first field.
    func show(_ page: Page) {
        pages.visibleChildName = page.rawValue
        switch page {
        case .codes: if shown.isEmpty { addButton.grabFocus() } else { searchField.grabFocus() }
        case .credits: creditsPage.focus()
        case .checks: checksPage.focus()
        case .fields: fieldsPage.focus()
        }
    }

    /// Saves, and hands the keys it still gets to the main window (`onKeyAfterClose`); the
    /// owner destroys it once the main window has the keyboard. It stays on screen until
    /// then: unmapped at once, it would leave the keyboard to no window until the window
    /// manager gives it to the main one, and the keys typed meanwhile would go nowhere.
    func close() {
        guard !isClosed else { return }
        saveNow()
        creditsPage.saveNow()
        checksPage.saveNow()
        notification.finish()
        isClosed = true
        onClose?()
    }

    private static func actsOnTheList(_ key: Int32) -> Bool {
        [
            GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_Down, GDK_KEY_Up, GDK_KEY_Tab,
            GDK_KEY_ISO_Left_Tab, GDK_KEY_Page_Down, GDK_KEY_Page_Up,
        ].contains(key)
    }

    /// What the rows say now, as the form uses it: rows without a valid code are left out.
    var table: ReplacementTable { codes.table }
}
