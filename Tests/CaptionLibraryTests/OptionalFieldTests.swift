// The fields a desk turns on, in the library: stored and read back, found by search, kept by
// an edit that does not give them, and added to a library made before them.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Optional caption fields in the library")
struct OptionalFieldTests {
    /// Every optional field with words of its own, hostile ones among them.
    static var everyField: CaptionWords {
        var words = CaptionWords(title: "Ferry", subtitle: "The last one leaves")
        for (index, field) in CaptionField.optional.enumerated() {
            words[field] =
                field == .keywords ? "harbour, night; 港口" : HostileText.samples[index % HostileText.samples.count]
        }
        return words
    }

    @Test("every optional field round-trips unchanged, also after reopening", arguments: Storage.allCases)
    func everyFieldRoundTrips(_ storage: Storage) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let saved = try storage.open(scratch).add(photoAt: photo, words: Self.everyField)
        #expect(saved.words == Self.everyField)
        let reopened = try storage.open(scratch)
        let read = try #require(try reopened.entry(id: saved.id))
        for field in CaptionField.allCases {
            #expect(read.words[field].unicodeScalars.elementsEqual(Self.everyField[field].unicodeScalars), "\(field)")
        }
        #expect(read.words.keywords == ["harbour", "night", "港口"])
        #expect(try reopened.entries() == [read])
    }

    @Test(
        "a search finds words in an optional field, long and short, and not across two fields",
        arguments: Storage.allCases)
    func searchFindsOptionalFields(_ storage: Storage) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let library = try storage.open(scratch)
        var words = CaptionWords(title: "Ferry", subtitle: "Night")
        words[.event] = "Lisbon Book Fair"
        words[.jobID] = "J7"
        words[.keywords] = "港口"
        let found = try library.add(photoAt: photo, words: words)
        let other = try library.add(photoAt: photo, words: CaptionWords(title: "Quay", subtitle: "Day"))
        #expect(try library.entries(matching: "book fair").map(\.id) == [found.id])
        #expect(try library.entries(matching: "j7").map(\.id) == [found.id])
        #expect(try library.entries(matching: "港口").map(\.id) == [found.id])
        // Event then Job ID: no match spans the two.
        #expect(try library.entries(matching: "FairJ7").isEmpty)
        // After an edit, the new words are found and the old ones not.
        var edited = words
        edited[.event] = "Harbour Regatta"
        _ = try library.update(id: found.id, words: edited)
        #expect(try library.entries(matching: "book fair").isEmpty)
        #expect(try library.entries(matching: "regatta").map(\.id) == [found.id])
        _ = try library.remove(id: found.id)
        #expect(try library.entries(matching: "regatta").isEmpty)
        #expect(try library.entries(matching: "quay").map(\.id) == [other.id])
    }

    @Test("the search index the window keeps finds optional fields too", arguments: Storage.allCases)
    func searchIndexHoldsOptionalFields(_ storage: Storage) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let library = try storage.open(scratch)
        var words = CaptionWords(title: "Ferry", subtitle: "Night")
        words[.sublocation] = "Cais do Sodré"
        let entry = try library.add(photoAt: photo, words: words)
        #expect(try library.searchIndex().matches("sodré") == [entry.id])
    }

    @Test("a library made before the optional fields gains them; its entries have none and are still found")
    func migratesToOptionalFields() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let photo = scratch.write("p.png", Photos.png())
        let old = try Library(directory: directory).add(
            photoAt: photo, words: CaptionWords(title: "Old ferry", subtitle: "from before"))
        let raw = RawDatabase(directory + "/library.sqlite3")
        raw.execute(RawDatabase.dropOptionalFields + "PRAGMA user_version = 6")
        let library = try Library(directory: directory)
        #expect(raw.strings("PRAGMA user_version") == [String(Library.schemaVersion)])
        #expect(try library.entry(id: old.id)?.words == CaptionWords(title: "Old ferry", subtitle: "from before"))
        #expect(try library.entries(matching: "old ferry").map(\.id) == [old.id])
        var words = CaptionWords(title: "New", subtitle: "now")
        words[.headline] = "Gale warning"
        let saved = try library.add(photoAt: photo, words: words)
        #expect(try library.entries(matching: "gale warn").map(\.id) == [saved.id])
        // An old entry edited gains the field, and is found by it.
        var gained = CaptionWords(title: "Old ferry", subtitle: "from before")
        gained[.state] = "Lisboa"
        _ = try library.update(id: old.id, words: gained)
        #expect(try library.entries(matching: "lisboa").map(\.id) == [old.id])
        #expect(raw.strings("PRAGMA integrity_check") == ["ok"])
        // FTS5's own check of the new index against the rows (an error is said as a row).
        #expect(raw.strings("INSERT INTO entries_more (entries_more) VALUES ('integrity-check')") == [])
    }
}
