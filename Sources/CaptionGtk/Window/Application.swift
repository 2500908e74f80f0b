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
                window.present(restoringDraft: true)
            }
            window.form.enqueue(paths)
            window.window.present()
        }

        application.connect(.activate) { present(opening: photos) }
        application.connect(.open) { paths in present(opening: paths) }
        installActions(application)

        // The photos of this command line go through `open` when another instance runs.
        if !photos.isEmpty, g_application_register(caption_g_application(application), nil, nil) != 0,
           g_application_get_is_remote(caption_g_application(application)) != 0 {
            openRemotely(application, photos)
            g_object_unref(application)
            return 0
        }
        let status = g_application_run(caption_g_application(application), 0, nil)
        // A save still in flight finishes before the process ends.
        captionWindow?.close()
        g_object_unref(application)
        return status
    }

    /// app.quit, and every action's keys, from the window's table of actions.
    private static func installActions(_ application: UnsafeMutablePointer<GtkApplication>) {
        // GLib aborts rather than return NULL from a constructor.
        let quit = UnsafeMutableRawPointer(g_simple_action_new(WindowAction.quit.rawValue, nil)!)
        quit.connect(.actionActivate) { _ in g_application_quit(caption_g_application(application)) }
        g_action_map_add_action(caption_action_map(application), OpaquePointer(quit))
        g_object_unref(quit)
        for action in WindowAction.allCases where !action.accelerators.isEmpty {
            withCStrings(action.accelerators) {
                gtk_application_set_accels_for_action(application, action.detailedName, $0)
            }
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
