// Why a photo was not sent, in the user's words, and whether trying again may help.

/// A send that failed.
public struct SendError: Error, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached (down, no network, name unknown).
        case unreachable
        /// The server stopped answering, or the connection was cut during the transfer.
        case connectionLost
        /// The user name or password was refused.
        case loginRefused
        /// The SFTP server's key, or the FTPS server's certificate, is not the one trusted
        /// (or none is trusted yet): `seen` says what it showed.
        case unknownServer(seen: String?)
        /// The server has no room for the file, or could not write it.
        case serverFull
        /// The transfer stopped in the middle, for one of the two reasons above; SFTP as
        /// libcurl reports it does not tell which.
        case interrupted
        /// The folder is missing or the user may not write there.
        case folderRefused
        /// No password is kept for the destination, or the keyring could not be used.
        case keyring
        /// The photo could not be made ready (the library could not give it).
        case photo
        /// Anything else libcurl said.
        case other
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// True when the same send may work a little later: the network or the server, not
    /// the settings.
    public var isTransient: Bool {
        switch kind {
        case .unreachable, .connectionLost, .serverFull, .interrupted: return true
        case .loginRefused, .unknownServer, .folderRefused, .keyring, .photo, .other: return false
        }
    }
}
