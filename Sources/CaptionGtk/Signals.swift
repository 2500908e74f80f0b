// The Swift side of the C seam: signals, idle callbacks and object lifetimes as closures.

import CGtk

/// Holds a Swift closure for the lifetime of a GLib signal connection or source.
private final class Box<Body> {
    let body: Body
    init(_ body: Body) { self.body = body }
}

/// Releases a Box when GLib drops the connection (the object died, or it was disconnected).
private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

private func retained<Body>(_ body: Body) -> gpointer {
    UnsafeMutableRawPointer(Unmanaged.passRetained(Box(body) as AnyObject).toOpaque())
}

private func box<Body>(_ data: gpointer?) -> Box<Body> {
    // GLib hands back exactly the pointer given to g_signal_connect_data; it is never nil.
    Unmanaged<Box<Body>>.fromOpaque(data!).takeUnretainedValue()
}

@MainActor
private func connect(_ instance: gpointer, _ signal: String, after: Bool, _ handler: GCallback,
                     _ data: gpointer) {
    _ = caption_signal_connect(instance, signal, handler, data, releaseBox, after ? 1 : 0)
}

typealias VoidHandler = @MainActor () -> Void
typealias KeyHandler = @MainActor (UnsafeMutablePointer<GdkEventKey>) -> Bool
typealias DrawHandler = @MainActor (OpaquePointer) -> Void
typealias PointerHandler = @MainActor (gpointer?) -> Void
typealias IntHandler = @MainActor (Int32) -> Void

/// A signal whose handler takes only the instance: clicked, activate, changed, …
@MainActor
func onSignal(_ instance: gpointer, _ signal: String, after: Bool = false, _ body: @escaping VoidHandler) {
    let callback: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
        let handler: Box<VoidHandler> = box(data)
        MainActor.assumeIsolated { handler.body() }
    }
    connect(instance, signal, after: after, unsafeBitCast(callback, to: GCallback.self), retained(body))
}

/// key-press-event; the handler returns true when it used the key.
@MainActor
func onKeyPress(_ instance: gpointer, after: Bool, _ body: @escaping KeyHandler) {
    let callback: @convention(c) (gpointer?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = { _, event, data in
        guard let event else { return 0 }
        let handler: Box<KeyHandler> = box(data)
        return MainActor.assumeIsolated { handler.body(event) } ? 1 : 0
    }
    connect(instance, "key-press-event", after: after, unsafeBitCast(callback, to: GCallback.self), retained(body))
}

/// draw, with the cairo context; drawing never stops other handlers.
@MainActor
func onDraw(_ instance: gpointer, _ body: @escaping DrawHandler) {
    let callback: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, cairo, data in
        guard let cairo else { return 0 }
        let handler: Box<DrawHandler> = box(data)
        MainActor.assumeIsolated { handler.body(cairo) }
        return 0
    }
    connect(instance, "draw", after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
}

/// Signals with one pointer argument: set-focus (the widget), size-allocate (the rectangle).
@MainActor
func onPointerSignal(_ instance: gpointer, _ signal: String, after: Bool = false,
                     _ body: @escaping PointerHandler) {
    let callback: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
        let handler: Box<PointerHandler> = box(data)
        nonisolated(unsafe) let argument = argument
        MainActor.assumeIsolated { handler.body(argument) }
    }
    connect(instance, signal, after: after, unsafeBitCast(callback, to: GCallback.self), retained(body))
}

/// Signals with one integer argument: response.
@MainActor
func onIntSignal(_ instance: gpointer, _ signal: String, _ body: @escaping IntHandler) {
    let callback: @convention(c) (gpointer?, Int32, gpointer?) -> Void = { _, value, data in
        let handler: Box<IntHandler> = box(data)
        MainActor.assumeIsolated { handler.body(value) }
    }
    connect(instance, signal, after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
}

/// GSimpleAction "activate" (action, parameter).
@MainActor
func addAction(_ map: gpointer, _ name: String, _ body: @escaping VoidHandler) {
    // GLib aborts rather than return NULL from a constructor.
    let action = UnsafeMutableRawPointer(g_simple_action_new(name, nil)!)
    onPointerSignal(action, "activate") { _ in body() }
    g_action_map_add_action(caption_action_map(map), OpaquePointer(action))
    g_object_unref(action)
}

/// Runs code on the GTK main thread. Work done elsewhere (decoding, saving) reports back
/// through this: the main actor's own queue is never drained while gtk_main runs (see
/// NOTES), so Task { @MainActor } would wait forever; a GLib idle source runs on the loop.
enum MainThread {
    typealias Job = @Sendable @MainActor () -> Void

    /// `priority` G_PRIORITY_LOW waits until GTK has drawn what is due (its redraws run at
    /// a higher priority): for work that must not delay a frame.
    static func post(priority: Int32 = G_PRIORITY_DEFAULT, _ job: @escaping Job) {
        let callback: @convention(c) (gpointer?) -> gboolean = { data in
            nonisolated(unsafe) let handler: Box<Job> = box(data)
            MainActor.assumeIsolated { handler.body() }
            return 0  // G_SOURCE_REMOVE
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        g_idle_add_full(priority, callback, retained(job), destroy)
    }

    /// Runs `job` once after `milliseconds`; returns the source id to cancel it with.
    @discardableResult
    static func after(milliseconds: UInt32, _ job: @escaping Job) -> UInt32 {
        let callback: @convention(c) (gpointer?) -> gboolean = { data in
            nonisolated(unsafe) let handler: Box<Job> = box(data)
            MainActor.assumeIsolated { handler.body() }
            return 0
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, callback, retained(job), destroy)
    }
}

/// A GObject reference that is handed between threads. GdkPixbuf is immutable once made and
/// GObject reference counts are atomic, so passing one to the main thread is safe.
struct SharedObject: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The strings of a GSList of g_malloc'd C strings, which it frees (list and strings): the
/// "transfer full" lists that file choosers and selections return.
func takeStrings(_ list: UnsafeMutablePointer<GSList>?) -> [String] {
    var strings: [String] = []
    var node = list
    while let current = node {
        if let data = current.pointee.data {
            strings.append(String(cString: data.assumingMemoryBound(to: CChar.self)))
            g_free(data)
        }
        node = current.pointee.next
    }
    g_slist_free(list)
    return strings
}

/// drag-data-received: (widget, context, x, y, selection data, info, time).
@MainActor
func onDragDataReceived(_ instance: gpointer, _ body: @escaping @MainActor (OpaquePointer) -> Void) {
    typealias Handler = @MainActor (OpaquePointer) -> Void
    let callback: @convention(c) (gpointer?, OpaquePointer?, Int32, Int32, OpaquePointer?, UInt32, UInt32, gpointer?) -> Void = {
        _, _, _, _, selection, _, _, data in
        guard let received = selection else { return }
        let handler: Box<Handler> = box(data)
        nonisolated(unsafe) let unchecked = received
        MainActor.assumeIsolated { handler.body(unchecked) }
    }
    connect(instance, "drag-data-received", after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
}

/// row-activated: (tree view, path, column); the handler gets the row's index.
@MainActor
func onRowActivated(_ instance: gpointer, _ body: @escaping @MainActor (Int) -> Void) {
    typealias Handler = @MainActor (Int) -> Void
    let callback: @convention(c) (gpointer?, OpaquePointer?, gpointer?, gpointer?) -> Void = { _, path, _, data in
        guard let path, let indices = gtk_tree_path_get_indices(path) else { return }
        let row = Int(indices.pointee)
        let handler: Box<Handler> = box(data)
        MainActor.assumeIsolated { handler.body(row) }
    }
    connect(instance, "row-activated", after: false, unsafeBitCast(callback, to: GCallback.self), retained(body))
}
