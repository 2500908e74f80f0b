// The form's GTK signals, turned into what they mean to the form: engine events, typing,
// and a paste that may be a photo. The controller decides what follows.

import CGtk
import CaptionText
import FocusEngine

enum FormInput {
    case event(FormEvent)
    /// A field's text changed: typing, or the form setting it (which the controller knows).
    case typed(field: CaptionField, text: String)
    /// Ctrl+V in a field; answers whether a photo was pasted instead of text.
    case paste

    @MainActor
    static func connect(_ view: FormView, in window: Window, to handle: @escaping @MainActor (FormInput) -> Bool) {
        let focus = FocusReports(view: view, handle: handle)
        // The form's own widgets report focus as it comes to them, before GTK tells a screen
        // reader: the description the engine's answer gives is then read with the focus, not
        // after it as a change. Focus coming back with the window (which moves nothing) is not
        // a move.
        // Every field's entry, shown or not: Preferences may show one later.
        let items = [CaptionForm.Item.photo] + CaptionField.allCases.map(CaptionForm.Item.text)
        for widget in items.map(view.widget(for:)) + [view.activateButton.asWidget] {
            widget.connect(.focusIn) {
                focus.report(widget.id)
                return false
            }
        }
        // Other widgets (the menu button, the library) and focus leaving every widget.
        window.connect(.setFocus, after: true) { widget in focus.report(widget?.id) }
        for (field, entry) in view.entries {
            entry.connect(.changed) { _ = handle(.typed(field: field, text: entry.text)) }
            // Enter comes only through activate: GtkEntry emits it after its input method
            // declined the key, so Enter that confirms a composition never lands here.
            entry.connect(.activate) { _ = handle(.event(.enter)) }
            // Ctrl+V in a field pastes text, unless what was copied is a photo.
            entry.connect(.pasteClipboard) {
                if handle(.paste) { entry.stopEmission(of: .pasteClipboard) }
            }
            // After the entry's own handler, for the same reason: the input method sees
            // Shift+Enter first.
            entry.connect(.keyPress, after: true) { event in
                guard event.isEnter, event.has(GDK_SHIFT_MASK), !event.has(GDK_CONTROL_MASK)
                else { return false }
                return handle(.event(.back))
            }
        }
        view.photoButton.connect(.clicked) { _ = handle(.event(.enter)) }
        view.activateButton.connect(.clicked) { _ = handle(.event(.activate)) }
    }
}

/// The engine hears of each focus move once, from whichever signal comes first.
@MainActor
private final class FocusReports {
    private let view: FormView
    private let handle: @MainActor (FormInput) -> Bool
    private var last: WidgetID?
    private var reported = false

    init(view: FormView, handle: @escaping @MainActor (FormInput) -> Bool) {
        self.view = view
        self.handle = handle
    }

    func report(_ widget: WidgetID?) {
        guard !reported || widget != last else { return }
        reported = true
        last = widget
        let item = widget.flatMap { widget in
            view.layout.items.first { view.widget(for: $0).id == widget }
        }
        _ = handle(.event(.focus(item.flatMap(view.layout.index(of:)))))
    }
}
