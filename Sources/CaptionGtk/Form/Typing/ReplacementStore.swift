// Where the code replacements live: $XDG_CONFIG_HOME/caption/replacements.tsv (ReplacementFile
// says its format), read at start and written, atomically, whenever the Preferences window
// changes it. Photo Mechanic's files are read from wherever the user keeps them.

import CaptionLibrary
import Localization
import Shorthand

@MainActor
enum ReplacementStore {
    /// $XDG_CONFIG_HOME/caption/replacements.tsv.
    static var defaultPath: String {
        UserFiles.configFolder + "/caption/" + ReplacementFile.fileName
    }

    /// The table in the file; an empty one when there is no file yet or it cannot be read
    /// (codes are a convenience: their absence must never stop captioning). Lines that
    /// are not rows (not UTF-8, no tab) are passed over, and kept in the file.
    static func load(_ path: String = defaultPath) -> ReplacementTable {
        reading(path).table
    }

    /// What the file holds, and the lines that are not rows, to be named.
    static func reading(_ path: String = defaultPath) -> ReplacementFile.Reading {
        ReplacementDocument(bytes: UserFiles.contents(of: path) ?? []).reading
    }

    /// Writes the table into the file as it is now on disk, changing only the rows that
    /// changed (comments and lines Caption could not read stay as they were); returns
    /// what went wrong, for the Preferences window to say.
    @discardableResult
    static func save(_ table: ReplacementTable, to path: String = defaultPath) -> String? {
        if let slash = path.lastIndex(of: "/") { UserFiles.makeFolder(String(path[..<slash])) }
        let contents = ReplacementDocument(bytes: UserFiles.contents(of: path) ?? []).updated(to: table)
        guard let reason = UserFiles.replace(path, with: contents) else { return nil }
        return reason.isEmpty ? tr("The code replacements could not be saved") : reason
    }

    /// A Photo Mechanic code-replacement file, or what went wrong reading it. Photo
    /// Mechanic on Windows writes these in UTF-16 or in the system's code page, so a file
    /// that is not UTF-8 is read as UTF-16 (by its byte-order mark) or Windows-1252.
    static func importPhotoMechanic(_ path: String) -> Result<ReplacementFile.Reading, ImportProblem> {
        guard let contents = UserFiles.contents(of: path).map(LegacyText.decode) else {
            return .failure(ImportProblem(message: tr("The file cannot be read")))
        }
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

}
