// Where the code replacements live: $XDG_CONFIG_HOME/caption/replacements.tsv (ReplacementFile
// says its format), read at start and written, atomically, whenever the Preferences window
// changes it. Photo Mechanic's files are read from wherever the user keeps them.

import CGtk
import Localization
import Shorthand

@MainActor
enum ReplacementStore {
    /// $XDG_CONFIG_HOME/caption/replacements.tsv.
    static var defaultPath: String {
        String(cString: g_get_user_config_dir()) + "/caption/replacements.tsv"
    }

    /// The table in the file; an empty one when there is no file yet or it cannot be read
    /// (codes are a convenience: their absence must never stop captioning).
    static func load(_ path: String = defaultPath) -> ReplacementTable {
        read(path).map { ReplacementFile.read($0).table } ?? ReplacementTable()
    }

    /// Writes the table; returns what went wrong, for the Preferences window to say.
    @discardableResult
    static func save(_ table: ReplacementTable, to path: String = defaultPath) -> String? {
        if let slash = path.lastIndex(of: "/") { g_mkdir_with_parents(String(path[..<slash]), 0o700) }
        var error: UnsafeMutablePointer<GError>?
        let text = ReplacementFile.write(table)
        // g_file_set_contents writes a temporary file and renames it over the old one.
        guard g_file_set_contents(path, text, gssize(text.utf8.count), &error) == 0 else { return nil }
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? tr("The code replacements could not be saved")
    }

    /// A Photo Mechanic code-replacement file, or what went wrong reading it.
    static func importPhotoMechanic(_ path: String) -> Result<ReplacementFile.Reading, ImportProblem> {
        guard let contents = read(path) else { return .failure(ImportProblem(message: tr("The file cannot be read"))) }
        let reading = ReplacementFile.importPhotoMechanic(contents)
        guard !reading.table.isEmpty else {
            return .failure(
                ImportProblem(message: tr("The file holds no codes: each line needs a code, a tab and its text")))
        }
        return .success(reading)
    }

    struct ImportProblem: Error {
        let message: String
    }

    /// A text file's contents; nil when it is missing, unreadable or not UTF-8.
    private static func read(_ path: String) -> String? {
        var contents: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else { return nil }
        defer { g_free(contents) }
        let bytes = UnsafeRawBufferPointer(start: contents, count: Int(length))
        guard g_utf8_validate(contents, gssize(length), nil) != 0 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
