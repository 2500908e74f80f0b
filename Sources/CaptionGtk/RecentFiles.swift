// Photos opened in Caption join GTK's recent files, as in every GNOME app that opens files.

import CGtk

@MainActor
enum RecentFiles {
    static func add(_ paths: [String]) {
        guard let manager = gtk_recent_manager_get_default() else { return }
        for path in paths {
            guard let uri = g_filename_to_uri(path, nil, nil) else { continue }
            gtk_recent_manager_add_item(manager, uri)
            g_free(uri)
        }
    }
}
