// `caption --list --json`: the library's entries written as JSON, a row at a time.

import CaptionLibrary
import CaptionText
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// JSON without Foundation: the entries as an array of objects, strings escaped per RFC 8259.
/// An entry whose photo path is not one of the library's own files, or whose photo on a
/// server is not on this machine yet, has "photo": null; one
/// that does not know the file it was captioned from (saved before version 3 of the
/// schema) has "source": null.
enum JSON {
    /// The whole library as one JSON array, written an element at a time as the rows are
    /// read: `[]` when empty, else one object per line. Built as UTF-8 bytes straight into
    /// the output block: at 100,000 entries, Strings built per field cost several times
    /// what SQLite does.
    static func write(_ library: Library, to output: inout Console.Buffer) throws(LibraryError) {
        var first = true
        let photoPath = library.photoPathsIfHere()
        try library.forEachEntry { entry in
            output.append(bytes: first ? "[\n" : ",\n")
            first = false
            // A listing fetches no photo from a server: "photo" is null for one not here yet.
            output.withBytes { object(entry, photo: photoPath(entry), into: &$0) }
            return true
        }
        output.append(bytes: first ? "[]\n" : "\n]\n")
    }

    static func object(_ entry: Entry, photo: String?, into out: inout [UInt8]) {
        out.append(contentsOf: "  {\"id\": ".utf8)
        out.append(contentsOf: String(entry.id).utf8)
        // Title and Subtitle always; an optional field only when it holds words (a million
        // entries would otherwise carry nine empty keys each), Keywords as a list.
        for field in CaptionField.required + entry.words.filledOptionalFields {
            out.append(contentsOf: fieldKeys[field] ?? [])
            if field == .keywords {
                out.append(contentsOf: "[".utf8)
                for (position, keyword) in entry.words.keywords.enumerated() {
                    if position > 0 { out.append(contentsOf: ", ".utf8) }
                    string(keyword, into: &out)
                }
                out.append(contentsOf: "]".utf8)
            } else {
                string(entry.words[field], into: &out)
            }
        }
        out.append(contentsOf: ", \"photo\": ".utf8)
        if let photo { string(photo, into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: ", \"width\": ".utf8)
        out.append(contentsOf: String(entry.width).utf8)
        out.append(contentsOf: ", \"height\": ".utf8)
        out.append(contentsOf: String(entry.height).utf8)
        out.append(contentsOf: ", \"originalName\": ".utf8)
        string(entry.originalName, into: &out)
        out.append(contentsOf: ", \"source\": ".utf8)
        if let source = entry.source { string(source, into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: ", \"created\": \"".utf8)
        time(entry.created, into: &out)
        out.append(contentsOf: "\", \"updated\": \"".utf8)
        time(entry.updated, into: &out)
        // The standing credits it was saved with: those set, and whether they replace a
        // photo's own only when they do.
        out.append(contentsOf: "\", \"credits\": {".utf8)
        var separator = ""
        for field in entry.credits.setFields {
            out.append(contentsOf: separator.utf8)
            out.append(contentsOf: creditKeys[field] ?? [])
            string(entry.credits[field], into: &out)
            separator = ", "
        }
        if entry.credits.replacesPhotos && !entry.credits.isEmpty {
            out.append(contentsOf: ", \"replacesOwn\": true".utf8)
        }
        // The stationery pad they came from, when one did.
        if let pad = entry.credits.pad {
            out.append(contentsOf: "\(separator)\"pad\": ".utf8)
            string(pad, into: &out)
        }
        out.append(contentsOf: "}}".utf8)
    }

    /// `, "headline": ` for each field, by its place among all fields: made once, not for
    /// each of a listing's entries.
    static let fieldKeys = Dictionary(
        uniqueKeysWithValues: CaptionField.allCases.map { ($0, Array(", \"\(jsonKey($0.rawValue))\": ".utf8)) })
    static let creditKeys = Dictionary(
        uniqueKeysWithValues: CreditField.allCases.map { ($0, Array("\"\(jsonKey($0))\": ".utf8)) })

    /// A credit's key, in the camel case of the other keys: "creditLine", "countryCode".
    static func jsonKey(_ field: CreditField) -> String { jsonKey(field.rawValue) }

    /// A stored name in camel case: "credit_line" → "creditLine", "job_id" → "jobId".
    static func jsonKey(_ name: String) -> String {
        let parts = name.split(separator: "_")
        return parts.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
    }

    /// A quoted JSON string. Non-ASCII text stays UTF-8; control characters, quotes and
    /// backslashes are escaped, and so are U+2028 and U+2029, which JavaScript once
    /// treated as line ends.
    static func string(_ text: String) -> String {
        var bytes: [UInt8] = []
        string(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same, appended as UTF-8: runs that need no escape are copied whole.
    static func string(_ text: String, into out: inout [UInt8]) {
        out.append(0x22)
        // JSON is Unicode: a path's bytes that are not UTF-8 are written as U+FFFD.
        var text = FilePath.display(text)
        text.withUTF8 { bytes in
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let separator =
                    byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || separator else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                switch byte {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0x08: out.append(contentsOf: [0x5C, 0x62])
                case 0x0C: out.append(contentsOf: [0x5C, 0x66])
                case 0xE2:
                    out.append(contentsOf: "\\u202".utf8)
                    out.append(bytes[index + 2] == 0xA8 ? 0x38 : 0x39)
                    index += 2
                default:
                    out.append(contentsOf: "\\u00".utf8)
                    // Lower-case hexadecimal digits: 0x30 is "0", 0x57 + 10 is "a".
                    for digit in [byte >> 4, byte & 0xF] { out.append(digit < 10 ? 0x30 + digit : 0x57 + digit) }
                }
                index += 1
                start = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }
        out.append(0x22)
    }

    /// `Timestamp.iso8601` ("2026-11-30T04:21:41Z") without building Strings.
    static func time(_ timestamp: Timestamp, into out: inout [UInt8]) {
        let milliseconds = timestamp.millisecondsSince1970
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else {
            out.append(contentsOf: timestamp.iso8601.utf8)
            return
        }
        // Two digits at a time, with no loop: two timestamps an entry, a million entries.
        func two(_ value: Int) {
            out.append(UInt8(48 + value / 10))
            out.append(UInt8(48 + value % 10))
        }
        two(year / 100)
        two(year % 100)
        out.append(0x2D)
        two(Int(parts.tm_mon) + 1)
        out.append(0x2D)
        two(Int(parts.tm_mday))
        out.append(0x54)
        two(Int(parts.tm_hour))
        out.append(0x3A)
        two(Int(parts.tm_min))
        out.append(0x3A)
        two(Int(parts.tm_sec))
        out.append(0x5A)
    }
}
