// The Preferences window's rows without the window: search, removal and its undo, import,
// and the file keeping a restored row in its place.

import Testing

@testable import Shorthand

@Suite struct CodeListTests {
    let codes = CodeList(
        ReplacementTable([
            Replacement(code: "=bb", text: "Brooklyn Bridge"),
            Replacement(code: "=gap", text: "Grand Army Plaza"),
            Replacement(code: "=cc2", text: "Aaron Barnum"),
        ]))

    @Test func searchMatchesCodesAndTextsIgnoringCase() {
        #expect(codes.indices(matching: "BRIDGE") == [0])
        #expect(codes.indices(matching: "=c") == [2])
        #expect(codes.indices(matching: "ar") == [1, 2])
        #expect(codes.indices(matching: "  ") == [0, 1, 2], "blank is no search")
        #expect(codes.indices(matching: "zz").isEmpty)
    }

    @Test func aRemovedRowComesBackInItsPlaceWithItsID() throws {
        var list = codes
        let id = list.rows[1].id
        let removed = list.remove(id)
        let removal = try #require(removed)
        #expect(list.rows.map(\.code) == ["=bb", "=cc2"])
        list.restore(removal)
        #expect(list == codes)
        #expect(list.index(of: id) == 1)
    }

    @Test func rowsBeingTypedAreKeptButLeftOutOfTheTable() {
        var list = codes
        let row = list.append()
        #expect(list.count == 4)
        #expect(list.table.rows.count == 3, "an empty code is no code yet")
        list.update(row.id, code: "=new", text: "New")
        #expect(list.table.text(for: "=new") == "New")
    }

    @Test func importChangesKnownCodesAndAddsNewOnesAtTheEnd() {
        var list = codes
        let counts = list.merge(
            ReplacementTable([
                Replacement(code: "=bb", text: "Brooklyn Bridge Park"), Replacement(code: "=x", text: "X"),
                Replacement(code: "=gap", text: "Grand Army Plaza"),
            ]))
        #expect(counts.added == 1 && counts.changed == 1)
        #expect(list.rows.map(\.code) == ["=bb", "=gap", "=cc2", "=x"])
        #expect(list.table.text(for: "=bb") == "Brooklyn Bridge Park")
    }

    @Test func aRestoredRowIsWrittenBackOnItsOwnLine() throws {
        let file = Array("# mine\n=bb\tBrooklyn Bridge\n=gap\tGrand Army Plaza\n=cc2\tAaron Barnum\n".utf8)
        var list = codes
        let removed = list.remove(list.rows[1].id)
        let removal = try #require(removed)
        let without = ReplacementDocument(bytes: file).updated(to: list.table)
        #expect(String(decoding: without, as: UTF8.self) == "# mine\n=bb\tBrooklyn Bridge\n=cc2\tAaron Barnum\n")
        list.restore(removal)
        #expect(ReplacementDocument(bytes: without).updated(to: list.table) == file)
    }

    /// 20,000 rows, saved in linear time (each line once looked its code up in the whole
    /// table); the window test and `make bench` open 100,000.
    @Test func aRosterOf20000CodesIsSavedWithOneRowChanged() {
        var rows = (0..<20_000).map { Replacement(code: "=p\($0)", text: "Player \($0)") }
        let file = Array(ReplacementDocument(bytes: []).updated(to: ReplacementTable(rows)))
        rows[10_000].text = "Captain"
        let saved = ReplacementDocument(bytes: file).updated(to: ReplacementTable(rows))
        #expect(saved.count == file.count + "Captain".utf8.count - "Player 10000".utf8.count)
        #expect(ReplacementDocument(bytes: saved).reading.table.text(for: "=p10000") == "Captain")
    }
}
