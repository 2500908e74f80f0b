// The chooser of the folder to export into: it opens in a folder, never on Recent, and a
// path typed into its location field is chosen by Enter, as a keyboard user expects.

import CGtk
import Localization
import POSIXFiles

@MainActor
enum FolderChooser {
    /// Shows the chooser over `window`, opened in `folder`; `chosen` gets the folder chosen,
    /// and is not called when the user cancels.
    static func present(
        over window: Window, title: String, accept: String, startingIn folder: String,
        chosen: @escaping @MainActor (String) -> Void
    ) {
        present(over: window, title: title, accept: accept, startingIn: folder, option: nil) { folder, _ in
            chosen(folder)
        }
    }

    /// The same with a check box under the folders (`option`'s label): `chosen` also gets
    /// whether it was ticked.
    static func present(
        over window: Window, title: String, accept: String, startingIn folder: String, option: String?,
        chosen: @escaping @MainActor (String, Bool) -> Void
    ) {
        let dialog = FolderDialog(
            over: window, title: title, accept: accept, cancel: tr("_Cancel"), startingIn: folder)
        if let option { dialog.addOption(id: "option", label: option) }
        var answered = false
        func finish(_ folder: String?) {
            guard !answered else { return }
            answered = true
            let ticked = option != nil && dialog.option("option")
            dialog.window.destroy()
            if let folder { chosen(folder, ticked) }
        }
        // In GTK's own handling, Enter on a folder typed into the location field only opens
        // that folder, and a second Enter is needed to choose it.
        dialog.window.connect(.keyPress, after: false) { event in
            guard event.isEnter, !event.has(GDK_CONTROL_MASK), let field = dialog.focusedLocationField,
                let current = dialog.currentFolder, let folder = typedFolder(field.text, in: current),
                isFolder(folder)
            else { return false }
            finish(folder)
            return true
        }
        dialog.window.connect(.response) { response in
            guard response == GTK_RESPONSE_ACCEPT.rawValue else { return finish(nil) }
            finish(dialog.chosen)
        }
        dialog.window.show()
    }

    /// The folder a path typed into the location field names: absolute, from the home
    /// folder (`~/`), or relative to the folder the chooser shows. Nil when nothing is typed.
    static func typedFolder(_ typed: String, in current: String, home: String = home) -> String? {
        guard !typed.isEmpty else { return nil }
        let path: String
        if typed.hasPrefix("/") {
            path = typed
        } else if typed == "~" || typed.hasPrefix("~/") {
            path = home + typed.dropFirst()
        } else {
            path = (current.hasSuffix("/") ? current : current + "/") + typed
        }
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    private static var home: String { UserFiles.home }

    private static func isFolder(_ path: String) -> Bool { UserFiles.isFolder(path) }

    /// Where the chooser opens: the last folder exported into while it is still there, else
    /// the user's Pictures folder, else home.
    static func startingFolder(last: String?, pictures: String?, home: String, isFolder: (String) -> Bool) -> String {
        [last, pictures].compactMap { $0 }.first(where: isFolder) ?? home
    }

    static func startingFolder(last: String?) -> String {
        startingFolder(
            last: last, pictures: UserFiles.picturesFolder,
            home: home, isFolder: isFolder)
    }
}
