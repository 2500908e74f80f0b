// Owning references to GObjects, and objects handed between threads.

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

/// A GObject reference that is handed between threads. GdkPixbuf is immutable once made and
/// GObject reference counts are atomic, so passing one to the main thread is safe.
struct SharedObject: @unchecked Sendable {
    let pointer: OpaquePointer
}
