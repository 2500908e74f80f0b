// The commands that need no window: --add, --list, --remove (--export has its own file).

import CaptionLibrary
import CaptionMetadata
import CaptionText
import FocusEngine
import Localization
import POSIXFiles
import PhotoFormats
import PlaceNames
import Shorthand

#if canImport(Glibc)
    import Glibc
#endif

public enum Commands {
    /// Runs a windowless request; returns the exit status: 0 done, 1 the input or the
    /// library is at fault (one line each on standard error), 2 not a windowless request.
    public static func run(_ request: Request) -> Int32 {
        // What Preferences chose about writing into photos holds here too.
        WritingChoices.current = CreditsFile.writingChoices()
        switch request {
        case .add(let library, let photo, let given, let into, let pad):
            // A pad asked for by name is read first: a wrong name saves nothing.
            var padCredits: CreditsFile.Reading?
            if let pad {
                guard let reading = padReading(pad) else { return 1 }
                padCredits = reading
            }
            let (words, xmpTooLarge) = self.words(given, for: photo)
            if xmpTooLarge {
                Console.error(
                    fill(
                        tr("The photo's XMP holds more than {count} properties; Caption does not read it: {path}"),
                        ["count": String(XMPPacketLimit.maximumElements), "path": photo]))
            }
            return add(library: library, photo: photo, words: words, into: into, credits: padCredits)
        case .list(let library, let format):
            return list(library: library, format: format)
        case .importSheet(let library, let sheet, let into, let pad, let send):
            return importSheet(sheet, library: library, into: into, pad: pad, send: send)
        case .remove(let library, let id):
            return remove(library: library, id: id)
        case .export(let library, let folder, let ids, let into):
            return export(library: library, folder: folder, ids: ids, into: into)
        case .writeBack(let library, let ids, let into):
            return writeBack(library: library, ids: ids, into: into)
        case .setCredits(let changes, let replacesPhotos, let addsIIM, let pad):
            return setCredits(changes, replacesPhotos: replacesPhotos, addsIIM: addsIIM, pad: pad)
        case .showCredits(let pad):
            return showCredits(pad: pad)
        case .pads(let request):
            return pads(request)
        case .destinations(let request):
            return destinations(request)
        case .send(let library, let destination, let ids):
            return send(library: library, to: destination, ids: ids)
        case .check(let library, let photos, let pad):
            return check(library: library, photos: photos, pad: pad)
        case .window, .help, .version:
            Console.error(tr("this request needs the window, not a command"))
            return 2
        }
    }

    /// The words for `photo`: those `given`, and what is not given from the photo's metadata
    /// or its sidecar, as the window fills its form; a field given, even empty, wins. With
    /// Title and Subtitle both given the photo is not read: an optional field not given
    /// stays empty here, and an empty one leaves the photo's own as it is. Also whether the
    /// photo's XMP was too large to read.
    static func words(_ given: [CaptionField: String], for photo: String) -> (CaptionWords, xmpTooLarge: Bool) {
        let complete = CaptionField.required.allSatisfy { given[$0] != nil }
        let found = complete ? FoundCaption(caption: .none, origin: nil) : CaptionFinder.find(photo)
        let carried = found.caption
        return (CaptionWords { given[$0] ?? carried[$0] ?? "" }, found.xmpTooLarge)
    }

    /// The form's own rules decide, as in the window: the photo's state comes from loading
    /// it (read once, fully checked), and a rejected form prints the summary the window
    /// would show, one line each.
    static func add(
        library: String?, photo: String, words: CaptionWords, into: CaptionDestination? = nil,
        credits: CreditsFile.Reading? = nil
    ) -> Int32 {
        let saved = save(
            photo, words: words, into: into, library: { () throws(LibraryError) in try open(library) },
            credits: { standingCredits(for: photo, reading: credits) }, say: { Console.error($0) })
        return saved == .saved ? 0 : 1
    }

    enum SaveOutcome: Equatable {
        case saved
        /// The form's rules refused it, or the photo or the library failed: said.
        case refused
        /// Saved, but it could not be written into the photo or beside it: said.
        case notWritten
    }

    /// One photo saved as the form would save it, then written where `into` says. What
    /// went wrong is handed to `say`, a line at a time; the library is opened only once the
    /// form has accepted the caption, and the credits read only then. `loaded` is the photo
    /// read and checked already (`PhotoInspector.load`), if it was.
    static func save(
        _ photo: String, words: CaptionWords, into: CaptionDestination?,
        library openLibrary: () throws(LibraryError) -> Library, credits: () -> Credits,
        loaded read: Result<LoadedPhoto, LibraryError>? = nil, say: (String) -> Void,
        added: (Entry) -> Void = { _ in }
    ) -> SaveOutcome {
        let layout = CaptionForm.Layout.everyField
        var engine = layout.engine(Wording(translate: { tr($0) }))
        for (index, item) in layout.items.enumerated() {
            if let field = item.field { _ = engine.handle(.edit(item: index, text: words[field])) }
        }
        var loaded: LoadedPhoto?
        let state: PhotoState
        if photo.isEmpty {
            state = .empty
        } else {
            switch read ?? Result(catching: { () throws(LibraryError) in try PhotoInspector.load(photo) }) {
            case .success(let photo):
                loaded = photo
                state = .loaded
            case .failure(let error):
                state = .failed(message: error.message)
            }
        }
        _ = engine.handle(.photo(item: layout.photo, state))

        switch engine.handle(.submit) {
        case .save(let submission):
            guard let loaded else { break }  // the engine saves only with a loaded photo
            do {
                let opened = try openLibrary()
                var entry = try opened.add(loaded, words: layout.words(of: submission), credits: credits())
                Console.out(tr("Saved entry {id}").replacing("{id}", with: String(entry.id)) + "\n")
                // Saved all the same: one line, and the exit status says it worked.
                if let notice = loaded.notice { say(notice.afterSaving(photo)) }
                // The library remembers where the photo came from, for --write-back later.
                if let source = SourcePath.absolute(photo) {
                    entry = try opened.setSource(id: entry.id, path: source, sha256: loaded.sha256)
                }
                added(entry)
                guard let into else { return .saved }
                return write(entry, into: into, library: opened, say: say) == .written ? .saved : .notWritten
            } catch {
                say(error.message)
                return .refused
            }
        default:
            break
        }
        let summary = engine.summary ?? tr("The entry is not complete")
        for line in summary.split(separator: "\n") { say(String(line)) }
        return .refused
    }

    /// The standing credits as they go with a caption of the photo at `path`: variables
    /// expanded from its Exif; a credit without a value for this photo, or a credits file
    /// that cannot be read, said on standard error.
    static func standingCredits(for path: String, reading given: CreditsFile.Reading? = nil) -> Credits {
        let reading = given ?? StationeryPads.standing()
        if let problem = reading.problem { Console.error(problem) }
        return expanded(reading.credits, for: path, say: { Console.error($0) })
    }

    /// `credits` with their variables filled from the photo at `path`.
    static func expanded(_ credits: Credits, for path: String, say: (String) -> Void) -> Credits {
        let placeFromGPS = WritingChoices.current.placeFromGPS
        guard !credits.isEmpty || placeFromGPS else { return .none }
        let facts = CaptureFactsReader.facts(at: path)
        let (expanded, leftOut) = credits.expanded(
            facts: PhotoFacts(
                capture: facts, place: PlaceNames.place(of: facts),
                fileName: path.split(separator: "/").last.map(String.init) ?? path,
                position: nil),
            placeFromGPS: placeFromGPS)
        for field in leftOut {
            say(
                fill(
                    tr("The credit {credit} is left out: this photo has no value for a variable in it"),
                    ["credit": CreditNames.name(field)]))
        }
        return expanded
    }

    /// The credits a command writes: the pad `name`'s, or those in use when nil; nil when
    /// the pad asked for cannot be read (said).
    static func creditsReading(pad name: String?) -> CreditsFile.Reading? {
        guard let name else { return StationeryPads.standing() }
        return padReading(name)
    }

    /// The credits of the pad `name`, or nil when it cannot be read (said).
    static func padReading(_ name: String) -> CreditsFile.Reading? {
        switch StationeryPads.reading(pad: name) {
        case .success(let reading): return reading
        case .failure(let problem):
            Console.error(problem.message)
            return nil
        }
    }

    static func setCredits(
        _ changes: [CreditField: String], replacesPhotos: Bool?, addsIIM: Bool? = nil, pad: String? = nil
    ) -> Int32 {
        // The credits in use are those changed: the pad in use's, when there is one.
        if let pad = pad ?? CreditsFile.read().pad {
            // A new name makes a pad; one that exists but cannot be read is left alone.
            var credits = Credits()
            switch StationeryPads.credits(of: pad, in: StationeryPads.folder()) {
            case .success(let held): credits = held
            case .failure(let problem) where !problem.isMissing:
                Console.error(problem.message)
                return 1
            case .failure: break
            }
            for (field, text) in changes { credits[field] = text }
            if let problem = StationeryPads.save(credits, as: pad, in: StationeryPads.folder())
                ?? replacesPhotos.flatMap({ CreditsFile.save(replacesPhotos: $0) })
                ?? addsIIM.flatMap(saveIIMChoice)
            {
                Console.error(problem)
                return 1
            }
            return showCredits(pad: pad)
        }
        let reading = CreditsFile.read()
        var credits = reading.problem == nil ? reading.credits : Credits.none
        for (field, text) in changes { credits[field] = text }
        if let replacesPhotos { credits.replacesPhotos = replacesPhotos }
        if let problem = CreditsFile.save(credits) {
            Console.error(problem)
            return 1
        }
        if let addsIIM, let problem = saveIIMChoice(addsIIM) {
            Console.error(problem)
            return 1
        }
        return showCredits()
    }

    /// `--pads`, `--use-pad`, `--no-pad`, `--add-pad`.
    static func pads(_ request: PadRequest) -> Int32 {
        let folder = StationeryPads.folder()
        switch request {
        case .list:
            let inUse = CreditsFile.read().pad
            let names = StationeryPads.names(in: folder)
            if names.isEmpty { Console.out(tr("No stationery pads: --set-credits --pad NAME makes one.") + "\n") }
            var output = ""
            for name in names { output += (name == inUse ? "* " : "  ") + name + "\n" }
            Console.out(output)
            return 0
        case .use(let name):
            if let name, padReading(name) == nil { return 1 }
            if let problem = CreditsFile.usePad(name) {
                Console.error(problem)
                return 1
            }
            return showCredits()
        case .add(let file, let name):
            switch StationeryPads.add(file, as: name, in: folder) {
            case .success(let added): return showCredits(pad: added)
            case .failure(let problem):
                Console.error(problem.message)
                return 1
            }
        }
    }

    /// Whether IIM is added, saved with the file's other writing choices as they are.
    private static func saveIIMChoice(_ addsIIM: Bool) -> String? {
        var choices = CreditsFile.writingChoices()
        choices.addsIIM = addsIIM
        return CreditsFile.save(choices)
    }

    /// One line per credit that is set, one per field a pad has words for, then whether
    /// they replace a photo's own.
    static func showCredits(pad: String? = nil) -> Int32 {
        guard let reading = creditsReading(pad: pad) else { return 1 }
        if let problem = reading.problem {
            Console.error(problem)
            return 1
        }
        var output = ""
        if let name = reading.pad { output += fill(tr("Stationery pad: {pad}"), ["pad": name]) + "\n" }
        if reading.credits.isEmpty { output += tr("No standing credits are set.") + "\n" }
        for field in reading.credits.setFields {
            output += CreditNames.name(field) + ": " + reading.credits[field] + "\n"
        }
        // A pad's words for the caption's fields, which a caption that leaves them empty takes.
        for line in reading.credits.fieldWordLines({ tr($0) }) { output += line + "\n" }
        output += CreditNames.rule(replacesPhotos: reading.credits.replacesPhotos) + "\n"
        let writing = CreditsFile.writingChoices()
        output += CreditNames.iimRule(addsIIM: writing.addsIIM) + "\n"
        output += CreditNames.placeRule(placeFromGPS: writing.placeFromGPS) + "\n"
        Console.out(output)
        return 0
    }

    /// Streams the entries as they are read from the library (newest first): memory stays
    /// flat however many there are, and the first line comes at once.
    static func list(library: String?, format: ListFormat) -> Int32 {
        do {
            let opened = try openForReading(library)
            var output = Console.Buffer()
            switch format {
            case .table: try table(opened, to: &output)
            case .json: try JSON.write(opened, to: &output)
            case .csv: try sheet(opened, to: &output)
            }
            output.flush()
            return 0
        } catch {
            Console.error(error.message)
            return 1
        }
    }

    static func remove(library: String?, id: Int64) -> Int32 {
        do {
            let entry = try open(library).remove(id: id)
            Console.out(tr("Removed entry {id}").replacing("{id}", with: String(entry.id)) + "\n")
            return 0
        } catch {
            Console.error(error.message)
            return 1
        }
    }

    static func open(_ library: String?) throws(LibraryError) -> Library {
        try Library.open(library ?? Library.defaultDirectory())
    }

    /// The library for a command that only reads it (`--list`, `--export`): opened as
    /// usual, or, where it cannot be written (a read-only folder or mount, a full disk),
    /// for reading only, as it is.
    static func openForReading(_ library: String?) throws(LibraryError) -> Library {
        let directory = library ?? Library.defaultDirectory()
        if Library.isServer(directory) { return try Library.open(directory) }
        do throws(LibraryError) {
            return try Library(directory: directory)
        } catch  where error.kind == .readOnly || error.kind == .diskFull {
            guard let reading = try? Library(readingOnly: directory) else { throw error }
            return reading
        }
    }

    /// Number, title and subtitle in columns, newest first. Widths count characters as
    /// people do (grapheme clusters); East Asian wide characters may still misalign, which
    /// a terminal table cannot know without a width table. Two passes over the library: the
    /// widths first (titles only), then the rows as they are read.
    static func table(_ library: Library, to output: inout Console.Buffer) throws(LibraryError) {
        let idHeader = tr("ID")
        let titleHeader = tr("Title")
        let subtitleHeader = tr("Subtitle")
        guard try library.newestCursor() != nil else {
            output.append(tr("The library is empty.") + "\n")
            return
        }
        let largest = try library.largestID()
        var widest = titleHeader.count
        try library.forEachTitle { title in
            widest = max(widest, title.count)
            return widest < 60
        }
        let idWidth = max(idHeader.count, String(largest).count)
        let titleWidth = min(60, widest)
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        output.append(
            pad(idHeader, idWidth, right: true) + "  " + pad(titleHeader, titleWidth) + "  " + subtitleHeader + "\n")
        try library.forEachEntry { entry in
            output.append(
                pad(String(entry.id), idWidth, right: true) + "  " + pad(entry.title, titleWidth) + "  "
                    + entry.subtitle + "\n")
            return true
        }
    }
}
