// The window's CSS, embedded so the installed binary needs no resource files to find.

import CGtk

@MainActor
enum Style {
    private static var installed = false

    /// The last rule keeps a theme image nobody sees from being loaded: the view switcher's
    /// buttons are radio buttons drawn without their bullet, yet computing their style loads
    /// the theme's bullet SVG, and librsvg with it, 8 MB and some milliseconds at start-up.
    static let css = """
    .caption-content { padding: 18px; }
    .caption-preview {
        background-color: alpha(@theme_fg_color, 0.06);
        border-radius: 8px;
    }
    .caption-placeholder { font-size: 120%; }
    .caption-message { color: @error_color; font-size: 90%; }
    stackswitcher radio { -gtk-icon-source: none; }
    """

    static func install() {
        guard !installed, let screen = gdk_screen_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(screen, caption_style_provider(provider),
                                                  UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }
}
