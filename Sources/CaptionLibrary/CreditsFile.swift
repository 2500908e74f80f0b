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
        // A key file only fails to be made when memory does.
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        // GLib's own reason quotes the line it stopped at: whatever the file is (a link to
        // another file, say), none of it is shown.
        guard SettingsFile.parseKeyFile(Self.unicode(bytes), into: file, keepingComments: false) else {
            return problem(tr("it is not a key file"))
        }
        var credits = Credits()
        for field in CreditField.allCases {
            guard let value = g_key_file_get_string(file, group, field.rawValue, nil) else { continue }
            credits[field] = String(cString: value)
            g_free(value)
        }
        credits.replacesPhotos = g_key_file_get_boolean(file, group, replaceKey, nil) != 0
        var pad: String?
        if let value = g_key_file_get_string(file, group, padKey, nil) {
            pad = String(cString: value)
            g_free(value)
        }
        return Reading(credits: credits, pad: pad?.isEmpty == false ? pad : nil)
    }

    /// Writes `credits` (atomically: GLib writes a copy and renames it), keeping anything
    /// else the file holds; nil when done, else what went wrong, to be said.
    public static func save(_ credits: Credits, to path: String = defaultPath) -> String? {
        update(path) { file in
            for field in CreditField.allCases {
                if credits.setFields.contains(field) {
                    g_key_file_set_string(file, group, field.rawValue, credits[field])
                } else {
                    g_key_file_remove_key(file, group, field.rawValue, nil)
                }
            }
            g_key_file_set_boolean(file, group, replaceKey, credits.replacesPhotos ? 1 : 0)
        }
    }

    /// Makes the stationery pad `name` the one in use (nil: none, the file's own credits),
    /// keeping everything else; nil when done, else what went wrong, to be said.
    public static func usePad(_ name: String?, in path: String = defaultPath) -> String? {
        update(path) { file in
            if let name {
                g_key_file_set_string(file, group, padKey, name)
            } else {
                g_key_file_remove_key(file, group, padKey, nil)
            }
        }
    }

    /// Writes only whether the credits replace a photo's own, which holds for every pad.
    public static func save(replacesPhotos: Bool, to path: String = defaultPath) -> String? {
        update(path) { file in g_key_file_set_boolean(file, group, replaceKey, replacesPhotos ? 1 : 0) }
    }

    static let writingGroup = "writing"
    static let iimKey = "iim_for_older_systems"

    /// The choices about writing the file holds; each one missing, or a file that cannot
    /// be read, gives its default (the credits' reading says what is wrong with the file).
    public static func writingChoices(_ path: String = defaultPath) -> WritingChoices {
        guard case .contents(let bytes) = SettingsFile.read(path) else { return WritingChoices() }
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard SettingsFile.parseKeyFile(Self.unicode(bytes), into: file, keepingComments: false),
            g_key_file_has_key(file, writingGroup, iimKey, nil) != 0
        else { return WritingChoices() }
        return WritingChoices(addsIIM: g_key_file_get_boolean(file, writingGroup, iimKey, nil) != 0)
    }

    /// Writes the choices into the same file, keeping everything else; nil when done, else
    /// what went wrong, to be said.
    public static func save(_ choices: WritingChoices, to path: String = defaultPath) -> String? {
        update(path) { file in g_key_file_set_boolean(file, writingGroup, iimKey, choices.addsIIM ? 1 : 0) }
    }

    static let checksGroup = "checks"

    /// The checks at Done and in `--check`, each `true` or `false` under [checks]; one
    /// missing is on, and so are all where the file cannot be read.
    public static func checkChoices(_ path: String = defaultPath) -> CheckChoices {
        guard case .contents(let bytes) = SettingsFile.read(path) else { return CheckChoices() }
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard SettingsFile.parseKeyFile(Self.unicode(bytes), into: file, keepingComments: false) else {
            return CheckChoices()
        }
        var choices = CheckChoices()
        for check in CaptionCheck.allCases where g_key_file_has_key(file, checksGroup, check.rawValue, nil) != 0 {
            var error: UnsafeMutablePointer<GError>?
            let on = g_key_file_get_boolean(file, checksGroup, check.rawValue, &error) != 0
            // A value that is not a boolean leaves the check on.
            if error == nil { choices[check] = on }
            g_clear_error(&error)
        }
        return choices
    }

    /// Writes the checks' switches into the same file, keeping everything else; nil when
    /// done, else what went wrong, to be said.
    public static func save(_ choices: CheckChoices, to path: String = defaultPath) -> String? {
        update(path) { file in
            for check in CaptionCheck.allCases {
                g_key_file_set_boolean(file, checksGroup, check.rawValue, choices.allows(check) ? 1 : 0)
            }
        }
    }

    /// The file read (or a new one, when it is missing or does not parse: the user asked for
    /// what is saved), changed by `change`, and written atomically.
    private static func update(_ path: String, _ change: (OpaquePointer?) -> Void) -> String? {
        if let slash = path.lastIndex(of: "/"), let code = POSIXFiles.makeFolders(String(path[..<slash]), mode: 0o700) {
            return failure(POSIXFiles.reason(code), path)
        }
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        if let bytes = SettingsFile.contents(path) {
            _ = SettingsFile.parseKeyFile(Self.unicode(bytes), into: file, keepingComments: true)
        }
        change(file)
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_save_to_file(file, path, &error) != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? ""
            g_clear_error(&error)
            return failure(reason, path)
        }
        return nil
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

extension SettingsFile {
    /// Parses `bytes` into the GKeyFile `file`; false when they are no key file.
    package static func parseKeyFile(_ bytes: [UInt8], into file: OpaquePointer?, keepingComments: Bool) -> Bool {
        // With a terminating zero, so the buffer is never empty and always has an address.
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                // A non-empty buffer's base address is never nil.
                g_key_file_load_from_data(
                    file, text.baseAddress!, gsize(bytes.count),
                    keepingComments ? G_KEY_FILE_KEEP_COMMENTS : G_KEY_FILE_NONE, nil) != 0
            }
        }
    }
}
