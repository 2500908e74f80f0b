// What a key event says: Enter in any of its forms, a modifier held, the key.

import CGtk

/// What a key event says.
@MainActor
enum Keys {
    static func isEnter(_ event: UnsafeMutablePointer<GdkEventKey>) -> Bool {
        let key = Int32(event.pointee.keyval)
        return key == GDK_KEY_Return || key == GDK_KEY_KP_Enter || key == GDK_KEY_ISO_Enter
    }

    static func has(_ event: UnsafeMutablePointer<GdkEventKey>, _ modifier: GdkModifierType) -> Bool {
        event.pointee.state & modifier.rawValue != 0
    }

    static func value(_ event: UnsafeMutablePointer<GdkEventKey>) -> Int32 { Int32(event.pointee.keyval) }
}
