// SQLite is opened when the first database is, not linked: the program starts without it,
// and a library in a folder that needs it says in one line what is missing.

import CaptionLibrary
import CaptionTestSupport
import Foundation
import Testing

@Suite("Without SQLite")
struct MissingSQLiteTests {
    /// A folder whose `libsqlite3.so.0` the dynamic linker finds first and cannot load, as
    /// on a system where the library is missing or damaged.
    static func brokenSQLite(in scratch: Scratch) -> [String: String] {
        let folder = scratch.folder("broken")
        scratch.write("broken/libsqlite3.so.0", [])
        return ["LD_LIBRARY_PATH": folder]
    }

    @Test("the program does not link SQLite: it is opened with the first database")
    func notLinked() throws {
        let needed = try Tool.run("readelf", ["-d", Caption.binary])
        #expect(needed.status == 0)
        #expect(needed.stdout.contains("(NEEDED)"))
        #expect(!needed.stdout.contains("libsqlite3"), "\(needed.stdout)")
    }

    @Test("--version runs without SQLite")
    func versionWithoutSQLite() throws {
        let scratch = Scratch()
        let outcome = try Caption.run(["--version"], environment: Self.brokenSQLite(in: scratch))
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("caption "))
        #expect(outcome.stderr == "")
    }

    @Test("--add and --list without SQLite: one line naming it, exit 1, no library made")
    func libraryStopsCleanly() throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let library = scratch.file("lib")
        for arguments in [["--add", photo, "--title", "T", "--subtitle", "S"], ["--list"]] {
            let outcome = try Caption.run(
                ["--library", library] + arguments, environment: Self.brokenSQLite(in: scratch))
            #expect(outcome.status == 1, "\(arguments)")
            #expect(outcome.stdout == "")
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(outcome.stderr)")
            #expect(
                outcome.stderr.hasPrefix(
                    "caption: The library could not be opened: the SQLite library could not be loaded ("),
                "\(outcome.stderr)")
            #expect(outcome.stderr.contains("libsqlite3.so.0"), "the dynamic linker's reason: \(outcome.stderr)")
            #expect(outcome.stderr.hasSuffix("; reinstalling Caption should bring it back\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: library + "/library.sqlite3"), "a database was made")
    }
}
