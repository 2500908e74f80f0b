// The desktop's light or dark preference, followed: GTK 3 does not read it itself. The
// settings portal (org.freedesktop.appearance color-scheme: 0 no preference, 1 dark,
// 2 light) is asked first and listened to; without a portal, GNOME's own key
// (org.gnome.desktop.interface color-scheme), when its schema is installed. The answer sets
// GTK's gtk-application-prefer-dark-theme, which Adwaita turns into its dark variant.

import CGtk

@MainActor
enum ColorScheme {
    static let portalName = "org.freedesktop.portal.Desktop"
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let settingsInterface = "org.freedesktop.portal.Settings"

    private static var started = false
    /// What gtk-application-prefer-dark-theme was before (settings.ini): "no preference" keeps it.
    private static var initialPreference = false
    private static var gnomeSettings: GObjectRef?
    /// Tests wait on this; the app ignores it.
    static var onApplied: ((Bool) -> Void)?

    /// Starts following the desktop's preference; the first answer arrives on the main loop.
    static func follow() {
        guard !started, let settings = gtk_settings_get_default() else { return }
        started = true
        initialPreference = prefersDark(settings)
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return followGnomeSettings() }
        DBus.subscribe(
            bus, sender: portalName, path: portalPath, interface: settingsInterface, member: "SettingChanged"
        ) {
            parameters in
            guard parameters.childCount == 3, parameters.string(at: 0) == "org.freedesktop.appearance",
                parameters.string(at: 1) == "color-scheme", let scheme = parameters.uint32(at: 2)
            else { return }
            apply(scheme)
        }
        let arguments = caption_variant_new_string_pair("org.freedesktop.appearance", "color-scheme")!
        DBus.call(
            bus, name: portalName, path: portalPath, interface: settingsInterface, method: "Read",
            parameters: arguments
        ) { reply in
            if let scheme = reply?.uint32(at: 0) { apply(scheme) } else { followGnomeSettings() }
        }
        g_object_unref(UnsafeMutableRawPointer(bus))  // the subscription and the call hold it
    }

    /// 1 prefers dark, 2 light, anything else is no preference.
    static func apply(_ scheme: UInt32) {
        guard let settings = gtk_settings_get_default() else { return }
        let dark = scheme == 1 ? true : scheme == 2 ? false : initialPreference
        if prefersDark(settings) != dark {
            caption_object_set_int(UnsafeMutableRawPointer(settings), "gtk-application-prefer-dark-theme", dark ? 1 : 0)
        }
        onApplied?(dark)
    }

    private static func prefersDark(_ settings: some GObjectConvertible) -> Bool {
        var value: gboolean = 0
        caption_object_get_boolean(settings.objectPointer, "gtk-application-prefer-dark-theme", &value)
        return value != 0
    }

    /// GNOME's key, read and followed, when there is no portal to ask.
    private static func followGnomeSettings() {
        guard gnomeSettings == nil, let source = g_settings_schema_source_get_default(),
            let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.interface", 1)
        else { return }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, "color-scheme") != 0,
            let settings = g_settings_new("org.gnome.desktop.interface")
        else { return }
        let reference = GObjectRef(taking: UnsafeMutableRawPointer(settings))
        gnomeSettings = reference
        let read = { apply(UInt32(bitPattern: g_settings_get_enum(settings, "color-scheme"))) }
        reference.pointer.connect(.settingChanged("color-scheme")) { _ in read() }
        read()
    }
}
