// The PostgreSQL server make test runs beside the tests (build-aux/with-postgres), for tests
// outside the library's own: a database of a test's own on it, made with psql.

import Foundation

public enum TestServer {
    /// The server's address, from with-postgres; a test that needs it fails without it.
    public static func address() throws -> String {
        guard let address = ProcessInfo.processInfo.environment["CAPTION_TEST_POSTGRES"] else {
            throw ToolFailure(
                description: "no test server: run the tests under build-aux/with-postgres, as make test does")
        }
        return address
    }

    /// A new, empty database on the server, and its address.
    public static func newDatabase() throws -> String {
        try database(named: "db_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())
    }

    /// The database `name` (letters, digits and underscores) on the server, made the first
    /// time it is asked for, and its address: a test that opens it again finds what it left.
    public static func database(named name: String) throws -> String {
        let server = try address()
        let found = try Tool.run(
            "psql", [server, "-tA", "-c", "SELECT 1 FROM pg_database WHERE datname = '\(name)'"])
        guard found.status == 0 else { throw ToolFailure(description: "psql: \(found.stderr)") }
        if found.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "1" {
            let made = try Tool.run("psql", [server, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
            // Another test of the same scratch folder may have made it meanwhile.
            guard made.status == 0 || made.stderr.contains("already exists") else {
                throw ToolFailure(description: "psql: \(made.stderr)")
            }
        }
        return server + " dbname=\(name)"
    }
}

/// A PostgreSQL server of a test's own, which the test may stop and start (a crash, a
/// restart) without touching the server the other tests share. Made like with-postgres
/// makes that one: a cluster in a scratch folder, on a Unix socket only.
public final class PrivateServer: @unchecked Sendable {
    private let scratch = Scratch("caption-pg")
    private let bin: String
    /// The address of its database `desk`.
    public let address: String

    public init() throws {
        guard let bin = ProcessInfo.processInfo.environment["CAPTION_TEST_POSTGRES_BIN"] else {
            throw ToolFailure(
                description: "no PostgreSQL programs: run the tests under build-aux/with-postgres, as make test does")
        }
        self.bin = bin
        address = "host=\(scratch.path) user=caption_admin dbname=desk"
        if getuid() == 0 { try Caption.giveToNobody(scratch.path) }
        try run(
            bin + "/initdb",
            [
                "-D", scratch.file("data"), "-U", "caption_admin", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8",
                "--no-sync",
            ])
        try start()
        let made = try Tool.run(
            "psql", ["-h", scratch.path, "-U", "caption_admin", "-d", "postgres", "-q", "-c", "CREATE DATABASE desk"])
        guard made.status == 0 else { throw ToolFailure(description: "psql: \(made.stderr)") }
    }

    deinit {
        try? thaw()
        try? stop()
    }

    public func start() throws {
        try run(
            bin + "/pg_ctl",
            [
                "-D", scratch.file("data"), "-l", scratch.file("server.log"), "-w", "-s", "-o",
                "-c listen_addresses= -k \(scratch.path) -c fsync=off -c full_page_writes=off", "start",
            ])
    }

    /// Asks every user but the cluster's owner for a password (SCRAM), as a desk's server
    /// does; `user` is made with `password`. The owner stays trusted, to set things up.
    public func requirePasswords(user: String, password: String) throws {
        let hba = "local all caption_admin trust\nlocal all all scram-sha-256\n"
        let file = scratch.file("data/pg_hba.conf")
        try Data(hba.utf8).write(to: URL(fileURLWithPath: file))
        if getuid() == 0 { try Caption.giveToNobody(file) }
        let made = try Tool.run(
            "psql",
            [
                "-h", scratch.path, "-U", "caption_admin", "-d", "desk", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                "CREATE ROLE \(user) LOGIN PASSWORD '\(password)'; GRANT ALL ON DATABASE desk TO \(user)",
            ])
        guard made.status == 0 else { throw ToolFailure(description: "psql: \(made.stderr)") }
        try run(bin + "/pg_ctl", ["-D", scratch.file("data"), "-w", "-s", "reload"])
    }

    /// The socket folder, for an address of another user's.
    public var socketFolder: String { scratch.path }

    /// Stops it at once, as a crash or a pulled cable would: no connection is told.
    public func stop() throws {
        try run(bin + "/pg_ctl", ["-D", scratch.file("data"), "-m", "immediate", "-w", "-s", "stop"])
    }

    /// Freezes the server and every process of it (SIGSTOP), as a hung machine or a link
    /// cut without a word looks to its clients: connections stay open, nothing answers.
    public func freeze() throws { try signalAll("-STOP") }

    /// Lets a frozen server go on.
    public func thaw() throws { try signalAll("-CONT") }

    private func signalAll(_ signal: String) throws {
        let pidFile = try String(contentsOfFile: scratch.file("data/postmaster.pid"), encoding: .utf8)
        guard let pid = pidFile.split(separator: "\n").first.map(String.init) else {
            throw ToolFailure(description: "no postmaster.pid")
        }
        // The postmaster first, so that it forks no new process that would miss the signal.
        for arguments in [[signal, pid], [signal, "-P", pid]] {
            let outcome = try Tool.run(arguments.count == 2 ? "/bin/kill" : "/usr/bin/pkill", arguments)
            guard outcome.status == 0 else { throw ToolFailure(description: "\(signal) \(pid): \(outcome.stderr)") }
        }
    }

    /// Runs a PostgreSQL program as the cluster's owner: nobody, under root (initdb and the
    /// server refuse root).
    private func run(_ program: String, _ arguments: [String]) throws {
        let outcome =
            getuid() == 0
            ? try Tool.run(
                "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", program] + arguments)
            : try Tool.run(program, arguments)
        guard outcome.status == 0 else {
            throw ToolFailure(description: "\(program): \(outcome.stderr)")
        }
    }
}
