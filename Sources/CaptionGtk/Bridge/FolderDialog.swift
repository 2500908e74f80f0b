// GTK's own dialog for choosing a folder (not the portal's: the export needs its location
// field, which the portal's chooser does not give to the program).

import CGtk
import POSIXFiles

@MainActor
struct FolderDialog {
    let window: Window
    private var chooser: OpaquePointer {
        caption_file_chooser(UnsafeMutableRawPointer(window.pointer))
    }

    /// A modal dialog over `parent`, closed with it, opened in `folder`, where folders can
    /// be made; Enter answers Accept.
    init(over parent: Window, title: String, accept: String, cancel: String, startingIn folder: String) {
        // A new dialog is never NULL; GTK aborts when it cannot allocate one.
        window = Window(unchecked: caption_folder_chooser_new(parent.gtkWindow, title, accept, cancel)!)
        gtk_dialog_set_default_response(
            caption_dialog(UnsafeMutableRawPointer(window.pointer)), GTK_RESPONSE_ACCEPT.rawValue)
        gtk_window_set_modal(window.gtkWindow, 1)
        gtk_window_set_destroy_with_parent(window.gtkWindow, 1)
        gtk_file_chooser_set_create_folders(chooser, 1)
        gtk_file_chooser_set_current_folder(chooser, folder.pathBytes)
    }

    /// A check box under the folders (GTK's "choice"), off at first.
    func addOption(id: String, label: String) {
        gtk_file_chooser_add_choice(chooser, id, label, nil, nil)
        gtk_file_chooser_set_choice(chooser, id, "false")
    }

    /// Whether the check box `id` is ticked.
    func option(_ id: String) -> Bool {
        gtk_file_chooser_get_choice(chooser, id).map { String(cString: $0) == "true" } ?? false
    }

    /// The folder it shows now.
    var currentFolder: String? { takeString(gtk_file_chooser_get_current_folder(chooser)) }

    /// The folder chosen, once the dialog is answered with Accept.
    var chosen: String? { takeString(gtk_file_chooser_get_filename(chooser)) }

    /// The location field, when it has the focus (a path being typed).
    var focusedLocationField: TextEntry? {
        guard let focus = window.focus, caption_is_location_entry(UnsafeMutableRawPointer(focus.pointer)) != 0
        else { return nil }
        return TextEntry(unchecked: focus.pointer)
    }
}
