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

/// The words typed into the form's text fields, by engine item.
struct FormWords: Equatable, Sendable {
    var title: String
    var subtitle: String

    static let empty = FormWords(title: "", subtitle: "")

    subscript(item: Int) -> String {
        get { item == CaptionForm.title ? title : subtitle }
        set {
            if item == CaptionForm.title { title = newValue } else { subtitle = newValue }
        }
    }
}
