// The GTK application: the window, the photos handed to it, and application-wide shortcuts.

import CGtk

@MainActor
public enum CaptionApplication {
    public static let id = "io.github.caption_app.Caption"
    /// Shown in About; given by the entry point, which owns the version.
    public static var version = ""

    /// Opens the window and runs until it closes; returns the exit status, or nil when there
    /// is no display to open a window on.
    public static func run(library: String?, photos: [String]) -> Int32? {
        guard gtk_init_check(nil, nil) != 0 else { return nil }
        // Another library is another session: keep it out of a running instance.
        var flags = G_APPLICATION_HANDLES_OPEN.rawValue
        if library != nil { flags |= G_APPLICATION_NON_UNIQUE.rawValue }
        guard let application = gtk_application_new(id, GApplicationFlags(rawValue: flags)) else { return 1 }
        var captionWindow: CaptionWindow?

        func present(opening paths: [String]) {
            let window: CaptionWindow
            if let captionWindow {
                window = captionWindow
            } else {
                window = CaptionWindow(application: application, libraryDirectory: library)
                captionWindow = window
                gtk_widget_show_all(window.window)
                window.send(.focus(nil))
                gtk_widget_grab_focus(window.photoButton)
                window.restoreDraft()
            }
            window.enqueue(paths)
            gtk_window_present(caption_window(window.window))
        }

        onSignal(application, "activate") { present(opening: photos) }
        onOpen(application) { paths in present(opening: paths) }
        installShortcuts(application)

        // The photos of this command line go through `open` when another instance runs.
        if !photos.isEmpty, g_application_register(caption_g_application(application), nil, nil) != 0,
           g_application_get_is_remote(caption_g_application(application)) != 0 {
            openRemotely(application, photos)
            g_object_unref(application)
            return 0
        }
        let status = g_application_run(caption_g_application(application), 0, nil)
        // A save still in flight finishes before the process ends.
        captionWindow?.commitPendingDeletions()
        // Words still being composed when the app quit (Ctrl+Q) go into the draft.
        captionWindow?.settleInputMethod()
        captionWindow?.flushDraft()
        captionWindow?.saveGeometry()
        g_object_unref(application)
        return status
    }

    private static func installShortcuts(_ application: UnsafeMutablePointer<GtkApplication>) {
        addAction(application, "quit") { g_application_quit(caption_g_application(application)) }
        let shortcuts: [(String, [String])] = [
            ("win.save", ["<Control>s", "<Control>Return", "<Control>KP_Enter"]),
            ("win.open", ["<Control>o"]),
            ("win.undo", ["<Control>z"]),
            ("win.next-photo", ["<Control>Page_Down"]),
            ("win.previous-photo", ["<Control>Page_Up"]),
            ("win.show-shortcuts", ["<Control>question"]),
            ("win.about", ["F1"]),
            ("win.show-menu", ["F10"]),
            ("win.library", ["<Control>l"]),
            ("win.search", ["<Control>f"]),
            ("win.export", ["<Control>e"]),
            ("app.quit", ["<Control>q"]),
        ]
        for (action, accels) in shortcuts {
            withCStrings(accels) { gtk_application_set_accels_for_action(application, action, $0) }
        }
    }

    private static func openRemotely(_ application: UnsafeMutablePointer<GtkApplication>, _ paths: [String]) {
        var files: [OpaquePointer?] = paths.map { g_file_new_for_commandline_arg($0) }
        files.withUnsafeMutableBufferPointer { buffer in
            g_application_open(caption_g_application(application), buffer.baseAddress, Int32(buffer.count), "")
        }
        for file in files { g_object_unref(UnsafeMutableRawPointer(file)) }
        // The call is only queued on the bus: send it before this process ends, or the
        // running window may never get the photos.
        if let connection = g_application_get_dbus_connection(caption_g_application(application)) {
            g_dbus_connection_flush_sync(connection, nil, nil)
        }
    }
}

/// GApplication "open": (application, GFile **files, gint count, gchar *hint).
@MainActor
private func onOpen(_ application: UnsafeMutablePointer<GtkApplication>, _ body: @escaping @MainActor ([String]) -> Void) {
    typealias Handler = @MainActor ([String]) -> Void
    final class Box { let body: Handler; init(_ body: @escaping Handler) { self.body = body } }
    let callback: @convention(c) (gpointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?, gpointer?) -> Void = { _, files, count, _, data in
        guard let files, let data else { return }
        var paths: [String] = []
        for index in 0..<Int(count) {
            guard let file = files[index], let path = g_file_get_path(file) else { continue }
            paths.append(String(cString: path))
            g_free(path)
        }
        let handler = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
        MainActor.assumeIsolated { handler.body(paths) }
    }
    let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<Box>.fromOpaque(data).release()
    }
    _ = caption_signal_connect(application, "open", unsafeBitCast(callback, to: GCallback.self),
                               Unmanaged.passRetained(Box(body)).toOpaque(), release, 0)
}

/// A NULL-terminated array of C strings that lives for the call.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
