// Where a library on a PostgreSQL server is: a libpq connection string or URI as the user
// gave it, checked to hold no password, and told in messages without one.

import CPostgres
import Localization

/// A PostgreSQL server and database, from `postgresql://…`, `postgres://…` or a libpq
/// `key=value` string (`service=desk`, `host=… dbname=…`). The password comes from where
/// libpq looks for it itself (`~/.pgpass`, the service file, `PGPASSWORD`), never from the
/// address: an address is typed on command lines, kept in settings and shown in messages.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// As given, for libpq.
    public let connectionString: String
    /// The server and database without anything secret, for messages: the keywords
    /// `service`, `user`, `host`, `port` and `dbname` as given.
    public let description: String

    /// The keywords a `key=value` address may start with: the ones a person writes first.
    /// A folder whose name starts so is given as `./host=…`.
    static let leadingKeywords: Set<String> = [
        "service", "host", "hostaddr", "port", "dbname", "user", "passfile", "sslmode", "application_name",
        "connect_timeout", "options", "target_session_attrs", "password",
    ]

    /// Whether `argument` names a library on a server rather than a folder.
    public static func isServer(_ argument: String) -> Bool {
        if argument.hasPrefix("postgresql://") || argument.hasPrefix("postgres://") { return true }
        guard let equals = argument.firstIndex(of: "=") else { return false }
        let keyword = argument[..<equals].filter { $0 != " " && $0 != "\t" }
        return leadingKeywords.contains(keyword)
    }

    public init(_ argument: String) throws(LibraryError) {
        guard let libpq = caption_libpq() else { throw Self.noClient }
        var message: UnsafeMutablePointer<CChar>?
        // Both non-nil once `loaded` (the shim checks every symbol).
        let parse = libpq.pointee.conninfo_parse!
        let free = libpq.pointee.conninfo_free!
        guard let options = parse(argument, &message) else {
            // libpq's own reason, one line; it may quote the whole address.
            let shown = Self.withoutSecrets(argument)
            let reason = message.map { String(cString: $0) }?.split(separator: "\n").first.map(String.init) ?? ""
            if let message { libpq.pointee.freemem!(message) }
            throw LibraryError.make(
                .badAddress, "This is not a PostgreSQL address ({reason}): {address}",
                ["reason": reason.replacing(argument, with: shown), "address": shown])
        }
        defer { free(options) }
        var given: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { given[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        if let password = given["password"], !password.isEmpty {
            throw LibraryError.make(
                .badAddress,
                "The PostgreSQL address holds a password, which Caption does not take from a command line or its settings; put it in ~/.pgpass or a service file instead: {address}",
                ["address": Self.describe(given)])
        }
        connectionString = argument
        description = Self.describe(given)
    }

    static var noClient: LibraryError {
        .make(
            .unreachable,
            "A library on a PostgreSQL server needs the libpq library, which could not be opened; install it (libpq5 on Debian and Ubuntu, libpq on Fedora)"
        )
    }

    /// `service=desk`, or `postgresql://user@host:port/dbname` with what was given.
    static func describe(_ given: [String: String]) -> String {
        if let service = given["service"], !service.isEmpty { return "service=" + service }
        var text = "postgresql://"
        if let user = given["user"], !user.isEmpty { text += user + "@" }
        text += given["host"] ?? ""
        if let port = given["port"], !port.isEmpty { text += ":" + port }
        text += "/" + (given["dbname"] ?? "")
        return text
    }

    /// An address libpq could not parse, told without what may be a password: a URI's
    /// `user:password@` and any `password=` word.
    static func withoutSecrets(_ argument: String) -> String {
        var words: [String] = []
        for word in argument.split(separator: " ", omittingEmptySubsequences: false) {
            if word.hasPrefix("password=") {
                words.append("password=…")
            } else if let scheme = word.firstRange(of: "://"), let at = word.firstRange(of: "@"),
                let colon = word[scheme.upperBound..<at.lowerBound].firstIndex(of: ":")
            {
                words.append(String(word[..<colon]) + ":…" + String(word[at.lowerBound...]))
            } else {
                words.append(String(word))
            }
        }
        return words.joined(separator: " ")
    }
}
