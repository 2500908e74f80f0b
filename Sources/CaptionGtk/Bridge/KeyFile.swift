// Key files (GLib's .ini): the window's remembered settings, read, or changed in place.

import CGtk
import CaptionLibrary
import POSIXFiles

/// A GKeyFile, read from a file or open for `KeyFile.update`'s change.
final class KeyFile {
    private let pointer: OpaquePointer

    private init() {
        // g_key_file_new only fails when memory does.
        pointer = g_key_file_new()!
    }

    deinit { g_key_file_free(pointer) }

    /// The file at `path`; nil when it is missing or is not a key file.
    static func load(_ path: String) -> KeyFile? {
        let file = KeyFile()
        guard let bytes = SettingsFile.contents(path), file.parse(bytes, keepingComments: false) else { return nil }
        return file
    }

    /// Reads `bytes` (read with SettingsFile, which never waits on a FIFO); false when they
    /// are no key file.
    private func parse(_ bytes: [UInt8], keepingComments: Bool) -> Bool {
        SettingsFile.parseKeyFile(bytes, into: pointer, keepingComments: keepingComments)
    }

    /// The values of `key`, or nil when it is missing or not of the type asked for.
    func integer(group: String, key: String) -> Int? { read { Int(g_key_file_get_integer(pointer, group, key, $0)) } }
    func boolean(group: String, key: String) -> Bool? { read { g_key_file_get_boolean(pointer, group, key, $0) != 0 } }
    func string(group: String, key: String) -> String? { takeString(g_key_file_get_string(pointer, group, key, nil)) }

    private func read<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) -> T? {
        var error: UnsafeMutablePointer<GError>?
        let value = body(&error)
        defer { g_clear_error(&error) }
        return error == nil ? value : nil
    }

    func set(_ value: String, group: String, key: String) { g_key_file_set_string(pointer, group, key, value) }
    func set(_ value: Int, group: String, key: String) { g_key_file_set_integer(pointer, group, key, Int32(value)) }
    func set(_ value: Bool, group: String, key: String) { g_key_file_set_boolean(pointer, group, key, value ? 1 : 0) }

    /// Takes a whole group out; nothing when it is not there.
    func removeGroup(_ group: String) { g_key_file_remove_group(pointer, group, nil) }

    /// Changes some keys of the file at `path` and keeps the others and their comments; the
    /// folder is made if need be. Saving is atomic (GLib writes a copy and renames it); a
    /// failure (a read-only home) leaves the file as it was.
    static func update(_ path: String, _ change: (KeyFile) -> Void) {
        if let slash = path.lastIndex(of: "/") { UserFiles.makeFolder(String(path[..<slash])) }
        let file = KeyFile()
        if let bytes = SettingsFile.contents(path) { _ = file.parse(bytes, keepingComments: true) }
        change(file)
        g_key_file_save_to_file(file.pointer, path, nil)
    }
}
