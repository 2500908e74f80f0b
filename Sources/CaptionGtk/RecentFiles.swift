// Photos opened in Caption join GTK's recent files, as in every GNOME app that opens files.

import CGtk

@MainActor
enum RecentFiles {
    /// Waits until the window has painted: the first use of the recent manager reads and
    /// parses the whole history file and starts watching it, which a photo given on the
    /// command line would otherwise put in front of the first frame.
    static func add(_ paths: [String]) {
        MainThread.post(priority: G_PRIORITY_LOW) { addNow(paths) }
    }

    private static func addNow(_ paths: [String]) {
        guard let manager = gtk_recent_manager_get_default() else { return }
        for path in paths {
            guard let uri = g_filename_to_uri(path, nil, nil) else { continue }
            gtk_recent_manager_add_item(manager, uri)
            g_free(uri)
        }
    }
}
