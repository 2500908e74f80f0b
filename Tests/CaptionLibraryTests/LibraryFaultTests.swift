// Faults around a library that must lose nothing: its database gone or replaced, links and
// other users in its folder, a schema number no Caption wrote.

import CaptionTestSupport
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Library faults: nothing lost, nothing written outside")
struct LibraryFaultTests {
    /// A library of `count` saved photos; its folder and the stored photos' paths.
    func library(_ count: Int, in scratch: Scratch, name: String = "lib") throws -> (String, [String]) {
        let directory = scratch.file(name)
        for index in 0..<count {
            let path = scratch.write("\(name)-p\(index).png", Photos.png(seed: UInt32(index + 11)))
            let added = try Caption.run([
                "--library", directory, "--add", path, "--title", "T\(index)", "--subtitle", "S",
            ])
            try #require(added.status == 0, "\(added.stderr)")
        }
        let stored = try FileManager.default.contentsOfDirectory(atPath: directory + "/photos")
            .filter { !$0.hasPrefix(".") }.map { directory + "/photos/" + $0 }
        return (directory, stored)
    }

    @Test(
        "a database moved away or cut to nothing: one line, every stored photo kept, and putting it back works",
        arguments: ["moved", "empty"])
    func missingDatabase(fault: String) throws {
        let scratch = Scratch()
        let (directory, stored) = try library(3, in: scratch)
        #expect(stored.count == 3)
        let database = directory + "/library.sqlite3"
        let saved = scratch.file("saved.sqlite3")
        #expect(rename(database, saved) == 0)
        if fault == "empty" { #expect(FileManager.default.createFile(atPath: database, contents: Data())) }
        for command in [["--list"], ["--export", scratch.file("out")], ["--list", "--json"]] {
            let outcome = try Caption.run(["--library", directory] + command)
            #expect(outcome.status == 1)
            #expect(
                outcome.stderr.contains(
                    "The library's database is missing or empty, but its photos folder holds 3 photos; nothing was changed."
                ),
                "\(outcome.stderr)")
        }
        #expect(stored.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "every stored photo is there")
        #expect(FileManager.default.fileExists(atPath: database) == (fault == "empty"), "no new database was left")
        unlink(database)
        #expect(rename(saved, database) == 0)
        let listed = try Caption.run(["--library", directory, "--list"])
        #expect(listed.status == 0)
        #expect(["T0", "T1", "T2"].allSatisfy { listed.stdout.contains($0) }, "\(listed.stdout)")
    }

    @Test("out of file descriptors, the library says so: never locked by another program, never damaged")
    func outOfFileDescriptors() throws {
        let scratch = Scratch()
        let library = scratch.file("lib")
        let added = try Caption.run([
            "--library", library, "--add", scratch.write("p.png", Photos.png()), "--title", "T", "--subtitle", "S",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        var said: [String] = []
        // From too few to start at all to enough: each limit between fails somewhere else.
        for limit in 3...12 {
            for arguments in [["--list"], ["--add", scratch.file("p.png"), "--title", "T", "--subtitle", "S"]] {
                let outcome = try Caption.run(["--library", library] + arguments, shellPrefix: "ulimit -n \(limit);")
                guard outcome.status != 0, outcome.stderr.hasPrefix("caption: ") else { continue }
                said.append(outcome.stderr)
                #expect(!outcome.stderr.contains("in use by another program"), "\(limit): \(outcome.stderr)")
                #expect(!outcome.stderr.contains("damaged"), "\(limit): \(outcome.stderr)")
            }
        }
        #expect(
            said.contains { $0.hasPrefix("caption: Too many files are open to use the library (Too many open files)") },
            "\(said)")
        #expect(try Library(directory: library).entries().count >= 1, "nothing lost")
    }

    @Test("another library's database put in its place never cleans this library's photos")
    func strangersDatabase() throws {
        let scratch = Scratch()
        let (mine, stored) = try library(2, in: scratch, name: "mine")
        let (theirs, _) = try library(1, in: scratch, name: "theirs")
        unlink(mine + "/library.sqlite3")
        #expect(copyfile(theirs + "/library.sqlite3", mine + "/library.sqlite3"))
        let listed = try Caption.run(["--library", mine, "--list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(stored.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "none of mine is taken for an orphan")
    }

    @Test("photos/ as a link to another folder: refused, nothing in that folder touched")
    func photosFolderIsALink() throws {
        let scratch = Scratch()
        let (directory, _) = try library(1, in: scratch)
        let pictures = scratch.folder("pictures")
        let mine = scratch.write("pictures/" + String(repeating: "ab", count: 32) + ".jpg", Photos.jpeg())
        let other = scratch.write("pictures/holiday.jpg", Photos.jpeg())
        _ = try Tool.run("/bin/rm", ["-rf", directory + "/photos"])
        #expect(symlink(pictures, directory + "/photos") == 0)
        let outcome = try Caption.run(["--library", directory, "--list"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                "The library holds a symbolic link where its photos belongs; Caption does not follow it"),
            "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: mine) && FileManager.default.fileExists(atPath: other))
    }

    @Test("a link planted in photos/ under a photo's name is neither followed nor removed")
    func linkInsidePhotos() throws {
        let scratch = Scratch()
        let (directory, _) = try library(1, in: scratch)
        let victim = scratch.write("victim.jpg", Photos.jpeg())
        let planted = directory + "/photos/" + String(repeating: "cd", count: 32) + ".jpg"
        #expect(symlink(victim, planted) == 0)
        let outcome = try Caption.run(["--library", directory, "--list"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: victim), "the file the link names is there")
        var info = stat()
        #expect(lstat(planted, &info) == 0, "the link itself is the user's (or the planter's) to remove")
    }

    @Test("the database or its journal as a link: refused before SQLite opens anything", arguments: ["", "-wal"])
    func databaseIsALink(suffix: String) throws {
        let scratch = Scratch()
        let (directory, _) = try library(1, in: scratch)
        let elsewhere = scratch.write("elsewhere.sqlite3" + suffix, Array("someone else's".utf8))
        let name = directory + "/library.sqlite3" + suffix
        unlink(name)
        #expect(symlink(elsewhere, name) == 0)
        let outcome = try Caption.run(["--library", directory, "--list"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("symbolic link where its library.sqlite3" + suffix + " belongs"),
            "\(outcome.stderr)")
        #expect(Photos.bytes(elsewhere) == Array("someone else's".utf8), "the file the link names is unchanged")
    }

    @Test("a library folder other users can write to is refused with the reason", arguments: [0o777, 0o770, 0o1777])
    func writableByOthers(mode: Int) throws {
        let scratch = Scratch()
        let (directory, stored) = try library(1, in: scratch)
        chmod(directory, mode_t(mode))
        let outcome = try Caption.run(["--library", directory, "--list"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("Other users can write to the library folder"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("chmod go-w"))
        #expect(FileManager.default.fileExists(atPath: stored[0]))
        chmod(directory, 0o700)
        #expect(try Caption.run(["--library", directory, "--list"]).status == 0)
    }

    @Test("another user's library folder is refused to an ordinary user")
    func anotherUsersFolder() throws {
        try #require(Caption.isRoot, "a folder another user owns needs root to make; make test runs as root")
        let scratch = Scratch()
        let (directory, _) = try library(1, in: scratch)
        let outcome = try Caption.run(["--library", directory, "--list"], unprivileged: true)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("The library folder belongs to another user"), "\(outcome.stderr)")
    }

    @Test(
        "a schema number no Caption wrote (user_version -1) is one line, not a crash", arguments: [-1, Int(Int32.min)])
    func negativeSchema(version: Int) throws {
        let scratch = Scratch()
        let (directory, _) = try library(1, in: scratch)
        RawDatabase(directory + "/library.sqlite3").execute("PRAGMA user_version = \(version)")
        let outcome = try Caption.run(["--library", directory, "--list"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("The library database says its schema is \(version), which no Caption wrote"),
            "\(outcome.stderr)")
    }

    func copyfile(_ from: String, _ to: String) -> Bool {
        (try? FileManager.default.copyItem(atPath: from, toPath: to)) != nil
    }

    @Test("a library made before identities takes its database's when every photo it names is there, then cleans")
    func olderLibraryAdoptsItsDatabase() throws {
        let scratch = Scratch()
        let (directory, stored) = try library(2, in: scratch)
        // As the Caption before identities left it: schema 3, no photos.id.
        RawDatabase(directory + "/library.sqlite3").execute(
            RawDatabase.dropCredits + "DROP TABLE library; PRAGMA user_version = 3")
        unlink(directory + "/photos.id")
        let orphan = scratch.write("lib/photos/" + String(repeating: "ef", count: 32) + ".png", Photos.png(seed: 99))
        let listed = try Caption.run(["--library", directory, "--list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let identity = RawDatabase(directory + "/library.sqlite3").strings("SELECT id FROM library")
        #expect(identity.count == 1 && identity[0].count == 32)
        #expect(Photos.bytes(directory + "/photos.id") == Array(identity[0].utf8))
        #expect(
            !FileManager.default.fileExists(atPath: orphan), "the crash's leftover goes, on its own database's word")
        #expect(stored.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    @Test("a library nobody may write (chmod -R a-w) is still listed and exported; a save says it cannot write")
    func readOnlyLibraryIsRead() throws {
        let scratch = Scratch()
        let (directory, _) = try library(2, in: scratch)
        let out = scratch.folder("out")
        try Caption.giveToNobody(scratch.path)
        _ = try Tool.run("/bin/chmod", ["-R", "a-w", directory])
        let listed = try Caption.run(["--library", directory, "--list"], unprivileged: true)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("T0") && listed.stdout.contains("T1"))
        let json = try Caption.run(["--library", directory, "--list", "--json"], unprivileged: true)
        #expect(json.status == 0 && json.stdout.contains("\"title\": \"T1\""), "\(json.stderr)")
        let exported = try Caption.run(["--library", directory, "--export", out], unprivileged: true)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(scratch.names(in: out) == ["T0.png", "T1.png"])
        let photo = scratch.write("new.png", Photos.png(seed: 77))
        let saved = try Caption.run(
            ["--library", directory, "--add", photo, "--title", "N", "--subtitle", "S"], unprivileged: true)
        #expect(saved.status == 1)
        #expect(saved.stderr.contains("Cannot write to the library"), "\(saved.stderr)")
        #expect(
            scratch.names(in: directory) == ["library.sqlite3", "photos", "photos.id"], "nothing was written there")
    }

    @Test("a library on a read-only mount is listed and exported as it is")
    func readOnlyMountIsRead() throws {
        try #require(Caption.isRoot, "a read-only bind mount needs root; make test runs as root")
        let scratch = Scratch()
        let (directory, _) = try library(1, in: scratch)
        let mounted = scratch.folder("mounted")
        try #require(try Tool.run("/bin/mount", ["--bind", "-o", "ro", directory, mounted]).status == 0)
        defer { _ = try? Tool.run("/bin/umount", [mounted]) }
        let listed = try Caption.run(["--library", mounted, "--list"])
        #expect(listed.status == 0 && listed.stdout.contains("T0"), "\(listed.stderr)")
        let exported = try Caption.run(["--library", mounted, "--export", scratch.file("out")])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(scratch.names(in: scratch.file("out")) == ["T0.png"])
    }
}
