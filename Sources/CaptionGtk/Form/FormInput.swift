// The form's GTK signals, turned into what they mean to the form: engine events, typing,
// and a paste that may be a photo. The controller decides what follows.

import CGtk
import FocusEngine

enum FormInput {
    case event(FormEvent)
    /// A field's text changed: typing, or the form setting it (which the controller knows).
    case typed(item: Int, text: String)
    /// Ctrl+V in a field; answers whether a photo was pasted instead of text.
    case paste

    @MainActor
    static func connect(_ view: FormView, in window: Window, to handle: @escaping @MainActor (FormInput) -> Bool) {
        window.connect(.setFocus, after: true) { widget in
            let item = widget.flatMap { widget in
                view.itemWidgets.firstIndex { UnsafeMutableRawPointer($0.pointer) == widget }
            }
            _ = handle(.event(.focus(item)))
        }
        for (item, entry) in view.entries {
            entry.connect(.changed) { _ = handle(.typed(item: item, text: entry.text)) }
            // Enter comes only through activate: GtkEntry emits it after its input method
            // declined the key, so Enter that confirms a composition never lands here.
            entry.connect(.activate) { _ = handle(.event(.enter)) }
            // Ctrl+V in a field pastes text, unless what was copied is a photo.
            entry.connect(.pasteClipboard) {
                if handle(.paste) { g_signal_stop_emission_by_name(entry.pointer, "paste-clipboard") }
            }
            // After the entry's own handler, for the same reason: the input method sees
            // Shift+Enter first.
            entry.connect(.keyPress, after: true) { event in
                guard Keys.isEnter(event), Keys.has(event, GDK_SHIFT_MASK), !Keys.has(event, GDK_CONTROL_MASK)
                else { return false }
                return handle(.event(.back))
            }
        }
        view.photoButton.connect(.clicked) { _ = handle(.event(.enter)) }
        view.activateButton.connect(.clicked) { _ = handle(.event(.activate)) }
    }
}
