// The PostgreSQL server make test runs beside the tests (build-aux/with-postgres), for tests
// outside the library's own: a database of a test's own on it, made with psql.

import Foundation
import Testing

public enum TestServer {
    /// The server's address, from with-postgres; a test that needs it fails without it.
    public static func address() throws -> String {
        try #require(
            ProcessInfo.processInfo.environment["CAPTION_TEST_POSTGRES"],
            "no test server: run the tests under build-aux/with-postgres, as make test does")
    }

    /// A new, empty database on the server, and its address.
    public static func newDatabase() throws -> String {
        let server = try address()
        let name = "db_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let made = try Tool.run("psql", [server, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
        guard made.status == 0 else { throw ToolFailure(description: "psql: \(made.stderr)") }
        return server + " dbname=\(name)"
    }
}
