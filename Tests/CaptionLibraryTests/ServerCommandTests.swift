// The command line on a library on a PostgreSQL server: every command as on a folder, from
// two machines (two photo caches), and addresses that hold a password or lead nowhere
// refused with a clear message.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Command line on a server library")
struct ServerCommandTests {
    /// A machine of an editor's: its own cache, data and settings folders.
    struct Machine {
        let scratch: Scratch
        let name: String

        var environment: [String: String] {
            [
                "XDG_CACHE_HOME": scratch.file(name + "/cache"), "XDG_DATA_HOME": scratch.file(name + "/data"),
                "XDG_CONFIG_HOME": scratch.file(name + "/config"),
            ]
        }

        func run(_ arguments: [String]) throws -> Outcome {
            try Caption.run(arguments, environment: environment)
        }
    }

    /// The server's notices (here: the search extension already there when the library is
    /// made) are not printed: only Caption's own words reach the terminal.
    @Test func theServersNoticesAreNotPrinted() throws {
        let scratch = Scratch()
        let address = try Storage.database(for: scratch)
        try PostgresConnection(address).execute("CREATE EXTENSION pg_trgm")
        let listed = try Machine(scratch: scratch, name: "ana").run(["--library", address.connectionString, "--list"])
        #expect(listed.status == 0)
        #expect(listed.stderr == "", "\(listed.stderr)")
    }

    @Test func everyCommandWorksOnAServerFromEitherMachine() throws {
        let scratch = Scratch()
        let address = try Storage.database(for: scratch).connectionString
        let ana = Machine(scratch: scratch, name: "ana")
        let rui = Machine(scratch: scratch, name: "rui")
        let bytes = Photos.jpeg(seed: 7, width: 320, height: 200)
        let photo = scratch.write("IMG_0007.JPG", bytes)

        let added = try ana.run([
            "--library", address, "--add", photo, "--title", "Harbour at dusk", "--subtitle", "The last ferry",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Saved entry 1\n")

        // The other machine lists it, and fetches nothing to list: its photo is not there yet.
        let listed = try rui.run(["--library", address, "--list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("1  Harbour at dusk  The last ferry"))
        func listedPhoto() throws -> Any? {
            let json = try rui.run(["--library", address, "--list", "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let objects = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            return objects.first?["photo"]
        }
        #expect(try listedPhoto() is NSNull, "no photo fetched to list")
        let cacheFolder = scratch.file("rui/cache")
        let fetched = (FileManager.default.enumerator(atPath: cacheFolder)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".jpg") }
        #expect(fetched.isEmpty, "\(fetched)")

        // Exported on the other machine: the photo, captioned, from the server's bytes; the
        // copy it fetched is the listing's photo from then on.
        let exported = try rui.run(["--library", address, "--export", scratch.file("out")])
        #expect(exported.status == 0, "\(exported.stderr)")
        let cached = try #require(try listedPhoto() as? String)
        #expect(cached.hasPrefix(scratch.file("rui/cache/caption/server-")), "\(cached)")
        #expect(Photos.bytes(cached) == bytes, "the photo as it was saved")
        let copy = Photos.bytes(scratch.file("out/Harbour at dusk.jpg"))
        #expect(copy.count > bytes.count)
        #expect(String(decoding: copy, as: UTF8.self).contains("Harbour at dusk"))

        // Written back into the photo it was saved from, on the machine that has it.
        let written = try ana.run(["--library", address, "--write-back"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(String(decoding: Photos.bytes(photo), as: UTF8.self).contains("The last ferry"))

        let removed = try ana.run(["--library", address, "--remove", "1"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try rui.run(["--library", address, "--list"]).stdout == "The library is empty.\n")
        let again = try ana.run(["--library", address, "--remove", "1"])
        #expect(again.status == 1)
        #expect(again.stderr == "caption: There is no entry 1 in the library\n")
    }

    /// The server's listing (a COPY, its values escaped by the server) gives what a folder's
    /// gives for the same captions: backslashes, a literal `\N`, quotes, Chinese and emoji,
    /// keywords, credits and a pad's name, as JSON and as a sheet.
    @Test func aServersListingSaysWhatAFoldersSays() throws {
        let scratch = Scratch()
        let address = try Storage.database(for: scratch).connectionString
        let ana = Machine(scratch: scratch, name: "ana")
        let folder = scratch.file("folder-library")
        let captions: [[String]] = [
            ["--title", #"C:\photos\N and \N"#, "--subtitle", #"A "quoted" \t tab, 港口 🚢"#],
            ["--title", "Plain", "--subtitle", "Boats", "--keywords", "harbour, 港口", "--headline", #"Back\slash"#],
        ]
        let credits = try ana.run(["--set-credits", "--creator", "Ana \\ Lima", "--credit-line", "\\N"])
        #expect(credits.status == 0, "\(credits.stderr)")
        for (index, words) in captions.enumerated() {
            let photo = scratch.write("p\(index).jpg", Photos.jpeg(seed: UInt32(index + 1), width: 64, height: 48))
            for library in [address, folder] {
                let added = try ana.run(["--library", library, "--add", photo] + words)
                #expect(added.status == 0, "\(words): \(added.stderr)")
            }
        }
        func listed(_ library: String, _ format: String) throws -> String {
            let outcome = try ana.run(["--library", library, "--list", format])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return outcome.stdout
        }
        func objects(_ library: String) throws -> [NSDictionary] {
            let parsed = try JSONSerialization.jsonObject(with: Data(try listed(library, "--json").utf8))
            return try #require(parsed as? [[String: Any]]).map { object in
                // Where and when differ between the two libraries; the words may not.
                NSDictionary(dictionary: object.filter { !["photo", "created", "updated"].contains($0.key) })
            }
        }
        let onServer = try objects(address)
        #expect(onServer.count == 2)
        #expect(onServer == (try objects(folder)))
        #expect(onServer.last?["title"] as? String == #"C:\photos\N and \N"#)
        #expect((onServer.last?["credits"] as? [String: Any])?["creditLine"] as? String == "\\N")
        let sheet = { (text: String) in text.split(separator: "\n").map { $0.split(separator: ",").dropFirst() } }
        #expect(sheet(try listed(address, "--csv")) == sheet(try listed(folder, "--csv")))
    }

    @Test func anAddressWithAPasswordIsRefusedWithoutShowingIt() throws {
        let scratch = Scratch()
        let machine = Machine(scratch: scratch, name: "ana")
        for address in ["postgresql://ana:s3cret@localhost/desk", "host=localhost dbname=desk password=s3cret"] {
            let outcome = try machine.run(["--library", address, "--list"])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("~/.pgpass"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("s3cret") && !outcome.stdout.contains("s3cret"))
        }
    }

    @Test func aServerThatCannotBeReachedIsSaidOnceAndNothingIsMade() throws {
        let scratch = Scratch()
        let machine = Machine(scratch: scratch, name: "ana")
        let photo = scratch.write("p.jpg", Photos.jpeg())
        let socketless = "host=" + scratch.file("nowhere") + " dbname=desk"
        for arguments in [["--list"], ["--add", photo, "--title", "T", "--subtitle", "S"]] {
            let outcome = try machine.run(["--library", socketless] + arguments)
            #expect(outcome.status == 1)
            #expect(outcome.stderr.hasPrefix("caption: The library's server could not be reached"), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1)
        }
        #expect(
            !FileManager.default.fileExists(atPath: scratch.file("ana/cache")), "no cache for a library never reached")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("ana/data")))
    }

    @Test func aMissingOrRefusedPasswordAndABadSSLModeAreSaidAsSuch() throws {
        let server = try PrivateServer()
        try server.requirePasswords(user: "ana", password: "right-one")
        let address = "host=\(server.socketFolder) user=ana dbname=desk"
        let scratch = Scratch()
        let described = "postgresql://ana@\(server.socketFolder)/desk"
        let none = try Caption.run(
            ["--library", address, "--list"], environment: ["PGPASSFILE": scratch.file("no-pgpass")])
        #expect(none.status == 1)
        #expect(
            none.stderr
                == "caption: The server asks for ana's password and none was found; put it in ~/.pgpass or a service file: \(described)\n"
        )
        let wrong = try Caption.run(
            ["--library", address, "--list"],
            environment: ["PGPASSFILE": scratch.file("no-pgpass"), "PGPASSWORD": "wrong-one"])
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr
                == "caption: The server did not accept ana's password (from ~/.pgpass, a service file or PGPASSWORD); correct it there: \(described)\n"
        )
        #expect(!wrong.stderr.contains("wrong-one"))
        let right = try Caption.run(
            ["--library", address, "--list"],
            environment: ["PGPASSFILE": scratch.file("no-pgpass"), "PGPASSWORD": "right-one"])
        #expect(right.status == 0, "\(right.stderr)")
        let ssl = try Caption.run(["--library", address + " sslmode=requier", "--list"])
        #expect(ssl.status == 1)
        #expect(
            ssl.stderr
                == "caption: This is not a PostgreSQL address (sslmode is requier, which is none of disable, allow, prefer, require, verify-ca, verify-full): \(described)\n"
        )
    }
}
