// The form's text fields as the window shows them: one line each, in form order. A new
// field starts in FocusEngine's CaptionForm (its item and limit) and gets its row here.

import FocusEngine
import Localization

/// How one text item of the engine appears: its mnemonic label, accessible name and
/// placeholder. The window builds a row (label, entry, Enter hint, message) from each.
struct FormField: Sendable {
    /// The engine item it shows (CaptionForm's index).
    let item: Int
    /// With its mnemonic: "_Title" gives Alt+T.
    let label: String
    /// What a screen reader calls the entry: GTK gives an entry labelled only through a
    /// mnemonic no accessible name.
    let accessibleName: String
    let placeholder: String

    @MainActor
    static var all: [FormField] {
        [
            FormField(
                item: CaptionForm.title, label: tr("_Title"), accessibleName: tr("Title"),
                placeholder: tr("What the photo shows")),
            FormField(
                item: CaptionForm.subtitle, label: tr("_Subtitle"), accessibleName: tr("Subtitle"),
                placeholder: tr("A line about it")),
        ]
    }
}

/// The words typed into the form's text fields, by engine item. Title and subtitle are the
/// ones the library, the queue and drafts store today.
struct FormWords: Equatable, Sendable {
    private var values: [Int: String]

    init(_ values: [Int: String]) { self.values = values }

    init(title: String, subtitle: String) {
        self.init([CaptionForm.title: title, CaptionForm.subtitle: subtitle])
    }

    static let empty = FormWords([:])

    subscript(item: Int) -> String {
        get { values[item] ?? "" }
        set { values[item] = newValue }
    }

    var title: String { self[CaptionForm.title] }
    var subtitle: String { self[CaptionForm.subtitle] }
}
