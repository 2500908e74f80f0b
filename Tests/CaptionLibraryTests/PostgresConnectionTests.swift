// The libpq layer against a real PostgreSQL server (make test starts one beside the tests,
// build-aux/with-postgres): text of every kind comes back as sent, failures keep nothing,
// and addresses and messages never carry a password.

import CaptionTestSupport
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("PostgreSQL connection")
struct PostgresConnectionTests {
    /// The test server's database, from with-postgres.
    static func server() throws -> PostgresAddress {
        let address = try #require(
            ProcessInfo.processInfo.environment["CAPTION_TEST_POSTGRES"],
            "no test server: run the tests under build-aux/with-postgres, as make test does")
        return try PostgresAddress(address)
    }

    /// A table of this test's own, so that tests running at once never meet.
    static func table(_ connection: PostgresConnection) throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try connection.execute("CREATE TABLE \(name) (id integer PRIMARY KEY, value text)")
        return name
    }

    static let hostile: [String?] = [
        "O'Brien", "'); DROP TABLE entries; --", #"back\slash \' \\"#, "$1 $2 ?", "Ana 🇵🇹 Lima",
        "e\u{301}te\u{301}", "مرحبا بالعالم", "\t\r\n", "%_*", "", nil, String(repeating: "éa", count: 60_000),
    ]

    @Test func hostileTextComesBackAsItWasSent() throws {
        let connection = try PostgresConnection(Self.server())
        let table = try Self.table(connection)
        for (index, value) in Self.hostile.enumerated() {
            try connection.execute("INSERT INTO \(table) (id, value) VALUES ($1, $2)", [String(index), value])
        }
        let rows = try connection.execute("SELECT id, value FROM \(table) ORDER BY id")
        #expect(rows.rowCount == Self.hostile.count)
        for row in 0..<rows.rowCount {
            #expect(rows.integer(row, 0) == Int64(row))
            #expect(rows.text(row, 1) == Self.hostile[row], "row \(row)")
        }
        // The empty text stays text, apart from NULL.
        let empty = try connection.execute("SELECT count(*) FROM \(table) WHERE value = ''")
        #expect(empty.integer(0, 0) == 1)
    }

    @Test func aNulCharacterIsRefusedAndNothingIsSaved() throws {
        let connection = try PostgresConnection(Self.server())
        let table = try Self.table(connection)
        let error = try #require(throws: LibraryError.self) {
            try connection.execute("INSERT INTO \(table) (id, value) VALUES ($1, $2)", ["1", "before\u{0}after"])
        }
        #expect(error.kind == .unstorableText)
        #expect(error.message.contains("NUL"))
        #expect(try connection.execute("SELECT count(*) FROM \(table)").integer(0, 0) == 0)
    }

    @Test func aFailedWriteKeepsNothingOfIt() throws {
        let connection = try PostgresConnection(Self.server())
        let table = try Self.table(connection)
        let error = try #require(throws: LibraryError.self) {
            try connection.write { () throws(LibraryError) in
                try connection.execute("INSERT INTO \(table) (id, value) VALUES (1, 'first')")
                try connection.execute("INSERT INTO \(table) (id, value) VALUES (1, 'the same id')")
            }
        }
        #expect(error.kind == .io)
        #expect(error.message.contains("duplicate key"), "\(error.message)")
        #expect(try connection.execute("SELECT count(*) FROM \(table)").integer(0, 0) == 0)
        // The connection is usable after the rollback.
        try connection.write { () throws(LibraryError) in
            try connection.execute("INSERT INTO \(table) (id, value) VALUES (2, 'kept')")
        }
        #expect(try connection.execute("SELECT value FROM \(table)").text(0, 0) == "kept")
    }

    @Test func aUserWithoutWriteRightsIsToldItCannotWrite() throws {
        let server = try Self.server()
        let admin = try PostgresConnection(server)
        let table = try Self.table(admin)
        try admin.execute("INSERT INTO \(table) (id, value) VALUES (1, 'from the desk')")
        let reader = "reader_" + table.dropFirst(2).prefix(12)
        try admin.execute("CREATE ROLE \(reader) LOGIN")
        try admin.execute("GRANT SELECT ON \(table) TO \(reader)")
        defer {
            _ = try? admin.execute("DROP TABLE \(table)")
            _ = try? admin.execute("DROP ROLE \(reader)")
        }
        let connection = try PostgresConnection(PostgresAddress(server.connectionString + " user=\(reader)"))
        #expect(try connection.execute("SELECT value FROM \(table)").text(0, 0) == "from the desk")
        let error = try #require(throws: LibraryError.self) {
            try connection.execute("INSERT INTO \(table) (id, value) VALUES (2, 'mine')")
        }
        #expect(error.kind == .readOnly)
        #expect(error.message.contains("Cannot write to the library"), "\(error.message)")
        #expect(error.message.contains("user=\(reader)") || error.message.contains("\(reader)@"), "\(error.message)")
    }

    @Test(arguments: [
        "postgresql://ana:s3cret@db.example.org/desk",
        "host=db.example.org password=s3cret dbname=desk",
        "postgres://ana:s3cret@[::1/desk",
    ])
    func anAddressWithAPasswordIsRefusedWithoutRepeatingIt(_ address: String) throws {
        let error = try #require(throws: LibraryError.self) { try PostgresAddress(address) }
        #expect(error.kind == .badAddress)
        #expect(!error.message.contains("s3cret"), "\(error.message)")
    }

    @Test func aPasswordIsToldWhereItBelongs() throws {
        let error = try #require(throws: LibraryError.self) {
            try PostgresAddress("postgresql://ana:s3cret@db.example.org:5433/desk")
        }
        #expect(error.message.contains("~/.pgpass"))
        #expect(error.message.contains("postgresql://ana@db.example.org:5433/desk"), "\(error.message)")
    }

    @Test func aServerThatIsNotThereIsNamed() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("caption-no-server-\(UUID())").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let error = try #require(throws: LibraryError.self) {
            try PostgresConnection(PostgresAddress("host=\(empty) dbname=desk connect_timeout=2"))
        }
        #expect(error.kind == .unreachable)
        #expect(error.message.contains("could not be reached"))
        #expect(error.message.contains("postgresql://\(empty)/desk"), "\(error.message)")
    }

    @Test func aConnectionTheServerEndsSaysTheServerCannotBeReached() throws {
        let server = try Self.server()
        let connection = try PostgresConnection(server)
        let pid = try #require(try connection.execute("SELECT pg_backend_pid()").integer(0, 0))
        let ended = try PostgresConnection(server).execute("SELECT pg_terminate_backend($1)", [String(pid)])
        #expect(ended.text(0, 0) == "t")
        let error = try #require(throws: LibraryError.self) { try connection.execute("SELECT 1") }
        #expect(error.kind == .unreachable, "\(error.message)")
        #expect(error.message.contains("could not be reached"), "\(error.message)")
    }

    @Test func aDatabaseThatIsNotThereIsNamed() throws {
        let server = try Self.server()
        let error = try #require(throws: LibraryError.self) {
            try PostgresConnection(PostgresAddress(server.connectionString + " dbname=no_such_desk"))
        }
        #expect(error.kind == .unreachable)
        #expect(error.message.contains("no_such_desk"), "\(error.message)")
    }

    @Test func anAddressLibpqCannotReadIsRefused() throws {
        let error = try #require(throws: LibraryError.self) { try PostgresAddress("host=db nonsense=1") }
        #expect(error.kind == .badAddress)
        #expect(error.message.contains("nonsense"), "\(error.message)")
    }

    @Test(
        "no spelling of a password is shown: keyword in any case, spaced or quoted, percent-encoded, in a query",
        arguments: [
            "host=db PASSWORD=S3cretPW dbname=desk", "host=db passWord = 'S3cret PW' dbname=desk",
            "host=db password=S3cretPW nonsense=1", "postgresql://ana:S3cret%zzPW@db/desk",
            "postgresql://ana:S3cretPW@db/desk", "POSTGRESQL://ana:S3cretPW@db/desk",
            "postgresql://db/desk?password=S3cretPW", "postgres://ana@db/desk?sslpassword=S3cretPW&nonsense=1",
        ])
    func passwordsAreNeverShown(_ address: String) throws {
        #expect(PostgresAddress.isServer(address))
        let error = try #require(throws: LibraryError.self) { try PostgresAddress(address) }
        #expect(error.kind == .badAddress, "\(error.message)")
        #expect(!error.message.contains("S3cret") && !error.message.contains("PW"), "\(error.message)")
        #expect(!PostgresAddress.withoutSecrets(address).contains("S3cret"))
    }

    @Test("an address with an upper-case scheme is a server, never a folder named after it, password and all")
    func upperCaseSchemeIsAServer() throws {
        let scratch = Scratch()
        let outcome = try Caption.run(
            ["--library", "POSTGRESQL://ana:S3cretPW@db.invalid/desk", "--list"], in: scratch.path)
        #expect(outcome.status == 1)
        #expect(!outcome.stderr.contains("S3cret"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "nothing made here")
    }

    @Test(arguments: [
        ("postgresql://db.example.org/desk", true), ("postgres:///desk", true), ("service=desk", true),
        ("host=/run/postgresql dbname=desk", true), (" dbname = desk", true), ("/home/ana/Captions", false),
        ("Captions", false), ("./host=db", false), ("photos=old", false), ("postgresql:desk", false),
        ("Postgres://db/desk", true), ("HOST=db dbname=desk", true),
    ])
    func serversAreToldFromFolders(_ argument: String, _ isServer: Bool) {
        #expect(PostgresAddress.isServer(argument) == isServer)
    }
}
