// A library's entries and photos on a real PostgreSQL server: saved, read, edited, searched
// and removed as a folder library's are, and no photo lost when two editors save and remove
// entries of the same photo at once.

import CaptionTestSupport
import CaptionText
import Foundation
import PhotoFormats
import Testing

@testable import CaptionLibrary

@Suite("PostgreSQL library entries")
struct PostgresEntriesTests {
    /// A photo's bytes and a SHA-256-shaped key of its own (the store takes the key it is
    /// given; the folder library's inspector computes it).
    static func photo(_ seed: UInt8, size: Int = 100_000) -> (sha256: String, bytes: [UInt8]) {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
        return (String(repeating: String(format: "%02x", seed), count: 32), bytes)
    }

    static func words(_ title: String, _ subtitle: String = "") -> CaptionWords {
        var words = CaptionWords.empty
        words.title = title
        words.subtitle = subtitle
        return words
    }

    /// A library of its own on the test server, its photo cache in a scratch folder that
    /// lasts the test run.
    static func store() throws -> PostgresStorage {
        try PostgresStorage(PostgresSchemaTests.database(), cache: cache.path)
    }

    static let cache = Scratch("caption-pg-cache")

    /// Every entry, newest first.
    static func all(_ store: PostgresStorage) throws -> [Entry] { try Library(storage: store).entries() }

    @discardableResult
    static func add(_ store: PostgresStorage, _ seed: UInt8, _ title: String, credits: Credits = .none) throws -> Entry
    {
        let photo = Self.photo(seed)
        return try store.add(
            sha256: photo.sha256, format: .jpeg, bytes: photo.bytes, words: words(title, "sub \(title)"), width: 640,
            height: 480, originalName: "IMG_\(seed).JPG", credits: credits)
    }

    @Test func anEntrySavedIsReadBackWithItsPhoto() throws {
        let store = try Self.store()
        var credits = Credits()
        credits[.creator] = "Ana Lima"
        credits.replacesPhotos = true
        let saved = try Self.add(store, 1, "Harbour at dusk", credits: credits)
        #expect(saved.photo == "photos/\(Self.photo(1).sha256).jpg")
        #expect(try Self.all(store) == [saved])
        #expect(try store.entry(id: saved.id) == saved)
        #expect(try store.entry(id: saved.id + 1000) == nil)
        #expect(try store.photoBytes(sha256: Self.photo(1).sha256) == Self.photo(1).bytes)
        #expect(try store.count() == 1)
        // Another editor's connection reads the same.
        let other = try PostgresStorage(store.address, cache: Self.cache.path)
        #expect(other.identity == store.identity)
        #expect(try Self.all(other) == [saved])
    }

    @Test func aPhotoSavedTwiceIsStoredOnceAndGoesWithItsLastEntry() throws {
        let store = try Self.store()
        let first = try Self.add(store, 2, "First")
        let second = try Self.add(store, 2, "Second")
        let admin = try PostgresConnection(store.address)
        #expect(try admin.execute("SELECT count(*) FROM caption.photos").integer(0, 0) == 1)
        #expect(try store.remove(id: first.id) == first)
        #expect(try store.photoBytes(sha256: Self.photo(2).sha256) == Self.photo(2).bytes)
        _ = try store.remove(id: second.id)
        #expect(try admin.execute("SELECT count(*) FROM caption.photos").integer(0, 0) == 0)
        #expect(try store.photoBytes(sha256: Self.photo(2).sha256) == nil)
    }

    @Test func editingKeepsTheCreditsUnlessGiven() throws {
        let store = try Self.store()
        var credits = Credits()
        credits[.copyright] = "© 2026 Ana Lima"
        let saved = try Self.add(store, 3, "Before", credits: credits)
        let edited = try store.update(
            id: saved.id, words: Self.words("After", "Now"), credits: nil, unchangedSince: nil)
        #expect(edited.words == Self.words("After", "Now"))
        #expect(edited.credits == credits)
        #expect(edited.updated >= saved.updated)
        #expect(edited.created == saved.created)
        var other = Credits()
        other[.creator] = "Rui Costa"
        let recredited = try store.update(id: saved.id, words: edited.words, credits: other, unchangedSince: nil)
        #expect(recredited.credits == other)
        #expect(try store.entry(id: saved.id) == recredited)
    }

    @Test func aSourceIsKeptAndForgotten() throws {
        let store = try Self.store()
        let saved = try Self.add(store, 4, "Source")
        let kept = try store.setSource(id: saved.id, path: "/home/ana/Photos/IMG_4.JPG", sha256: Self.photo(4).sha256)
        #expect(kept.source == "/home/ana/Photos/IMG_4.JPG")
        #expect(kept.sourceSHA256 == Self.photo(4).sha256)
        let forgotten = try store.setSource(id: saved.id, path: nil, sha256: nil)
        #expect(forgotten.source == nil && forgotten.sourceSHA256 == nil)
    }

    @Test func searchFindsAnyPartCaseAsideAndTakesWildcardsAsTyped() throws {
        let store = try Self.store()
        let harbour = try Self.add(store, 5, "Harbour at dusk")
        let sale = try Self.add(store, 6, "50% off")
        let snake = try Self.add(store, 7, "snake_case")
        let beijing = try Self.add(store, 8, "北京的夜晚")
        #expect(try store.entries(matching: "HARB") == [harbour])
        #expect(try store.entries(matching: "sub harbour") == [harbour], "the subtitle too")
        #expect(try store.entries(matching: "%") == [sale])
        #expect(try store.entries(matching: "_") == [snake])
        #expect(try store.entries(matching: "北京") == [beijing])
        #expect(try store.entries(matching: "nowhere").isEmpty)
    }

    @Test func aMissingEntryIsNamed() throws {
        let store = try Self.store()
        let errors = [
            try #require(throws: LibraryError.self) {
                try store.update(id: 999, words: Self.words("x"), credits: nil, unchangedSince: nil)
            },
            try #require(throws: LibraryError.self) { try store.remove(id: 999) },
            try #require(throws: LibraryError.self) { try store.setSource(id: 999, path: nil, sha256: nil) },
        ]
        for error in errors {
            #expect(error.kind == .noSuchEntry)
            #expect(error.message.contains("999"))
        }
    }

    /// The race in the order a test can hold still: another editor's save has put the
    /// photo in (finding it there) but not yet its entry when this editor removes the
    /// photo's last entry. The photo goes, and the other save's entry is refused by the key
    /// (`add` then puts the photo in again), never kept without its photo.
    @Test func aSaveWhosePhotoWasRemovedMeanwhileIsRefusedByTheKey() throws {
        let store = try Self.store()
        let mine = try Self.add(store, 10, "mine")
        let sha256 = Self.photo(10).sha256
        let other = try PostgresConnection(store.address)
        try other.execute("BEGIN")
        try other.execute(
            "INSERT INTO caption.photos (sha256, format, bytes) VALUES ($1, 'jpg', '\\x00') ON CONFLICT (sha256) DO NOTHING",
            [sha256])
        _ = try store.remove(id: mine.id)
        #expect(try store.photoBytes(sha256: sha256) == nil)
        let error = try #require(throws: LibraryError.self) {
            try other.execute(
                """
                INSERT INTO caption.entries (photo, photo_sha256, title, subtitle, width, height, original_name,
                    created, updated) VALUES ($1, $2, 'theirs', '', 1, 1, 'IMG.JPG', 0, 0)
                """, [mine.photo, sha256])
        }
        #expect(other.lastFailure == "23503", "\(error.message)")
        try other.execute("ROLLBACK")
        #expect(try Self.all(store).isEmpty)
    }

    /// The other order of the same race, made to happen: the photo goes between a save's
    /// two inserts (a trigger removes it once, as another editor's removal would). The key
    /// refuses the entry, and the save puts the photo in again and succeeds.
    @Test func aSaveWhosePhotoWentBetweenItsTwoInsertsIsMadeAgain() throws {
        let store = try Self.store()
        try PostgresConnection(store.address).run(
            """
            CREATE SEQUENCE caption.test_once;
            CREATE FUNCTION caption.test_take_photo() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF nextval('caption.test_once') = 1 THEN
                    DELETE FROM caption.photos WHERE sha256 = NEW.photo_sha256;
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER test_take_photo BEFORE INSERT ON caption.entries
                FOR EACH ROW EXECUTE FUNCTION caption.test_take_photo();
            """)
        let saved = try Self.add(store, 11, "Raced")
        #expect(try Self.all(store) == [saved])
        #expect(try store.photoBytes(sha256: Self.photo(11).sha256) == Self.photo(11).bytes)
        let tries = try PostgresConnection(store.address).execute("SELECT last_value FROM caption.test_once")
        #expect(tries.integer(0, 0) == 2, "taken once, then saved on the second try")
    }

    /// One editor saves and removes entries of a photo while another saves entries of the
    /// same photo: every entry left has its photo.
    @Test func twoEditorsSavingAndRemovingOnePhotoNeverLoseIt() async throws {
        let first = try Self.store()
        let second = try PostgresStorage(first.address, cache: Self.cache.path)
        let rounds = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<rounds {
                    let entry = try Self.add(first, 9, "removed \(round)")
                    _ = try first.remove(id: entry.id)
                }
            }
            group.addTask {
                for round in 0..<rounds { try Self.add(second, 9, "kept \(round)") }
            }
            try await group.waitForAll()
        }
        let left = try Self.all(first)
        #expect(left.count == rounds)
        #expect(left.allSatisfy { $0.title.hasPrefix("kept") })
        #expect(left.allSatisfy { $0.photo == "photos/\(Self.photo(9).sha256).jpg" })
        #expect(try first.photoBytes(sha256: Self.photo(9).sha256) == Self.photo(9).bytes)
    }

    /// An editor the desk lets read but not write: the library opens and lists, and a save
    /// is refused with the library's "cannot write", keeping nothing.
    @Test func anEditorWhoMayOnlyReadListsAndIsToldASaveCannotBeMade() throws {
        let address = try PostgresSchemaTests.database()
        let scratch = Scratch()
        let owner = try Library(server: address, cache: scratch.file("owner"))
        let saved = try owner.add(photoAt: scratch.write("p.png", Photos.png()), words: CaptionWords(title: "Kept"))
        let reader = try PostgresSchemaTests.role(on: address)
        try PostgresConnection(address).run(
            """
            GRANT USAGE ON SCHEMA caption TO \(reader.name);
            GRANT SELECT ON ALL TABLES IN SCHEMA caption TO \(reader.name);
            """)
        let library = try Library(server: reader.address, cache: scratch.file("reader"))
        #expect(try library.entries() == [saved])
        #expect(library.photoPath(of: saved).map { Photos.bytes($0) } == Photos.png())
        let error = try #require(throws: LibraryError.self) {
            try library.add(photoAt: scratch.write("q.png", Photos.png(seed: 2)), words: CaptionWords(title: "New"))
        }
        #expect(error.kind == .readOnly)
        #expect(error.message.hasPrefix("Cannot write to the library"), "\(error.message)")
        #expect(try owner.count() == 1)
    }

    /// A photo another editor removed leaves this machine's cache the next time the
    /// library opens; a fetch's leftover temporary file goes too, other files stay.
    @Test func aPhotoRemovedElsewhereLeavesTheCacheAtTheNextOpen() throws {
        let address = try PostgresSchemaTests.database()
        let scratch = Scratch()
        let ana = try Library(server: address, cache: scratch.file("ana"))
        let gone = try ana.add(photoAt: scratch.write("p.png", Photos.png()), words: CaptionWords(title: "Gone"))
        let kept = try ana.add(photoAt: scratch.write("q.png", Photos.png(seed: 2)), words: CaptionWords(title: "Kept"))
        let rui = try Library(server: address, cache: scratch.file("rui"))
        let goneCopy = try #require(rui.photoPath(of: gone))
        let keptCopy = try #require(rui.photoPath(of: kept))
        let photos = rui.directory + "/photos/"
        FileManager.default.createFile(atPath: photos + ".tmp-0123", contents: Data([1]))
        FileManager.default.createFile(atPath: photos + "notes.txt", contents: Data([2]))
        _ = try ana.remove(id: gone.id)
        #expect(FileManager.default.fileExists(atPath: goneCopy), "still there until the library opens again")

        _ = try Library(server: address, cache: scratch.file("rui"))
        #expect(!FileManager.default.fileExists(atPath: goneCopy))
        #expect(FileManager.default.fileExists(atPath: keptCopy))
        #expect(!FileManager.default.fileExists(atPath: photos + ".tmp-0123"))
        #expect(FileManager.default.fileExists(atPath: photos + "notes.txt"))
    }
}
