// Other editors' commits to a library on a server, heard as they happen (LISTEN/NOTIFY):
// what lets an editor's window follow the desk without asking the server every second.

import Threads

/// A connection of its own that listens for the library's commits. The window waits on its
/// socket with the main loop and, when it is readable, asks `othersCommitted`.
public final class ChangeNotices: Sendable {
    private let connection: Locked<PostgresConnection>
    /// The token of the library's own commits, which are not news to it.
    private let own: String
    /// The socket to wait on; readable when a notice (or the connection's end) arrived.
    public let fileDescriptor: Int32

    init(_ address: PostgresAddress, own: String) throws(LibraryError) {
        let connection = try PostgresConnection(address)
        try connection.execute("LISTEN " + PostgresStorage.noticeChannel)
        fileDescriptor = connection.socket
        self.connection = Locked(connection)
        self.own = own
    }

    /// Reads what arrived: whether another editor (or program) committed since the last
    /// call; nil when the connection was lost, after which nothing more will be heard and
    /// the caller goes back to asking.
    public func othersCommitted() -> Bool? {
        guard let payloads = connection.withLock({ $0.takeNotices() }) else { return nil }
        return payloads.contains { $0 != own }
    }
}

extension Library {
    /// Notices of other connections' commits, for a library on a server; nil for a folder,
    /// whose changes are asked for (SQLite's data version costs nothing to read).
    public func changeNotices() throws(LibraryError) -> ChangeNotices? {
        guard let server = storage as? PostgresStorage else { return nil }
        return try ChangeNotices(server.address, own: server.noticeToken)
    }
}
