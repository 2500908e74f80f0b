// The command line (caption(1)), parsed into a request; no I/O here.

import CaptionMetadata
import CaptionText
import Localization
import POSIXFiles
import Shorthand

public let captionVersion = "0.1.0"

/// What the user asked for.
public enum Request: Equatable, Sendable {
    /// `watch`: a folder whose new photos join the queue (with `subfolders`, theirs too).
    case window(library: String?, photos: [String], watch: String? = nil, subfolders: Bool = false)
    /// `words` holds the fields given (`--title`, `--subtitle`); the others come from the
    /// photo. With `into`, the caption also goes into the photo file or a sidecar beside it.
    /// With `pad`, the credits are that stationery pad's rather than the standing ones.
    case add(
        library: String?, photo: String, words: [CaptionField: String], into: CaptionDestination? = nil,
        pad: String? = nil)
    case list(library: String?, format: ListFormat = .table)
    /// The rows of a caption sheet (a CSV as exiftool's -csv writes it) saved as `--add`
    /// saves one photo, each also written into its photo or a sidecar with `into`.
    case importSheet(library: String?, sheet: String, into: CaptionDestination?, pad: String? = nil)
    case remove(library: String?, id: Int64)
    /// The entries `ids` (all when empty) into `folder`, the caption embedded (`.photo`) or
    /// in NAME.xmp beside each untouched photo (`.sidecar`).
    case export(library: String?, folder: String, ids: [Int64], into: CaptionDestination)
    /// The saved captions of `ids` (all with a source when empty) into the photo files
    /// they came from, or into sidecars beside them.
    case writeBack(library: String?, ids: [Int64], into: CaptionDestination)
    /// The caption checks over `photos`' own words, or over every entry of the library
    /// when none is given.
    case check(library: String?, photos: [String], pad: String? = nil)
    /// The standing credits given (`--creator`…; "" clears one), and whether they replace
    /// a photo's own (nil: as before); the others stay as they are. With `pad`, the credits
    /// go into that stationery pad (made if it is new) rather than the standing ones.
    case setCredits(changes: [CreditField: String], replacesPhotos: Bool?, addsIIM: Bool? = nil, pad: String? = nil)
    /// Prints the standing credits, or those of the stationery pad `pad`.
    case showCredits(pad: String? = nil)
    /// The stationery pads: listed, one chosen for what follows, or a file added as one.
    case pads(PadRequest)
    case help
    case version
}

/// What is asked of the stationery pads.
public enum PadRequest: Equatable, Sendable {
    /// `--pads`: each pad's name, the one in use marked.
    case list
    /// `--use-pad NAME`: its credits are written from now on; nil (`--no-pad`): the
    /// standing credits' own.
    case use(String?)
    /// `--add-pad FILE.xmp [--pad NAME]`: an XMP file (a Photo Mechanic template) becomes a pad.
    case add(file: String, name: String?)
}

/// How `--list` prints the entries.
public enum ListFormat: Equatable, Sendable {
    /// Number, title and subtitle in columns, for people.
    case table
    case json
    /// exiftool's CSV columns, which `--import` and `exiftool -csv=` read back.
    case csv
}

/// A mistake in the command line itself (exit status 2).
public struct UsageError: Error, Equatable {
    public var message: String
}

public enum Arguments {
    public static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var library: String?
        var photos: [String] = []
        var add: String?
        var words: [CaptionField: String] = [:]
        var list = false
        var json = false
        var csv = false
        var importSheet: String?
        var remove: String?
        var export: String?
        var ids: [String] = []
        var sidecar = false
        var inPlace = false
        var writeBack = false
        var check = false
        var watch: String?
        var subfolders = false
        var setCredits = false
        var showCredits = false
        var credits: [CreditField: String] = [:]
        var replaceOwn: Bool?
        var addsIIM: Bool?
        var pad: String?
        var listPads = false
        var usePad: String??
        var usePadCount = 0
        var addPad: String?
        var help = false
        var version = false
        var index = 0
        var onlyPhotosFollow = false

        func value(for option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else {
                throw UsageError(message: tr("option {option} needs a value").replacing("{option}", with: option))
            }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            if onlyPhotosFollow || !argument.hasPrefix("-") || argument == "-" {
                photos.append(argument)
                index += 1
                continue
            }
            // --option=value is the same as --option value.
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func take() throws(UsageError) -> String {
                if let inline { return inline }
                return try value(for: name)
            }
            switch name {
            case "--": onlyPhotosFollow = true
            case "--library", "-l": library = try take()
            case "--add": add = try take()
            case "--list": list = true
            case "--json": json = true
            case "--csv": csv = true
            case "--import": importSheet = try take()
            case "--remove": remove = try take()
            case "--export": export = try take()
            case "--id": ids.append(try take())
            case "--sidecar": sidecar = true
            case "--in-place": inPlace = true
            case "--write-back": writeBack = true
            case "--check": check = true
            case "--watch": watch = try take()
            case "--subfolders": subfolders = true
            case "--set-credits": setCredits = true
            case "--credits": showCredits = true
            case "--replace-own": replaceOwn = true
            case "--keep-own": replaceOwn = false
            case "--iim": addsIIM = true
            case "--no-iim": addsIIM = false
            case "--pad": pad = try take()
            case "--pads": listPads = true
            case "--use-pad":
                usePad = .some(try take())
                usePadCount += 1
            case "--no-pad":
                usePad = .some(nil)
                usePadCount += 1
            case "--add-pad": addPad = try take()
            // A standing credit by its name: --creator, --credit-line, --country-code…
            case let option where option.hasPrefix("--") && creditField(option) != nil:
                // The case's condition just found the credit.
                credits[creditField(option)!] = FilePath.display(try take())
            case "--help", "-h": help = true
            case "--version": version = true
            // A field by its name: --title, --subtitle, --headline, --alt-text... Words, not
            // paths: bytes that are not UTF-8 become U+FFFD, as before.
            case let option where captionField(option) != nil:
                // The case's condition just found the field.
                words[captionField(option)!] = FilePath.display(try take())
            default:
                throw UsageError(message: tr("unknown option {option}").replacing("{option}", with: name))
            }
            if inline != nil,
                [
                    "--list", "--json", "--csv", "--sidecar", "--in-place", "--write-back", "--check", "--subfolders",
                    "--help",
                    "--version", "--", "--set-credits", "--credits", "--replace-own", "--keep-own", "--iim",
                    "--no-iim", "--pads", "--no-pad",
                ]
                .contains(
                    name)
            {
                throw UsageError(message: tr("option {option} takes no value").replacing("{option}", with: name))
            }
            index += 1
        }

        if help { return .help }
        if version { return .version }
        if let pad, let reason = StationeryPads.isAcceptable(pad) {
            throw UsageError(message: "--pad: " + reason)
        }
        let padModes = [listPads, addPad != nil].filter { $0 }.count + usePadCount
        if padModes > 0 {
            let others =
                !photos.isEmpty || library != nil || watch != nil || subfolders || !words.isEmpty || !credits.isEmpty
                || replaceOwn != nil || addsIIM != nil
                || [
                    add != nil, list, remove != nil, export != nil, writeBack, check, sidecar, inPlace, json, csv,
                    importSheet != nil, !ids.isEmpty, setCredits, showCredits,
                ]
                .contains(true)
            if padModes > 1 || others {
                throw UsageError(
                    message: tr("--pads, --use-pad, --no-pad and --add-pad go alone (--add-pad with --pad)"))
            }
            if pad != nil && addPad == nil {
                throw UsageError(
                    message: tr("--pad goes with --add, --import, --check, --set-credits, --credits or --add-pad"))
            }
            if let addPad {
                guard !addPad.isEmpty else { throw UsageError(message: tr("--add-pad needs an XMP file")) }
                return .pads(.add(file: addPad, name: pad))
            }
            if let usePad {
                if let name = usePad, let reason = StationeryPads.isAcceptable(name) {
                    throw UsageError(message: "--use-pad: " + reason)
                }
                return .pads(.use(usePad))
            }
            return .pads(.list)
        }
        if !credits.isEmpty || replaceOwn != nil || addsIIM != nil || setCredits || showCredits {
            return try creditsRequest(
                set: setCredits, show: showCredits, credits: credits, replaceOwn: replaceOwn, addsIIM: addsIIM,
                pad: pad,
                others: !photos.isEmpty || library != nil || watch != nil || subfolders || !words.isEmpty
                    || [
                        add != nil, list, remove != nil, export != nil, writeBack, check, sidecar, inPlace, json,
                        csv, importSheet != nil, !ids.isEmpty,
                    ]
                    .contains(true))
        }
        let modes = [add != nil, list, remove != nil, export != nil, writeBack, check, importSheet != nil]
            .filter { $0 }.count
        if modes > 1 {
            throw UsageError(
                message: tr("use only one of --add, --import, --list, --remove, --export, --write-back and --check"))
        }
        if pad != nil && add == nil && importSheet == nil && !check {
            throw UsageError(
                message: tr("--pad goes with --add, --import, --check, --set-credits, --credits or --add-pad"))
        }
        if export == nil && !writeBack && !ids.isEmpty {
            throw UsageError(message: tr("--id goes with --export or --write-back"))
        }
        if export == nil && add == nil && importSheet == nil && !writeBack && sidecar {
            throw UsageError(message: tr("--sidecar goes with --add, --import, --export or --write-back"))
        }
        if add == nil && importSheet == nil && inPlace {
            throw UsageError(message: tr("--in-place goes with --add or --import"))
        }
        if inPlace && sidecar { throw UsageError(message: tr("use either --in-place or --sidecar")) }
        if json && !list { throw UsageError(message: tr("--json goes with --list")) }
        if csv && !list { throw UsageError(message: tr("--csv goes with --list")) }
        if json && csv { throw UsageError(message: tr("use either --json or --csv")) }
        if watch != nil && modes > 0 {
            throw UsageError(
                message: tr(
                    "--watch opens the window: it does not go with --add, --list, --remove, --export or --write-back"))
        }
        if subfolders && watch == nil { throw UsageError(message: tr("--subfolders goes with --watch")) }
        if watch?.isEmpty == true { throw UsageError(message: tr("--watch needs a folder")) }
        if !words.isEmpty && add == nil {
            throw UsageError(message: tr("--title, --subtitle and the other caption fields go with --add"))
        }
        if let add {
            guard photos.isEmpty else {
                throw UsageError(
                    message: tr("--add takes one photo; unexpected {argument}")
                        .replacing("{argument}", with: photos[0]))
            }
            let into: CaptionDestination? = inPlace ? .photo : sidecar ? .sidecar : nil
            return .add(library: library, photo: add, words: words, into: into, pad: pad)
        }
        if list {
            guard photos.isEmpty else {
                throw UsageError(
                    message: tr("--list takes no photo; unexpected {argument}")
                        .replacing("{argument}", with: photos[0]))
            }
            return .list(library: library, format: json ? .json : csv ? .csv : .table)
        }
        if let importSheet {
            guard !importSheet.isEmpty else { throw UsageError(message: tr("--import needs a sheet")) }
            guard photos.isEmpty else {
                throw UsageError(
                    message: tr("--import takes the photos from its sheet; unexpected {argument}")
                        .replacing("{argument}", with: photos[0]))
            }
            return .importSheet(
                library: library, sheet: importSheet, into: inPlace ? .photo : sidecar ? .sidecar : nil, pad: pad)
        }
        if let remove {
            guard let id = Int64(remove), id > 0 else {
                throw UsageError(
                    message: tr("--remove needs an entry number, not “{value}”")
                        .replacing("{value}", with: remove))
            }
            guard photos.isEmpty else {
                throw UsageError(
                    message: tr("--remove takes no photo; unexpected {argument}")
                        .replacing("{argument}", with: photos[0]))
            }
            return .remove(library: library, id: id)
        }
        func entryNumbers() throws(UsageError) -> [Int64] {
            var numbers: [Int64] = []
            for id in ids {
                guard let number = Int64(id), number > 0 else {
                    throw UsageError(
                        message: tr("--id needs an entry number, not “{value}”").replacing("{value}", with: id))
                }
                if !numbers.contains(number) { numbers.append(number) }
            }
            return numbers
        }
        if check { return .check(library: library, photos: photos, pad: pad) }
        if writeBack {
            guard photos.isEmpty else {
                throw UsageError(
                    message: tr("--write-back takes no photo; unexpected {argument}")
                        .replacing("{argument}", with: photos[0]))
            }
            return .writeBack(library: library, ids: try entryNumbers(), into: sidecar ? .sidecar : .photo)
        }
        if let export {
            guard !export.isEmpty else { throw UsageError(message: tr("--export needs a folder")) }
            guard photos.isEmpty else {
                throw UsageError(
                    message: tr("--export takes no photo; unexpected {argument}")
                        .replacing("{argument}", with: photos[0]))
            }
            return .export(library: library, folder: export, ids: try entryNumbers(), into: sidecar ? .sidecar : .photo)
        }
        return .window(library: library, photos: photos, watch: watch, subfolders: subfolders)
    }

    /// `--title`, `--alt-text` and the like: the caption field the option names.
    static func captionField(_ option: String) -> CaptionField? {
        guard option.hasPrefix("--") else { return nil }
        return CaptionField.allCases.first { "--" + $0.optionName == option }
    }

    /// `--creator` and the like: the credit the option names.
    static func creditField(_ option: String) -> CreditField? {
        CreditField(rawValue: String(option.dropFirst(2)).replacing("-", with: "_"))
    }

    private static func creditsRequest(
        set: Bool, show: Bool, credits: [CreditField: String], replaceOwn: Bool?, addsIIM: Bool?, pad: String?,
        others: Bool
    ) throws(UsageError) -> Request {
        if set && show { throw UsageError(message: tr("use either --set-credits or --credits")) }
        if others {
            throw UsageError(message: tr("--set-credits and --credits go with the credits' own options only"))
        }
        if show { return .showCredits(pad: pad) }
        guard set else {
            throw UsageError(message: tr("--creator, --credit-line and the other credits go with --set-credits"))
        }
        if credits.isEmpty && replaceOwn == nil && addsIIM == nil {
            throw UsageError(
                message: tr(
                    "--set-credits needs a credit to set: --creator, --credit-line, --copyright, --source, --city, --country, --country-code, --replace-own, --keep-own, --iim or --no-iim"
                ))
        }
        for field in CreditField.allCases {
            guard let text = credits[field], let name = Variables.unknownNames(in: text).first else { continue }
            throw UsageError(
                message: fill(
                    tr(
                        "Unknown variable {{name}} in --{option}: use {names}"
                    ),
                    ["option": field.rawValue.replacing("_", with: "-"), "names": Variables.typedNames]
                ).replacing("{{name}}", with: "{" + name + "}"))
        }
        return .setCredits(changes: credits, replacesPhotos: replaceOwn, addsIIM: addsIIM, pad: pad)
    }

    /// One message per paragraph or option, each a single-line literal: xgettext reads
    /// Swift with its C parser, which does not understand multi-line literals. A translator
    /// keeps an option's own spelling and re-aligns its description.
    public static var helpText: String {
        [
            tr("Usage:"),
            "  caption " + tr("[--library DIR] [--watch DIR [--subfolders]] [PHOTO...]"),
            "  caption " + tr("[--library DIR] --add PHOTO --title TITLE --subtitle SUBTITLE [--in-place | --sidecar]"),
            "  caption " + tr("[--library DIR] --import SHEET.csv [--in-place | --sidecar]"),
            "  caption " + tr("[--library DIR] --list [--json | --csv]"),
            "  caption " + tr("[--library DIR] --remove ID"),
            "  caption " + tr("[--library DIR] --export DIR [--id ID]... [--sidecar]"),
            "  caption " + tr("[--library DIR] --write-back [--sidecar] [--id ID]..."),
            "  caption " + tr("[--library DIR] --check [--pad NAME] [PHOTO...]"),
            "  caption " + tr("--set-credits [--creator NAME] [--credit-line TEXT] [--copyright TEXT] ..."),
            "  caption " + tr("--credits [--pad NAME]"),
            "  caption " + tr("--pads | --use-pad NAME | --no-pad | --add-pad FILE.xmp [--pad NAME]"),
            "  caption --help | --version",
            "",
            tr("Give photos a title and a subtitle from the keyboard."),
            "",
            tr(
                "With none of --add, --import, --list, --remove, --export, --write-back, --check\nor the credits' and pads' commands, opens the window with the photos given, one\nafter another."
            ),
            "",
            tr("Options:"),
            tr(
                "  --library DIR     the library to use (default: $XDG_DATA_HOME/caption,\n                    that is ~/.local/share/caption), or a photo desk's library\n                    on a PostgreSQL server: postgresql://HOST/DATABASE or\n                    service=NAME (passwords from ~/.pgpass, never here)"
            ),
            tr(
                "  --add PHOTO       save PHOTO with --title and --subtitle, without a window;\n                    either left out is taken from its sidecar or its metadata"
            ),
            tr(
                "  --in-place        with --add or --import: also write the caption into the\n                    photo itself (a format that cannot hold it gets\n                    PHOTO.EXT.xmp beside it)"
            ),
            tr(
                "  --import SHEET    save the photos a caption sheet names, as --add does, in one\n                    go: a CSV with exiftool's -csv columns (SourceFile, Title or\n                    ObjectName, Description or Caption-Abstract, Headline,\n                    Keywords and the other fields, and the credits);\n                    an empty cell is taken from the photo; with --in-place or\n                    --sidecar, written as --add writes; a row that cannot be\n                    saved is said with its line, and the others go on"
            ),
            tr(
                "  --watch DIR       with the window: photos that appear in DIR join the queue,\n                    each once, when complete; remembered until stopped from the\n                    main menu"
            ),
            tr("  --subfolders      with --watch: also photos that appear in DIR's subfolders"),
            tr("  --title TITLE     the title, at most 120 characters"),
            tr("  --subtitle TEXT   the subtitle, at most 240 characters"),
            tr(
                "  --headline TEXT   with --add, the fields agencies read, each optional: also\n                    --keywords \"A, B\", --alt-text, --extended-description, --event,\n                    --special-instructions, --job-id, --sublocation and --state;\n                    one not given leaves what the photo says there"
            ),
            tr("  --list            print the saved entries, newest first"),
            tr("  --json            with --list: print them as JSON"),
            tr(
                "  --csv             with --list: print them as a caption sheet, the columns\n                    --import and exiftool -csv= read"
            ),
            tr("  --remove ID       remove the entry numbered ID"),
            tr(
                "  --export DIR      write each entry's photo into DIR (created if needed), its\n                    caption embedded as XMP (and, in JPEG, Exif), named after\n                    its title; nothing in DIR is replaced"
            ),
            tr(
                "  --write-back      write saved captions into the photo files they came from;\n                    a photo gone or changed since is skipped, one line each"
            ),
            tr(
                "  --id ID           with --export or --write-back: only the entry numbered ID;\n                    repeat for more"
            ),
            tr(
                "  --sidecar         with --export: the photos untouched, each caption in\n                    NAME.jpg.xmp beside NAME.jpg; with --add or --write-back: the\n                    caption into PHOTO.EXT.xmp beside the photo, which stays as it is"
            ),
            tr(
                "  --set-credits     set the standing credits written with every caption from now\n                    on, with --creator, --credit-line, --copyright, --source,\n                    --city, --country and --country-code (an empty one clears it;\n                    variables such as {year} work); credits not given stay"
            ),
            tr(
                "  --replace-own     with --set-credits: the credits replace those a photo\n                    already carries; --keep-own (the default) keeps the photo's"
            ),
            tr(
                "  --no-iim          with --set-credits: IPTC-IIM only where a photo has it;\n                    --iim (the default) adds it to JPEG and TIFF photos without it,\n                    for systems that read nothing else"
            ),
            tr("  --credits         print the standing credits"),
            tr(
                "  --pad NAME        with --add or --import: the stationery pad NAME's credits\n                    rather than the standing ones; with --set-credits or\n                    --credits: set or print that pad's (a new name makes a pad)"
            ),
            tr("  --pads            list the stationery pads, the one in use marked"),
            tr(
                "  --use-pad NAME    write the stationery pad NAME's credits with every caption\n                    from now on, in the window too; --no-pad: the standing ones"
            ),
            tr(
                "  --add-pad FILE    make an XMP file (a Photo Mechanic metadata template) a\n                    stationery pad, named after the file or --pad"
            ),
            tr(
                "  --check [PHOTO...] check the captions of the library, the photos' own, or a\n                    caption sheet's rows (SHEET.csv), for\n                    placeholders, codes and variables left in, words typed twice,\n                    brackets not closed and names spelt otherwise than the code\n                    replacements spell them: one line each, exit status 1 if any;\n                    with --pad NAME, that stationery pad's own checks apply"
            ),
            tr("  -h, --help        show this help"),
            tr("  --version         show the version"),
            "",
            tr(
                "Exit status: 0 on success, 1 when a photo, a caption or the library is at\nfault, 2 when the command line is wrong."
            ),
            tr("An export stopped by Ctrl+C exits with 130; the photos it reported are whole."),
        ].joined(separator: "\n")
    }
}
