// The photos waiting to be sent, kept in a file as they change, so that a crash or a
// restart loses none: $XDG_STATE_HOME/caption/send-queue, one line a photo.

import CPixbuf
import Threads

/// One photo to send: an entry of a library, to a destination by name.
public struct SendItem: Sendable, Hashable {
    /// The library's location as it was opened (a folder, or a server's address).
    public var library: String
    public var entryID: Int64
    public var destination: String

    public init(library: String, entryID: Int64, destination: String) {
        self.library = library
        self.entryID = entryID
        self.destination = destination
    }
}

/// The queue of sends, in order, shared by the threads that add to it and the one that
/// sends. Each change is written to its file (whole, synced, then renamed over the old
/// one) before it returns.
public final class SendQueue: Sendable {
    public let path: String
    /// Nil until the file is first read.
    private let items: Locked<[SendItem]?>

    /// `$XDG_STATE_HOME/caption/send-queue` (~/.local/state when it is not set).
    public static var defaultPath: String {
        // GLib owns the string it returns.
        let state = g_get_user_state_dir().map { String(cString: $0) } ?? "/tmp"
        return state + "/caption/send-queue"
    }

    /// The queue the file at `path` holds (empty when there is none, or for a line that is
    /// not one of its own: a file edited by hand loses that line, not the others). The file
    /// is read at the first use, not here: a window makes its queue before its first frame.
    public init(path: String = SendQueue.defaultPath) {
        self.path = path
        items = Locked(nil)
    }

    public var pending: [SendItem] { withItems { $0 } }

    private func withItems<Result>(_ body: (inout [SendItem]) -> Result) -> Result {
        items.withLock { items in
            var loaded = items ?? Self.read(path)
            defer { items = loaded }
            return body(&loaded)
        }
    }

    private static func read(_ path: String) -> [SendItem] {
        var read: [SendItem] = []
        var length: gsize = 0
        var contents: UnsafeMutablePointer<gchar>?
        guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else { return [] }
        defer { g_free(contents) }
        let text = String(decoding: UnsafeRawBufferPointer(start: contents, count: Int(length)), as: UTF8.self)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let id = Int64(fields[1]), id > 0,
                let library = unescaped(fields[0]), let destination = unescaped(fields[2])
            else { continue }
            let item = SendItem(library: library, entryID: id, destination: destination)
            if !read.contains(item) { read.append(item) }
        }
        return read
    }

    /// Adds `item` at the end (nothing when it is already waiting); nil when it is in the
    /// file, else the reason it could not be written (it waits in memory all the same).
    @discardableResult
    public func add(_ item: SendItem) -> String? {
        withItems { items -> String? in
            guard !items.contains(item) else { return nil }
            items.append(item)
            return save(items)
        }
    }

    /// Takes `item` out, once sent (or gone from its library).
    @discardableResult
    public func remove(_ item: SendItem) -> String? {
        withItems { items -> String? in
            guard let index = items.firstIndex(of: item) else { return nil }
            items.remove(at: index)
            return save(items)
        }
    }

    /// Called under the lock, so the file follows the changes in their order.
    private func save(_ items: [SendItem]) -> String? {
        let text = items.map {
            Self.escaped($0.library) + "\t" + String($0.entryID) + "\t" + Self.escaped($0.destination)
        }
        .map { $0 + "\n" }.joined()
        if let slash = path.lastIndex(of: "/") {
            g_mkdir_with_parents(String(path[..<slash]), 0o700)
        }
        var error: UnsafeMutablePointer<GError>?
        let bytes = Array(text.utf8)
        // Consistent (a new file renamed over the old) and durable (synced first): a crash
        // leaves the old queue or the new one.
        let written = g_file_set_contents_full(
            path, bytes, gssize(bytes.count),
            GFileSetContentsFlags(
                rawValue: G_FILE_SET_CONTENTS_CONSISTENT.rawValue | G_FILE_SET_CONTENTS_DURABLE.rawValue),
            0o600, &error)
        guard written == 0 else { return nil }
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? ""
    }

    /// Tabs and line breaks (and "%") escaped as in an URL, so any path or name fits a field.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "\t": out += "%09"
            case "\n": out += "%0A"
            case "\r": out += "%0D"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    private static func unescaped(_ field: Substring) -> String? {
        // Returns nil for a malformed escape.
        guard let text = g_uri_unescape_string(String(field), nil) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
