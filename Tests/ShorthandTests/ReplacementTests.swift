// Code replacements: which code a typed boundary replaces, Undo of it, and the table's files.

import Testing

@testable import Shorthand

@Suite struct ReplacementTests {
    let table = ReplacementTable([
        Replacement(code: "=bb", text: "Brooklyn Bridge"),
        Replacement(code: "=b", text: "Bronx"),
        Replacement(code: "cc2", text: "Aaron Barnum"),
        Replacement(code: "=东", text: "东方明珠"),
    ])

    @Test func aCodeBeforeTheCursorIsFound() {
        #expect(table.match(in: "At =bb", endingAt: 6) == Match(start: 3, code: "=bb", text: "Brooklyn Bridge"))
    }

    @Test func theLongestCodeEndingThereWins() {
        // "=b" is a code too, but the word typed is "=bb".
        #expect(table.match(in: "=bb", endingAt: 3)?.code == "=bb")
        #expect(table.match(in: "=b", endingAt: 2)?.code == "=b")
    }

    @Test func aCodeAfterPunctuationIsFoundButNotInsideAWord() {
        #expect(table.match(in: "(=bb", endingAt: 4)?.start == 1)
        #expect(table.match(in: "xcc2", endingAt: 4) == nil)
        #expect(table.match(in: "abc=bb", endingAt: 6) == nil)
    }

    @Test func casesDiffer() {
        #expect(table.match(in: "CC2", endingAt: 3) == nil)
    }

    @Test func cjkCodesWork() {
        #expect(table.match(in: "=东", endingAt: 2)?.text == "东方明珠")
    }

    @Test func nothingBeforeTheCursorOrOutOfRangeIsNoMatch() {
        #expect(table.match(in: "=bb", endingAt: 0) == nil)
        #expect(table.match(in: "=bb", endingAt: 9) == nil)
        #expect(ReplacementTable().match(in: "=bb", endingAt: 3) == nil)
    }

    @Test func spacesAndPunctuationEndACodeLettersDoNot() {
        for scalar in [" ", ",", ".", ")", "!", "?", ";", ":", "、", "。", "\u{3000}"] as [Unicode.Scalar] {
            #expect(ReplacementTable.ends(scalar), "\(scalar)")
        }
        for scalar in ["a", "Z", "7", "中", "_"] as [Unicode.Scalar] where scalar != "_" {
            #expect(!ReplacementTable.ends(scalar), "\(scalar)")
        }
    }

    @Test func applyingAndUndoingGiveBackTheCode() {
        let match = table.match(in: "At =bb, then", endingAt: 6)!
        let applied = match.applied(to: "At =bb, then")
        #expect(applied == "At Brooklyn Bridge, then")
        #expect(match.undone(in: applied) == "At =bb, then")
    }

    @Test func undoAfterTheTextChangedThereIsRefused() {
        let match = table.match(in: "=bb ", endingAt: 3)!
        #expect(match.undone(in: "Brooklyn Bridgx ") == nil)
        #expect(match.undone(in: "Bro") == nil)
    }

    @Test func invalidCodesAreNotAdded() {
        var table = ReplacementTable()
        table.set(Replacement(code: "", text: "x"))
        table.set(Replacement(code: "a b", text: "x"))
        table.set(Replacement(code: "ab.", text: "x"))
        #expect(table.isEmpty)
    }

    @Test func aLaterRowForTheSameCodeReplacesTheEarlierInPlace() {
        var table = ReplacementTable([Replacement(code: "=a", text: "one"), Replacement(code: "=b", text: "two")])
        table.set(Replacement(code: "=a", text: "three"))
        #expect(table.rows.map(\.text) == ["three", "two"])
        table.remove(code: "=a")
        #expect(table.text(for: "=a") == nil)
        #expect(table.rows.count == 1)
    }

    @Test func theFileRoundTrips() {
        let written = ReplacementFile.write(table)
        let read = ReplacementFile.read(written)
        #expect(read.table == table)
        #expect(read.skippedLines.isEmpty)
    }

    @Test func tabsAndLineBreaksInTextDoNotBreakTheFile() {
        let table = ReplacementTable([Replacement(code: "=t", text: "a\tb\nc")])
        #expect(ReplacementFile.read(ReplacementFile.write(table)).table.text(for: "=t") == "a b c")
    }

    @Test func aLineThatIsNotUTF8IsSkippedAndNamedAndTheRestRead() {
        let document = ReplacementDocument(
            bytes: Array("=a\tOne\n".utf8) + [0x3D, 0x62, 0x09, 0xFF, 0x0A] + Array("=c\tThree".utf8))
        #expect(document.reading.table.rows.map(\.code) == ["=a", "=c"])
        #expect(document.reading.skippedLines == [2])
    }

    @Test func anEditChangesOnlyItsRowsAndKeepsLineEndings() {
        let bytes = Array("\u{FEFF}# codes\r\n=a\tOne\r\n=b\tTwo\r\n\r\n# end".utf8)
        let document = ReplacementDocument(bytes: bytes)
        #expect(document.updated(to: document.reading.table) == bytes, "nothing changed, nothing written differently")
        var table = document.reading.table
        table.set(Replacement(code: "=b", text: "Zwei"))
        #expect(
            document.updated(to: table)
                == Array("\u{FEFF}# codes\r\n=a\tOne\r\n=b\tZwei\n\r\n# end".utf8))
        table.remove(code: "=a")
        #expect(document.updated(to: table) == Array("\u{FEFF}# codes\r\n=b\tZwei\n\r\n# end".utf8))
    }

    @Test func anEmptyFileGetsItsHeadingAndTheRows() {
        let table = ReplacementTable([Replacement(code: "=a", text: "One")])
        #expect(
            ReplacementDocument(bytes: []).updated(to: table)
                == Array("# Caption code replacements: code<TAB>text, one a line\n=a\tOne\n".utf8))
        #expect(ReplacementDocument(bytes: []).updated(to: ReplacementTable()).isEmpty)
    }

    @Test func badLinesAreSkippedAndNamed() {
        let read = ReplacementFile.read("# comment\n=ok\tfine\nno tab here\n\n a b\tx\n=end.\ty\n")
        #expect(read.table.rows == [Replacement(code: "=ok", text: "fine")])
        #expect(read.skippedLines == [3, 5, 6])
    }

    @Test func photoMechanicFilesGetTheDelimiterAndTheFirstReplacement() {
        let file =
            "\u{FEFF}CC2\tAaron Barnum\r\nCC8\tDaren Bram\tDaren Bram #8\r\n\"DD13\"\t\"Victor \"\"Vic\"\" Z\"\r\nbad\r\n"
        let read = ReplacementFile.importPhotoMechanic(file)
        #expect(
            read.table.rows == [
                Replacement(code: "=CC2", text: "Aaron Barnum"), Replacement(code: "=CC8", text: "Daren Bram"),
                Replacement(code: "=DD13", text: "Victor \"Vic\" Z"),
            ])
        #expect(read.skippedLines == [4])
    }

    @Test func photoMechanicCommentLikeCodesAreCodes() {
        let read = ReplacementFile.importPhotoMechanic("#1\tNumber one\n")
        #expect(read.table.text(for: "=#1") == "Number one")
    }
}
