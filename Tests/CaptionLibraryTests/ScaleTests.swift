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
        #expect(fish.matchCount == 412)
        var found: [Entry] = []
        while !fish.isComplete { found += try fish.nextPage(from: library, limit: 50) }
        #expect(found == all.filter { $0.title.hasPrefix("Fish") })
        #expect(try library.listing(matching: "nothing like it").isComplete)
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
