// caption --import: a caption sheet's rows saved (and written) in one process, and
// caption --list --csv, the sheet of the library.

import CaptionLibrary
import CaptionMetadata
import CaptionSending
import CaptionText
import Localization
import POSIXFiles
import Threads

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    /// Each row of the sheet saved as `--add` saves its photo: the form's rules, the
    /// photo's own words where a cell is empty, the standing credits under the row's own.
    /// A row that cannot be saved is said as `SHEET:LINE: reason` and the others go on;
    /// exit status 1 when any row was not saved or not written, 0 when all were. With
    /// `send`, the entries saved are then sent there, in the sheet's order; a destination
    /// that does not exist, or whose password the keyring does not give, stops before any
    /// row is saved.
    static func importSheet(
        _ sheet: String, library: String?, into: CaptionDestination?, pad: String? = nil, send: String? = nil
    ) -> Int32 {
        var sending: (destination: Destination, password: String?)?
        if let send {
            guard let ready = sendingReady(send) else { return 1 }
            sending = ready
        }
        guard let rows = sheetRows(sheet) else { return 1 }
        var status: Int32 = 0
        var saved: [Entry] = []

        // Read once for the whole sheet; each row fills their variables from its own photo.
        guard let standing = creditsReading(pad: pad) else { return 1 }
        if let problem = standing.problem { Console.error(problem) }
        var opened: Library?
        func openedLibrary() throws(LibraryError) -> Library {
            if let opened { return opened }
            let newlyOpened = try open(library)
            opened = newlyOpened
            return newlyOpened
        }
        // Each photo is read and checked (the slow part: it is decoded) on a second thread
        // while the one before is saved and written, in the sheet's order.
        let usable = rows.compactMap { try? $0.get() }
        var next = usable.first.map(prepared)
        var following = 1
        for item in rows {
            let row: SheetRow
            switch item {
            case .success(let usable): row = usable
            case .failure(let problem):
                Console.error(sheet + ":" + String(problem.line) + ": " + problem.message)
                status = 1
                continue
            }
            let current = next ?? prepared(row)
            next = nil
            let ahead = following < usable.count ? usable[following] : nil
            following += 1
            Parallel.run([{ next = ahead.map(prepared) }]) {
                let say = { (line: String) in Console.error(sheet + ":" + String(row.line) + ": " + line) }
                let outcome = save(
                    row.photo, words: current.words, into: into, library: openedLibrary,
                    credits: { credits(of: row, standing: standing.credits, say: say) }, loaded: current.loaded,
                    say: say, added: { saved.append($0) })
                if outcome != .saved { status = 1 }
            }
        }
        if let sending, !saved.isEmpty, let opened {
            let sent = Commands.send(saved, from: opened, to: sending.destination, password: sending.password)
            if sent != 0 { status = 1 }
        }
        return status
    }

    /// A row's words (a cell left empty taken from the photo) and its photo read and checked.
    /// The sheet's rows, its columns Caption does not keep said; nil, with what is wrong
    /// said, when it cannot be read.
    static func sheetRows(_ sheet: String) -> [Result<SheetRow, SheetProblem>]? {
        let text: String
        switch SettingsFile.read(sheet) {
        case .contents(let bytes):
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                Console.error(
                    fill(tr("The sheet is not UTF-8 text (exiftool writes UTF-8): {path}"), ["path": sheet]))
                return nil
            }
            text = decoded
        case .missing:
            Console.error(fill(tr("There is no sheet at {path}"), ["path": sheet]))
            return nil
        case .notRegular:
            Console.error(fill(tr("The sheet is not a file: {path}"), ["path": sheet]))
            return nil
        case .failed(let code):
            Console.error(
                fill(
                    tr("The sheet cannot be read ({reason}): {path}"),
                    ["reason": POSIXFiles.reason(code), "path": sheet]))
            return nil
        }
        let (rows, leftOut) = CaptionSheet.read(text)
        for name in leftOut {
            Console.error(
                fill(
                    tr("{path}: the column {column} is not a field Caption keeps; left out"),
                    [
                        "path": sheet, "column": name,
                    ]))
        }
        return rows
    }

    static func prepared(_ row: SheetRow) -> (words: CaptionWords, loaded: Result<LoadedPhoto, LibraryError>) {
        (words(row.words, for: row.photo).0, Result { () throws(LibraryError) in try PhotoInspector.load(row.photo) })
    }

    /// A credit in the sheet is the user's word for that photo: it goes in over the
    /// standing one, and over the photo's own.
    static func credits(of row: SheetRow, standing: Credits, say: (String) -> Void) -> Credits {
        var credits = expanded(standing, for: row.photo, say: say)
        guard !row.credits.isEmpty else { return credits }
        for (field, text) in row.credits { credits[field] = text }
        credits.replacesPhotos = true
        return credits
    }

    /// The library as a caption sheet, newest first: where each entry's photo came from (or
    /// the library's copy when that is not known), its words and its credits.
    static func sheet(_ library: Library, to output: inout Console.Buffer) throws(LibraryError) {
        output.append(CaptionSheet.header.joined(separator: ",") + "\n")
        let photoPath = library.photoPathsIfHere()
        try library.forEachEntry { entry in
            let photo = entry.source ?? photoPath(entry) ?? entry.originalName
            output.append(CaptionSheet.line(photo: photo, words: entry.words, credits: entry.credits))
            return true
        }
    }
}
