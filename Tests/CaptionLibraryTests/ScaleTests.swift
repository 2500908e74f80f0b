// A library at a photographer's scale: the search index for every query length and script,
// pages that add up to the whole list, streaming with an early stop, and the progress type
// long jobs share.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionLibrary

@Suite("Library at scale")
struct ScaleTests {
    /// A library with these (title, subtitle) pairs, added oldest first.
    func library(_ captions: [(String, String)], on storage: Storage) throws -> (Library, Scratch, [Entry]) {
        let scratch = Scratch()
        let library = try storage.open(scratch)
        var entries: [Entry] = []
        for (index, (title, subtitle)) in captions.enumerated() {
            let photo = scratch.write("p\(index).png", Photos.png(seed: UInt32(index + 1)))
            entries.append(try library.add(photoAt: photo, words: CaptionWords(title: title, subtitle: subtitle)))
        }
        return (library, scratch, entries)
    }

    @Test(
        "the search index finds one, two, three and more characters, case aside, Chinese too, newest first",
        arguments: Storage.allCases)
    func searchIndexFindsEveryQueryLength(_ storage: Storage) throws {
        let (library, _, entries) = try library(
            [
                ("Harbour at dusk", "The last ferry"), ("港口的黄昏", "最后一班渡轮"), ("Market day", "HARBOUR stalls"),
                ("x", "y"),
            ], on: storage)
        let index = try library.searchIndex()
        func titles(_ query: String) -> [String] {
            index.matches(query).map { id in entries.first { $0.id == id }!.title }
        }
        #expect(titles("h") == ["Market day", "Harbour at dusk"])
        #expect(titles("Ha") == ["Market day", "Harbour at dusk"])
        #expect(titles("harbour") == ["Market day", "Harbour at dusk"])
        #expect(titles("港") == ["港口的黄昏"])
        #expect(titles("渡轮") == ["港口的黄昏"])
        #expect(titles("黄昏") == ["港口的黄昏"])
        #expect(titles("  x ") == ["x"])
        #expect(titles("zz").isEmpty)
        #expect(titles("").count == 4, "an empty query is every entry")
        #expect(index.matches("dusk The").isEmpty, "no match across the title and the subtitle")
    }

    @Test("the search index is made again after this connection or another one commits", arguments: Storage.allCases)
    func searchIndexFollowsChanges(_ storage: Storage) throws {
        let (library, scratch, _) = try library([("Harbour", "Boats")], on: storage)
        #expect(try library.searchIndex().matches("quay").isEmpty)
        let first = try library.searchIndex()
        #expect(try library.searchIndex() === first, "nothing changed: the same index")
        let photo = scratch.write("q.png", Photos.png(seed: 99))
        _ = try library.add(photoAt: photo, words: CaptionWords(title: "Quay", subtitle: "Nets"))
        #expect(try library.searchIndex().matches("quay").count == 1)
        let other = try storage.open(scratch)
        _ = try other.add(
            photoAt: scratch.write("r.png", Photos.png(seed: 98)), words: CaptionWords(title: "Quayside", subtitle: ""))
        #expect(try library.searchIndex().matches("quay").count == 2)
    }

    @Test(
        "pages of the whole library and of a search add up to the list, newest first, with nothing twice",
        arguments: Storage.allCases)
    func pagesAddUpToTheList(_ storage: Storage) throws {
        let (library, _, _) = try library([("seed", "s")], on: storage)
        let seed = try #require(try library.entries().first)
        try library.insertCopies(of: seed, count: 1_234) { index in
            CaptionWords(title: index % 3 == 0 ? "Fish \(index)" : "Boat \(index)")
        }
        let all = try library.entries()
        var listing = try library.listing(matching: "")
        var paged: [Entry] = []
        while !listing.isComplete { paged += try listing.nextPage(from: library, limit: 100) }
        #expect(paged == all)

        var fish = try library.listing(matching: "FISH")
        var found: [Entry] = []
        while !fish.isComplete { found += try fish.nextPage(from: library, limit: 50) }
        #expect(found == all.filter { $0.title.hasPrefix("Fish") })
        #expect(fish.matchCount == 412, "every match found by paging to the end is counted")
        #expect(try library.listing(matching: "FISH").countMatches() == 412)
        #expect(try library.listing(matching: "nothing like it").isComplete)
    }

    @Test("a search finds its first page without looking for every match, and counts them after")
    func searchFindsTheFirstPageFirst() throws {
        let (library, _, _) = try library([("seed", "s")], on: .folder)
        let seed = try #require(try library.entries().first)
        try library.insertCopies(of: seed, count: 5_000) { index in CaptionWords(title: "Boat \(index)") }
        var boats = try library.listing(matching: "boat")
        let first = try boats.nextPage(from: library, limit: 100)
        #expect(first.map(\.title) == (4_900...4_999).reversed().map { "Boat \($0)" })
        #expect(boats.matchCount == nil, "the rest is not looked for before the page is shown")
        let copy = boats
        #expect(copy.countMatches(while: { false }) == nil, "a count no longer wanted stops")
        #expect(copy.countMatches() == 5_000)
        #expect(boats.matchCount == 5_000, "copies of a listing share what was found")
        #expect(!boats.mayHold(seed.id), "the seed is known not to match once all are found")
        let second = try boats.nextPage(from: library, limit: 100)
        #expect(second.map(\.title) == (4_800...4_899).reversed().map { "Boat \($0)" })
    }

    /// The index's contents, for comparing one kept current with one made afresh.
    func contents(_ index: SearchIndex) -> [String] {
        index.ids.indices.map { entry in
            let from = Int(index.starts[entry])
            let to = entry + 1 < index.starts.count ? Int(index.starts[entry + 1]) : index.text.count
            return "\(index.ids[entry]) \(index.created[entry]) "
                + String(decoding: index.text[from..<to], as: UTF8.self)
        }
    }

    @Test("an index updated with changed entries is the index made afresh")
    func updatingAnIndexEqualsMakingItAgain() {
        var random = SplitMix(seed: 7)
        func make(_ entries: [Int64: (created: Int64, title: String)]) -> SearchIndex {
            var builder = SearchIndex.Builder()
            for (id, entry) in entries.sorted(by: { ($0.value.created, $0.key) > ($1.value.created, $1.key) }) {
                builder.start(id: id, created: entry.created)
                for (field, last) in [(entry.title, false), ("", true)] {
                    Array(field.utf8).withUnsafeBufferPointer { builder.add(field: $0, last: last) }
                }
            }
            return builder.finish()
        }
        for round in 0..<200 {
            var entries: [Int64: (created: Int64, title: String)] = [:]
            for id in Int64(1)...Int64(random.next() % 40 + 1) {
                entries[id] = (Int64(random.next() % 20), "Title \(id) 港")
            }
            let before = make(entries)
            var changed = Set<Int64>()
            for _ in 0..<(random.next() % 8) {
                let id = Int64(random.next() % 50) + 1
                changed.insert(id)
                switch random.next() % 3 {
                case 0: entries[id] = nil
                case 1: entries[id] = (Int64(random.next() % 25), "New \(id)")
                default: entries[id].map { entries[id] = ($0.created, "Edited \(id) ÉTÉ") }
                }
            }
            let fresh = make(entries.filter { changed.contains($0.key) })
            #expect(contents(before.updating(changed, with: fresh)) == contents(make(entries)), "round \(round)")
        }
    }

    @Test("the index folds case as Swift does, in every script it holds")
    func indexFoldsAsSwiftDoes() {
        for text in [
            "Harbour 港口，Ａ市", "ÉTÉ à Paris", "ＨＡＲＢＯＵＲ", "黄昏的市场 11", "Straße İstanbul", "ΑΘΗΝΑ", "ｶﾀｶﾅ ＡＢＣ", "Ｚ",
        ] {
            var builder = SearchIndex.Builder()
            builder.start(id: 1, created: 0)
            Array(text.utf8).withUnsafeBufferPointer { builder.add(field: $0, last: true) }
            #expect(builder.text == Array(text.lowercased().utf8) + [0], "\(text)")
        }
    }

    @Test("this connection's commits are followed by reading the entries they changed, not every entry")
    func ownCommitsUpdateTheIndex() throws {
        let (library, scratch, added) = try library([("Harbour", "Boats"), ("Market", "Fish")], on: .folder)
        let database = try #require((library.storage as? FolderStorage)?.database)
        func changed() -> Set<Int64>? { database.withLock { $0.entriesChangedSinceIndex } }
        _ = try library.searchIndex()
        #expect(changed() == [])
        let quay = try library.add(
            photoAt: scratch.write("q.png", Photos.png(seed: 9)), words: CaptionWords(title: "Quay", subtitle: ""))
        _ = try library.update(id: added[0].id, words: CaptionWords(title: "Harbour wall", subtitle: "Boats"))
        _ = try library.remove(id: added[1].id)
        #expect(changed() == [quay.id, added[0].id, added[1].id])
        let kept = try library.searchIndex()
        #expect(changed() == [], "the index took the changes in")
        let afresh = try storageOpenedAgain(scratch).searchIndex()
        #expect(contents(kept) == contents(afresh))
        #expect(kept.matches("wall") == [added[0].id])
        #expect(kept.matches("fish").isEmpty)

        // A bulk change is more than the hook keeps: the index is read whole again.
        try library.insertCopies(of: quay, count: 300) { CaptionWords(title: "Copy \($0)") }
        #expect(changed() == nil)
        #expect(try library.searchIndex().matches("copy").count == 300)
        #expect(changed() == [])
    }

    func storageOpenedAgain(_ scratch: Scratch) throws -> Library { try Storage.folder.open(scratch) }

    @Test("other editors' saves, edits and deletions reach a desk's search index without reading it whole")
    func othersCommitsReachTheServersIndex() throws {
        let (library, scratch, added) = try library([("Harbour", "Boats"), ("Market", "Fish")], on: .server)
        let storage = try #require(library.storage as? PostgresStorage)
        #expect(storage.numbersChanges)
        _ = try library.searchIndex()
        let other = try Storage.server.open(scratch)
        let quay = try other.add(
            photoAt: scratch.write("q.png", Photos.png(seed: 9)), words: CaptionWords(title: "Quay", subtitle: ""))
        _ = try other.update(id: added[0].id, words: CaptionWords(title: "Harbour wall", subtitle: ""))
        _ = try other.remove(id: added[1].id)
        let own = try library.add(
            photoAt: scratch.write("r.png", Photos.png(seed: 8)), words: CaptionWords(title: "Rope", subtitle: ""))
        let kept = try library.searchIndex()
        #expect(kept.matches("wall") == [added[0].id])
        #expect(kept.matches("quay") == [quay.id])
        #expect(kept.matches("rope") == [own.id])
        #expect(kept.matches("fish").isEmpty)
        #expect(contents(kept) == contents(try Storage.server.open(scratch).searchIndex()))
        #expect(storage.searchIndexReadsWhole == 1, "read whole once, then only what changed")
    }

    @Test("a desk library made before commits were numbered gains the numbers when its owner opens it")
    func anOlderDeskLibraryGainsChangeNumbers() throws {
        let scratch = Scratch()
        let address = try Storage.database(for: scratch)
        _ = try Storage.server.open(scratch)
        let admin = try PostgresConnection(address)
        try admin.run(
            """
            DROP TRIGGER entries_stamp ON caption.entries; DROP FUNCTION caption.stamp_change();
            DROP TABLE caption.removed; ALTER TABLE caption.entries DROP COLUMN changed_at;
            """)
        #expect(try !PostgresSchema.hasChangeStamps(admin))
        let library = try Storage.server.open(scratch)
        #expect(try PostgresSchema.hasChangeStamps(admin))
        #expect((library.storage as? PostgresStorage)?.numbersChanges == true)
    }

    @Test("an editor who may not read the removed entries searches as before, reading the index whole")
    func anEditorWithoutTheNewGrantReadsTheIndexWhole() throws {
        let scratch = Scratch()
        let address = try Storage.database(for: scratch)
        let owner = try Storage.server.open(scratch)
        let first = try owner.add(
            photoAt: scratch.write("p.png", Photos.png(seed: 3)), words: CaptionWords(title: "Harbour", subtitle: ""))
        let admin = try PostgresConnection(address)
        let (role, editorAddress) = try PostgresSchemaTests.role(on: address)
        try admin.run(
            """
            GRANT USAGE ON SCHEMA caption TO \(role);
            GRANT SELECT, INSERT, UPDATE, DELETE ON caption.entries, caption.photos, caption.library, caption.leases TO \(role);
            GRANT USAGE ON ALL SEQUENCES IN SCHEMA caption TO \(role);
            """)
        let editor = try Library(server: editorAddress, cache: scratch.file("editor-cache"))
        let storage = try #require(editor.storage as? PostgresStorage)
        #expect(!storage.numbersChanges)
        #expect(try editor.searchIndex().matches("harbour") == [first.id])
        _ = try owner.remove(id: first.id)
        let second = try owner.add(
            photoAt: scratch.write("q.png", Photos.png(seed: 4)), words: CaptionWords(title: "Quay", subtitle: ""))
        #expect(try editor.searchIndex().matches("harbour").isEmpty)
        #expect(try editor.searchIndex().matches("quay") == [second.id])
        #expect(storage.searchIndexReadsWhole == 2)
        _ = try editor.remove(id: second.id)
        #expect(try owner.entries().isEmpty, "the editor's deletion went through the owner's trigger")
    }

    @Test("the index made a step at a time takes in what this connection and another commit meanwhile")
    func indexMadeInStepsFollowsCommitsMeanwhile() throws {
        let (library, scratch, added) = try library([("Harbour", "Boats"), ("Market", "Fish")], on: .folder)
        try library.insertCopies(of: added[0], count: 50) { CaptionWords(title: "Copy \($0)") }
        #expect(try !library.prepareSearchIndex(step: 20), "52 entries take three steps of 20")
        _ = try library.update(id: added[0].id, words: CaptionWords(title: "Harbour wall", subtitle: ""))
        let quay = try library.add(
            photoAt: scratch.write("q.png", Photos.png(seed: 9)), words: CaptionWords(title: "Quay", subtitle: ""))
        #expect(try !library.prepareSearchIndex(step: 20))
        #expect(try library.prepareSearchIndex(step: 20))
        let made = try library.searchIndex()
        #expect(made.matches("wall") == [added[0].id])
        #expect(made.matches("quay") == [quay.id])
        #expect(contents(made) == contents(try storageOpenedAgain(scratch).searchIndex()))

        // Another process's commits: the index is read again, and one in the middle of the
        // reading starts it over.
        let other = try storageOpenedAgain(scratch)
        _ = try other.update(id: added[1].id, words: CaptionWords(title: "Market hall", subtitle: ""))
        #expect(try !library.prepareSearchIndex(step: 30))
        _ = try other.remove(id: quay.id)
        while try !library.prepareSearchIndex(step: 30) {}
        #expect(try library.searchIndex().matches("quay").isEmpty)
        #expect(try library.searchIndex().matches("hall") == [added[1].id])
        #expect(contents(try library.searchIndex()) == contents(try other.searchIndex()))
    }

    @Test("entries are streamed in either order and the stream stops when asked", arguments: Storage.allCases)
    func streamingStopsWhenAsked(_ storage: Storage) throws {
        let (library, _, entries) = try library([("a", ""), ("b", ""), ("c", "")], on: storage)
        var newest: [String] = []
        try library.forEachEntry {
            newest.append($0.title)
            return true
        }
        #expect(newest == ["c", "b", "a"])
        var oldest: [String] = []
        try library.forEachEntry(.oldestFirst) {
            oldest.append($0.title)
            return oldest.count < 2
        }
        #expect(oldest == ["a", "b"])
        #expect(try library.entries(ids: [entries[2].id, 999, entries[0].id]).map(\.title) == ["c", "a"])
        #expect(try library.largestID() == entries[2].id)
        #expect(try library.count() == 3)
    }

    @Test("progress counts, says “1,234 of 100,001”, and a cancel is seen from another thread")
    func progressCountsAndCancels() async throws {
        let progress = WorkProgress(total: 100_001)
        for _ in 0..<1_234 { progress.advance() }
        #expect(progress.text == "1,234 of 100,001")
        #expect(WorkProgress.grouped(0) == "0")
        #expect(WorkProgress.grouped(999) == "999")
        #expect(WorkProgress.grouped(1_000_000) == "1,000,000")
        #expect(!progress.isCancelled)
        await Task.detached { progress.cancel() }.value
        #expect(progress.isCancelled)
        #expect(abs(progress.fraction - 1_234.0 / 100_001) < 1e-9)
    }
}
