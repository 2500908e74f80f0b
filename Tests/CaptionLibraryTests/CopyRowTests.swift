// A line of PostgreSQL's COPY text format read as a listing reads it: tabs between
// columns, \N for NULL, and every escape the format allows undone.

import Testing

@testable import CaptionLibrary

@Suite("COPY's text format")
struct CopyRowTests {

    @Test func columnsNullsIntegersAndFlagsAreRead() {
        let line = Array("42\tHarbour\t\\N\t\tt\tf\t-17\tx1".utf8)
        line.withUnsafeBufferPointer { bytes in
            let row = CopyRow(bytes)
            #expect(row.integer(at: 0) == 42)
            #expect(row.text(at: 1) == "Harbour")
            #expect(row.text(at: 2) == nil, "\\N is NULL")
            #expect(row.text(at: 3) == "", "an empty value is not NULL")
            #expect(row.flag(at: 4) && !row.flag(at: 5))
            #expect(row.integer(at: 6) == -17)
            #expect(row.integer(at: 7) == 0, "not an integer")
            #expect(row.text(at: 8) == nil, "past the last column")
        }
    }

    @Test(
        "escapes are undone",
        arguments: [
            (#"a\tb"#, "a\tb"), (#"line\nnext\r"#, "line\nnext\r"), (#"back\\slash"#, #"back\slash"#),
            (#"\\N"#, #"\N"#), (#"\b\f\v"#, "\u{8}\u{C}\u{B}"), (#"\101\x42\x4"#, "AB\u{4}"), (#"end\"#, #"end\"#),
            (#"港口 \q"#, "港口 q"),
        ])
    func escapesAreUndone(escaped: String, text: String) {
        Array(escaped.utf8).withUnsafeBufferPointer { bytes in
            #expect(CopyRow(bytes).text(at: 0) == text)
        }
    }
}
