// The form's text fields as the window shows them: one line each, in form order. A new
// field starts in CaptionText's CaptionField and gets its row here.

import CaptionText
import FocusEngine
import Localization

/// How one field appears: its mnemonic label, accessible name and placeholder. The window
/// builds a row (label, entry, Enter hint, message) from each.
struct FormField: Sendable {
    let field: CaptionField
    /// With its mnemonic: "_Title" gives Alt+T.
    let label: String
    /// What a screen reader calls the entry: GTK gives an entry labelled only through a
    /// mnemonic no accessible name.
    let accessibleName: String
    let placeholder: String

    /// A row for each field `layout` shows, in its order.
    @MainActor
    static func rows(of layout: CaptionForm.Layout) -> [FormField] {
        layout.fields.map { field in
            switch field {
            case .title:
                FormField(
                    field: field, label: tr("_Title"), accessibleName: tr("Title"),
                    placeholder: tr("What the photo shows"))
            case .subtitle:
                FormField(
                    field: field, label: tr("_Subtitle"), accessibleName: tr("Subtitle"),
                    placeholder: tr("A line about it"))
            default:
                FormField(
                    field: field, label: field.names { tr($0) }.name, accessibleName: field.names { tr($0) }.name,
                    placeholder: "")
            }
        }
    }
}
