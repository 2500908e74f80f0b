// Key files (GLib's .ini): settings, credits and drafts, read, or changed in place keeping
// what else the file holds. The one place that speaks GKeyFile.

import CPixbuf
import POSIXFiles

/// A GKeyFile: read from bytes or a file, changed, and written back.
public final class KeyFile {
    private let pointer: OpaquePointer

    /// An empty key file.
    public init() {
        // g_key_file_new only fails when memory does.
        pointer = g_key_file_new()!
    }

    /// `bytes` read as a key file (comments kept, for a file changed in place); nil when
    /// they are no key file. GLib's reason is not kept: it quotes the line it stopped at,
    /// and whatever the file is, none of it is shown.
    public convenience init?(bytes: [UInt8], keepingComments: Bool = false) {
        self.init()
        // With a terminating zero, so the buffer is never empty and always has an address.
        let parsed = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                // A non-empty buffer's base address is never nil.
                g_key_file_load_from_data(
                    pointer, text.baseAddress!, gsize(bytes.count),
                    keepingComments ? G_KEY_FILE_KEEP_COMMENTS : G_KEY_FILE_NONE, nil) != 0
            }
        }
        guard parsed else { return nil }
    }

    deinit { g_key_file_free(pointer) }

    /// The file at `path` (read with SettingsFile, which never waits on a FIFO); nil when
    /// it is missing or is not a key file.
    public static func load(_ path: String) -> KeyFile? {
        SettingsFile.contents(path).flatMap { KeyFile(bytes: $0) }
    }

    /// The value of `key`, or nil when it is missing or not of the type asked for.
    public func string(group: String, key: String) -> String? {
        // Nil exactly when GLib sets an error (no such key or group, or not UTF-8).
        let value: UnsafeMutablePointer<gchar>? = g_key_file_get_string(pointer, group, key, nil)
        guard let value else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    public func integer(group: String, key: String) -> Int? {
        read { Int(g_key_file_get_integer(pointer, group, key, $0)) }
    }

    public func boolean(group: String, key: String) -> Bool? {
        read { g_key_file_get_boolean(pointer, group, key, $0) != 0 }
    }

    public func hasKey(group: String, key: String) -> Bool { g_key_file_has_key(pointer, group, key, nil) != 0 }

    /// The groups, in the file's order.
    public var groups: [String] {
        var count: gsize = 0
        guard let names = g_key_file_get_groups(pointer, &count) else { return [] }
        defer { g_strfreev(names) }
        return (0..<Int(count)).compactMap { names[$0].map { String(cString: $0) } }
    }

    private func read<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) -> T? {
        var error: UnsafeMutablePointer<GError>?
        let value = body(&error)
        defer { g_clear_error(&error) }
        return error == nil ? value : nil
    }

    /// Key files escape line breaks, tabs and backslashes, so any typed text survives.
    public func set(_ value: String, group: String, key: String) { g_key_file_set_string(pointer, group, key, value) }
    public func set(_ value: Int, group: String, key: String) {
        g_key_file_set_integer(pointer, group, key, Int32(clamping: value))
    }
    public func set(_ value: Bool, group: String, key: String) {
        g_key_file_set_boolean(pointer, group, key, value ? 1 : 0)
    }

    /// Takes a key out; nothing when it is not there.
    public func removeKey(group: String, key: String) { g_key_file_remove_key(pointer, group, key, nil) }

    /// Takes a whole group out; nothing when it is not there.
    public func removeGroup(_ group: String) { g_key_file_remove_group(pointer, group, nil) }

    /// The file as it would be written.
    public var bytes: [UInt8] {
        var length = 0
        // g_key_file_to_data only fails when memory does.
        guard let data = g_key_file_to_data(pointer, &length, nil) else { return [] }
        defer { g_free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Writes the file at `path` atomically (GLib writes a copy and renames it); nil when
    /// written, else GLib's reason, and the file is as it was.
    public func save(to path: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_save_to_file(pointer, path, &error) != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? ""
            g_clear_error(&error)
            return reason
        }
        return nil
    }

    /// Changes some keys of the file at `path` and keeps the others and their comments (a
    /// file missing or no key file: a new one); the folder is made if need be. A failure (a
    /// read-only home) leaves the file as it was; its reason is returned.
    @discardableResult
    public static func update(_ path: String, _ change: (KeyFile) -> Void) -> String? {
        update(path, reading: { $0 }, change)
    }

    /// As `update(_:_:)`, the bytes read passed through `reading` first.
    static func update(_ path: String, reading: ([UInt8]) -> [UInt8], _ change: (KeyFile) -> Void) -> String? {
        if let slash = path.lastIndex(of: "/"), let code = POSIXFiles.makeFolders(String(path[..<slash]), mode: 0o700) {
            return POSIXFiles.reason(code)
        }
        let file =
            SettingsFile.contents(path).flatMap { KeyFile(bytes: reading($0), keepingComments: true) } ?? KeyFile()
        change(file)
        return file.save(to: path)
    }
}
