// What a key press says: Enter in any of its forms, a modifier held, the key; and how GTK
// names keys.

import CGtk

/// A key pressed, for the length of the handler it is given to.
@MainActor
struct KeyPress {
    fileprivate let event: UnsafeMutablePointer<GdkEventKey>

    init(_ event: UnsafeMutablePointer<GdkEventKey>) { self.event = event }

    /// The key's symbol (GDK_KEY_…).
    var key: Int32 { Int32(event.pointee.keyval) }

    /// Return, keypad Enter or ISO Enter.
    var isEnter: Bool { key == GDK_KEY_Return || key == GDK_KEY_KP_Enter || key == GDK_KEY_ISO_Enter }

    /// A key that types a character (not a control character or space).
    var isPrintable: Bool { gdk_keyval_to_unicode(event.pointee.keyval) > 0x20 }

    func has(_ modifier: GdkModifierType) -> Bool { event.pointee.state & modifier.rawValue != 0 }

    /// None of `modifiers` is held.
    func hasNone(of modifiers: [GdkModifierType]) -> Bool { !modifiers.contains(where: has) }

    /// Alt and the key a label's underscore marks ("_Use" is Alt+U), whatever the case.
    func isMnemonic(of label: String) -> Bool {
        guard has(GDK_MOD1_MASK), hasNone(of: [GDK_CONTROL_MASK, GDK_SUPER_MASK]),
            let underscore = label.firstIndex(of: "_"), underscore < label.index(before: label.endIndex),
            let marked = label[label.index(after: underscore)].unicodeScalars.first
        else { return false }
        return gdk_keyval_to_lower(guint(key)) == gdk_keyval_to_lower(gdk_unicode_to_keyval(marked.value))
    }
}

extension WidgetHandle {
    /// Hands a key press to the widget as if it had come to it (a window passes it to its
    /// focus); true when something took it.
    @discardableResult
    func handle(_ press: KeyPress) -> Bool {
        gtk_widget_event(pointer, UnsafeMutableRawPointer(press.event).assumingMemoryBound(to: GdkEvent.self)) != 0
    }
}

@MainActor
enum Keys {
    /// GTK's label of the keys of an accelerator ("<Control>s" is "Ctrl+S" in English), in
    /// the user's language; nil for one GTK cannot read.
    static func label(ofAccelerator accelerator: String) -> String? {
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        gtk_accelerator_parse(accelerator, &key, &modifiers)
        guard key != 0 else { return nil }
        return takeString(gtk_accelerator_get_label(key, modifiers))
    }
}

/// Key presses typed for a window that does not have the keyboard yet (it is opening, or
/// the window before it is closing), kept in order and handed to it once it has: widgets
/// act on keys only while their window is active (a list's Enter, its arrows), so a key
/// handed over earlier would be lost or land elsewhere.
@MainActor
final class HeldKeys {
    private var events: [UnsafeMutablePointer<GdkEvent>] = []

    var isEmpty: Bool { events.isEmpty }

    func hold(_ press: KeyPress) {
        // gdk_event_copy returns NULL only for NULL.
        guard let copy = gdk_event_copy(UnsafeMutableRawPointer(press.event).assumingMemoryBound(to: GdkEvent.self))
        else { return }
        events.append(copy)
    }

    /// Hands every held key to `window`, in the order they came; a key that opens or
    /// closes a window on the way is followed by the rest all the same.
    func release(to window: Window) {
        let held = events
        events = []
        for event in held {
            gtk_widget_event(window.pointer, event)
            gdk_event_free(event)
        }
    }

    func drop() {
        for event in events { gdk_event_free(event) }
        events = []
    }
}
