// The command line (caption(1)), parsed into a request; no I/O here.

import CaptionMetadata
import CaptionText
import Localization
import POSIXFiles
import Shorthand

public let captionVersion = "0.1.0"

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
        var listDestinations = false
        var addDestination: String?
        var removeDestination: String?
        var fingerprint: String?
        var send: String?
        var given: Set<String> = []
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
            case "--destinations": listDestinations = true
            case "--add-destination": addDestination = try take()
            case "--remove-destination": removeDestination = try take()
            case "--fingerprint": fingerprint = try take()
            case "--send": send = try take()
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
                    "--no-iim", "--pads", "--no-pad", "--destinations",
                ]
                .contains(
                    name)
            {
                throw UsageError(message: tr("option {option} takes no value").replacing("{option}", with: name))
            }
            given.insert(name)
            index += 1
        }

        if help { return .help }
        if version { return .version }
        // --send with --import sends what the sheet saved: the import's request says so.
        let sendsImport = send != nil && importSheet != nil
        if let request = try destinationRequest(
            list: listDestinations, add: addDestination, remove: removeDestination, fingerprint: fingerprint,
            send: sendsImport ? nil : send, library: library, ids: ids, photos: photos, given: given)
        {
            return request
        }
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
                library: library, sheet: importSheet, into: inPlace ? .photo : sidecar ? .sidecar : nil, pad: pad,
                send: send)
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
        func entryNumbers() throws(UsageError) -> [Int64] { try Arguments.entryNumbers(ids) }
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

    /// `--destinations`, `--add-destination`, `--remove-destination` and `--send`, each
    /// with only its own options; nil when none is asked for.
    private static func destinationRequest(
        list: Bool, add: String?, remove: String?, fingerprint: String?, send: String?, library: String?,
        ids: [String], photos: [String], given: Set<String>
    ) throws(UsageError) -> Request? {
        let modes = [list, add != nil, remove != nil, send != nil].filter { $0 }.count
        guard modes > 0 else {
            if fingerprint != nil { throw UsageError(message: tr("--fingerprint goes with --add-destination")) }
            return nil
        }
        let own: Set<String> =
            add != nil
            ? ["--add-destination", "--fingerprint"]
            : send != nil ? ["--send", "--id", "--library", "-l"] : ["--destinations", "--remove-destination"]
        let photosAllowed = add != nil ? 1 : 0
        if modes > 1 || !given.isSubset(of: own) || photos.count > photosAllowed {
            throw UsageError(
                message: tr(
                    "--destinations, --add-destination NAME ADDRESS [--fingerprint KEY], --remove-destination NAME and --send NAME [--library DIR] --id ID... go alone"
                ))
        }
        if list { return .destinations(.list) }
        if let remove { return .destinations(.remove(remove)) }
        if let add {
            guard let address = photos.first, !address.isEmpty else {
                throw UsageError(
                    message: tr("--add-destination needs a name and an address, such as sftp://USER@HOST/FOLDER/"))
            }
            return .destinations(.add(name: add, address: address, fingerprint: fingerprint))
        }
        // Only --send is left.
        let destination = send ?? ""
        guard !ids.isEmpty else { throw UsageError(message: tr("--send needs the entries to send: --id ID...")) }
        return .send(library: library, destination: destination, ids: try entryNumbers(ids))
    }

    /// `--id`'s values as entry numbers, each once, in the order given.
    private static func entryNumbers(_ ids: [String]) throws(UsageError) -> [Int64] {
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
}
