// Searching titles and subtitles: substrings in any script, kept current by every change.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Search")
struct SearchTests {
    func library(_ captions: [(String, String)], on storage: Storage = .folder) throws -> (Library, Scratch) {
        let scratch = Scratch()
        let library = try storage.open(scratch)
        for (index, caption) in captions.enumerated() {
            let photo = scratch.write("p\(index).png", Photos.png(seed: UInt32(index + 1)))
            _ = try library.add(photoAt: photo, words: CaptionWords(title: caption.0, subtitle: caption.1))
        }
        return (library, scratch)
    }

    static let captions = [
        ("Harbour at dusk", "The last ferry"), ("港口的黄昏", "最后一班渡轮"), ("Market day", "Fish and \"quotes\""),
        ("Mountain pass", "Snow in June"), ("東京タワー", "夜景"),
    ]

    @Test(
        "a search finds substrings, case aside, newest first",
        arguments: [
            ("harb", ["Harbour at dusk"]), ("FERRY", ["Harbour at dusk"]), ("ar", ["Market day", "Harbour at dusk"]),
            ("港口", ["港口的黄昏"]), ("黄昏", ["港口的黄昏"]), ("渡轮", ["港口的黄昏"]), ("一班渡", ["港口的黄昏"]),
            ("タワー", ["東京タワー"]), ("夜", ["東京タワー"]), ("\"quotes\"", ["Market day"]), ("fish and \"q", ["Market day"]),
            ("nothing like it", []), ("   ", ["東京タワー", "Mountain pass", "Market day", "港口的黄昏", "Harbour at dusk"]),
            ("' OR 1=1 --", []), ("*", []), ("NEAR(a b)", []), ("%", []), ("_", []), ("\\", []),
        ])
    func finds(query: String, titles: [String]) throws {
        for storage in Storage.allCases {
            let (library, _) = try library(Self.captions, on: storage)
            #expect(try library.entries(matching: query).map(\.title) == titles, "\(storage)")
        }
    }

    @Test("the library view's search index finds what a search finds, on either storage")
    func indexFindsWhatSearchFinds() throws {
        for storage in Storage.allCases {
            let (library, _) = try library(Self.captions, on: storage)
            let index = try library.searchIndex()
            for query in ["harb", "FERRY", "ar", "港口", "夜", "\"quotes\"", "nothing like it", "%", "_"] {
                let found = try library.entries(matching: query).map(\.id)
                #expect(index.matches(query) == found, "\(storage): \(query)")
            }
        }
    }

    @Test("an update and a removal are found, or not, at once", arguments: Storage.allCases)
    func keptCurrent(_ storage: Storage) throws {
        let (library, _) = try library(Self.captions, on: storage)
        let harbour = try #require(try library.entries(matching: "harbour").first)
        _ = try library.update(id: harbour.id, words: CaptionWords(title: "Quay at dawn", subtitle: "First light"))
        #expect(try library.entries(matching: "harbour").isEmpty)
        #expect(try library.entries(matching: "quay").map(\.id) == [harbour.id])
        _ = try library.remove(id: harbour.id)
        #expect(try library.entries(matching: "quay").isEmpty)
    }

    @Test("a library made before search gains it when opened")
    func migratesOldLibraries() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let photo = scratch.write("p.png", Photos.png())
        do {
            let library = try Library(directory: directory)
            _ = try library.add(photoAt: photo, words: CaptionWords(title: "Old harbour", subtitle: "from before"))
        }
        // Back to the first schema, as an older Caption left it.
        let raw = RawDatabase(directory + "/library.sqlite3")
        raw.execute(
            RawDatabase.dropCredits
                + "DROP TABLE library; DROP TABLE entries_text; DROP TRIGGER IF EXISTS entries_text_insert; "
                + "DROP TRIGGER IF EXISTS entries_text_delete; DROP TRIGGER IF EXISTS entries_text_update; "
                + "ALTER TABLE entries DROP COLUMN source; ALTER TABLE entries DROP COLUMN source_sha256; "
                + "PRAGMA user_version = 1")
        #expect(raw.strings("PRAGMA user_version") == ["1"])
        let library = try Library(directory: directory)
        #expect(try library.entries(matching: "harbour").map(\.title) == ["Old harbour"])
        #expect(raw.strings("PRAGMA user_version") == [String(Library.schemaVersion)])
    }

    @Test(
        "another process's save changes the counter an open view watches; its own do not", arguments: Storage.allCases)
    func changeCounter(_ storage: Storage) throws {
        let (library, scratch) = try library([("One", "1")], on: storage)
        let before = try library.changeCounter()
        #expect(try library.changeCounter() == before, "reading changes nothing")
        _ = try library.add(
            photoAt: scratch.write("own.png", Photos.png(seed: 41)), words: CaptionWords(title: "Own", subtitle: ""))
        #expect(try library.changeCounter() == before, "its own save is not another's")
        let photo = scratch.write("other.png", Photos.png(seed: 42))
        let added = try Caption.run(
            [
                "--library", try storage.argument(scratch), "--add", photo, "--title", "From elsewhere", "--subtitle",
                "x",
            ],
            environment: ["XDG_CACHE_HOME": scratch.file("cache")])
        #expect(added.status == 0)
        #expect(try library.changeCounter() != before)
        #expect(try library.entries().first?.title == "From elsewhere")
    }
}
