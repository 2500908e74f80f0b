// The Credits page's stationery pad row: which pad the page edits (the one in use), a new
// pad named in place, and a pad imported from an XMP file such as a Photo Mechanic template.

import CaptionLibrary
import CaptionMetadata
import CaptionText
import Localization

@MainActor
final class PadRow {
    let list: ComboBox
    let newButton: Button
    let importButton: Button
    let nameRow: Box
    let nameField: TextEntry
    let createButton: Button
    private let folder: String
    private let window: Window
    /// The list is being refilled: its changes are not the user's choice.
    private var filling = false

    /// Told of a pad chosen, made or imported (nil: none, the standing credits): the
    /// window makes it the one in use, and the page shows its credits.
    var onChoose: ((String?) -> Void)?
    /// The credits as the page shows them, saved: a new pad starts as a copy of them.
    var takeCredits: (() -> Credits)?
    /// Said in the page's notification.
    var onSay: ((String) -> Void)?

    init(_ builder: Builder, folder: String, inUse: String?, window: Window) {
        self.folder = folder
        self.window = window
        list = builder["credits_pad"]
        newButton = builder["credits_new_pad"]
        importButton = builder["credits_import_pad"]
        nameRow = builder["credits_new_pad_row"]
        nameField = builder["credits_new_pad_name"]
        createButton = builder["credits_create_pad"]
        nameField.accessibleName = tr("Name of the new pad")
        nameField.setPlaceholder(fill(tr("for example {example}"), ["example": nameField.placeholder]))
        show(inUse: inUse)
        list.connect(.changed) { [weak self] in
            guard let self, !self.filling, let id = self.list.activeID else { return }
            self.onChoose?(id.isEmpty ? nil : id)
        }
        newButton.connect(.clicked) { [weak self] in self?.startNaming() }
        newButton.clicksAtOnceByMnemonic()
        importButton.connect(.clicked) { [weak self] in self?.chooseFile() }
        importButton.clicksAtOnceByMnemonic()
        nameField.connect(.activate) { [weak self] in self?.create() }
        createButton.connect(.clicked) { [weak self] in self?.create() }
        createButton.clicksAtOnceByMnemonic()
    }

    /// The pads as they are on disk, `inUse` chosen.
    func show(inUse: String?) {
        filling = true
        defer { filling = false }
        list.removeAll()
        list.append(id: "", tr("No pad: the standing credits"))
        for name in StationeryPads.names(in: folder) { list.append(id: name, name) }
        list.activeID = inUse ?? ""
    }

    var isNaming: Bool { nameRow.isVisible }

    private func startNaming() {
        nameField.text = ""
        nameRow.isVisible = true
        nameField.grabFocus()
    }

    /// Escape while a new pad is named: the naming ends, and the button that began it has
    /// the keyboard again.
    func cancelNaming() {
        nameRow.isVisible = false
        newButton.grabFocus()
    }

    /// The pad named in the field, made with the page's credits, and chosen.
    private func create() {
        let typed = nameField.text
        // Spaces around the name are the field's, not the pad's.
        let name = String(typed.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if let reason = StationeryPads.isAcceptable(name) { return onSay?(reason) ?? () }
        guard !StationeryPads.names(in: folder).contains(name) else {
            onSay?(fill(tr("There is a stationery pad “{pad}” already"), ["pad": name]))
            return
        }
        let credits = takeCredits?() ?? .none
        if let problem = StationeryPads.save(credits, as: name, in: folder) { return onSay?(problem) ?? () }
        nameRow.isVisible = false
        onChoose?(name)
        list.grabFocus()
        onSay?(fill(tr("Stationery pad “{pad}” made and in use"), ["pad": name]))
    }

    private func chooseFile() {
        NativeChooser.open(
            title: tr("Import a Stationery Pad"), accept: tr("_Import"), cancel: tr("_Cancel"), over: window,
            filter: NativeChooser.Filter(name: tr("XMP files"), mimeTypes: ["application/rdf+xml"])
        ) { [weak self] paths in
            if let path = paths.first { self?.importFile(path) }
        }
    }

    /// Adds the XMP file at `path` as a pad named after it, and chooses it.
    func importFile(_ path: String) {
        switch StationeryPads.add(path, in: folder) {
        case .failure(let problem):
            onSay?(problem.message)
        case .success(let name):
            onChoose?(name)
            onSay?(fill(tr("Stationery pad “{pad}” imported and in use"), ["pad": name]))
        }
    }
}
