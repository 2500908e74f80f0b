// The window's size and maximised state, where captions go and the last export folder, remembered between runs in
// the user's config folder (a key file: no GSettings schema to install, nothing to go missing).

import CaptionLibrary
import CaptionMetadata
import POSIXFiles

struct WindowGeometry: Equatable {
    static let standard = WindowGeometry(width: 720, height: 640, maximized: false)
    var width: Int
    var height: Int
    var maximized: Bool
}

enum WindowStateFile {
    static let group = "window"

    /// $XDG_CONFIG_HOME/caption/window.ini.
    static var defaultPath: String {
        UserFiles.configFolder + "/caption/window.ini"
    }

    /// What was saved, or nil when nothing sensible was (first run, a damaged file).
    static func load(_ path: String) -> WindowGeometry? {
        guard let file = KeyFile.load(path), let width = file.integer(group: group, key: "width"),
            let height = file.integer(group: group, key: "height"),
            let maximized = file.boolean(group: group, key: "maximized")
        else { return nil }
        // A size from a larger screen, or a hand-edited file, must not make an unusable window.
        guard (360...16384).contains(width), (360...16384).contains(height) else { return nil }
        return WindowGeometry(width: width, height: height, maximized: maximized)
    }

    /// Writes atomically; a failure (read-only home) only costs the remembered size.
    static func save(_ geometry: WindowGeometry, to path: String) {
        KeyFile.update(path) { file in
            file.set(geometry.width, group: group, key: "width")
            file.set(geometry.height, group: group, key: "height")
            file.set(geometry.maximized, group: group, key: "maximized")
        }
    }

    static let captionsGroup = "captions"

    /// The primary menu's choice of where captions go: `.some(nil)` for the library only;
    /// nil when none was made (or the file holds something this version does not know).
    static func loadDestination(_ path: String) -> CaptionDestination?? {
        switch string(path, group: captionsGroup, key: "destination") {
        case DestinationChoice.libraryOnly: .some(nil)
        case let word?: CaptionDestination(rawValue: word).map(Optional.some)
        case nil: nil
        }
    }

    static func saveDestination(_ destination: CaptionDestination?, to path: String) {
        KeyFile.update(path) { file in
            file.set(DestinationChoice.word(destination), group: captionsGroup, key: "destination")
        }
    }

    static let sendingGroup = "sending"

    /// The destination each saved photo is sent to (the primary menu's choice); nil: none.
    static func sendDestination(_ path: String) -> String? {
        string(path, group: sendingGroup, key: "destination").flatMap { $0.isEmpty ? nil : $0 }
    }

    static func saveSendDestination(_ name: String?, to path: String) {
        KeyFile.update(path) { file in file.set(name ?? "", group: sendingGroup, key: "destination") }
    }

    static let formGroup = "form"

    /// Whether spell-checking is on: true unless it was turned off.
    static func spellCheck(_ path: String) -> Bool {
        KeyFile.load(path)?.boolean(group: formGroup, key: "spell-check") ?? true
    }

    /// Remembers the spell-checking switch at once.
    static func saveSpellCheck(_ on: Bool, to path: String) {
        KeyFile.update(path) { file in file.set(on, group: formGroup, key: "spell-check") }
    }

    static let exportGroup = "export"

    /// The folder last exported into, or nil. Kept as a file URI, so that a folder whose
    /// name is not UTF-8 is remembered by its own bytes.
    static func exportFolder(_ path: String) -> String? {
        string(path, group: exportGroup, key: "folder").flatMap(FileURI.localPath)
    }

    static func saveExportFolder(_ folder: String, to path: String) {
        guard let uri = FileURI.uri(of: folder) else { return }
        KeyFile.update(path) { file in file.set(uri, group: exportGroup, key: "folder") }
    }

    static let watchGroup = "watch"

    /// The folder being watched when Caption last ran, and the moment it last watched it
    /// (seconds since 1970): photos that arrived after that are new. Nil when none is.
    static func watch(_ path: String) -> (setting: WatchSetting, since: Int)? {
        guard let file = KeyFile.load(path),
            let folder = file.string(group: watchGroup, key: "folder").flatMap(FileURI.localPath)
        else { return nil }
        let subfolders = file.boolean(group: watchGroup, key: "subfolders") ?? false
        let since = file.string(group: watchGroup, key: "since").flatMap { Int($0) } ?? 0
        return (WatchSetting(folder: folder, subfolders: subfolders), since)
    }

    /// Remembers the watch (nil: none), kept as a file URI like the export folder.
    static func saveWatch(_ setting: WatchSetting?, since: Int, to path: String) {
        KeyFile.update(path) { file in
            guard let setting, let uri = FileURI.uri(of: setting.folder) else {
                return file.removeGroup(watchGroup)
            }
            file.set(uri, group: watchGroup, key: "folder")
            file.set(setting.subfolders, group: watchGroup, key: "subfolders")
            file.set(String(since), group: watchGroup, key: "since")
        }
    }

    /// One string of the file, or nil when the file or the key is not there.
    private static func string(_ path: String, group: String, key: String) -> String? {
        KeyFile.load(path)?.string(group: group, key: key)
    }
}
