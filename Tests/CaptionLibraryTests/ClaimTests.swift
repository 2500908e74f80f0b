// Editors of one library on a server claim the photo on their form: another editor's queue
// passes over it, a save of it by anyone else is refused, and a claim ends when its editor
// moves on, saves, quits or is gone for a minute.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing
import Threads

@testable import CaptionLibrary

@Suite("Claims on photos")
struct ClaimTests {
    let ana = Editor(id: "a1", name: "Ana on desk-1")
    let ben = Editor(id: "b2", name: "Ben on desk-2")
    static let words = CaptionWords(title: "Harbour", subtitle: "Dusk")

    /// Two editors' libraries on one new database, each with its own cache, and `count`
    /// photos they both have.
    func desk(_ count: Int) throws -> (Library, Library, [LoadedPhoto]) {
        let scratch = Scratch()
        let address = try Storage.database(for: scratch)
        let first = try Library(server: address, cache: scratch.file("cache-1"))
        let second = try Library(server: address, cache: scratch.file("cache-2"))
        let photos = try (0..<count).map { index in
            try PhotoInspector.load(scratch.write("p\(index).jpg", Photos.jpeg(seed: UInt32(index + 1))))
        }
        return (first, second, photos)
    }

    @Test func aPhotoOnOneEditorsFormIsTakenForTheOthers() throws {
        let (anas, bens, photos) = try desk(2)
        let (x, y) = (photos[0].sha256, photos[1].sha256)
        #expect(try anas.claim(sha256: x, for: ana) == .yours)
        #expect(try bens.claim(sha256: x, for: ben) == .taken(by: "Ana on desk-1"))
        #expect(try anas.claim(sha256: x, for: ana) == .yours, "claimed again by its own editor")
        // Ana moves on to the next photo: the first is free for Ben.
        #expect(try anas.claim(sha256: y, for: ana, releasing: [x]) == .yours)
        #expect(try bens.claim(sha256: x, for: ben) == .yours)
        #expect(try anas.claim(sha256: x, for: ana) == .taken(by: "Ben on desk-2"))
        // Ben's window closes: all his claims end.
        try bens.releaseClaims(of: ben)
        #expect(try anas.claim(sha256: x, for: ana) == .yours)
    }

    @Test func aClaimWhoseEditorIsGoneEndsAfterAMinuteAndARenewedOneDoesNot() throws {
        let (anas, bens, photos) = try desk(2)
        let (x, y) = (photos[0].sha256, photos[1].sha256)
        #expect(try anas.claim(sha256: x, for: ana) == .yours)
        #expect(try anas.claim(sha256: y, for: ana) == .yours)
        let admin = try PostgresConnection((anas.storage as! PostgresStorage).address)
        // What a claim's end says, in the server's time.
        func secondsLeft(_ sha256: String) throws -> Double {
            try Double(
                #require(
                    admin.execute(
                        "SELECT extract(epoch FROM until - now()) FROM caption.leases WHERE photo_sha256 = $1", [sha256]
                    ).text(0, 0))) ?? -1
        }
        #expect(try (55...60).contains(secondsLeft(x)))
        // A minute passes for x without word from Ana (her machine went), while y is renewed.
        try admin.execute("UPDATE caption.leases SET until = now() - interval '1 second' WHERE photo_sha256 = $1", [x])
        try admin.execute("UPDATE caption.leases SET until = now() + interval '5 seconds' WHERE photo_sha256 = $1", [y])
        try anas.renewClaims(of: ana)
        #expect(try secondsLeft(x) > 50, "renewing brings back a claim no one else took")
        try admin.execute("UPDATE caption.leases SET until = now() - interval '1 second' WHERE photo_sha256 = $1", [x])
        #expect(try bens.claim(sha256: x, for: ben) == .yours, "the lapsed claim is Ben's to take")
        #expect(try bens.claim(sha256: y, for: ben) == .taken(by: "Ana on desk-1"), "the renewed one is not")
        #expect(try (55...60).contains(secondsLeft(y)))
    }

    @Test func aPhotoAlreadyCaptionedIsNoOnesToClaim() throws {
        let (anas, bens, photos) = try desk(1)
        _ = try anas.add(photos[0], words: Self.words)
        #expect(try bens.claim(sha256: photos[0].sha256, for: ben) == .captioned)
        let admin = try PostgresConnection((anas.storage as! PostgresStorage).address)
        #expect(try admin.execute("SELECT count(*) FROM caption.leases").text(0, 0) == "0", "no claim is left")
    }

    @Test func aSaveOfAPhotoAnotherEditorHasIsRefusedAndTheirsEndsTheClaim() throws {
        let (anas, bens, photos) = try desk(1)
        let photo = photos[0]
        #expect(try anas.claim(sha256: photo.sha256, for: ana) == .yours)
        let error = try #require(throws: LibraryError.self) {
            try bens.add(photo, words: CaptionWords(title: "Quay", subtitle: "Dawn"), editor: ben)
        }
        #expect(error.kind == .takenElsewhere)
        #expect(error.message.contains("Ana on desk-1"), "\(error.message)")
        #expect(try anas.entries().isEmpty, "nothing of Ben's was saved")
        let saved = try anas.add(photo, words: Self.words, editor: ana)
        #expect(try bens.entries() == [saved])
        #expect(try bens.claim(sha256: photo.sha256, for: ben) == .captioned, "the save ended Ana's claim")
        // The command line's saves name no editor: claims are the windows' business.
        #expect(try anas.claim(sha256: photo.sha256, for: ana) == .captioned)
    }

    /// A save and another editor's claim of the same photo at the same moment: either the
    /// claim comes first and the save is refused, or the save does and the claim finds the
    /// photo captioned; never both editors with the photo.
    @Test func aSaveAndAClaimAtOnceNeverGiveThePhotoToBoth() throws {
        let (anas, bens, photos) = try desk(12)
        let outcomes = Locked<[(saved: Bool, claim: PhotoClaim)]>([])
        for photo in photos {
            let group = DispatchGroup()
            let saved = Locked(false)
            let claim = Locked(PhotoClaim.yours)
            DispatchQueue.global().async(group: group) {
                saved.withLock { $0 = (try? anas.add(photo, words: Self.words, editor: self.ana)) != nil }
            }
            DispatchQueue.global().async(group: group) {
                claim.withLock { $0 = (try? bens.claim(sha256: photo.sha256, for: self.ben)) ?? .taken(by: "?") }
            }
            group.wait()
            outcomes.withLock { $0.append((saved.withLock { $0 }, claim.withLock { $0 })) }
        }
        for (index, outcome) in outcomes.withLock({ $0 }).enumerated() {
            switch (outcome.saved, outcome.claim) {
            case (true, .captioned), (false, .yours):
                break
            default:
                Issue.record("photo \(index): saved \(outcome.saved), claim \(outcome.claim)")
            }
        }
        #expect(try anas.count() == outcomes.withLock { $0 }.filter { $0.saved }.count)
    }

    @Test func aClaimWhileTheServerIsDownFailsAndWorksOnceItIsBack() throws {
        let server = try PrivateServer()
        let scratch = Scratch()
        let library = try Library(server: PostgresAddress(server.address), cache: scratch.file("cache"))
        let photo = try PhotoInspector.load(scratch.write("p.jpg", Photos.jpeg()))
        try server.stop()
        let error = try #require(throws: LibraryError.self) { try library.claim(sha256: photo.sha256, for: ana) }
        #expect(error.kind == .unreachable)
        try server.start()
        #expect(try library.claim(sha256: photo.sha256, for: ana) == .yours)
    }

    /// Ana's and Ben's libraries on a server of their own, and two photos, x and y, that Ben
    /// has claimed. Ben presses Enter on x while the server is down; it is back after the
    /// claims' minute (in the server's time, both of Ben's claims ran out).
    func benSavedThroughAnOutage() throws -> (
        server: PrivateServer, anas: Library, bens: Library, x: LoadedPhoto, y: LoadedPhoto
    ) {
        let server = try PrivateServer()
        let scratch = Scratch()
        let address = try PostgresAddress(server.address)
        let anas = try Library(server: address, cache: scratch.file("cache-1"))
        let bens = try Library(server: address, cache: scratch.file("cache-2"))
        let x = try PhotoInspector.load(scratch.write("x.jpg", Photos.jpeg(seed: 1)))
        let y = try PhotoInspector.load(scratch.write("y.jpg", Photos.jpeg(seed: 2)))
        #expect(try bens.claim(sha256: x.sha256, for: ben) == .yours)
        #expect(try bens.claim(sha256: y.sha256, for: ben) == .yours)
        try server.stop()
        let down = try #require(throws: LibraryError.self) { try bens.add(x, words: Self.words, editor: ben) }
        #expect(down.kind == .unreachable)
        try server.start()
        try PostgresConnection(address).execute("UPDATE caption.leases SET until = now() - interval '1 second'")
        return (server, anas, bens, x, y)
    }

    /// Ana's queue took Ben's photo first after the outage. His save, and his claim asked
    /// again, still go through: his Enter came first. A claim lost while no save waited on
    /// it (y) stays lost.
    @Test func aClaimOutlivesItsOwnSaveHeldThroughAnOutage() throws {
        let (server, anas, bens, x, y) = try benSavedThroughAnOutage()
        defer { withExtendedLifetime(server) {} }
        #expect(try anas.claim(sha256: x.sha256, for: ana) == .yours)
        #expect(try anas.claim(sha256: y.sha256, for: ana) == .yours)
        #expect(try bens.claim(sha256: x.sha256, for: ben) == .yours, "the claim outlives its waiting save")
        #expect(try bens.claim(sha256: y.sha256, for: ben) == .taken(by: "Ana on desk-1"), "nothing waited on y")
        #expect(try anas.claim(sha256: x.sha256, for: ana) == .taken(by: "Ben on desk-2"))
        let saved = try bens.add(x, words: Self.words, editor: ben)
        #expect(try anas.entries() == [saved])
        #expect(try anas.claim(sha256: x.sha256, for: ana) == .captioned, "Ana is told, and moves on")
        #expect(try bens.claim(sha256: x.sha256, for: ben) == .captioned, "the right was spent by the save")
    }

    /// The save waiting on a claim comes after Ana captioned the photo: it is a second
    /// caption, not a claim over hers.
    @Test func aClaimThatOutlivedItsTermDoesNotTakeACaptionedPhoto() throws {
        let (server, anas, bens, x, _) = try benSavedThroughAnOutage()
        defer { withExtendedLifetime(server) {} }
        // Ana's first save after the restart: it finds its connection ended, and goes in.
        _ = try anas.add(x, words: CaptionWords(title: "Quay", subtitle: ""), editor: ana)
        #expect(try bens.claim(sha256: x.sha256, for: ben) == .captioned)
        let second = try bens.add(x, words: Self.words, editor: ben)
        #expect(try anas.entries().first == second, "Ben's words are kept, as a second caption")
    }

    @Test func aFolderLibrarysPhotosAreAlwaysItsOneEditors() throws {
        let scratch = Scratch()
        let library = try Storage.folder.open(scratch)
        let photo = try PhotoInspector.load(scratch.write("p.jpg", Photos.jpeg()))
        #expect(try library.claim(sha256: photo.sha256, for: ana) == .yours)
        #expect(try library.claim(sha256: photo.sha256, for: ben) == .yours)
        _ = try library.add(photo, words: Self.words, editor: ben)
        #expect(try library.claim(sha256: photo.sha256, for: ana) == .yours)
    }

    @Test func anEditorIsNamedByPersonAndMachine() {
        let editor = Editor.here()
        #expect(!editor.name.isEmpty && editor.name != "another editor", "\(editor.name)")
        #expect(editor.id != Editor.here().id, "each window is an editor of its own")
    }
}
