// A library on a server that goes away: stopped while a save is made, restarted between
// two reads, or gone just as a commit was answered. The words are refused with one clear
// message, never lost, never kept twice, and the same open library goes on once the server
// is back.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Server library faults")
struct ServerFaultTests {
    static func words(_ title: String) -> CaptionWords { CaptionWords(title: title, subtitle: "s") }

    @Test func aServerRestartedBetweenTwoReadsIsNotNoticed() throws {
        let server = try PrivateServer()
        let scratch = Scratch()
        let library = try Library(server: PostgresAddress(server.address), cache: scratch.file("cache"))
        let saved = try library.add(photoAt: scratch.write("p.png", Photos.png()), words: Self.words("Before"))
        try server.stop()
        try server.start()
        #expect(try library.entries() == [saved])
        let after = try library.add(photoAt: scratch.write("q.png", Photos.png(seed: 2)), words: Self.words("After"))
        #expect(try library.entries() == [after, saved])
    }

    /// A server frozen mid-session (SIGSTOP: connections open, nothing answers) is called
    /// unreachable within seconds, for a save on an open connection and for a new one; the
    /// save goes through once it wakes, once.
    @Test func aFrozenServerIsToldWithinSecondsAndTheSaveGoesInOnceItWakes() throws {
        let server = try PrivateServer()
        let scratch = Scratch()
        let address = try PostgresAddress(server.address)
        let library = try Library(server: address, cache: scratch.file("cache"))
        let photo = try PhotoInspector.load(scratch.write("p.jpg", Photos.jpeg()))
        try server.freeze()
        // Not a settle time: a build that waits on the server for ever is woken after 40 s,
        // so that it fails on the figures below rather than hanging the run.
        DispatchQueue.global().asyncAfter(deadline: .now() + 40) { try? server.thaw() }
        let clock = ContinuousClock()
        let started = clock.now
        let error = try #require(throws: LibraryError.self) { try library.add(photo, words: Self.words("Frozen")) }
        let saveTook = clock.now - started
        #expect(error.kind == .unreachable)
        #expect(
            error.message
                == "The library's server could not be reached (no answer for 5 seconds): \(address.description)",
            "\(error.message)")
        let opening = clock.now
        let refused = try #require(throws: LibraryError.self) {
            try Library(server: address, cache: scratch.file("cache-2"))
        }
        let openTook = clock.now - opening
        #expect(refused.kind == .unreachable, "\(refused.message)")
        // The deadlines are 5 s of silence and 5 s to connect: a save finds the server
        // silent, then tries one new connection.
        #expect(saveTook < .seconds(20), "the save waited \(saveTook)")
        #expect(openTook < .seconds(15), "the connection waited \(openTook)")
        try server.thaw()
        let saved = try library.add(photo, words: Self.words("Frozen"))
        #expect(try library.entries() == [saved], "saved once")
    }

    @Test func aSaveWhileTheServerIsDownIsRefusedOnceAndGoesThroughWhenItIsBack() throws {
        let server = try PrivateServer()
        let scratch = Scratch()
        let library = try Library(server: PostgresAddress(server.address), cache: scratch.file("cache"))
        let photo = scratch.write("p.png", Photos.png())
        try server.stop()
        let error = try #require(throws: LibraryError.self) {
            try library.add(photoAt: photo, words: Self.words("Harbour"))
        }
        #expect(error.kind == .unreachable)
        #expect(error.message.hasPrefix("The library's server could not be reached"), "\(error.message)")
        #expect(!error.message.contains("\n"), "one line")
        try server.start()
        let saved = try library.add(photoAt: photo, words: Self.words("Harbour"))
        #expect(try library.entries() == [saved], "saved once, by the same open library")
    }

    @Test func aSaveWhoseCommitWasMadeButNotAnsweredIsKeptOnce() throws {
        let server = try PrivateServer()
        let scratch = Scratch()
        let storage = try PostgresStorage(PostgresAddress(server.address), cache: scratch.file("cache"))
        let library = Library(storage: storage)
        storage.loseTheAnswerToTheNextCommit()
        let saved = try library.add(photoAt: scratch.write("p.png", Photos.png()), words: Self.words("Quay"))
        #expect(saved.title == "Quay")
        #expect(try library.entries() == [saved], "the save that went in is the one answered, and is there once")
        // A save that never reached the server is not taken for one that did.
        try server.stop()
        #expect(throws: LibraryError.self) {
            try library.add(photoAt: scratch.write("q.png", Photos.png(seed: 3)), words: Self.words("Quay"))
        }
        try server.start()
        #expect(try library.count() == 1)
    }
}
