// Caption sheets: the CSV that exiftool's -csv writes and reads, as rows of a photo, its
// words and its credits; and the same columns written from the library.

import CaptionText
import Localization

/// One row of a sheet: the photo it names and what its filled cells say. A cell left
/// empty says nothing (as exiftool reads a sheet): that field comes from the photo.
struct SheetRow: Equatable {
    /// The sheet's line the row starts on (the header is line 1).
    var line: Int
    var photo: String
    var words: [CaptionField: String]
    var credits: [CreditField: String]
}

/// A row that cannot be used, with its line: said, and the other rows go on.
struct SheetProblem: Error, Equatable {
    var line: Int
    var message: String
}

enum CaptionSheet {
    /// What a column fills. Names are exiftool's tag names, matched without case and
    /// without a group ("XMP:Title", "XMP-dc:Title", "IPTC:ObjectName" are all Title):
    /// the XMP, IIM and Exif names of one field all fill it.
    enum Column: Equatable {
        case sourceFile
        case field(CaptionField)
        case credit(CreditField)
        /// Read by exiftool, but no field of Caption's: left out, said once.
        case unknown(String)
    }

    static func column(_ name: String) -> Column {
        let bare = name.split(separator: ":").last.map(String.init) ?? name
        switch bare.lowercased() {
        case "sourcefile": return .sourceFile
        case "title", "objectname": return .field(.title)
        case "description", "caption-abstract", "imagedescription": return .field(.subtitle)
        case "headline": return .field(.headline)
        case "subject", "keywords": return .field(.keywords)
        case "alttextaccessibility": return .field(.altText)
        case "extdescraccessibility": return .field(.extendedDescription)
        case "event": return .field(.event)
        case "instructions", "specialinstructions": return .field(.instructions)
        case "transmissionreference", "originaltransmissionreference": return .field(.jobID)
        case "location", "sub-location": return .field(.sublocation)
        case "state", "province-state": return .field(.state)
        case "creator", "by-line", "artist": return .credit(.creator)
        case "credit": return .credit(.creditLine)
        case "rights", "copyrightnotice", "copyright": return .credit(.copyright)
        case "source": return .credit(.source)
        case "city": return .credit(.city)
        case "country", "country-primarylocationname": return .credit(.country)
        case "countrycode", "country-primarylocationcode": return .credit(.countryCode)
        default: return .unknown(name)
        }
    }

    /// The header written by `--list --csv`: exiftool's XMP names, which it reads back
    /// (`exiftool -csv=SHEET`) into the same places Caption writes. Keywords are one cell,
    /// "a, b", as exiftool writes a list; exiftool reads them back as a list with `-sep ", "`.
    static let header: [String] =
        ["SourceFile"]
        + CaptionField.allCases.map { field in
            switch field {
            case .title: "Title"
            case .subtitle: "Description"
            case .headline: "Headline"
            case .keywords: "Subject"
            case .altText: "AltTextAccessibility"
            case .extendedDescription: "ExtDescrAccessibility"
            case .event: "Event"
            case .instructions: "Instructions"
            case .jobID: "TransmissionReference"
            case .sublocation: "Location"
            case .state: "State"
            }
        }
        + CreditField.allCases.map { field in
            switch field {
            case .creator: "Creator"
            case .creditLine: "Credit"
            case .copyright: "Rights"
            case .source: "Source"
            case .city: "City"
            case .country: "Country"
            case .countryCode: "CountryCode"
            }
        }

    /// The rows of `text` in the sheet's order, each one to use or the problem that keeps
    /// it out, and the columns left out. A sheet without a SourceFile column has no row to
    /// use: that is the one problem then.
    static func read(_ text: String) -> (rows: [Result<SheetRow, SheetProblem>], leftOut: [String]) {
        var records = CSV.records(text)
        guard let header = records.first else {
            return ([.failure(SheetProblem(line: 1, message: tr("the sheet is empty")))], [])
        }
        records.removeFirst()
        let columns = header.fields.map(column)
        guard let sourceColumn = columns.firstIndex(of: .sourceFile) else {
            return ([.failure(SheetProblem(line: 1, message: tr("the sheet has no SourceFile column")))], [])
        }
        var leftOut: [String] = []
        for case .unknown(let name) in columns where !leftOut.contains(name) { leftOut.append(name) }
        var rows: [Result<SheetRow, SheetProblem>] = []
        func problem(_ line: Int, _ message: String) {
            rows.append(.failure(SheetProblem(line: line, message: message)))
        }
        for record in records {
            if let message = record.problem {
                problem(record.line, message)
                continue
            }
            // A blank line is no row.
            if record.fields.allSatisfy(\.isEmpty) { continue }
            guard record.fields.count <= columns.count else {
                problem(
                    record.line,
                    fill(
                        tr("{count} cells where the header names {columns}"),
                        ["count": String(record.fields.count), "columns": String(columns.count)]))
                continue
            }
            let photo = sourceColumn < record.fields.count ? record.fields[sourceColumn] : ""
            guard !photo.isEmpty else {
                problem(record.line, tr("no photo in the SourceFile column"))
                continue
            }
            var row = SheetRow(line: record.line, photo: photo, words: [:], credits: [:])
            for (cell, column) in zip(record.fields, columns) where !cell.isEmpty {
                switch column {
                case .field(let field): row.words[field] = cell
                case .credit(let credit): row.credits[credit] = cell
                case .sourceFile, .unknown: break
                }
            }
            rows.append(.success(row))
        }
        return (rows, leftOut)
    }

    /// One row of `--list --csv`, its cells in `header`'s order.
    static func line(photo: String, words: CaptionWords, credits: Credits) -> String {
        let cells = [photo] + CaptionField.allCases.map { words[$0] } + CreditField.allCases.map { credits[$0] }
        return cells.map(CSV.quoted).joined(separator: ",") + "\n"
    }
}

/// RFC 4180 as exiftool writes it: commas, double quotes around a cell that holds a comma,
/// a quote or a line end, a quote doubled inside; CRLF or LF between records.
enum CSV {
    struct Record: Equatable {
        var line: Int
        var fields: [String]
        /// Set when the record cannot be read (a quote never closed).
        var problem: String?
    }

    static func records(_ text: String) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [Unicode.Scalar] = []
        var line = 1
        var start = 1
        var quoted = false
        var wasQuoted = false
        // A byte-order mark, as spreadsheets write one, is not part of the first name.
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var iterator = scalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return iterator.next()
        }
        func endField() {
            var text = String.UnicodeScalarView()
            text.append(contentsOf: field)
            fields.append(String(text))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRecord() {
            endField()
            records.append(Record(line: start, fields: fields))
            fields = []
        }
        var atRecordStart = true
        while let scalar = next() {
            if atRecordStart {
                start = line
                atRecordStart = false
            }
            if quoted {
                if scalar == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.append("\"")
                        } else {
                            quoted = false
                            pending = following
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case ",":
                endField()
            case "\r":
                // CRLF ends a record; a lone CR is kept as text.
                if let following = next() {
                    if following == "\n" {
                        endRecord()
                        line += 1
                        atRecordStart = true
                    } else {
                        field.append(scalar)
                        pending = following
                    }
                } else {
                    endRecord()
                    atRecordStart = true
                }
            case "\n":
                endRecord()
                line += 1
                atRecordStart = true
            default:
                field.append(scalar)
            }
        }
        if quoted {
            records.append(
                Record(line: start, fields: [], problem: tr("a quoted cell is never closed: the rest of the sheet")))
        } else if !atRecordStart {
            endRecord()
        }
        return records
    }

    /// A cell as exiftool quotes it: only where it must.
    static func quoted(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || cell.hasPrefix(" ")
        else { return cell }
        return "\"" + cell.replacing("\"", with: "\"\"") + "\""
    }
}
