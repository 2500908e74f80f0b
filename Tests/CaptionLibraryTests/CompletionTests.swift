// Completion offers: prefix and CJK substring matching, ranking by use and recency, saves
// and undos kept in step, the library's usage query, and speed at 100,000 values.

import CaptionTestSupport
import CaptionText
import Testing

@testable import CaptionLibrary

@Suite struct CompletionTests {
    static let day: Int64 = 24 * 3600 * 1000
    let now = Timestamp(millisecondsSince1970: 400 * CompletionTests.day)

    func at(daysAgo: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: now.millisecondsSince1970 - daysAgo * Self.day)
    }

    @Test func aPrefixFindsValuesWhateverTheirCase() {
        let index = CompletionIndex([
            FieldUsage(text: "Brooklyn Bridge", count: 3, lastUsed: at(daysAgo: 1)),
            FieldUsage(text: "Bronx Zoo", count: 1, lastUsed: at(daysAgo: 1)),
            FieldUsage(text: "Manhattan", count: 9, lastUsed: at(daysAgo: 1)),
        ])
        #expect(index.offers(for: "bro", now: now) == ["Brooklyn Bridge", "Bronx Zoo"])
        #expect(index.offers(for: "BROOK", now: now) == ["Brooklyn Bridge"])
        #expect(index.offers(for: "x", now: now).isEmpty)
        #expect(index.offers(for: "", now: now).isEmpty)
    }

    @Test func theValueTypedInFullIsNoOffer() {
        let index = CompletionIndex([FieldUsage(text: "Harbour", count: 2, lastUsed: now)])
        #expect(index.offers(for: "Harbour", now: now).isEmpty)
        #expect(index.offers(for: "harbour", now: now) == ["Harbour"])
    }

    @Test func frequentAndRecentComeFirst() {
        let index = CompletionIndex([
            FieldUsage(text: "Park old but often", count: 8, lastUsed: at(daysAgo: 120)),
            FieldUsage(text: "Park often", count: 4, lastUsed: at(daysAgo: 1)),
            FieldUsage(text: "Park once", count: 1, lastUsed: at(daysAgo: 0)),
        ])
        // 8 uses four half-lives ago weigh 0.5; 4 uses yesterday weigh about 3.9.
        #expect(index.offers(for: "park", now: now) == ["Park often", "Park once", "Park old but often"])
    }

    @Test func cjkIsFoundInsideAValue() {
        let index = CompletionIndex([
            FieldUsage(text: "上海外滩夜景", count: 1, lastUsed: now),
            FieldUsage(text: "外滩", count: 1, lastUsed: at(daysAgo: 3)),
            FieldUsage(text: "Bund 外滩 night", count: 1, lastUsed: at(daysAgo: 5)),
        ])
        #expect(index.offers(for: "外滩", now: now) == ["上海外滩夜景", "Bund 外滩 night"])
        // Latin text is matched by prefix only.
        #expect(index.offers(for: "night", now: now).isEmpty)
    }

    @Test func aSaveAddsAUseAndUndoTakesItBack() {
        var index = CompletionIndex()
        index.record("Harbour", at: now)
        index.record("Harbour", at: now)
        index.record("Hill", at: at(daysAgo: 2))
        index.record("山顶", at: now)
        #expect(index.count == 3)
        #expect(index.offers(for: "h", now: now) == ["Harbour", "Hill"])
        index.forget("Harbour")
        index.forget("Harbour")
        #expect(index.offers(for: "h", now: now) == ["Hill"])
        #expect(index.offers(for: "顶", now: now) == ["山顶"])
        index.forget("Hill")
        index.forget("nothing")
        #expect(index.offers(for: "顶", now: now) == ["山顶"])
        index.record("", at: now)
        #expect(index.count == 1)
    }

    @Test func valuesThatDifferInCaseStayApartThroughSavesAndUndos() {
        var index = CompletionIndex([
            FieldUsage(text: "Bridge", count: 1, lastUsed: at(daysAgo: 3)),
            FieldUsage(text: "港口", count: 1, lastUsed: at(daysAgo: 3)),
            FieldUsage(text: "Zoo", count: 1, lastUsed: at(daysAgo: 3)),
        ])
        index.record("bridge", at: now)
        index.record("Bridge", at: at(daysAgo: 2))
        index.record("Apple", at: now)  // before everything: every position moves
        index.record("大港口", at: now)
        #expect(index.count == 6)
        #expect(index.offers(for: "b", now: now) == ["Bridge", "bridge"])
        #expect(index.offers(for: "港", now: now) == ["大港口", "港口"])
        index.forget("Apple")
        index.forget("bridge")
        #expect(index.offers(for: "b", now: now) == ["Bridge"])
        #expect(index.offers(for: "z", now: now) == ["Zoo"])
        #expect(index.offers(for: "港", now: now) == ["大港口", "港口"])
        index.forget("港口")
        #expect(index.offers(for: "港", now: now) == ["大港口"])
        #expect(index.count == 3)
    }

    @Test func atMostTheLimitIsOffered() {
        let index = CompletionIndex((0..<20).map { FieldUsage(text: "Item \($0)", count: $0, lastUsed: now) })
        let offers = index.offers(for: "item", now: now)
        #expect(offers.count == CompletionIndex.limit)
        #expect(offers.first == "Item 19")
    }

    @Test func byteSearchFindsANeedleAnywhereAndOnlyThere() {
        func found(_ haystack: String, _ needle: String) -> Bool {
            Array(haystack.utf8).withUnsafeBytes { h in
                Array(needle.utf8).withUnsafeBytes { n in CompletionIndex.contains(h, n) }
            }
        }
        #expect(found("上海外滩", "外滩"))
        #expect(found("aab", "ab"))  // the first candidate start fails, the next one holds
        #expect(found("abc", "abc"))
        #expect(!found("ab", "abc"))
        #expect(!found("外", "外滩"))
        #expect(!found("", "a"))
        #expect(found("abc", ""))
    }

    @Test func halvingMatchesPowersOfTwo() {
        for (x, expected) in [(0.0, 1.0), (1.0, 0.5), (2.5, 0.1767766952966369), (0.5, 0.7071067811865476)] {
            #expect(abs(CompletionIndex.halve(x) - expected) < 0.002, "\(x)")
        }
    }

    @Test(arguments: Storage.allCases)
    func theLibraryCountsEachDistinctValue(_ storage: Storage) throws {
        let scratch = Scratch()
        let library = try storage.open(scratch)
        let photo = scratch.write("a.jpg", Photos.jpeg(seed: 1, width: 8, height: 8))
        _ = try library.add(photoAt: photo, words: CaptionWords(title: "Harbour", subtitle: "Morning"))
        _ = try library.add(photoAt: photo, words: CaptionWords(title: "Harbour", subtitle: "Evening"))
        _ = try library.add(photoAt: photo, words: CaptionWords(title: "Hill", subtitle: "Evening"))
        _ = try library.add(photoAt: photo, words: CaptionWords(title: "harbour", subtitle: ""))
        let titles = try library.usage(of: .title).sorted { $0.text < $1.text }
        #expect(titles.map(\.text) == ["Harbour", "Hill", "harbour"], "values differing in case stay apart")
        #expect(titles.map(\.count) == [2, 1, 1])
        let subtitles = try library.usage(of: .subtitle)
        #expect(subtitles.first { $0.text == "Evening" }?.count == 2)
        #expect(!subtitles.contains { $0.text.isEmpty }, "an empty subtitle is no value")
    }

    @Test func aHundredThousandValuesAnswerInMilliseconds() {
        var usage: [FieldUsage] = []
        for number in 0..<100_000 {
            usage.append(FieldUsage(text: "Place \(number) 地点\(number % 977)", count: number % 7 + 1, lastUsed: now))
        }
        let index = CompletionIndex(usage)
        var offers: [String] = []
        // This thread's processor time, the best of three: what other tests and processes do
        // beside this one (a CPU hog, a build) is not counted, only the work of answering.
        func best(_ query: String) -> Duration {
            (0..<3).map { _ in ThreadTime.measure { offers = index.offers(for: query, now: now) } }.min()!
        }
        let prefix = best("place 4242")
        #expect(offers.count == CompletionIndex.limit)
        let substring = best("地点97")
        #expect(!offers.isEmpty)
        // Generous bounds for a debug build on a shared machine; the release figures are in
        // docs/performance.md.
        #expect(prefix < .milliseconds(50), "prefix: \(prefix)")
        #expect(substring < .milliseconds(100), "substring: \(substring)")
    }

    @Test func keywordListsAreOfferedKeywordByKeyword() {
        let old = Timestamp(millisecondsSince1970: 1_000)
        let new = Timestamp(millisecondsSince1970: 9_000)
        let usage = FieldUsage.eachKeyword(of: [
            FieldUsage(text: "harbour, ferry", count: 3, lastUsed: old),
            FieldUsage(text: "Harbour; dawn", count: 1, lastUsed: new),
            FieldUsage(text: "ferry", count: 2, lastUsed: old),
        ])
        #expect(
            usage == [
                FieldUsage(text: "harbour", count: 4, lastUsed: new),
                FieldUsage(text: "ferry", count: 5, lastUsed: old),
                FieldUsage(text: "dawn", count: 1, lastUsed: new),
            ])
    }
}
