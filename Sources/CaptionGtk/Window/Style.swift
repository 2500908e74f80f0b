// The window's CSS (Resources/caption.css, embedded), installed once for the screen.

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
    }
}
