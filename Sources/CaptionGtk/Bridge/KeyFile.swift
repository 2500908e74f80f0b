// A key file being changed in place: the window's remembered settings.

import CGtk

/// A GKeyFile open for `KeyFile.update`'s change.
struct KeyFile {
    private let pointer: OpaquePointer

    func set(_ value: String, group: String, key: String) { g_key_file_set_string(pointer, group, key, value) }
    func set(_ value: Int, group: String, key: String) { g_key_file_set_integer(pointer, group, key, Int32(value)) }
    func set(_ value: Bool, group: String, key: String) { g_key_file_set_boolean(pointer, group, key, value ? 1 : 0) }

    /// Changes some keys of the file at `path` and keeps the others and their comments; the
    /// folder is made if need be. Saving is atomic (GLib writes a copy and renames it); a
    /// failure (a read-only home) leaves the file as it was.
    static func update(_ path: String, _ change: (KeyFile) -> Void) {
        if let slash = path.lastIndex(of: "/") {
            g_mkdir_with_parents(String(path[..<slash]).pathBytes, 0o700)
        }
        // g_key_file_new only fails when memory does.
        let file = g_key_file_new()!
        defer { g_key_file_free(file) }
        g_key_file_load_from_file(file, path, G_KEY_FILE_KEEP_COMMENTS, nil)
        change(KeyFile(pointer: file))
        g_key_file_save_to_file(file, path, nil)
    }
}
