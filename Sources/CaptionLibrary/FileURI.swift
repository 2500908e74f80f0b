// file:// URIs as local paths: what a desktop entry's %U hands over, what a file manager
// drops, and how the window remembers a folder whose name is not UTF-8.

import CPixbuf
import POSIXFiles

public enum FileURI {
    /// The local path a `file:` URI names, percent-decoded by GLib (`g_filename_from_uri`),
    /// or nil. GLib decodes `file://otherhost/x.jpg` to `/x.jpg`, a different file on this
    /// machine: only no host or `localhost` is taken (RFC 8089). A query (`?`) is not part
    /// of a file's name; GLib refuses fragments, bad escapes and an escaped NUL itself.
    public static func localPath(_ uri: String) -> String? {
        guard !uri.contains("?") else { return nil }
        var host: UnsafeMutablePointer<CChar>?
        guard let path = g_filename_from_uri(uri, &host, nil) else { return nil }
        defer {
            g_free(path)
            g_free(host)
        }
        if let host, String(cString: host).lowercased() != "localhost" { return nil }
        // Percent-encoded bytes that are not UTF-8 name a file too: each is kept.
        return FilePath.string(fromCString: path)
    }

    /// A command-line photo: a `file:` URI as its local path; anything else, a plain path
    /// included, unchanged, so that the photo's own message ("Photo not found: …") names
    /// what the user gave.
    public static func path(fromArgument argument: String) -> String {
        // The scheme alone, case aside: lowering a whole path per argument cost a launch
        // naming 10,000 photos milliseconds before its first frame.
        let scheme = argument.utf8.prefix(5).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard scheme.elementsEqual("file:".utf8) else { return argument }
        return localPath(argument) ?? argument
    }

    /// The file URI of a local path, by its bytes (a name that is not UTF-8 keeps them).
    public static func uri(of path: String) -> String? {
        guard let uri = g_filename_to_uri(path.pathBytes, nil, nil) else { return nil }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}
