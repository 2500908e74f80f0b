// Settling the input method: before the form is read or changes what it shows (a save,
// another photo, the library, Undo, closing), or focus leaves a field, an open composition in a field is committed
// into that field, as it shows, the way a focus change commits it. So what the user sees in
// a field is what is saved, and it stays with its photo.
//
// Input methods differ: fcitx5 commits on reset, but later (its answer comes over D-Bus,
// after the form has moved on); ibus and GTK's simple method throw the composition away.
// So the settler keeps the composition each field shows (GtkEntry's preedit-changed),
// ends it in the input method itself, and when the text did not arrive at once it commits
// the words itself; an input method's own commit of the same words that comes before the
// user types in that field again (a key, or a new composition) is its late one, and is
// swallowed. Once the user types, every commit is theirs: no time decides it.
//
// Ending the composition: GTK 3 passes a reset on to the input method only when the field
// saw a key the method took since the last reset, and a reset it skips leaves the
// composition open inside the method, to reappear on the next photo. Making the field
// read-only for a moment tells the method the field lost its input (GTK calls its
// focus-out) whatever GTK thinks, without moving the keyboard focus; the reset follows.

@MainActor
final class InputMethodSettler {
    private let entries: [TextEntry]
    /// What each field shows as its composition now (empty: none), by engine item order.
    private var shown: [WidgetID: String] = [:]
    /// Words committed here on the input method's behalf, which it may still send itself
    /// until the user types again in that field.
    private var lateCommit: (entry: WidgetID, text: String)?
    /// The form is putting words into a field itself (another photo's): not a commit.
    private var formSetsText = false

    init(entries: [TextEntry]) {
        self.entries = entries
        for entry in entries { watch(entry) }
    }

    private func watch(_ entry: TextEntry) {
        let key = entry.id
        entry.connect(.preeditChanged) { [weak self] shown in
            guard let self else { return }
            self.shown[key] = shown
            // A new composition is the user typing again: what the method commits from now
            // on is theirs. (ibus takes keys before the field sees them, so the composition
            // is where typing shows.)
            if !shown.isEmpty, self.lateCommit?.entry == key { self.lateCommit = nil }
        }
        entry.connect(.insertText) { [weak self] text in
            guard let self, !self.formSetsText, let late = self.lateCommit, late.entry == key else { return false }
            self.lateCommit = nil
            return text == late.text  // already committed by settle(_:)
        }
        // Focus leaving by the mouse (the Library tab, the main menu, another window):
        // the composition is committed into its field before the entry tells the input
        // method, which some methods (ibus-libpinyin) answer by throwing it away.
        entry.connect(.focusOut) { [weak self] in
            if let self, self.composition(in: entry) != nil { self.settle(entry) }
            return false
        }
        // A key in the field: what the input method commits from now on is the user's.
        entry.connect(.keyPress, after: false) { [weak self] _ in
            if self?.lateCommit?.entry == key { self?.lateCommit = nil }
            return false
        }
    }

    /// Runs `body`, which sets a field's text: what it inserts is never taken for a late
    /// commit.
    func whileFormSetsText(_ body: () -> Void) {
        formSetsText = true
        defer { formSetsText = false }
        body()
    }

    /// The composition `entry` shows now, if any.
    func composition(in entry: TextEntry) -> String? {
        shown[entry.id].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Commits any open composition into its field, as it shows: the focused field's, and
    /// any other that still shows one.
    func settle(focus: Widget?) {
        for entry in entries where entry.id == focus?.id || composition(in: entry) != nil {
            settle(entry)
        }
    }

    /// Ends the composition in `entry`, its words committed at the cursor as they show.
    private func settle(_ entry: TextEntry) {
        let composition = self.composition(in: entry)
        let before = entry.text
        if composition != nil { entry.endInputMethodInput() }
        entry.resetInputMethod()
        guard let composition else { return }
        shown[entry.id] = ""
        // Some input methods commit during the reset itself: then the words are in.
        guard entry.text == before else { return }
        entry.caret = entry.insertText(composition, at: entry.caret)
        lateCommit = (entry.id, composition)
    }
}
