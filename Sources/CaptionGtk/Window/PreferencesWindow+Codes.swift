// The Preferences window's code replacements: the list and its search, a row's edits,
// removals and their undo, saving as they change, and Photo Mechanic's files imported.

import CaptionLibrary
import CaptionText
import Localization
import Shorthand

extension PreferencesWindow {
    // MARK: The list

    /// Fills a new store with the rows matching `query` and shows it.
    func showRows(matching query: String) {
        shownQuery = query
        let indices = codes.indices(matching: query)
        shown = indices.map { codes.rows[$0].id }
        let fresh = CodeStore()
        for (position, index) in indices.enumerated() {
            fresh.insert(code: codes.rows[index].code, text: codes.rows[index].text, at: position)
        }
        list.setModel(fresh)
        store = fresh
        if !shown.isEmpty { list.select(row: 0) }
        showSelected()
    }

    var selectedRowID: Int? {
        list.selectedRow.flatMap { shown.indices.contains($0) ? shown[$0] : nil }
    }

    func focusList() {
        guard !shown.isEmpty else { return }
        if list.selectedRow == nil { list.select(row: 0) }
        list.grabFocus()
    }

    /// The list's name says how many codes there are.
    func sayWhatThePageIs() {
        list.accessibleName = fill(
            trn("Code Replacements, {count} code", "Code Replacements, {count} codes", codes.count),
            ["count": String(codes.count)])
        // Where the page opens: said after the field's name, as the page's instructions.
        let about = builder["about", as: Label.self].text
        searchField.accessibleDescription = about
        addButton.accessibleDescription = about
    }

    func sayMatches() {
        let query = searchField.text
        guard !query.allSatisfy(\.isWhitespace) else {
            return say(
                fill(
                    trn("Search cleared: {count} code", "Search cleared: {count} codes", shown.count),
                    ["count": String(shown.count)]))
        }
        say(
            shown.isEmpty
                ? fill(tr("No code matches “{query}”"), ["query": query])
                : fill(
                    trn("{count} code matches “{query}”", "{count} codes match “{query}”", shown.count),
                    ["count": String(shown.count), "query": query]))
    }

    /// Shows and says what was just done; with Undo, for a removal.
    func say(_ text: String, undo: Bool = false) {
        notification.show(text, button: undo ? .undo : nil, action: { [weak self] in self?.undoRemoval() })
    }

    /// What the notification says now.
    var message: String { notification.isShowing ? notification.text : "" }

    /// The selected row into the fields, and the remove button named after its code.
    func showSelected() {
        let row = selectedRowID.flatMap(codes.row)
        filling = true
        codeField.text = row?.code ?? ""
        textField.text = row?.text ?? ""
        filling = false
        for widget in [codeField.asWidget, textField.asWidget, removeButton.asWidget] {
            widget.isSensitive = row != nil
        }
        if window.focus?.id != removeButton.id && !removing { nameRemoveButton() }
    }

    func nameRemoveButton() {
        let code = selectedRowID.flatMap(codes.row)?.code ?? ""
        let name = code.isEmpty ? tr("Remove the code") : fill(tr("Remove the code {code}"), ["code": code])
        removeButton.accessibleName = name
        removeButton.setTooltip(name)
    }

    // MARK: Edits

    /// The fields changed: the row takes their words, in the list and, once typing pauses,
    /// in the file.
    func edited() {
        guard !filling, let id = selectedRowID, let position = list.selectedRow else { return }
        let code = codeField.text
        let text = textField.text
        codes.update(id, code: code, text: text)
        store.set(code: code, text: text, row: position)
        unsaved = true
        scheduleSave()
    }

    func addCode() {
        if !shownQuery.isEmpty {
            searchField.text = ""
            showRows(matching: "")
        }
        let row = codes.append()
        shown.append(row.id)
        store.insert(code: "", text: "", at: shown.count - 1)
        list.select(row: shown.count - 1)
        sayWhatThePageIs()
        codeField.grabFocus()
        // Said whichever way it came (its mnemonic moved focus without a word).
        say(tr("New code: type it, then Tab to its text"))
    }

    /// Removes the selected row, says which, and offers it back (Ctrl+Z or Undo). Focus
    /// goes to the row that took its place, so that the list is where the user still is.
    func removeSelected() {
        guard let id = selectedRowID, let position = list.selectedRow, let removal = codes.remove(id) else { return }
        removals.append(removal)
        shown.remove(at: position)
        sayWhatThePageIs()
        // Focus leaves the remove button before the row goes, so that its new name (the
        // next code's) is not read as if it were what was removed.
        if shown.isEmpty { addButton.grabFocus() } else { list.grabFocus() }
        removing = true
        store.remove(row: position)
        if !shown.isEmpty { list.select(row: min(position, shown.count - 1)) }
        showSelected()
        removing = false
        saveChanges()
        let code = removal.row.code.isEmpty ? tr("an empty code") : removal.row.code
        say(fill(tr("Removed {code}"), ["code": code]), undo: true)
    }

    func undoRemoval() {
        guard let removal = removals.popLast() else { return say(tr("Nothing to undo")) }
        codes.restore(removal)
        showRows(matching: searchField.text)
        if let position = shown.firstIndex(of: removal.row.id) { list.select(row: position) }
        sayWhatThePageIs()
        saveChanges()
        focusList()
        let code = removal.row.code.isEmpty ? tr("The empty code") : removal.row.code
        say(fill(tr("{code} is back"), ["code": code]))
    }

    // MARK: Saving

    private func scheduleSave() {
        pendingSave?.cancel()
        pendingSave = lifetime.after(milliseconds: Self.saveDelay) { [weak self] in self?.saveNow() }
    }

    /// A change the user made at once (a removal, its undo, an import): written now.
    private func saveChanges() {
        unsaved = true
        saveNow()
    }

    /// Writes what the rows say now, if they changed since the last time, and tells the form.
    func saveNow(reporting: Bool = true) {
        pendingSave?.cancel()
        pendingSave = nil
        guard unsaved else { return }
        unsaved = false
        let table = codes.table
        if let problem = ReplacementStore.save(table, to: path), reporting { status.text = problem }
        onChange?(table)
    }

    /// Shows the credits now in use (another pad was chosen, here or in the window), and
    /// the checks that apply with them.
    func showCredits(_ credits: StandingCredits) {
        creditsPage.show(credits)
        checksPage.show(pad: credits.pad)
    }

    // MARK: Import

    func chooseImport() {
        NativeChooser.open(
            title: tr("Import Code Replacements"), accept: tr("_Import"), cancel: tr("_Cancel"), over: window
        ) { [weak self] paths in
            if let path = paths.first { self?.importFile(path) }
        }
    }

    /// Adds a Photo Mechanic file's codes (a code already here takes the file's text) and
    /// says how many came and which lines were passed over.
    func importFile(_ path: String) {
        switch ReplacementStore.importPhotoMechanic(path) {
        case .failure(let problem):
            say(problem.message)
        case .success(let reading):
            codes.merge(reading.table)
            showRows(matching: searchField.text)
            sayWhatThePageIs()
            saveChanges()
            var said = tr("Imported {count} codes").replacing("{count}", with: String(reading.table.rows.count))
            if !reading.skippedLines.isEmpty {
                said +=
                    ". "
                    + tr("Lines passed over (no code and text): {lines}").replacing(
                        "{lines}", with: reading.skippedLines.prefix(10).map(String.init).joined(separator: ", "))
            }
            say(said)
        }
    }
}
