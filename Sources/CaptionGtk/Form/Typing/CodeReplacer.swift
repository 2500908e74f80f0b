// Code replacements in the form's fields: a code followed by a space, a punctuation mark or
// Enter becomes its text (ReplacementTable decides what); Ctrl+Z right after puts the code
// back. Only what the user types or an input method commits is looked at: words the form
// puts in itself (another photo's, a draft) never change.

import Shorthand

@MainActor
final class CodeReplacer {
    var table: ReplacementTable
    private let entries: [TextEntry]
    /// The last replacement, while nothing else has changed its field: Ctrl+Z takes it back.
    private var last: (entry: WidgetID, match: Match)?
    /// Set while the replacer itself edits a field.
    private var replacing = false
    /// Set while the form puts words into a field itself.
    private var formSetsText = false
    /// A code was replaced in a field (undone: put back), for the form to say it: a screen
    /// reader does not read text a program puts into the field being typed in.
    var onReplaced: ((TextEntry, Match, _ undone: Bool) -> Void)?

    init(table: ReplacementTable, entries: [TextEntry]) {
        self.table = table
        self.entries = entries
        for entry in entries { watch(entry) }
    }

    private func watch(_ entry: TextEntry) {
        let key = entry.id
        entry.connect(.changed) { [weak self] in
            guard let self, !self.replacing, self.last?.entry == key else { return }
            self.last = nil  // anything typed after the replacement: too late to take it back
        }
        // After the entry's own handler: the character is in, and where the cursor goes
        // after it can still be moved.
        entry.connect(.textInserted) { [weak self] text, after in
            guard let self, !self.formSetsText, !self.replacing, let last = text.unicodeScalars.last,
                ReplacementTable.ends(last)
            else { return nil }
            // The code ends where the inserted text began (one key: one character, but an
            // input method may commit several, "，" or "。" among them).
            let end = Int(after) - text.unicodeScalars.count
            return self.replace(in: entry, endingAt: end).map { after + Int32($0) }
        }
    }

    /// Runs `body`, which sets a field's text: nothing in it is taken for a typed code.
    func whileFormSetsText(_ body: () -> Void) {
        formSetsText = true
        defer { formSetsText = false }
        body()
    }

    /// Enter in a field: a code right before the cursor is replaced before the form reads it.
    func replaceAtCursor(of entry: TextEntry) {
        let cursor = entry.caret
        guard let shift = replace(in: entry, endingAt: cursor) else { return }
        entry.caret = cursor + shift
    }

    /// Replaces the code that ends at `end` in `entry`, if any; returns how far the text
    /// after it moved (characters).
    private func replace(in entry: TextEntry, endingAt end: Int) -> Int? {
        guard end > 0, let match = table.match(in: entry.text, endingAt: end) else { return nil }
        replacing = true
        defer { replacing = false }
        entry.deleteText(from: match.start, to: end)
        entry.insertText(match.text, at: match.start)
        last = (entry.id, match)
        onReplaced?(entry, match, false)
        return match.textLength - match.codeLength
    }

    /// Ctrl+Z: puts the code back if the last replacement is still as it was made. Returns
    /// whether it did (else Ctrl+Z undoes a save, as before).
    func undo(focus: Widget?) -> Bool {
        guard let last, let entry = entries.first(where: { $0.id == last.entry }),
            entry.id == focus?.id, let text = last.match.undone(in: entry.text)
        else { return false }
        let cursor = entry.caret
        replacing = true
        entry.text = text
        replacing = false
        self.last = nil
        let moved = cursor - (last.match.textLength - last.match.codeLength)
        entry.caret = max(moved, last.match.start + last.match.codeLength)
        onReplaced?(entry, last.match, true)
        return true
    }
}
