// The user's folders and files as GLib finds them: the cache and configuration folders,
// folders made on demand, a whole file read or replaced.

import CGtk
import POSIXFiles

enum UserFiles {
    /// $XDG_CACHE_HOME, or ~/.cache when it is not set.
    static var cacheFolder: String { FilePath.string(fromCString: g_get_user_cache_dir()) }

    static var home: String { FilePath.string(fromCString: g_get_home_dir()) }

    /// The user's Pictures folder (XDG_PICTURES_DIR), if one is set.
    static var picturesFolder: String? {
        g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map(FilePath.string(fromCString:))
    }

    static func isFolder(_ path: String) -> Bool { g_file_test(path.pathBytes, G_FILE_TEST_IS_DIR) != 0 }

    /// $XDG_CONFIG_HOME, or ~/.config when it is not set.
    static var configFolder: String { FilePath.string(fromCString: g_get_user_config_dir()) }

    /// Makes `folder` and its parents, private to the user; true when it is there after.
    @discardableResult
    static func makeFolder(_ folder: String) -> Bool { g_mkdir_with_parents(folder.pathBytes, 0o700) == 0 }

    /// A whole settings file's bytes; nil when it is missing, unreadable or not a regular
    /// file (a FIFO there is never waited on).
    static func contents(of path: String) -> [UInt8]? {
        SettingsFile.contents(path)
    }

    /// Adds the files to GTK's recently used files.
    @MainActor
    static func addToRecent(_ paths: [String]) {
        guard let manager = gtk_recent_manager_get_default() else { return }
        for path in paths {
            guard let uri = takeString(g_filename_to_uri(path.pathBytes, nil, nil)) else { continue }
            gtk_recent_manager_add_item(manager, uri)
        }
    }

    /// Replaces the file at `path` with `bytes`: GLib writes a temporary file and renames it
    /// over the old one, so a reader never sees half of it. Returns GLib's reason when it
    /// could not.
    static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let saved = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                g_file_set_contents(path.pathBytes, $0.baseAddress, gssize($0.count), &error)
            }
        }
        defer { g_clear_error(&error) }
        guard saved == 0 else { return nil }
        return error.map { String(cString: $0.pointee.message) } ?? ""
    }
}
