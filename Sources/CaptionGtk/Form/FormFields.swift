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

    /// A row for every field, in CaptionField's order; the layout in use places them.
    @MainActor
    static var every: [FormField] {
        CaptionField.allCases.map { field in
            FormField(
                field: field, label: mnemonicLabel(field), accessibleName: field.names { tr($0) }.name,
                placeholder: placeholder(field))
        }
    }

    @MainActor
    private static func placeholder(_ field: CaptionField) -> String {
        switch field {
        case .title: tr("What the photo shows")
        case .subtitle: tr("A line about it")
        case .keywords: tr("Separated by commas")
        default: ""
        }
    }

    /// The label with its Alt key: one letter per field, none of Title's, Subtitle's or
    /// the photo button's (T, S, P).
    @MainActor
    private static func mnemonicLabel(_ field: CaptionField) -> String {
        switch field {
        case .title: tr("_Title")
        case .subtitle: tr("_Subtitle")
        case .headline: tr("_Headline")
        case .keywords: tr("_Keywords")
        case .altText: tr("_Alt Text")
        case .extendedDescription: tr("E_xtended Description")
        case .event: tr("_Event")
        case .instructions: tr("Special _Instructions")
        case .jobID: tr("_Job ID")
        case .sublocation: tr("Su_blocation")
        case .state: tr("State/Pro_vince")
        }
    }
}
