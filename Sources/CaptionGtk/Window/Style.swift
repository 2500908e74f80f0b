// The window's CSS (Resources/caption.css, embedded) and the one GTK setting Caption changes,
// installed once for the screen.

import CGtk

@MainActor
enum Style {
    private static var installed = false

    static func install() {
        guard !installed, let screen = gdk_screen_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, EmbeddedResources.captionCSS, -1, nil)
        gtk_style_context_add_provider_for_screen(
            screen, caption_style_provider(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
        // A field reached by Tab keeps its words unselected, the cursor where it was. With
        // them selected, Orca drops the field's focus event for the selection's and says
        // «Fish sta selected» without the field's name; and one key typed would replace a
        // whole title.
        caption_object_set_int(UnsafeMutableRawPointer(gtk_settings_get_default()), "gtk-entry-select-on-focus", 0)
    }
}
