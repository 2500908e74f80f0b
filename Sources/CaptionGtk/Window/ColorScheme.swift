// The desktop's light or dark preference, followed: GTK 3 does not read it itself. The
// settings portal (org.freedesktop.appearance color-scheme: 0 no preference, 1 dark,
// 2 light) is asked first and listened to; without a portal, GNOME's own key
// (org.gnome.desktop.interface color-scheme), when its schema is installed. The answer sets
// GTK's gtk-application-prefer-dark-theme, which Adwaita turns into its dark variant.

@MainActor
enum ColorScheme {
    static let portalName = "org.freedesktop.portal.Desktop"
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let settingsInterface = "org.freedesktop.portal.Settings"

    private static var started = false
    /// What gtk-application-prefer-dark-theme was before (settings.ini): "no preference" keeps it.
    private static var initialPreference = false
    private static var gnomeSetting: DesktopSetting?

    /// Starts following the desktop's preference; the first answer arrives on the main loop.
    static func follow() {
        guard !started, GtkSettings.isAvailable else { return }
        started = true
        initialPreference = GtkSettings.bool(preferDark)
        guard let bus = DBusConnection.session() else { return followGnomeSettings() }
        DBus.subscribe(
            bus, sender: portalName, path: portalPath, interface: settingsInterface, member: "SettingChanged"
        ) {
            parameters in
            guard parameters.childCount == 3, parameters.string(at: 0) == "org.freedesktop.appearance",
                parameters.string(at: 1) == "color-scheme", let scheme = parameters.uint32(at: 2)
            else { return }
            apply(scheme)
        }
        DBus.call(
            bus, name: portalName, path: portalPath, interface: settingsInterface, method: "Read",
            arguments: ("org.freedesktop.appearance", "color-scheme")
        ) { reply in
            if let scheme = reply?.uint32(at: 0) { apply(scheme) } else { followGnomeSettings() }
        }
    }

    private static let preferDark = "gtk-application-prefer-dark-theme"

    /// 1 prefers dark, 2 light, anything else is no preference.
    static func apply(_ scheme: UInt32) {
        guard GtkSettings.isAvailable else { return }
        let dark = scheme == 1 ? true : scheme == 2 ? false : initialPreference
        if GtkSettings.bool(preferDark) != dark { GtkSettings.set(preferDark, to: dark) }
    }

    /// GNOME's key, read and followed, when there is no portal to ask.
    private static func followGnomeSettings() {
        guard gnomeSetting == nil,
            let setting = DesktopSetting(schema: "org.gnome.desktop.interface", key: "color-scheme")
        else { return }
        gnomeSetting = setting
        setting.onChange { apply(setting.enumValue) }
        apply(setting.enumValue)
    }
}
