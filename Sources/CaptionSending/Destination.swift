// A place captioned photos are sent to: an agency's FTP, FTPS or SFTP server, or a folder.

import CPixbuf
import Localization

/// A named destination, as the user added it. Its password is in the Secret Service
/// (`Passwords`), never here.
public struct Destination: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// FTP without encryption: the password crosses the network as it is typed.
        case ftp
        /// FTP with explicit TLS (AUTH TLS on the FTP port), required for the login and
        /// the files; what agencies call FTPS or FTPES. Implicit TLS (port 990) is not
        /// offered: no agency known to us still asks for it.
        case ftps
        case sftp
        /// A folder on this computer or a mounted share.
        case folder
    }

    public var name: String
    public var kind: Kind
    /// Empty for a folder.
    public var host: String
    /// Nil: the protocol's own (21, 22).
    public var port: Int?
    /// Empty for a folder.
    public var user: String
    /// Where the photos go, ending with "/": on an FTP server relative to the login's
    /// folder unless it starts with "//" (FTP's way to say from the root); on an SFTP server from the
    /// root, or from the login's home when it starts with "~/"; a folder's absolute path.
    public var folder: String
    /// What the server proved itself with the first time and the user accepted: the SFTP
    /// server's host key ("SHA256:…", as `ssh-keygen -l` prints it) or the FTPS server's
    /// public key ("sha256//…", as libcurl pins one). Nil: not seen yet, or an FTPS server
    /// whose certificate a known authority signed.
    public var fingerprint: String?

    /// The destination `address` names: `ftp://USER@HOST[:PORT]/FOLDER/`, `ftps://…`,
    /// `sftp://…`, or a folder (`/path` or `file:///path`). Throws with the reason when it
    /// names none, or carries a password.
    public init(name: String, address: String, fingerprint: String? = nil) throws(DestinationError) {
        let name = name.trimmingSpaces
        if let problem = Destination.problem(withName: name) { throw DestinationError(message: problem) }
        if address.hasPrefix("/") {
            self = Destination(name: name, folder: address)
            return
        }
        self.name = name
        self.fingerprint = fingerprint.flatMap { $0.isEmpty ? nil : $0 }
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_uri_parse(address, G_URI_FLAGS_HAS_PASSWORD, &error) else {
            g_clear_error(&error)
            throw DestinationError(
                message: fill(
                    tr("“{address}” is no address: write ftp://USER@HOST/FOLDER/, ftps://…, sftp://… or a folder"),
                    ["address": address]))
        }
        defer { g_uri_unref(uri) }
        let scheme = g_uri_get_scheme(uri).map { String(cString: $0).lowercased() } ?? ""
        if scheme == "file" {
            let path = g_uri_get_path(uri).map { String(cString: $0) } ?? ""
            guard path.hasPrefix("/") else {
                throw DestinationError(message: fill(tr("“{address}” names no folder"), ["address": address]))
            }
            self = Destination(name: name, folder: path)
            return
        }
        guard let kind = Kind(rawValue: scheme), kind != .folder else {
            throw DestinationError(
                message: fill(
                    tr("Caption sends by ftp://, ftps:// and sftp://, or into a folder; not by {scheme}://"),
                    ["scheme": scheme]))
        }
        self.kind = kind
        host = g_uri_get_host(uri).map { String(cString: $0) } ?? ""
        guard !host.isEmpty else {
            throw DestinationError(message: fill(tr("“{address}” names no server"), ["address": address]))
        }
        if g_uri_get_password(uri) != nil {
            throw DestinationError(
                message: tr("put no password in the address: Caption asks for it and keeps it in the keyring"))
        }
        user = g_uri_get_user(uri).map { String(cString: $0) } ?? ""
        guard !user.isEmpty else {
            throw DestinationError(
                message: fill(
                    tr("“{address}” names no user: write {scheme}://USER@{host}/"),
                    ["address": address, "scheme": scheme, "host": host]))
        }
        let uriPort = Int(g_uri_get_port(uri))
        port = uriPort > 0 ? uriPort : nil
        var path = g_uri_get_path(uri).map { String(cString: $0) } ?? ""
        if path.isEmpty { path = kind == .sftp ? "/~/" : "/" }
        if !path.hasSuffix("/") { path += "/" }
        // The URL's first "/" only ends the host: for FTP what follows is relative to the
        // login's folder (libcurl's reading, and the RFC's), for SFTP it is the root.
        folder = kind == .sftp ? (path.hasPrefix("/~/") ? String(path.dropFirst()) : path) : String(path.dropFirst())
    }

    /// A folder on this computer, `path` absolute; a folder trusts no key.
    private init(name: String, folder path: String) {
        self.name = name
        kind = .folder
        host = ""
        user = ""
        port = nil
        folder = path.hasSuffix("/") ? path : path + "/"
        fingerprint = nil
    }

    /// The address as the user would write it again: no password, and the port only
    /// when it is not the protocol's own.
    public var address: String {
        switch kind {
        case .folder: return folder
        case .ftp, .ftps, .sftp:
            let portPart = port.map { ":\($0)" } ?? ""
            let path = kind == .sftp && !folder.hasPrefix("~/") ? folder : "/" + folder
            return kind.rawValue + "://" + escaped(user, allowing: nil) + "@" + hostForURL + portPart
                + escaped(path, allowing: "/~")
        }
    }

    /// A file's address on the server, for libcurl: "ftp" for FTPS too (explicit TLS).
    func url(of fileName: String) -> String {
        let scheme = kind == .sftp ? "sftp" : "ftp"
        let portPart = port.map { ":\($0)" } ?? ""
        let path = kind == .sftp && !folder.hasPrefix("~/") ? folder : "/" + folder
        return scheme + "://" + hostForURL + portPart + escaped(path + fileName, allowing: "/~")
    }

    /// The folder's own address, for a look at it without sending.
    var folderURL: String { url(of: "") }

    private var hostForURL: String { host.contains(":") ? "[" + host + "]" : host }

    /// Why `name` cannot name a destination, or nil: one line, not empty, and none of a key
    /// file's group brackets.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return tr("a destination needs a name") }
        if name.contains(where: { $0 == "[" || $0 == "]" || $0.isNewline || $0 == "\t" }) {
            return fill(tr("“{name}” cannot name a destination: no brackets, tabs or line breaks"), ["name": name])
        }
        return nil
    }
}

/// Percent-escapes what an URL cannot hold as it is (GLib's rules), keeping `allowed`.
func escaped(_ text: String, allowing allowed: String?) -> String {
    // Returns nil only when memory does.
    guard let escaped = g_uri_escape_string(text, allowed, 0) else { return text }
    defer { g_free(escaped) }
    return String(cString: escaped)
}

/// An address or name that names no destination, with the reason in the user's words.
public struct DestinationError: Error, Equatable, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
