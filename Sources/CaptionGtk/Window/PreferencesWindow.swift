// The Preferences window (Ctrl+comma, or Preferences in the main menu): the code
// replacements, one row a code, edited in place and saved as they change (GNOME's
// preferences apply at once, with no Apply button), and imported from Photo Mechanic.

import CGtk
import Localization
import Shorthand

@MainActor
final class PreferencesWindow {
    let window: Window
    private let list: Widget
    let status: Label
    private let addButton: Button
    private var rows: [(row: Widget, code: TextEntry, text: TextEntry)] = []
    private let path: String
    /// The table changed: the form uses it from the next key on.
    var onChange: ((ReplacementTable) -> Void)?
    /// The window closed.
    var onClose: (() -> Void)?

    init(over parent: Window, table: ReplacementTable, path: String = ReplacementStore.defaultPath) {
        self.path = path
        window = Window(unchecked: gtk_window_new(GTK_WINDOW_TOPLEVEL))
        parent.adopt(window)
        gtk_window_set_default_size(window.gtkWindow, 560, 460)
        let header = HeaderBar(unchecked: gtk_header_bar_new())
        gtk_header_bar_set_title(caption_header_bar(header.pointer), tr("Preferences"))
        gtk_header_bar_set_show_close_button(caption_header_bar(header.pointer), 1)
        gtk_window_set_titlebar(window.gtkWindow, header.pointer)

        let page = Box(unchecked: gtk_box_new(GTK_ORIENTATION_VERTICAL, 12))
        for side in [
            gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
            gtk_widget_set_margin_end,
        ] {
            side(page.pointer, 18)
        }
        let heading = Label(tr("Code Replacements"))
        heading.addStyleClass("heading")
        gtk_label_set_xalign(caption_label(heading.pointer), 0)
        gtk_label_set_markup(caption_label(heading.pointer), "<b>" + tr("Code Replacements") + "</b>")
        let about = Label(
            tr(
                "Type a code, then a space, a punctuation mark or Enter: the code becomes its text. Ctrl+Z right after takes it back."
            ))
        gtk_label_set_xalign(caption_label(about.pointer), 0)
        gtk_label_set_line_wrap(caption_label(about.pointer), 1)
        about.addStyleClass("dim-label")

        list = Widget(unchecked: gtk_list_box_new())
        gtk_list_box_set_selection_mode(caption_list_box(list.pointer), GTK_SELECTION_NONE)
        list.accessibleName = tr("Code Replacements")
        let scroller = Widget(unchecked: gtk_scrolled_window_new(nil, nil))
        gtk_scrolled_window_set_policy(
            caption_scrolled_window(scroller.pointer), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_shadow_type(caption_scrolled_window(scroller.pointer), GTK_SHADOW_IN)
        gtk_container_add(caption_container(scroller.pointer), list.pointer)

        let buttons = Box(unchecked: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6))
        let add = Button(mnemonic: tr("_Add Code"))
        let importButton = Button(mnemonic: tr("_Import from Photo Mechanic…"))
        addButton = add
        buttons.packStart(add)
        buttons.packStart(importButton)
        status = Label()
        gtk_label_set_xalign(caption_label(status.pointer), 0)
        gtk_label_set_line_wrap(caption_label(status.pointer), 1)
        // Said by screen readers when it changes: the outcome of an import.
        status.setAccessibleRole(ATK_ROLE_STATUSBAR)

        page.packStart(heading)
        page.packStart(about)
        page.packStart(scroller, expand: true)
        page.packStart(buttons)
        page.packStart(status)
        gtk_container_add(caption_container(window.pointer), page.pointer)

        for row in table.rows { append(row) }
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
        add.connect(.clicked) { [weak self] in
            guard let self else { return }
            self.append(Replacement(code: "", text: "")).grabFocus()
        }
        importButton.connect(.clicked) { [weak self] in self?.chooseImport() }
        window.connect(.keyPress, after: false) { [weak self] event in
            guard Keys.value(event) == GDK_KEY_Escape else { return false }
            self?.close()
            return true
        }
        window.connect(.deleteEvent) { [weak self] in
            self?.onClose?()
            return false
        }
    }

    func present() {
        window.showAll()
        window.present()
        // The first code, or Add Code when there is none yet.
        if let first = rows.first { first.code.grabFocus() } else { addButton.grabFocus() }
    }

    func close() {
        onClose?()
        gtk_widget_destroy(window.pointer)
    }

    /// A row of two fields and a remove button; returns its code field.
    @discardableResult
    private func append(_ replacement: Replacement) -> TextEntry {
        let box = Box(unchecked: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6))
        let code = TextEntry(unchecked: gtk_entry_new())
        code.text = replacement.code
        code.setPlaceholder(tr("=code"))
        code.accessibleName = tr("Code")
        gtk_entry_set_width_chars(caption_entry(code.pointer), 10)
        let text = TextEntry(unchecked: gtk_entry_new())
        text.text = replacement.text
        text.setPlaceholder(tr("Its text"))
        text.accessibleName = tr("Text for the code")
        gtk_widget_set_hexpand(text.pointer, 1)
        let remove = Button(iconName: "list-remove-symbolic")
        remove.accessibleName = tr("Remove the code")
        remove.setTooltip(tr("Remove the code"))
        box.packStart(code)
        box.packStart(text, expand: true)
        box.packStart(remove)
        for side in [
            gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
            gtk_widget_set_margin_end,
        ] {
            side(box.pointer, 6)
        }
        gtk_list_box_insert(caption_list_box(list.pointer), box.pointer, -1)
        let row = Widget(unchecked: gtk_widget_get_parent(box.pointer))
        // The row itself is not a stop for Tab: its fields are.
        gtk_widget_set_can_focus(row.pointer, 0)
        rows.append((row, code, text))
        code.connect(.changed) { [weak self] in self?.changed() }
        text.connect(.changed) { [weak self] in self?.changed() }
        remove.connect(.clicked) { [weak self] in self?.remove(row) }
        row.showAll()
        return code
    }

    private func remove(_ row: Widget) {
        guard let index = rows.firstIndex(where: { $0.row.pointer == row.pointer }) else { return }
        rows.remove(at: index)
        gtk_widget_destroy(row.pointer)
        changed()
        // Focus stays in the list: on the row that took its place, or the one before.
        if !rows.isEmpty { rows[min(index, rows.count - 1)].code.grabFocus() }
    }

    /// What the rows say now, as a table: rows without a valid code are left out.
    var table: ReplacementTable {
        ReplacementTable(rows.map { Replacement(code: $0.code.text, text: $0.text.text) })
    }

    private func changed() {
        let table = self.table
        if let problem = ReplacementStore.save(table, to: path) { status.text = problem }
        onChange?(table)
    }

    private func chooseImport() {
        let chooser = gtk_file_chooser_native_new(
            tr("Import Code Replacements"), window.gtkWindow, GTK_FILE_CHOOSER_ACTION_OPEN, tr("_Import"),
            tr("_Cancel"))
        guard let chooser else { return }
        PhotoChooser.presentNative(chooser) { [weak self] paths in
            if let path = paths.first { self?.importFile(path) }
        }
    }

    /// Adds a Photo Mechanic file's codes (a code already here takes the file's text) and
    /// says how many came and which lines were passed over.
    func importFile(_ path: String) {
        switch ReplacementStore.importPhotoMechanic(path) {
        case .failure(let problem):
            status.text = problem.message
        case .success(let reading):
            for replacement in reading.table.rows {
                if let existing = rows.first(where: { $0.code.text == replacement.code }) {
                    existing.text.text = replacement.text
                } else {
                    append(replacement)
                }
            }
            changed()
            var said = tr("Imported {count} codes").replacing("{count}", with: String(reading.table.rows.count))
            if !reading.skippedLines.isEmpty {
                said +=
                    ". "
                    + tr("Lines passed over (no code and text): {lines}").replacing(
                        "{lines}", with: reading.skippedLines.prefix(10).map(String.init).joined(separator: ", "))
            }
            status.text = said
        }
    }
}
