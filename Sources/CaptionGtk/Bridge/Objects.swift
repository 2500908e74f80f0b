// Owning references to GObjects.

import CGtk

/// An owning reference to a GObject: unreferenced when the last Swift holder lets go.
final class GObjectRef: @unchecked Sendable {
    let pointer: gpointer

    /// Takes over a reference the caller owns (a constructor's, a "transfer full" return).
    init(taking pointer: gpointer) {
        self.pointer = pointer
    }

    /// A reference of its own to an object someone else owns.
    init(adding pointer: gpointer) {
        self.pointer = g_object_ref(pointer)
    }

    deinit {
        g_object_unref(pointer)
    }
}
