// The two places a library is kept: the library's behaviour tests run on each, a folder
// and a real PostgreSQL server, and must see the same.

import CaptionTestSupport
import Foundation
import Testing

@testable import CaptionLibrary

/// Where a test's library is kept.
enum Storage: CaseIterable, Sendable, CustomTestStringConvertible {
    case folder, server

    var testDescription: String { self == .folder ? "in a folder" : "on PostgreSQL" }

    /// The library of `scratch`, opened (made the first time): a folder in it, or a
    /// database of its own on the test server with the photo cache in it. Opened again,
    /// it is the same library, as another process or editor sees it.
    func open(_ scratch: Scratch) throws -> Library {
        switch self {
        case .folder:
            return try Library(directory: scratch.file("lib"))
        case .server:
            return try Library(server: try Self.database(for: scratch), cache: scratch.file("cache"))
        }
    }

    /// What `--library` is given for the library of `scratch`.
    func argument(_ scratch: Scratch) throws -> String {
        self == .folder ? scratch.file("lib") : try Self.database(for: scratch).connectionString
    }

    /// The database that belongs to `scratch`, made when first asked for.
    static func database(for scratch: Scratch) throws -> PostgresAddress {
        let name = "lib_" + String(Array(scratch.path.utf8).withUnsafeBytes { Hash.sha256($0) }.prefix(24))
        return try PostgresAddress(TestServer.database(named: name))
    }

    /// Problems of a folder library's photos/ against its rows (none for a server's).
    func consistencyProblems(_ scratch: Scratch) throws -> [String] {
        self == .folder ? try CaptionTestSupport.consistencyProblems(scratch.file("lib")) : []
    }
}
