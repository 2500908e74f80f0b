// The window's CSS (Resources/caption.css, embedded) and the one GTK setting Caption changes,
// installed once for the screen.

@MainActor
enum Style {
    private static var installed = false

    static func install() {
        guard !installed, GtkSettings.addStyleSheet(EmbeddedResources.captionCSS) else { return }
        installed = true
        // A field reached by Tab keeps its words unselected, the cursor where it was. With
        // them selected, Orca drops the field's focus event for the selection's and says
        // «Fish sta selected» without the field's name; and one key typed would replace a
        // whole title.
        GtkSettings.set("gtk-entry-select-on-focus", to: false)
    }
}
