// D-Bus calls and signal subscriptions on a GDBusConnection, answered on the main loop.

import CGtk

/// A D-Bus connection this side holds a reference to.
struct DBusConnection {
    private let reference: GObjectRef
    fileprivate var pointer: OpaquePointer { OpaquePointer(reference.pointer) }

    /// The session bus; nil when there is none.
    static func session() -> DBusConnection? {
        g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil).map {
            DBusConnection(reference: GObjectRef(taking: UnsafeMutableRawPointer($0)))
        }
    }
}

/// D-Bus calls and signals on a GDBusConnection, answered on the main loop.
enum DBus {
    typealias ReplyHandler = @MainActor (Variant?) -> Void
    typealias SignalHandler = @MainActor (Variant) -> Void

    /// Calls `method` with two strings as its arguments, without waiting; `reply` gets the
    /// reply's GVariant (nil on an error: no such service, no such key), valid for the
    /// length of the handler. The call holds the connection until it is answered.
    static func call(
        _ connection: DBusConnection, name: String, path: String, interface: String, method: String,
        arguments: (String, String), timeoutMilliseconds: Int32 = 2000, reply: @escaping ReplyHandler
    ) {
        // A new floating GVariant, which the call takes; never NULL for two strings.
        let parameters = caption_variant_new_string_pair(arguments.0, arguments.1)!
        let callback: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
            source, result, data in
            guard let data else { return }
            nonisolated(unsafe) let handler = Unmanaged<ClosureBox<ReplyHandler>>.fromOpaque(data).takeRetainedValue()
            let answer = source.flatMap { g_dbus_connection_call_finish(OpaquePointer($0), result, nil) }
            nonisolated(unsafe) let unchecked = answer
            MainActor.assumeIsolated { handler.body(unchecked.map(Variant.init)) }
            if let answer { g_variant_unref(answer) }
        }
        g_dbus_connection_call(
            connection.pointer, name, path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NONE,
            timeoutMilliseconds,
            nil,
            callback, UnsafeMutableRawPointer(Unmanaged.passRetained(ClosureBox(reply)).toOpaque()))
    }

    /// Subscribes to a signal; `body` gets its parameters (a tuple GVariant). The
    /// subscription holds the connection.
    @discardableResult
    static func subscribe(
        _ connection: DBusConnection, sender: String, path: String, interface: String, member: String,
        _ body: @escaping SignalHandler
    ) -> UInt32 {
        let callback:
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                UnsafePointer<CChar>?,
                OpaquePointer?, gpointer?
            ) -> Void = { _, _, _, _, _, parameters, data in
                guard let parameters else { return }
                nonisolated(unsafe) let handler: ClosureBox<SignalHandler> = box(data)
                nonisolated(unsafe) let unchecked = parameters
                MainActor.assumeIsolated { handler.body(Variant(pointer: unchecked)) }
            }
        return g_dbus_connection_signal_subscribe(
            connection.pointer, sender, interface, member, path, nil, G_DBUS_SIGNAL_FLAGS_NONE, callback,
            retained(body),
            releaseSource)
    }
}

/// A GVariant a D-Bus handler is given, read for the length of the handler.
struct Variant {
    let pointer: OpaquePointer

    var childCount: Int { Int(g_variant_n_children(pointer)) }

    /// The string at `index` of a tuple; nil when it is not one.
    func string(at index: Int) -> String? {
        guard index < childCount, let child = g_variant_get_child_value(pointer, gsize(index)) else { return nil }
        defer { g_variant_unref(child) }
        guard String(cString: g_variant_get_type_string(child)) == "s" else { return nil }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// The number at `index` of a tuple, inside however many variants wrap it (the
    /// settings portal's Read returns v of v in its first version); nil when it is not one.
    func uint32(at index: Int) -> UInt32? {
        guard index < childCount, var current = g_variant_get_child_value(pointer, gsize(index)) else { return nil }
        defer { g_variant_unref(current) }
        while String(cString: g_variant_get_type_string(current)) == "v", let inner = g_variant_get_variant(current) {
            g_variant_unref(current)
            current = inner
        }
        return String(cString: g_variant_get_type_string(current)) == "u" ? g_variant_get_uint32(current) : nil
    }
}
