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

    /// Whether `argument` names a library on a server rather than a folder. A scheme is
    /// told in any case (`POSTGRESQL://` too), as URI schemes are; so are the keywords.
    public static func isServer(_ argument: String) -> Bool {
        if schemeLength(argument) != nil { return true }
        guard let equals = argument.firstIndex(of: "=") else { return false }
        let keyword = argument[..<equals].filter { $0 != " " && $0 != "\t" }.lowercased()
        return leadingKeywords.contains(keyword)
    }

    /// The length of `postgresql://` or `postgres://` at the start, in any case; nil without.
    static func schemeLength(_ argument: String) -> Int? {
        let lowered = argument.prefix(13).lowercased()
        if lowered.hasPrefix("postgresql://") { return 13 }
        if lowered.hasPrefix("postgres://") { return 11 }
        return nil
    }

    public init(_ given: String) throws(LibraryError) {
        guard let libpq = caption_libpq() else { throw Self.noClient }
        // libpq reads only a lower-case scheme.
        let argument = Self.schemeLength(given).map { given.prefix($0).lowercased() + given.dropFirst($0) } ?? given
        var message: UnsafeMutablePointer<CChar>?
        // Both non-nil once `loaded` (the shim checks every symbol).
        let parse = libpq.pointee.conninfo_parse!
        let free = libpq.pointee.conninfo_free!
        guard let options = parse(argument, &message) else {
            // libpq's own reason, one line; it may quote the whole address or a part of it
            // (a password's percent-encoding it could not read).
            let shown = Self.withoutSecrets(argument)
            let reason = message.map { String(cString: $0) }?.split(separator: "\n").first.map(String.init) ?? ""
            if let message { libpq.pointee.freemem!(message) }
            throw LibraryError.make(
                .badAddress, "This is not a PostgreSQL address ({reason}): {address}",
                ["reason": Self.quotingNoSecret(reason), "address": shown])
        }
        defer { free(options) }
        var given: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { given[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        // libpq checks these values only as it connects, and its refusal then read as a
        // server not reached.
        let choices: [String: [String]] = [
            "sslmode": ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"],
            "gssencmode": ["disable", "prefer", "require"],
            "target_session_attrs": ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"],
        ]
        for (keyword, allowed) in choices.sorted(by: { $0.key < $1.key }) {
            if let value = given[keyword], !value.isEmpty, !allowed.contains(value) {
                throw LibraryError.make(
                    .badAddress, "This is not a PostgreSQL address ({reason}): {address}",
                    [
                        "reason": fill(
                            tr("{keyword} is {value}, which is none of {allowed}"),
                            ["keyword": keyword, "value": value, "allowed": allowed.joined(separator: ", ")]),
                        "address": Self.describe(given),
                    ])
            }
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
    /// `user:password@` and its query (`?password=…`, `?sslpassword=…`), and the value of any
    /// keyword but the server's, the database's, the user's and the service's, however it
    /// is spelt (`PASSWORD = 'x'`).
    static func withoutSecrets(_ argument: String) -> String {
        if let scheme = schemeLength(argument) {
            var rest = argument.dropFirst(scheme)
            var query = ""
            if let mark = rest.firstIndex(of: "?") {
                rest = rest[..<mark]
                query = "?…"
            }
            if let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                rest = rest[..<colon] + ":…" + rest[at...]
            }
            return String(argument.prefix(scheme)) + rest + query
        }
        let shown: Set<String> = ["host", "hostaddr", "port", "dbname", "user", "service"]
        var words: [String] = []
        var rest = Substring(argument)
        while let equals = rest.firstIndex(of: "=") {
            let keyword = String(rest[..<equals].filter { $0 != " " && $0 != "\t" })
            var value = rest[rest.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            var end = value.firstIndex { $0 == " " || $0 == "\t" } ?? value.endIndex
            if value.first == "'" {
                // A quoted value ends at the next quote not escaped by a backslash.
                var index = value.index(after: value.startIndex)
                while index < value.endIndex && value[index] != "'" {
                    if value[index] == "\\" && value.index(after: index) < value.endIndex {
                        index = value.index(after: index)
                    }
                    index = value.index(after: index)
                }
                end = index < value.endIndex ? value.index(after: index) : index
            }
            let text = value[..<end]
            words.append(keyword + "=" + (shown.contains(keyword.lowercased()) ? String(text) : "…"))
            value = value[end...]
            rest = value
        }
        if rest.contains(where: { $0 != " " && $0 != "\t" }) { words.append("…") }
        return words.joined(separator: " ")
    }

    /// libpq's reason with what it quotes kept only when it is a keyword's name
    /// (`invalid connection option "PASSWORD"`); a quoted value may be a secret.
    static func quotingNoSecret(_ reason: String) -> String {
        var parts = reason.split(separator: "\"", omittingEmptySubsequences: false).map(String.init)
        for index in stride(from: 1, to: parts.count, by: 2)
        where !parts[index].allSatisfy({ $0.isLetter || $0 == "_" }) {
            parts[index] = "…"
        }
        return parts.joined(separator: "\"")
    }
}
