// A library database on a real PostgreSQL server made, checked and brought up to date:
// once when two editors open it together, never over another program's schema or a newer
// Caption's, and not by a user who may not write.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("PostgreSQL library schema")
struct PostgresSchemaTests {
    /// A new, empty database of this test's own on the test server, and its address.
    static func database() throws -> PostgresAddress { try PostgresAddress(TestServer.newDatabase()) }

    /// A login role of this test's own, and an address that uses it.
    static func role(on address: PostgresAddress) throws -> (name: String, address: PostgresAddress) {
        let name = "editor_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try PostgresConnection(address).execute("CREATE ROLE \(name) LOGIN")
        return (name, try PostgresAddress(address.connectionString + " user=\(name)"))
    }

    @Test func aNewDatabaseBecomesALibraryOnce() throws {
        let address = try Self.database()
        let connection = try PostgresConnection(address)
        let identity = try PostgresSchema.prepare(connection)
        #expect(identity.count == 32)
        #expect(try PostgresSchema.prepare(PostgresConnection(address)) == identity, "the same library, not a new one")
        let check = try PostgresSchema.check(connection)
        #expect(check.version == PostgresSchema.migrations.count)
        let tables = try connection.execute(
            "SELECT string_agg(tablename, ' ' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'caption'")
        #expect(tables.text(0, 0) == "entries leases library photos removed")
        #expect(
            try connection.execute("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'").integer(0, 0) == 1)
    }

    @Test func searchTrigramsGoIntoCaptionsSchemaNotPublic() throws {
        let address = try Self.database()
        let connection = try PostgresConnection(address)
        // Another application's own `similarity` in public, which pg_trgm's would clash with.
        try connection.execute(
            "CREATE FUNCTION public.similarity(text, text) RETURNS real AS 'SELECT 0.5' LANGUAGE sql")
        let before = try connection.execute(
            "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'"
        ).integer(0, 0)
        try PostgresSchema.prepare(connection)
        let place = try connection.execute(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'"
        )
        #expect(place.text(0, 0) == "caption")
        let after = try connection.execute(
            "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'"
        ).integer(0, 0)
        #expect(after == before, "nothing added to public")
        // Search still finds by any three characters, through the trigram index.
        let library = try Library(server: address)
        let scratch = Scratch()
        let photo = scratch.write("harbour.png", Photos.png())
        _ = try library.add(photoAt: photo, words: CaptionWords(title: "Harbour at dusk", subtitle: "Ferry"))
        #expect(try library.entries(matching: "rbou").map(\.title) == ["Harbour at dusk"])
    }

    @Test func aDatabaseThatHasPgTrgmAlreadyUsesItWhereItIs() throws {
        let address = try Self.database()
        let connection = try PostgresConnection(address)
        try connection.execute("CREATE EXTENSION pg_trgm")
        try PostgresSchema.prepare(connection)
        let place = try connection.execute(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'"
        )
        #expect(place.text(0, 0) == "public")
        let indexes = try connection.execute(
            "SELECT count(*) FROM pg_indexes WHERE schemaname = 'caption' AND indexname LIKE 'entries_%_text'")
        // The title's, the subtitle's, and the optional fields' together.
        #expect(indexes.integer(0, 0) == 3)
    }

    @Test func twoEditorsOpeningANewLibraryAtOnceMakeItOnce() async throws {
        let address = try Self.database()
        let identities = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask { try PostgresSchema.prepare(PostgresConnection(address)) }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(identities.count == 4)
        #expect(Set(identities).count == 1, "\(identities)")
        let rows = try PostgresConnection(address).execute("SELECT count(*) FROM caption.library")
        #expect(rows.integer(0, 0) == 1)
    }

    @Test func aNewerCaptionsLibraryIsLeftAsItIs() throws {
        let address = try Self.database()
        let connection = try PostgresConnection(address)
        try PostgresSchema.prepare(connection)
        let newer = PostgresSchema.migrations.count + 1
        try connection.execute("UPDATE caption.library SET version = $1", [String(newer)])
        let error = try #require(throws: LibraryError.self) { try PostgresSchema.prepare(connection) }
        #expect(error.kind == .newerSchema)
        #expect(error.message.contains("schema \(newer)"), "\(error.message)")
        #expect(error.message.contains(address.description), "\(error.message)")
        #expect(try connection.execute("SELECT version FROM caption.library").integer(0, 0) == Int64(newer))
    }

    @Test func anotherProgramsCaptionSchemaIsNotTaken() throws {
        let address = try Self.database()
        let connection = try PostgresConnection(address)
        try connection.run(
            "CREATE SCHEMA caption; CREATE TABLE caption.notes (text text); INSERT INTO caption.notes VALUES ('mine')")
        let error = try #require(throws: LibraryError.self) { try PostgresSchema.prepare(connection) }
        #expect(error.kind == .notALibrary)
        #expect(try connection.execute("SELECT text FROM caption.notes").text(0, 0) == "mine")
        #expect(try connection.execute("SELECT to_regclass('caption.library') IS NULL").text(0, 0) == "t")
    }

    @Test func aUserWhoMayNotWriteCannotMakeTheLibrary() throws {
        let address = try Self.database()
        let (_, editor) = try Self.role(on: address)
        let error = try #require(throws: LibraryError.self) {
            try PostgresSchema.prepare(PostgresConnection(editor))
        }
        #expect(error.kind == .readOnly)
        #expect(error.message.contains("needs a user who may write"), "\(error.message)")
        #expect(
            try PostgresConnection(address).execute("SELECT to_regclass('caption.library') IS NULL").text(0, 0) == "t")
    }

    @Test func anEditorWhoMayReadOpensALibraryUpToDate() throws {
        let address = try Self.database()
        let admin = try PostgresConnection(address)
        let identity = try PostgresSchema.prepare(admin)
        let (name, editor) = try Self.role(on: address)
        try admin.run(
            "GRANT USAGE ON SCHEMA caption TO \(name); GRANT SELECT ON ALL TABLES IN SCHEMA caption TO \(name)")
        #expect(try PostgresSchema.prepare(PostgresConnection(editor)) == identity)
    }

    @Test func anEditorGivenNoAccessIsToldSoNotThatTheLibraryIsOld() throws {
        let address = try Self.database()
        try PostgresSchema.prepare(PostgresConnection(address))
        let (_, editor) = try Self.role(on: address)
        let error = try #require(throws: LibraryError.self) { try PostgresSchema.prepare(PostgresConnection(editor)) }
        #expect(error.kind == .noAccess)
        #expect(
            error.message
                == "This user may not read the library; its owner gives access with GRANT (the guide's “Caption together on a photo desk” says which): \(editor.description)"
        )
    }

    /// The grants the guide's desk page gives, word for word, to a role of the desk's.
    static let guideGrants = """
        CREATE ROLE desk_editors;
        GRANT USAGE ON SCHEMA caption TO desk_editors;
        GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA caption TO desk_editors;
        GRANT USAGE ON ALL SEQUENCES IN SCHEMA caption TO desk_editors;
        """

    @Test func theGuidesGrantsLetAnEditorDoEverything() throws {
        let address = try Self.database()
        let admin = try PostgresConnection(address)
        try PostgresSchema.prepare(admin)
        let (name, editor) = try Self.role(on: address)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("help/C/desk.page"), encoding: .utf8)
        for line in Self.guideGrants.split(separator: "\n") {
            #expect(guide.contains(line), "the guide says \(line)")
        }
        // The role may already be on the shared server from another test's database.
        try admin.run(
            Self.guideGrants.replacingOccurrences(
                of: "CREATE ROLE desk_editors;",
                with: "DO $$ BEGIN CREATE ROLE desk_editors; EXCEPTION WHEN duplicate_object THEN NULL; END $$;"))
        try admin.run("GRANT desk_editors TO \(name)")
        let library = try Library(server: editor)
        let scratch = Scratch()
        let saved = try library.add(
            photoAt: scratch.write("p.png", Photos.png()), words: CaptionWords(title: "Harbour", subtitle: "Dusk"))
        #expect(try library.entries().map(\.title) == ["Harbour"])
        _ = try library.update(id: saved.id, words: CaptionWords(title: "Harbour at dusk", subtitle: "Dusk"))
        _ = try library.remove(id: saved.id)
        #expect(try library.entries().isEmpty)
    }
}
