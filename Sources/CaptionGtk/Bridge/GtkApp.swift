// The GtkApplication: one instance per session on D-Bus, its activations and opened files,
// its "app." actions and their keys.

import CGtk
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
final class GtkApp {
    /// Names the program (`name`, the X11 WM_CLASS name and the Wayland app id) and the
    /// application as people see it; before GTK opens the display.
    static func setIdentity(programName: String, applicationName: String) {
        g_set_prgname(programName)
        g_set_application_name(applicationName)
    }

    /// Makes this thread's default font map, the one GTK's widgets measure text with:
    /// Pango starts reading the font configuration on a thread of its own.
    static func startReadingFonts() { _ = pango_cairo_font_map_get_default() }

    /// Opens the display; false when there is none.
    static func openDisplay() -> Bool { gtk_init_check(nil, nil) != 0 }

    /// The X11 WM_CLASS's class half, once the display is open.
    static func setProgramClass(_ name: String) { gdk_set_program_class(name) }

    /// The scale factor of the default screen's first monitor: what a window opened now
    /// will most likely be drawn at.
    static var screenScale: Int { Int(max(gdk_screen_get_monitor_scale_factor(gdk_screen_get_default(), 0), 1)) }

    fileprivate let pointer: UnsafeMutablePointer<GtkApplication>
    private var gApplication: UnsafeMutablePointer<GApplication> { caption_g_application(pointer) }

    /// `separate` keeps this instance out of one already running (another library is
    /// another session). Nil when GTK cannot make one.
    init?(id: String, separate: Bool) {
        var flags = G_APPLICATION_HANDLES_OPEN.rawValue
        if separate { flags |= G_APPLICATION_NON_UNIQUE.rawValue }
        guard let made = gtk_application_new(id, GApplicationFlags(rawValue: flags)) else { return nil }
        pointer = made
    }

    isolated deinit { g_object_unref(pointer) }

    /// A Wayland launcher's activation token, for the first window to present with.
    func useStartupToken(_ token: String) { caption_use_startup_token(pointer, token) }

    func onActivate(_ body: @escaping @MainActor () -> Void) { pointer.connect(.activate, body) }

    /// Photos handed over by a launcher or a second `caption PHOTO`.
    func onOpen(_ body: @escaping @MainActor ([String]) -> Void) { pointer.connect(.open, body) }

    /// Its "app." actions.
    var actions: ActionMap { ActionMap(application: pointer) }

    /// Binds `accelerators` ("<Control>s") to the detailed action name ("win.save").
    func setAccelerators(_ accelerators: [String], for action: String) {
        withCStrings(accelerators) { gtk_application_set_accels_for_action(pointer, action, $0) }
    }

    /// Registers on the session bus; GLib's reason when it could not.
    func register() -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(gApplication, nil, &error) == 0 else { return nil }
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }

    var hasSessionBus: Bool { g_application_get_dbus_connection(gApplication) != nil }

    /// Another instance runs and this one only hands its work over.
    var isRemote: Bool { g_application_get_is_remote(gApplication) != 0 }

    /// Runs the main loop until the application quits; `arguments` (each path's own bytes)
    /// go to the running instance when this one is remote. Returns the exit status.
    func run(arguments: [String]) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0.pathBytes) } + [nil]
        defer { argv.forEach { free($0) } }
        return argv.withUnsafeMutableBufferPointer { buffer in
            g_application_run(gApplication, Int32(arguments.count), arguments.isEmpty ? nil : buffer.baseAddress)
        }
    }

    func quit() { g_application_quit(gApplication) }

    /// A new toplevel window of this application.
    func newWindow() -> Window { Window(unchecked: gtk_application_window_new(pointer)) }
}
