// An entry read from a row of `Library.columns`, the same from SQLite and from PostgreSQL:
// the one place that knows which column holds what.

import CaptionText

/// A row of `Library.columns` as either database gives it.
protocol EntryColumns {
    /// The column's text; nil where it is NULL.
    func text(at column: Int) -> String?
    func integer(at column: Int) -> Int64
    /// A column that holds whether something is so.
    func flag(at column: Int) -> Bool
}

extension Entry {
    init(columns row: some EntryColumns) {
        var words = CaptionWords.empty
        // Only the fields that hold words, as with the credits: an empty optional field set
        // is a removal from the words' table, nine an entry.
        for (offset, field) in CaptionField.allCases.enumerated() {
            if let text = row.text(at: 1 + offset), !text.isEmpty { words[field] = text }
        }
        let next = 1 + CaptionField.allCases.count
        let firstCredit = next + 8
        var credits = Credits()
        // Only the credits set: most entries have none, and setting an empty one is a
        // lookup in the credits' table, ten an entry, a million entries listed.
        for (offset, field) in CreditField.allCases.enumerated() {
            if let text = row.text(at: firstCredit + offset), !text.isEmpty { credits[field] = text }
        }
        credits.replacesPhotos = row.flag(at: firstCredit + CreditField.allCases.count)
        credits.pad = row.text(at: firstCredit + CreditField.allCases.count + 1)
        self.init(
            id: row.integer(at: 0), words: words, photo: row.text(at: next) ?? "",
            width: Int(row.integer(at: next + 1)), height: Int(row.integer(at: next + 2)),
            originalName: row.text(at: next + 3) ?? "",
            created: Timestamp(millisecondsSince1970: row.integer(at: next + 4)),
            updated: Timestamp(millisecondsSince1970: row.integer(at: next + 5)),
            source: row.text(at: next + 6), sourceSHA256: row.text(at: next + 7), credits: credits)
    }
}

extension Statement: EntryColumns {
    func text(at column: Int) -> String? { optionalText(Int32(column)) }
    func integer(at column: Int) -> Int64 { integer(Int32(column)) }
    func flag(at column: Int) -> Bool { integer(Int32(column)) != 0 }
}

/// One row of a PostgreSQL result.
struct PostgresRow: EntryColumns {
    let rows: PostgresResult
    let row: Int

    func text(at column: Int) -> String? { rows.text(row, column) }
    func integer(at column: Int) -> Int64 { rows.integer(row, column) ?? 0 }
    /// PostgreSQL's text form of a boolean.
    func flag(at column: Int) -> Bool { rows.text(row, column) == "t" }
}

/// One line of `COPY (…) TO STDOUT` in the text format, as the server streams a listing:
/// columns split by tabs, `\N` for NULL, backslash escapes inside a value, and the same
/// text forms as a query's results.
struct CopyRow: EntryColumns {
    let line: UnsafeBufferPointer<UInt8>
    /// Where each column is in `line`.
    private let columns: [Range<Int>]

    init(_ line: UnsafeBufferPointer<UInt8>) {
        self.line = line
        var columns: [Range<Int>] = []
        columns.reserveCapacity(32)
        var start = 0
        // A tab inside a value comes escaped (`\t`): every tab here ends a column.
        for index in 0..<line.count where line[index] == 0x09 {
            columns.append(start..<index)
            start = index + 1
        }
        columns.append(start..<line.count)
        self.columns = columns
    }

    private func bytes(_ column: Int) -> UnsafeBufferPointer<UInt8>? {
        guard column < columns.count else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: line[columns[column]])
        if bytes.count == 2 && bytes[0] == 0x5C && bytes[1] == 0x4E { return nil }
        return bytes
    }

    func text(at column: Int) -> String? {
        guard let bytes = bytes(column) else { return nil }
        guard bytes.contains(0x5C) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: Self.unescaped(bytes), as: UTF8.self)
    }

    func integer(at column: Int) -> Int64 { bytes(column).flatMap(Self.integer) ?? 0 }

    func flag(at column: Int) -> Bool { bytes(column).map { $0.count == 1 && $0[0] == UInt8(ascii: "t") } ?? false }

    /// A value with its backslash escapes undone: `\n`, `\t` and the other control
    /// characters' letters, `\\`, and octal (`\012`) or hexadecimal (`\x0a`) bytes, which
    /// the server does not write today but the format allows.
    static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        func digits(_ radix: Int, upTo count: Int) -> UInt8 {
            var value = 0
            var taken = 0
            while taken < count, index < bytes.count, let digit = digit(bytes[index], radix: radix) {
                value = value * radix + digit
                index += 1
                taken += 1
            }
            return UInt8(truncatingIfNeeded: value)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == 0x5C, index < bytes.count else {
                out.append(byte)
                continue
            }
            let escaped = bytes[index]
            switch escaped {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                out.append(digits(8, upTo: 3))
                continue
            case UInt8(ascii: "x") where index + 1 < bytes.count && digit(bytes[index + 1], radix: 16) != nil:
                index += 1
                out.append(digits(16, upTo: 2))
                continue
            default: out.append(escaped)
            }
            index += 1
        }
        return out
    }

    /// The value of a digit in `radix` (8 or 16), or nil.
    static func digit(_ byte: UInt8, radix: Int) -> Int? {
        let value: Int
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte) - 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte) - 0x61 + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte) - 0x41 + 10
        default: return nil
        }
        return value < radix ? value : nil
    }

    /// An integer's text form, read from its bytes (a String per value cost a twentieth
    /// of a listing); nil for anything but an integer that fits.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (shifted, over) = value.multipliedReportingOverflow(by: 10)
            let (sum, overAgain) = shifted.addingReportingOverflow(Int64(byte - 0x30))
            guard !over, !overAgain else { return nil }
            value = sum
        }
        return negative ? -value : value
    }
}
