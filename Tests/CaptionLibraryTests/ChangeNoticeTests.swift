// Other editors' commits heard as they happen (LISTEN/NOTIFY), the library's own told apart,
// and a lost listener said, so that the window goes back to asking.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Change notices")
struct ChangeNoticeTests {
    /// Whether `descriptor` becomes readable within `milliseconds`.
    static func readable(_ descriptor: Int32, within milliseconds: Int32 = 2000) -> Bool {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, milliseconds) == 1
    }

    @Test func anotherEditorsCommitIsHeardAndTheLibrarysOwnIsNot() throws {
        let scratch = Scratch()
        let mine = try Storage.server.open(scratch)
        let notices = try #require(try mine.changeNotices())
        let theirs = try Storage.server.open(scratch)

        _ = try theirs.add(photoAt: scratch.write("a.png", Photos.png()), words: CaptionWords(title: "Theirs"))
        #expect(Self.readable(notices.fileDescriptor))
        #expect(notices.othersCommitted() == true)
        #expect(notices.othersCommitted() == false, "each notice is heard once")

        let own = try mine.add(photoAt: scratch.write("b.png", Photos.png(seed: 2)), words: CaptionWords(title: "Mine"))
        #expect(Self.readable(notices.fileDescriptor))
        #expect(notices.othersCommitted() == false, "the library's own save is no news")

        _ = try theirs.update(id: own.id, words: CaptionWords(title: "Edited by them"))
        #expect(Self.readable(notices.fileDescriptor))
        #expect(notices.othersCommitted() == true)
        _ = try theirs.remove(id: own.id)
        #expect(Self.readable(notices.fileDescriptor))
        #expect(notices.othersCommitted() == true)
    }

    @Test func aFolderLibraryHasNoNotices() throws {
        #expect(try Storage.folder.open(Scratch()).changeNotices() == nil)
    }

    @Test func aListenerWhoseServerWentSaysSo() throws {
        let server = try PrivateServer()
        let scratch = Scratch()
        let library = try Library(server: PostgresAddress(server.address), cache: scratch.file("cache"))
        let notices = try #require(try library.changeNotices())
        try server.stop()
        #expect(Self.readable(notices.fileDescriptor), "the socket tells of the end")
        #expect(notices.othersCommitted() == nil)
    }
}
