// The library's promises: what goes in comes out unchanged, photos are stored once and
// removed when unused, the folder is private, and bad databases are refused untouched.

import CSQLite
import CaptionTestSupport
import CaptionText
import Foundation
import Synchronization
import Testing

@_spi(Benchmarks) @testable import CaptionLibrary

@Suite("Library storage")
struct LibraryTests {
    @Test(
        "titles and subtitles with quotes, format specifiers, markup, emoji, RTL and CJK round-trip unchanged, also after reopening",
        arguments: Storage.allCases)
    func hostileTextRoundTrips(_ storage: Storage) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        var saved: [Entry] = []
        do {
            let library = try storage.open(scratch)
            for (index, text) in HostileText.samples.enumerated() {
                let subtitle = HostileText.samples[(index + 1) % HostileText.samples.count]
                let entry = try library.add(photoAt: photo, words: CaptionWords(title: text, subtitle: subtitle))
                #expect(entry.title == text)
                #expect(entry.subtitle == subtitle)
                saved.append(entry)
            }
        }
        let reopened = try storage.open(scratch)
        let entries = try reopened.entries()
        #expect(entries == saved.reversed())
        for entry in saved {
            let read = try #require(try reopened.entry(id: entry.id))
            #expect(read.title.unicodeScalars.elementsEqual(entry.title.unicodeScalars))
            #expect(read.subtitle.unicodeScalars.elementsEqual(entry.subtitle.unicodeScalars))
        }
        #expect(try reopened.entries().count == HostileText.samples.count, "no statement was spliced into SQL")
    }

    @Test(
        "hostile text in every credit round-trips unchanged, and an edit keeps the credits", arguments: Storage.allCases
    )
    func hostileCreditsRoundTrip(_ storage: Storage) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        var credits = Credits()
        for (index, field) in CreditField.allCases.enumerated() {
            credits[field] = HostileText.samples[index % HostileText.samples.count]
        }
        credits.replacesPhotos = true
        let saved = try storage.open(scratch).add(photoAt: photo, words: CaptionWords(title: "T"), credits: credits)
        let reopened = try storage.open(scratch)
        let read = try #require(try reopened.entry(id: saved.id))
        for field in CreditField.allCases {
            #expect(read.credits[field].unicodeScalars.elementsEqual(credits[field].unicodeScalars), "\(field)")
        }
        #expect(read.credits.replacesPhotos)
        #expect(try reopened.update(id: saved.id, words: CaptionWords(title: "U")).credits == credits)
        #expect(try reopened.entries(matching: "DROP TABLE").isEmpty, "credits are not searched")
    }

    @Test(
        "an entry keeps the stationery pad its credits came from, through an edit and a new set of credits",
        arguments: Storage.allCases)
    func entryKeepsItsPad(_ storage: Storage) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let credits = Credits([.creditLine: "Agência Lusa"], pad: HostileText.samples[1])
        let saved = try storage.open(scratch).add(photoAt: photo, words: CaptionWords(title: "T"), credits: credits)
        #expect(saved.credits.pad == HostileText.samples[1])
        let reopened = try storage.open(scratch)
        #expect(try reopened.entry(id: saved.id)?.credits == credits)
        #expect(try reopened.update(id: saved.id, words: CaptionWords(title: "U")).credits.pad == credits.pad)
        let standing = Credits([.creator: "Own Name"])
        #expect(
            try reopened.update(id: saved.id, words: CaptionWords(title: "V"), credits: standing).credits.pad == nil)
        #expect(try reopened.entries().first?.credits == standing)
    }

    @Test(
        "an entry records the photo's pixel size, original name, UTC times and a library-relative photo path",
        arguments: Storage.allCases)
    func entryRecordsItsPhoto(_ storage: Storage) throws {
        let scratch = Scratch()
        let bytes = Photos.jpeg(width: 120, height: 80)
        let photo = scratch.write("Harbour at dawn.jpg", bytes)
        let before = Timestamp.now()
        let library = try storage.open(scratch)
        let entry = try library.add(photoAt: photo, words: CaptionWords(title: "T", subtitle: "S"))
        #expect(entry.width == 120 && entry.height == 80)
        #expect(entry.originalName == "Harbour at dawn.jpg")
        let hash = bytes.withUnsafeBytes { Hash.sha256($0) }
        #expect(entry.photo == "photos/\(hash).jpg")
        #expect(library.photoPath(of: entry) == library.directory + "/photos/\(hash).jpg")
        #expect(storage == .server || library.directory == scratch.file("lib"))
        #expect(entry.created >= before && entry.created <= Timestamp.now())
        #expect(entry.updated == entry.created)
        #expect(entry.created.iso8601.count == 20 && entry.created.iso8601.hasSuffix("Z"))
        #expect(Timestamp(millisecondsSince1970: 1_796_012_501_000).iso8601 == "2026-11-30T04:21:41Z")
        #expect(Timestamp(millisecondsSince1970: 0).iso8601 == "1970-01-01T00:00:00Z")
        // The copy survives the original going away.
        unlink(photo)
        #expect(FileManager.default.contents(atPath: library.photoPath(of: entry) ?? "") == Data(bytes))
    }

    @Test(
        "a photo loaded earlier is saved as it was loaded, even if the file changed or went since",
        arguments: Storage.allCases)
    func loadedPhotoSavedAsLoaded(_ storage: Storage) throws {
        let scratch = Scratch()
        let original = Photos.png(seed: 5)
        let path = scratch.write("p.png", original)
        let loaded = try PhotoInspector.load(path)
        #expect(loaded.sha256 == original.withUnsafeBytes { Hash.sha256($0) })
        #expect(loaded.info == PhotoInfo(width: 64, height: 48, format: .png, byteCount: original.count))
        scratch.write("p.png", Photos.png(seed: 6))
        let library = try storage.open(scratch)
        let entry = try library.add(loaded, words: CaptionWords(title: "T", subtitle: "S"))
        #expect(FileManager.default.contents(atPath: library.photoPath(of: entry) ?? "") == Data(original))
        unlink(path)
        let again = try library.add(loaded, words: CaptionWords(title: "T2", subtitle: "S"))
        #expect(again.photo == entry.photo)
        #expect(try storage.consistencyProblems(scratch) == [])
    }

    @Test("entries are listed newest first", arguments: Storage.allCases)
    func newestFirst(_ storage: Storage) throws {
        let scratch = Scratch()
        let library = try storage.open(scratch)
        var ids: [Int64] = []
        for seed in 1...4 {
            let photo = scratch.write("p\(seed).png", Photos.png(seed: UInt32(seed)))
            ids.append(try library.add(photoAt: photo, words: CaptionWords(title: "T\(seed)", subtitle: "S")).id)
        }
        #expect(try library.entries().map(\.id) == ids.reversed())
    }

    @Test(
        "the same photo saved twice is stored once, and removing one entry keeps the file the other uses",
        arguments: Storage.allCases)
    func samePhotoStoredOnce(_ storage: Storage) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let copy = scratch.write("copy.png", Photos.png())
        let library = try storage.open(scratch)
        let first = try library.add(photoAt: photo, words: CaptionWords(title: "A", subtitle: "a"))
        let second = try library.add(photoAt: copy, words: CaptionWords(title: "B", subtitle: "b"))
        #expect(first.photo == second.photo)
        #expect(second.originalName == "copy.png")
        let files = try FileManager.default.contentsOfDirectory(atPath: library.directory + "/photos")
        #expect(files.count == 1)

        let removed = try library.remove(id: first.id)
        #expect(removed == first)
        #expect(FileManager.default.fileExists(atPath: library.photoPath(of: second) ?? ""))
        _ = try library.remove(id: second.id)
        #expect(!FileManager.default.fileExists(atPath: library.photoPath(of: second) ?? ""))
        #expect(try library.entries().isEmpty)
        #expect(try storage.consistencyProblems(scratch) == [])
    }

    @Test(
        "update changes the caption and the updated time, keeps the photo and the created time",
        arguments: Storage.allCases)
    func updateChangesCaption(_ storage: Storage) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let library = try storage.open(scratch)
        let entry = try library.add(photoAt: photo, words: CaptionWords(title: "Old", subtitle: "old"))
        usleep(5_000)
        let updated = try library.update(id: entry.id, words: CaptionWords(title: "New «title»", subtitle: "新しい"))
        #expect(updated.title == "New «title»" && updated.subtitle == "新しい")
        #expect(updated.photo == entry.photo && updated.created == entry.created)
        #expect(updated.updated > entry.updated)
        #expect(try library.entry(id: entry.id) == updated)
    }

    @Test(
        "an edit of what was read is not saved over another editor's change made meanwhile; told of it, it may be",
        arguments: Storage.allCases)
    func editsNeverSilentlyOverwrite(_ storage: Storage) throws {
        let scratch = Scratch()
        let mine = try storage.open(scratch)
        let read = try mine.add(
            photoAt: scratch.write("p.png", Photos.png()), words: CaptionWords(title: "Harbour", subtitle: "dusk"))
        usleep(2_000)
        let theirs = try storage.open(scratch).update(
            id: read.id, words: CaptionWords(title: "Harbour at dusk", subtitle: "The last ferry"))
        let error = try #require(throws: LibraryError.self) {
            try mine.update(
                id: read.id, words: CaptionWords(title: "Quay", subtitle: "dawn"), unchangedSince: read.updated)
        }
        #expect(error.kind == .changedElsewhere)
        #expect(error.message.contains("“Harbour at dusk”"), "\(error.message)")
        #expect(try mine.entry(id: read.id) == theirs, "theirs stays")
        usleep(2_000)
        let saved = try mine.update(
            id: read.id, words: CaptionWords(title: "Quay", subtitle: "dawn"), unchangedSince: theirs.updated)
        #expect(saved.title == "Quay")
        _ = try mine.remove(id: read.id)
        let gone = try #require(throws: LibraryError.self) {
            try mine.update(id: read.id, words: CaptionWords(title: "Q", subtitle: "d"), unchangedSince: saved.updated)
        }
        #expect(gone.kind == .noSuchEntry)
    }

    @Test("updating or removing an entry that does not exist names the missing number", arguments: Storage.allCases)
    func missingEntry(_ storage: Storage) throws {
        let scratch = Scratch()
        let library = try storage.open(scratch)
        #expect(try library.entry(id: 42) == nil)
        let error = #expect(throws: LibraryError.self) { try library.remove(id: 42) }
        #expect(error?.kind == .noSuchEntry)
        #expect(error?.message == "There is no entry 42 in the library")
        let updateError = #expect(throws: LibraryError.self) {
            try library.update(id: 42, words: CaptionWords(title: "a", subtitle: "b"))
        }
        #expect(updateError?.kind == .noSuchEntry)
    }

    @Test("the library folder is created 0700 and its database, WAL, shared-memory and photo files 0600")
    func privatePermissions() throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        chmod(photo, 0o644)
        let directory = scratch.file("deep/er/lib")
        let library = try Library(directory: directory)
        let entry = try library.add(photoAt: photo, words: CaptionWords(title: "T", subtitle: "S"))
        #expect(mode(directory) == 0o700)
        #expect(mode(scratch.file("deep")) == 0o700)
        #expect(mode(directory + "/photos") == 0o700)
        #expect(mode(try #require(library.storage as? FolderStorage).databasePath) == 0o600)
        for suffix in ["-wal", "-shm"]
        where FileManager.default.fileExists(
            atPath: try #require(library.storage as? FolderStorage).databasePath + suffix)
        {
            #expect(mode(try #require(library.storage as? FolderStorage).databasePath + suffix) == 0o600, "\(suffix)")
        }
        #expect(mode(library.photoPath(of: entry) ?? "") == 0o600)
    }

    @Test("the database is in WAL mode, carries the schema version and Caption's application id")
    func schemaVersioned() throws {
        let scratch = Scratch()
        let library = try Library(directory: scratch.file("lib"))
        let raw = RawDatabase(try #require(library.storage as? FolderStorage).databasePath)
        #expect(raw.strings("PRAGMA journal_mode") == ["wal"])
        #expect(raw.strings("PRAGMA user_version") == [String(Library.schemaVersion)])
        #expect(raw.strings("PRAGMA application_id") == [String(LibrarySchema.applicationID)])
        #expect(Library.schemaVersion == LibrarySchema.migrations.count)
    }

    @Test("a library made before sources were kept gains the columns; its entries have no source, then one when set")
    func migratesToSources() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let photo = scratch.write("p.png", Photos.png())
        let id = try Library(directory: directory).add(
            photoAt: photo, words: CaptionWords(title: "Old", subtitle: "from before")
        ).id
        // Back to schema 2, as the Caption before this one left it.
        let raw = RawDatabase(directory + "/library.sqlite3")
        raw.execute(
            RawDatabase.dropCredits
                + "DROP TABLE library; ALTER TABLE entries DROP COLUMN source; ALTER TABLE entries DROP COLUMN source_sha256; "
                + "PRAGMA user_version = 2")
        let library = try Library(directory: directory)
        #expect(raw.strings("PRAGMA user_version") == [String(Library.schemaVersion)])
        let entry = try #require(try library.entry(id: id))
        #expect(entry.title == "Old" && entry.source == nil && entry.sourceSHA256 == nil)
        let updated = try library.setSource(id: id, path: "/photos/p.png", sha256: "abc")
        #expect(updated.source == "/photos/p.png" && updated.sourceSHA256 == "abc")
        #expect(try library.entry(id: id)?.source == "/photos/p.png")
        #expect(throws: LibraryError.self) { try library.setSource(id: id + 1, path: "/x", sha256: nil) }
    }

    @Test(
        "a library made before credits gains their columns; its entries have none, then keep what they are saved with")
    func migratesToCredits() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let photo = scratch.write("p.png", Photos.png())
        let old = try Library(directory: directory).add(
            photoAt: photo, words: CaptionWords(title: "Old", subtitle: "from before"),
            credits: Credits([.creator: "Gone"]))
        let raw = RawDatabase(directory + "/library.sqlite3")
        raw.execute(RawDatabase.dropCredits + "PRAGMA user_version = 4")
        let library = try Library(directory: directory)
        #expect(raw.strings("PRAGMA user_version") == [String(Library.schemaVersion)])
        #expect(try library.entry(id: old.id)?.credits == Credits.none)
        var credits = Credits([.creator: "Ana Lima", .copyright: "© 2024 Ana Lima", .countryCode: "PT"])
        credits.replacesPhotos = true
        let saved = try library.add(
            photoAt: photo, words: CaptionWords(title: "New", subtitle: "now"), credits: credits)
        #expect(saved.credits == credits)
        #expect(try library.entry(id: saved.id)?.credits == credits)
        // Editing the words keeps the credits the entry was saved with, unless new ones are given.
        #expect(
            try library.update(id: saved.id, words: CaptionWords(title: "Newer", subtitle: "now")).credits == credits)
        let other = Credits([.source: "Desk"])
        #expect(
            try library.update(id: saved.id, words: CaptionWords(title: "Newest", subtitle: "now"), credits: other)
                .credits == other)
        #expect(try library.entries().first { $0.id == saved.id }?.credits == other)
    }

    @Test("a library from a newer Caption is refused and left byte for byte as it was")
    func newerSchemaRefused() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        _ = try Library(directory: directory)
        RawDatabase(directory + "/library.sqlite3").execute("PRAGMA user_version = 99")
        let before = FileManager.default.contents(atPath: directory + "/library.sqlite3")
        let error = #expect(throws: LibraryError.self) { try Library(directory: directory) }
        #expect(error?.kind == .newerSchema)
        #expect(error?.message.contains("schema 99") == true)
        #expect(FileManager.default.contents(atPath: directory + "/library.sqlite3") == before)
    }

    @Test("another program's SQLite database in the library's place is refused, not migrated")
    func foreignDatabaseRefused() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let raw = RawDatabase(directory + "/library.sqlite3", create: true)
        raw.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
        let before = FileManager.default.contents(atPath: directory + "/library.sqlite3")
        let error = #expect(throws: LibraryError.self) { try Library(directory: directory) }
        #expect(error?.kind == .notALibrary)
        #expect(FileManager.default.contents(atPath: directory + "/library.sqlite3") == before)
        #expect(raw.strings("SELECT body FROM notes") == ["mine"])
    }

    @Test("a database file of garbage is reported as damaged and never overwritten")
    func garbageDatabaseUntouched() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var garbage = [UInt8](repeating: 0, count: 8192)
        for index in garbage.indices { garbage[index] = UInt8(truncatingIfNeeded: index &* 7919 &+ 13) }
        scratch.write("lib/library.sqlite3", garbage)
        let error = #expect(throws: LibraryError.self) { try Library(directory: directory) }
        #expect(error?.kind == .corrupt)
        #expect(error?.message == "The library database is damaged; it was left as it is: \(directory)/library.sqlite3")
        #expect(FileManager.default.contents(atPath: directory + "/library.sqlite3") == Data(garbage))
        #expect(!FileManager.default.fileExists(atPath: directory + "/library.sqlite3-wal"))
    }

    @Test("a database whose pages are damaged is refused when read, and its bytes stay unchanged")
    func damagedPagesUntouched() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        do {
            let library = try Library(directory: directory)
            let photo = scratch.write("p.png", Photos.png())
            let entry = try library.add(photoAt: photo, words: CaptionWords(title: "T", subtitle: "S"))
            try library.insertCopies(of: entry, count: 400)
        }
        // Closing the last connection checkpointed the WAL into the main file.
        let path = directory + "/library.sqlite3"
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        #expect(bytes.count > 4096 * 4)
        for index in (4096 * 2)..<(bytes.count - 4096) { bytes[index] = 0xA5 }
        scratch.write("lib/library.sqlite3", bytes)
        var thrown: LibraryError?
        do {
            let library = try Library(directory: directory)
            _ = try library.entries()
        } catch {
            thrown = error
        }
        #expect(thrown?.kind == .corrupt)
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))
    }

    @Test("a save waits for another program's write lock, then says the library is locked and leaves nothing behind")
    func lockedDatabase() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let photo = scratch.write("p.png", Photos.png())
        _ = try Library(directory: directory).add(photoAt: photo, words: CaptionWords(title: "kept", subtitle: "s"))
        let other = RawDatabase(directory + "/library.sqlite3")
        #expect(other.execute("BEGIN EXCLUSIVE") == SQLITE_OK)
        let library = try Library(directory: directory, busyTimeout: 300)
        let second = scratch.write("q.png", Photos.png(seed: 2))
        let started = Timestamp.now()
        let error = #expect(throws: LibraryError.self) {
            try library.add(photoAt: second, words: CaptionWords(title: "T", subtitle: "S"))
        }
        let waited = Timestamp.now().millisecondsSince1970 - started.millisecondsSince1970
        #expect(error?.kind == .locked)
        #expect(error?.message.hasPrefix("The library is in use by another program") == true)
        #expect(waited >= 250, "waited \(waited) ms")
        other.execute("ROLLBACK")
        #expect(try library.entries().map(\.title) == ["kept"])
        #expect(try consistencyProblems(directory) == [])
    }

    @Test("a write lock released within the busy timeout delays a save but does not fail it")
    func briefLockWaitedOut() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let library = try Library(directory: directory, busyTimeout: 5000)
        let other = RawDatabase(directory + "/library.sqlite3")
        #expect(other.execute("BEGIN IMMEDIATE") == SQLITE_OK)
        let release = Thread {
            usleep(300_000)
            other.execute("COMMIT")
        }
        release.start()
        let photo = scratch.write("p.png", Photos.png())
        let entry = try library.add(photoAt: photo, words: CaptionWords(title: "T", subtitle: "S"))
        #expect(try library.entries() == [entry])
    }

    @Test("opening removes temporary files and unreferenced photos left by a crash, and keeps the user's own files")
    func crashLeftoversCleaned() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let photo = scratch.write("p.png", Photos.png())
        let entry = try Library(directory: directory).add(
            photoAt: photo, words: CaptionWords(title: "T", subtitle: "S"))
        let orphanName = String(repeating: "ab", count: 32) + ".jpg"
        scratch.write("lib/photos/.tmp-1234abcd", [1, 2, 3])
        scratch.write("lib/photos/" + orphanName, Photos.jpeg())
        scratch.write("lib/photos/notes.txt", Array("mine".utf8))
        let library = try Library(directory: directory)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: directory + "/photos"))
        #expect(files == [String(entry.photo.dropFirst("photos/".count)), "notes.txt"])
        #expect(try library.entries() == [entry])
    }

    @Test("threads sharing one Library instance all get their saves in", arguments: Storage.allCases)
    func threadsShareOneLibrary(_ storage: Storage) throws {
        let scratch = Scratch()
        let library = try storage.open(scratch)
        let photos = (0..<4).map { scratch.write("p\($0).png", Photos.png(seed: UInt32($0 + 1))) }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<10 {
                do {
                    _ = try library.add(
                        photoAt: photos[(thread + index) % 4],
                        words: CaptionWords(title: "t\(thread)-\(index)", subtitle: "s"))
                    if index == 5 { _ = try library.entries() }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try library.entries().count == 40)
        #expect(try storage.consistencyProblems(scratch) == [])
    }
}
