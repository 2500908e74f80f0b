// Where the standing credits live: $XDG_CONFIG_HOME/caption/credits.ini, a GLib key file
// that Preferences and `caption --set-credits` both write, as the user typed them
// (variables unexpanded), and the window reads at start.

import CPixbuf
import CaptionChecks
import CaptionText
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

public enum CreditsFile {
    static let group = "credits"
    static let replaceKey = "replace_photos_own"
    /// The stationery pad in use, by name; none: the file's own credits.
    static let padKey = "pad"

    /// `$XDG_CONFIG_HOME/caption/credits.ini` (GLib's user configuration folder).
    public static var defaultPath: String { settingsFolder + "/credits.ini" }

    /// `$XDG_CONFIG_HOME/caption`: the credits, the code replacements and the window's
    /// other settings.
    public static var settingsFolder: String {
        // GLib owns the string it returns.
        let folder = g_get_user_config_dir().map { String(cString: $0) } ?? LibraryLocation.homeDirectory() + "/.config"
        return folder + "/caption"
    }

    /// What the file says, and why it could not be read when it could not.
    public struct Reading: Sendable, Equatable {
        public var credits: Credits
        /// Said where the credits are shown: the credits are not written until it is fixed
        /// or they are set again.
        public var problem: String?
        /// The stationery pad in use, whose credits these are; nil: the file's own.
        public var pad: String?

        public init(credits: Credits, problem: String? = nil, pad: String? = nil) {
            self.credits = credits
            self.problem = problem
            self.pad = pad
        }
    }

    /// The credits in the file: none when there is no file; none and a problem when it is
    /// not a key file (it is left as it is, for the user to look at).
    public static func read(_ path: String = defaultPath) -> Reading {
        func problem(_ reason: String) -> Reading {
            Reading(
                credits: .none,
                problem: fill(
                    tr("The standing credits cannot be read ({reason}), so none are written: {path}"),
                    ["reason": reason, "path": path]))
        }
        let bytes: [UInt8]
        switch SettingsFile.read(path) {
        case .missing: return Reading(credits: .none)
        case .notRegular: return problem(tr("not a regular file"))
        case .failed(let code): return problem(POSIXFiles.reason(code))
        case .contents(let contents): bytes = contents
        }
        // Whatever the file is (a link to another file, say), none of it is shown.
        guard let file = KeyFile(bytes: Self.unicode(bytes)) else {
            return problem(tr("it is not a key file"))
        }
        var credits = Credits()
        for field in CreditField.allCases {
            guard let value = file.string(group: group, key: field.rawValue) else { continue }
            credits[field] = value
        }
        credits.replacesPhotos = file.boolean(group: group, key: replaceKey) ?? false
        let pad = file.string(group: group, key: padKey)
        return Reading(credits: credits, pad: pad?.isEmpty == false ? pad : nil)
    }

    /// Writes `credits` (atomically: GLib writes a copy and renames it), keeping anything
    /// else the file holds; nil when done, else what went wrong, to be said.
    public static func save(_ credits: Credits, to path: String = defaultPath) -> String? {
        update(path) { file in
            for field in CreditField.allCases {
                if credits.setFields.contains(field) {
                    file.set(credits[field], group: group, key: field.rawValue)
                } else {
                    file.removeKey(group: group, key: field.rawValue)
                }
            }
            file.set(credits.replacesPhotos, group: group, key: replaceKey)
        }
    }

    /// Makes the stationery pad `name` the one in use (nil: none, the file's own credits),
    /// keeping everything else; nil when done, else what went wrong, to be said.
    public static func usePad(_ name: String?, in path: String = defaultPath) -> String? {
        update(path) { file in
            if let name {
                file.set(name, group: group, key: padKey)
            } else {
                file.removeKey(group: group, key: padKey)
            }
        }
    }

    /// Writes only whether the credits replace a photo's own, which holds for every pad.
    public static func save(replacesPhotos: Bool, to path: String = defaultPath) -> String? {
        update(path) { file in file.set(replacesPhotos, group: group, key: replaceKey) }
    }

    static let writingGroup = "writing"
    static let iimKey = "iim_for_older_systems"
    static let placeKey = "place_from_gps"

    /// The choices about writing the file holds; each one missing, or a file that cannot
    /// be read, gives its default (the credits' reading says what is wrong with the file);
    /// one there that is not a boolean is off.
    public static func writingChoices(_ path: String = defaultPath) -> WritingChoices {
        let defaults = WritingChoices()
        guard case .contents(let bytes) = SettingsFile.read(path), let file = KeyFile(bytes: Self.unicode(bytes))
        else { return defaults }
        func choice(_ key: String, _ byDefault: Bool) -> Bool {
            file.hasKey(group: writingGroup, key: key)
                ? file.boolean(group: writingGroup, key: key) ?? false : byDefault
        }
        return WritingChoices(
            addsIIM: choice(iimKey, defaults.addsIIM), placeFromGPS: choice(placeKey, defaults.placeFromGPS))
    }

    /// Writes the choices into the same file, keeping everything else; nil when done, else
    /// what went wrong, to be said.
    public static func save(_ choices: WritingChoices, to path: String = defaultPath) -> String? {
        update(path) { file in
            file.set(choices.addsIIM, group: writingGroup, key: iimKey)
            file.set(choices.placeFromGPS, group: writingGroup, key: placeKey)
        }
    }

    static let checksGroup = "checks"
    static let patternKey = "dateline_pattern"

    /// The checks at Done and in `--check`, each `true` or `false` under [checks], with the
    /// desk's `dateline_pattern`; one missing has its default, and so have all where the file
    /// cannot be read.
    public static func checkChoices(_ path: String = defaultPath) -> CheckChoices {
        guard case .contents(let bytes) = SettingsFile.read(path) else { return CheckChoices() }
        guard let file = KeyFile(bytes: Self.unicode(bytes)) else { return CheckChoices() }
        var choices = CheckChoices()
        for check in CaptionCheck.allCases {
            // A value that is not a boolean leaves the check on.
            if let on = file.boolean(group: checksGroup, key: check.rawValue) { choices[check] = on }
        }
        choices.datelinePattern = file.string(group: checksGroup, key: patternKey) ?? ""
        return choices
    }

    /// Writes the checks' switches into the same file, keeping everything else; nil when
    /// done, else what went wrong, to be said.
    public static func save(_ choices: CheckChoices, to path: String = defaultPath) -> String? {
        update(path) { file in
            for check in CaptionCheck.allCases {
                file.set(choices.allows(check), group: checksGroup, key: check.rawValue)
            }
            if choices.datelinePattern.isEmpty {
                file.removeKey(group: checksGroup, key: patternKey)
            } else {
                file.set(choices.datelinePattern, group: checksGroup, key: patternKey)
            }
        }
    }

    static let formGroup = "form"
    static let shownKey = "fields"
    static let orderKey = "order"

    /// The form's optional fields under [form]: `fields`, those shown, and `order`, as the
    /// user arranged the list, each a `;`-separated list of field names (`headline;event`).
    /// A name Caption does not know is passed over; a file that cannot be read shows none.
    public static func formChoices(_ path: String = defaultPath) -> FormChoices {
        guard case .contents(let bytes) = SettingsFile.read(path), let file = KeyFile(bytes: Self.unicode(bytes))
        else { return FormChoices() }
        func fields(_ key: String) -> [CaptionField] {
            (file.string(group: formGroup, key: key) ?? "").split(separator: ";").compactMap {
                CaptionField(rawValue: String($0.filter { !$0.isWhitespace }))
            }
        }
        let shown = fields(shownKey)
        // The shown ones keep their order where no order was written.
        return FormChoices(order: fields(orderKey) + shown, on: Set(shown))
    }

    /// Writes the form's choices into the same file, keeping everything else; nil when done,
    /// else what went wrong, to be said.
    public static func save(_ choices: FormChoices, to path: String = defaultPath) -> String? {
        update(path) { file in
            file.set(choices.shown.map(\.rawValue).joined(separator: ";"), group: formGroup, key: shownKey)
            file.set(choices.order.map(\.rawValue).joined(separator: ";"), group: formGroup, key: orderKey)
        }
    }

    /// The file read (or a new one, when it is missing or does not parse: the user asked for
    /// what is saved), changed by `change`, and written atomically.
    private static func update(_ path: String, _ change: (KeyFile) -> Void) -> String? {
        KeyFile.update(path, reading: unicode, change).map { failure($0, path) }
    }

    /// The file in UTF-8, each line that is not read as Windows-1252 (an older editor's
    /// `©`): GLib would give no value for such a line, and the next save would drop the
    /// credit. It is written back in UTF-8.
    static func unicode(_ bytes: [UInt8]) -> [UInt8] {
        guard String(validating: bytes, as: UTF8.self) == nil else { return bytes }
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(validating: line, as: UTF8.self) ?? LegacyText.windows1252(Array(line))
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    private static func failure(_ reason: String, _ path: String) -> String {
        fill(tr("The standing credits could not be saved ({reason}): {path}"), ["reason": reason, "path": path])
    }
}

/// Each credit's name as Preferences, the form and the command line show it.
public enum CreditNames {
    /// What the credits do to a photo's own, as the form and `--credits` say it.
    public static func rule(replacesPhotos: Bool) -> String {
        replacesPhotos
            ? tr("They replace the credits a photo already carries.")
            : tr("A photo's own credits are kept; these fill the ones it lacks.")
    }

    /// Where IPTC-IIM goes, as Preferences and `--credits` say it.
    public static func iimRule(addsIIM: Bool) -> String {
        addsIIM
            ? tr("IPTC-IIM is added to JPEG and TIFF photos that have none.")
            : tr("IPTC-IIM is written only where a photo already has it.")
    }

    /// Whether the GPS place fills an unset City and Country, as Preferences and `--credits`
    /// say it.
    public static func placeRule(placeFromGPS: Bool) -> String {
        placeFromGPS
            ? tr("An unset City, Country and country code are the place of the photo's GPS position.")
            : tr("City, Country and country code are written only as set here.")
    }

    public static func name(_ field: CreditField) -> String {
        switch field {
        case .creator: tr("Creator")
        case .creditLine: tr("Credit line")
        case .copyright: tr("Copyright notice")
        case .source: tr("Source")
        case .city: tr("City")
        case .country: tr("Country")
        case .countryCode: tr("Country code")
        }
    }
}
