// A library tampered with from outside: damaged databases, photos deleted or replaced behind
// Caption's back, rows that point out of the folder. A message each, and nothing saved lost.

import CaptionTestSupport
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Hostile library")
struct HostileLibraryTests {
    func library(with photos: Int, in scratch: Scratch) throws -> (String, [String]) {
        let directory = scratch.file("lib")
        var paths: [String] = []
        for index in 0..<photos {
            let path = scratch.write("p\(index).png", Photos.png(seed: UInt32(index + 1)))
            paths.append(path)
            #expect(
                try Caption.run(["--library", directory, "--add", path, "--title", "T\(index)", "--subtitle", "S"])
                    .status == 0)
        }
        return (directory, paths)
    }

    @Test(
        "a row pointing out of the library is never read or deleted",
        arguments: ["../victim.png", "/VICTIM", "photos/../../victim.png", "photos/../library.sqlite3"])
    func rowLeavingTheFolder(photo: String) throws {
        let scratch = Scratch()
        let (directory, _) = try library(with: 1, in: scratch)
        let victim = scratch.write("victim.png", Photos.png(seed: 9))
        let stored = photo.replacingOccurrences(of: "VICTIM", with: victim)
        RawDatabase(directory + "/library.sqlite3").execute("UPDATE entries SET photo = '\(stored)'")
        let listed = try Caption.run(["--library", directory, "--list", "--json"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("\"photo\": null"))
        #expect(!listed.stdout.contains("victim"))
        let removed = try Caption.run(["--library", directory, "--remove", "1"])
        #expect(removed.status == 0)
        #expect(FileManager.default.fileExists(atPath: victim), "the file outside the library is untouched")
        #expect(FileManager.default.fileExists(atPath: directory + "/library.sqlite3"))
    }

    @Test("a photo deleted behind the app's back: the list still works, and saving it again restores it")
    func photoDeleted() throws {
        let scratch = Scratch()
        let (directory, paths) = try library(with: 2, in: scratch)
        let entries = try Library(directory: directory).entries()
        let gone = try #require(entries.last)
        try FileManager.default.removeItem(atPath: directory + "/" + gone.photo)
        let listed = try Caption.run(["--library", directory, "--list"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("T0") && listed.stdout.contains("T1"))
        #expect(
            try Caption.run(["--library", directory, "--add", paths[0], "--title", "again", "--subtitle", "S"]).status
                == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/" + gone.photo))
        #expect(try consistencyProblems(directory) == [])
    }

    @Test("a photo replaced behind the app's back is put right by the next save of it")
    func photoReplaced() throws {
        let scratch = Scratch()
        let (directory, paths) = try library(with: 1, in: scratch)
        let entry = try #require(try Library(directory: directory).entries().first)
        let stored = directory + "/" + entry.photo
        let size = try #require(Files.size(stored))
        try Data(repeating: 0x41, count: Int(size)).write(to: URL(fileURLWithPath: stored))
        #expect(
            try Caption.run(["--library", directory, "--add", paths[0], "--title", "again", "--subtitle", "S"]).status
                == 0)
        #expect(Photos.sha256(ofFile: stored) == Photos.sha256(ofFile: paths[0]))
        #expect(try consistencyProblems(directory) == [])
    }

    @Test("a damaged database gives one line and is not changed", arguments: ["truncated", "zero-filled", "random"])
    func damagedDatabase(kind: String) throws {
        let scratch = Scratch()
        let (directory, paths) = try library(with: 3, in: scratch)
        let database = directory + "/library.sqlite3"
        // Fold the WAL in first, so the file alone holds the library.
        RawDatabase(database).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let original = try Data(contentsOf: URL(fileURLWithPath: database))
        var damaged: Data
        switch kind {
        case "truncated": damaged = original.prefix(original.count / 2 + 100)
        case "zero-filled": damaged = Data(count: original.count)
        default:
            var random = SplitMix(seed: 7)
            damaged = Data((0..<original.count).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        try damaged.write(to: URL(fileURLWithPath: database))
        for arguments in [["--list"], ["--add", paths[0], "--title", "T", "--subtitle", "S"]] {
            let outcome = try Caption.run(["--library", directory] + arguments)
            #expect(outcome.status == 1, "\(kind) \(arguments): \(outcome.stdout)")
            #expect(outcome.stderr.hasPrefix("caption: "))
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == damaged, "never overwritten or repaired")
        // The photos, what was saved, are all still there.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/photos").count == 3)
    }
}
