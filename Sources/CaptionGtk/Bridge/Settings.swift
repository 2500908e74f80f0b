// Settings Caption reads or changes: GTK's own (gtk-application-prefer-dark-theme and the
// like), the screen's style sheets, and a desktop key in GSettings.

import CGtk

/// GTK's settings object for the default screen.
@MainActor
enum GtkSettings {
    /// Whether there is a screen, and so settings, at all.
    static var isAvailable: Bool { gtk_settings_get_default() != nil }

    static func bool(_ name: String) -> Bool {
        guard let settings = gtk_settings_get_default() else { return false }
        var value: gboolean = 0
        caption_object_get_boolean(settings.objectPointer, name, &value)
        return value != 0
    }

    static func set(_ name: String, to value: Bool) {
        guard let settings = gtk_settings_get_default() else { return }
        caption_object_set_int(settings.objectPointer, name, value ? 1 : 0)
    }

    /// Adds `css` for every window of the default screen, above the theme; false when
    /// there is no screen.
    static func addStyleSheet(_ css: String) -> Bool {
        guard let screen = gdk_screen_get_default(), let provider = gtk_css_provider_new() else { return false }
        // The screen keeps its own reference.
        defer { g_object_unref(provider) }
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(
            screen, caption_style_provider(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        return true
    }
}

/// One key of a GSettings schema, read and followed; nil when the schema or the key is not
/// installed (GSettings aborts on an unknown schema, so it is looked up first).
@MainActor
final class DesktopSetting {
    private let reference: GObjectRef
    private let key: String

    private var settings: UnsafeMutablePointer<GSettings> { reference.pointer.assumingMemoryBound(to: GSettings.self) }

    init?(schema: String, key: String) {
        guard let source = g_settings_schema_source_get_default(),
            let found = g_settings_schema_source_lookup(source, schema, 1)
        else { return nil }
        defer { g_settings_schema_unref(found) }
        guard g_settings_schema_has_key(found, key) != 0, let made = g_settings_new(schema) else { return nil }
        reference = GObjectRef(taking: UnsafeMutableRawPointer(made))
        self.key = key
    }

    /// The key's value as its enumeration's number.
    var enumValue: UInt32 { UInt32(bitPattern: g_settings_get_enum(settings, key)) }

    /// Runs `body` whenever the key changes, for as long as this lives.
    func onChange(_ body: @escaping @MainActor () -> Void) {
        settings.connect(.settingChanged(key)) { _ in body() }
    }
}
