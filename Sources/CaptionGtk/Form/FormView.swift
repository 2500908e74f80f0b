// The form's widgets: the photo row and the activate button from window.ui, the preview, and
// a row per text field (label, entry, Enter hint, inline message, length counter) made from
// FormField. Every field has its row; the layout in use says which show, in which order.

import CGtk
import CaptionText
import FocusEngine
import Localization

/// The layout the form shows now, held once for every copy of the view: Preferences may
/// change it while a photo is on the form.
@MainActor
final class FormArrangement {
    var layout: CaptionForm.Layout
    init(_ layout: CaptionForm.Layout) { self.layout = layout }
}

@MainActor
struct FormView {
    let page: Box
    let preview = PhotoPreview()
    let photoButton: Button
    let photoName: Label
    let activateButton: Button
    private let arrangement: FormArrangement
    /// The form's items: the photo, then a row for each field it shows.
    var layout: CaptionForm.Layout { arrangement.layout }
    /// The entry of every field, shown or not.
    let entries: [CaptionField: TextEntry]
    /// Per item: the inline message under it.
    let messages: [CaptionForm.Item: Label]
    /// Per field: the "⏎ Next" hint beside it.
    let hints: [CaptionField: Label]
    /// Per field: "112 / 120" under the hint, once the text passes 80 % of its limit.
    let counters: [CaptionField: Label]
    /// Under a field holding a variable ({date}…): the words as they will be saved.
    let expansions: [CaptionField: Label]
    /// Per field: the widgets of its row, placed and shown as the layout says.
    private let rows: [CaptionField: FieldRow]
    private let grid: Grid
    /// Under the fields: where Done puts this photo's caption (CaptionWriter).
    let destination = Label()
    /// Under that: the standing credits saved with the caption, on one line; hidden when
    /// none are set. Each credit by its name in its tooltip.
    let credits = Label()

    init(_ builder: Builder, layout: CaptionForm.Layout) {
        arrangement = FormArrangement(layout)
        photoButton = builder["photo_button"]
        photoButton.clicksAtOnceByMnemonic()
        photoName = builder["photo_name"]
        activateButton = builder["activate_button"]
        page = builder["form_page"]
        page.packStart(preview.widget, expand: true)
        page.reorder(preview.widget, to: 0)

        grid = builder["fields"]
        var entries: [CaptionField: TextEntry] = [:]
        var hints: [CaptionField: Label] = [:]
        var counters: [CaptionField: Label] = [:]
        var expansions: [CaptionField: Label] = [:]
        var rows: [CaptionField: FieldRow] = [:]
        let photoMessage = Self.messageLabel()
        var messages: [CaptionForm.Item: Label] = [.photo: photoMessage]
        grid.attach(photoMessage, column: 1, row: 1)
        for (index, field) in FormField.every.enumerated() {
            let row = 2 + index * 2
            let entry = TextEntry()
            entry.setPlaceholder(field.placeholder)
            entry.accessibleName = field.accessibleName
            entry.expandHorizontally()
            let label = Label(mnemonic: field.label)
            label.setMnemonicWidget(entry)
            label.setTextAlignment(1)
            label.addStyleClass("dim-label")
            let hint = Label()
            hint.setWidthChars(8)
            hint.setTextAlignment(0)
            hint.addStyleClass("dim-label")
            let message = Self.messageLabel()
            let counter = Label()
            counter.setTextAlignment(0)
            counter.addStyleClass("dim-label")
            counter.addStyleClass("caption-counter")
            counter.setShownOnlyWhenTold()
            grid.attach(label, column: 0, row: row)
            grid.attach(entry, column: 1, row: row)
            grid.attach(hint, column: 2, row: row)
            let expansion = Self.messageLabel()
            expansion.removeStyleClass("caption-message")
            expansion.addStyleClass("dim-label")
            expansion.isSelectable = false
            let under = Box(columnSpacing: 2)
            under.packStart(message)
            under.packStart(expansion)
            grid.attach(under, column: 1, row: row + 1)
            // Beside the field, under the hint: in the message's row, so that the form
            // grows no wider for it.
            grid.attach(counter, column: 2, row: row + 1)
            let fieldRow = FieldRow(line: [label.asWidget, entry.asWidget, hint.asWidget], under: under.asWidget)
            // A row the layout does not show stays hidden through the window's showAll.
            for widget in fieldRow.line + [fieldRow.under] { widget.setShownOnlyWhenTold() }
            rows[field.field] = fieldRow
            entries[field.field] = entry
            counters[field.field] = counter
            expansions[field.field] = expansion
            hints[field.field] = hint
            messages[.text(field.field)] = message
        }
        let below = 2 + FormField.every.count * 2
        destination.setTextAlignment(0)
        destination.setWraps()
        destination.addStyleClass("dim-label")
        grid.attach(destination, column: 1, row: below)
        credits.setTextAlignment(0)
        credits.ellipsize(PANGO_ELLIPSIZE_END)
        credits.addStyleClass("dim-label")
        credits.setShownOnlyWhenTold()
        grid.attach(credits, column: 1, row: below + 1)
        self.entries = entries
        self.hints = hints
        self.counters = counters
        self.expansions = expansions
        self.messages = messages
        self.rows = rows
        arrange(layout)
        grid.showAll()
    }

    /// Shows the rows of `layout`'s fields, in its order, and hides the others; Tab follows
    /// the rows as they stand. The engine is the binding's to rearrange.
    func arrange(_ layout: CaptionForm.Layout) {
        arrangement.layout = layout
        for (field, row) in rows {
            guard let position = layout.fields.firstIndex(of: field) else {
                for widget in row.line + [row.under] { widget.hide() }
                counters[field]?.hide()
                continue
            }
            // GtkGrid gives a row with nothing visible no height and no spacing: the hidden
            // fields' rows keep their places and take no room.
            let top = 2 + position * 2
            for widget in row.line { grid.move(widget, toRow: top) }
            grid.move(row.under, toRow: top + 1)
            if let counter = counters[field] { grid.move(counter, toRow: top + 1) }
            for widget in row.line + [row.under] { widget.show() }
        }
    }

    /// The credits line: `line` shown (hidden when empty), `details` as its tooltip and as
    /// what a screen reader says of it.
    func showCredits(_ line: String, details: String) {
        credits.text = line
        credits.isVisible = !line.isEmpty
        if credits.accessibleDescription != details {
            credits.accessibleDescription = details
            credits.setTooltip(details.isEmpty ? nil : details)
        }
    }

    /// Shown only while its item has a problem.
    private static func messageLabel() -> Label {
        let message = Label()
        message.setTextAlignment(0)
        message.setWraps()
        message.addStyleClass("caption-message")
        message.setShownOnlyWhenTold()
        return message
    }

    /// Shows the engine's state: the button's label, the hint by the focused field, the
    /// messages (also as the fields' accessible descriptions). The handles set only what
    /// changed. `quiet` is an item whose message the summary says, left out of its
    /// description. Returns what the message bar's description says besides its summary.
    /// `notes` gives a text field's other words: its variables' expansion (also shown under
    /// it) and its completion offers or the last code replacement.
    func render(
        _ engine: FocusEngine, enterHint: String, photoDescription: String?, quiet: CaptionForm.Item?,
        arrived: String? = nil,
        describing: Widget? = nil, arrival: inout DescribedArrival,
        notes: (CaptionField) -> (expansion: String?, offers: String?) = { _ in (nil, nil) }
    ) -> String {
        func describes(_ widget: Widget) -> Bool { describing.map { $0.id == widget.id } ?? widget.isFocus }
        let label = engine.wording.label(engine.label)
        activateButton.label = label
        // Only the focused widget's description changes: a screen reader reads a change of
        // the field it is on, and one of the field focus is leaving would be read as focus
        // leaves it («Subtitle required» on the way to Title). A widget's description is set
        // as focus comes to it, before the screen reader is told.
        // A photo that arrives with both fields filled lands on the button: it names the
        // photo, as a field would.
        if describes(activateButton.asWidget) {
            activateButton.accessibleDescription = engine.focus == nil ? arrived ?? "" : ""
        }
        let focused = layout.focusedItem(of: engine)
        for (field, hint) in hints {
            hint.text = focused == .text(field) ? "⏎ " + label : ""
        }
        let missing = layout.fields.compactMap { layout.index(of: .text($0)).flatMap(engine.message(for:)) }
        // messages holds one label per item of the layout, in its order.
        for (index, item) in layout.items.enumerated() {
            // Every item of a layout has its row, and so its message.
            guard let messageLabel = messages[item] else { continue }
            let message = engine.message(for: index)
            messageLabel.text = message ?? ""
            messageLabel.isVisible = message != nil
            let widget = self.widget(for: item)
            // What a screen reader says after the field's name: its message, and in the
            // focused text field what Enter does now (the hint beside it, which is not read).
            // In the focused text field: the photo that arrived, named until focus moves, and
            // what Enter does.
            let enter = focused == item && item.field != nil ? [arrived, enterHint] : []
            // The photo button says which photo is on the form (the name beside it, and
            // its place in the queue, which the header shows).
            let photo = item == .photo ? photoDescription : nil
            // While the photo is missing the summary names only it, and a failed save
            // sends focus to its button: the button also says what else is missing.
            let alsoMissing = item == .photo && message != nil ? missing : []
            let said = item == quiet ? nil : message
            let length = item.field.flatMap { renderCounter(engine, $0) }
            let (expansion, offers) = item.field.map(notes) ?? (nil, nil)
            if describes(widget) {
                let steady = arrival.steadyParts(of: widget.id, [photo] + enter)
                let parts = [said, steady[0], length] + alsoMissing + [expansion, offers] + steady.dropFirst()
                widget.accessibleDescription = parts.compactMap { $0 }.joined(separator: ". ")
            }
            if let label = item.field.flatMap({ expansions[$0] }) {
                label.text = expansion ?? ""
                label.isVisible = expansion != nil
            }
            if message == nil { widget.removeStyleClass("error") } else { widget.addStyleClass("error") }
        }
        // The summary names only the photo while it is missing; the bar's description
        // says the rest, for a screen reader announcing it.
        return engine.message(for: layout.photo) != nil ? missing.joined(separator: ". ") : ""
    }

    /// Shows or hides the length counter of `item`; returns what a screen reader says of it
    /// with the field ("112 of 120 characters"), nil while it is hidden.
    private func renderCounter(_ engine: FocusEngine, _ field: CaptionField) -> String? {
        guard let label = counters[field] else { return nil }
        let counter = layout.index(of: .text(field)).flatMap(engine.lengthCounter(for:))
        label.isVisible = counter != nil
        guard let counter else { return nil }
        label.text = tr("{count} / {limit}").replacing("{count}", with: String(counter.count))
            .replacing("{limit}", with: String(counter.limit))
        if counter.isOver { label.addStyleClass("error") } else { label.removeStyleClass("error") }
        return tr("{count} of {limit} characters").replacing("{count}", with: String(counter.count))
            .replacing("{limit}", with: String(counter.limit))
    }

    /// The widget that stands for an item: the photo button, or the field's entry.
    func widget(for item: CaptionForm.Item) -> Widget {
        switch item {
        case .photo: photoButton.asWidget
        case .text(let field): entry(field).asWidget
        }
    }

    /// The field's entry: the view makes one for every field the form has.
    func entry(_ field: CaptionField) -> TextEntry { entries[field]! }

    var titleEntry: TextEntry { entry(.title) }
    var subtitleEntry: TextEntry { entry(.subtitle) }
}

/// One field's widgets in the grid: its line (label, entry, hint), and under the entry its
/// message and its variables' expansion.
private struct FieldRow {
    let line: [Widget]
    let under: Widget
}

/// What the focused field said as focus came to it. Once the user types there, its
/// description says only what changes (a message, the counter, offers, what a code became),
/// and what it said on arrival (the photo, what Enter does) only when that changes: a
/// screen reader reads the whole description at each change, and «Enter goes to the next
/// empty field» came again with every code replaced and every message gone.
struct DescribedArrival {
    private var widget: WidgetID?
    private var steady: [String?] = []
    /// The user typed in the field since focus came.
    var isSettled = false

    /// What the description of `widget` says of its steady parts now: each one until the
    /// user types there, then each one only when it has changed (nil in its place).
    mutating func steadyParts(of widget: WidgetID, _ parts: [String?]) -> [String?] {
        if self.widget != widget { self = DescribedArrival(widget: widget) }
        defer { steady = parts }
        guard isSettled else { return parts }
        return parts.indices.map { index in
            index < steady.count && steady[index] == parts[index] ? nil : parts[index]
        }
    }

    private init(widget: WidgetID) { self.widget = widget }
    init() {}
}
