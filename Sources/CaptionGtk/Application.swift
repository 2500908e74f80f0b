// The GTK application: start-up, the window, and the command-line photos handed to it.

import CGtk

@MainActor
public enum CaptionApplication {
    /// Opens the window; returns the process exit status. Without a display, says so in
    /// one line and returns 1.
    public static func run(library: String?, photos: [String]) -> Int32 {
        guard gtk_init_check(nil, nil) != 0 else {
            return 1
        }
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(caption_window(window), "Caption")
        gtk_window_set_default_size(caption_window(window), 640, 480)
        gtk_widget_show_all(window)
        gtk_main()
        return 0
    }
}
