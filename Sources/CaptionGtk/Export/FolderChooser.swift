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
        // A new dialog is never NULL; GTK aborts when it cannot allocate one.
        let dialog = caption_folder_chooser_new(window.gtkWindow, title, accept, tr("_Cancel"))!
        let chooser = caption_file_chooser(UnsafeMutableRawPointer(dialog))
        gtk_dialog_set_default_response(caption_dialog(UnsafeMutableRawPointer(dialog)), GTK_RESPONSE_ACCEPT.rawValue)
        gtk_window_set_modal(caption_window(UnsafeMutableRawPointer(dialog)), 1)
        gtk_window_set_destroy_with_parent(caption_window(UnsafeMutableRawPointer(dialog)), 1)
        gtk_file_chooser_set_create_folders(chooser, 1)
        gtk_file_chooser_set_current_folder(chooser, folder.pathBytes)
        var answered = false
        func finish(_ folder: String?) {
            guard !answered else { return }
            answered = true
            gtk_widget_destroy(dialog)
            if let folder { chosen(folder) }
        }
        // In GTK's own handling, Enter on a folder typed into the location field only opens
        // that folder, and a second Enter is needed to choose it.
        dialog.connect(.keyPress, after: false) { event in
            guard Keys.isEnter(event), !Keys.has(event, GDK_CONTROL_MASK),
                let focus = gtk_window_get_focus(caption_window(UnsafeMutableRawPointer(dialog))),
                caption_is_location_entry(UnsafeMutableRawPointer(focus)) != 0
            else { return false }
            let typed = takeString(gtk_file_chooser_get_current_folder(chooser)).map {
                typedFolder(TextEntry(unchecked: focus).text, in: $0)
            }
            guard let typed, let folder = typed, isFolder(folder) else { return false }
            finish(folder)
            return true
        }
        dialog.connect(.response) { response in
            guard response == GTK_RESPONSE_ACCEPT.rawValue else { return finish(nil) }
            finish(takeString(gtk_file_chooser_get_filename(chooser)))
        }
        gtk_widget_show(dialog)
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

    private static var home: String { FilePath.string(fromCString: g_get_home_dir()) }

    private static func isFolder(_ path: String) -> Bool {
        g_file_test(path.pathBytes, G_FILE_TEST_IS_DIR) != 0
    }

    /// Where the chooser opens: the last folder exported into while it is still there, else
    /// the user's Pictures folder, else home.
    static func startingFolder(last: String?, pictures: String?, home: String, isFolder: (String) -> Bool) -> String {
        [last, pictures].compactMap { $0 }.first(where: isFolder) ?? home
    }

    static func startingFolder(last: String?) -> String {
        startingFolder(
            last: last, pictures: g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map(FilePath.string(fromCString:)),
            home: home, isFolder: isFolder)
    }
}
