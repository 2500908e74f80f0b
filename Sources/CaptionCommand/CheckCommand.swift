// caption --check: the caption checks over the library's entries, or over photos' own words.

import CaptionChecks
import CaptionLibrary
import CaptionMetadata
import CaptionText
import Localization
import POSIXFiles
import PlaceNames
import Shorthand

extension Commands {
    /// One line on standard output per finding, naming the entry (or the photo), the field
    /// and the words; exit status 1 when anything was found, 0 when nothing was. The library
    /// is read a page at a time, oldest first. The checks are Preferences', with those of
    /// the stationery pad `pad` (or of the pad in use) over them.
    static func check(library: String?, photos: [String], pad: String? = nil) -> Int32 {
        var found = 0
        var output = Console.Buffer()
        if let pad, case .failure(let problem) = StationeryPads.credits(of: pad, in: StationeryPads.folder()) {
            Console.error(problem.message)
            return 1
        }
        let choices = StationeryPads.checkChoices(pad: pad)
        let names = roster()
        // A library's words were saved with their variables expanded: a brace left in them
        // is one the user typed as a brace. A photo's own words may come from anywhere.
        // The dateline check takes the place the photo's GPS gives as a place named, as the
        // window does; the photo is read for it only while that check is on.
        func places(ofPhotoAt path: String?) -> [String] {
            guard choices.allows(.dateline), let path,
                let place = PlaceNames.place(of: CaptureFactsReader.facts(at: path))
            else { return [] }
            return [place.city, place.state, place.country].filter { !$0.isEmpty }
        }
        func say(_ place: String, _ words: CaptionWords, variables: Set<String>? = [], photo: String? = nil) {
            for finding in CaptionChecks.findings(
                in: words, variables: variables, names: names, choices: choices, places: places(ofPhotoAt: photo))
            {
                found += 1
                output.append(place + ": " + finding.message + "\n")
            }
        }
        if !photos.isEmpty {
            var unreadable = false
            for photo in photos {
                guard isSheet(photo) else {
                    let caption = CaptionFinder.find(photo).caption
                    say(photo, CaptionWords { caption[$0] ?? "" }, photo: photo)
                    continue
                }
                // A sheet's rows, each by its line; the words as --import would take them,
                // variables still to be filled from the row's photo.
                output.flush()
                guard let rows = sheetRows(photo) else {
                    unreadable = true
                    continue
                }
                for row in rows {
                    switch row {
                    case .failure(let problem):
                        Console.error(photo + ":" + String(problem.line) + ": " + problem.message)
                        unreadable = true
                    case .success(let row):
                        say(
                            photo + ":" + String(row.line), CaptionWords { row.words[$0] ?? "" },
                            variables: Set(Variables.names), photo: row.photo)
                    }
                }
            }
            output.flush()
            return found > 0 || unreadable ? 1 : 0
        }
        do {
            let opened = try openForReading(library)
            guard let last = try opened.newestCursor() else { return 0 }
            let photoPath = opened.photoPathsIfHere()
            var cursor: EntryCursor?
            while true {
                let page = try opened.entries(after: cursor, order: .oldestFirst, limit: 256, through: last)
                for entry in page {
                    say(
                        fill(tr("entry {id}"), ["id": String(entry.id)]), entry.words, variables: nil,
                        photo: photoPath(entry))
                }
                guard page.count == 256, let next = page.last else { break }
                cursor = EntryCursor(next)
            }
            output.flush()
            return found > 0 ? 1 : 0
        } catch {
            output.flush()
            Console.error(error.message)
            return 1
        }
    }

    /// A caption sheet rather than a photo: a `.csv` file, as exiftool's `-csv` writes.
    static func isSheet(_ path: String) -> Bool { path.lowercased().hasSuffix(".csv") }

    /// The names the code replacements spell (the window's own file, which Preferences
    /// edits and imports Photo Mechanic's into); none when there is no file.
    static func roster() -> NameRoster {
        guard let bytes = SettingsFile.contents(CreditsFile.settingsFolder + "/" + ReplacementFile.fileName),
            let text = String(validating: bytes, as: UTF8.self)
        else {
            return .empty
        }
        return NameRoster(replacementTexts: ReplacementFile.read(text).table.rows.map(\.text))
    }
}
