// The desktop's own file chooser (a portal's, under Flatpak or GNOME), shown and answered.

import CGtk
import POSIXFiles

@MainActor
enum NativeChooser {
    /// What the chooser lists: every file, or only those of `mimeTypes` under `name`.
    struct Filter {
        let name: String
        let mimeTypes: [String]
    }

    /// Shows a chooser of files to open over `window` and gives `chosen` the paths picked,
    /// if any; it is let go once it answers. `accept` and `cancel` label its buttons.
    static func open(
        title: String, accept: String, cancel: String, over window: Window, filter: Filter? = nil,
        multiple: Bool = false,
        startingIn folder: String? = nil, chosen: @escaping @MainActor ([String]) -> Void
    ) {
        guard
            let made = gtk_file_chooser_native_new(
                title, window.gtkWindow, GTK_FILE_CHOOSER_ACTION_OPEN, accept, cancel)
        else { return }
        let object = UnsafeMutableRawPointer(made)
        let chooser = caption_file_chooser(object)
        if let filter {
            let files = gtk_file_filter_new()
            gtk_file_filter_set_name(files, filter.name)
            for type in filter.mimeTypes { gtk_file_filter_add_mime_type(files, type) }
            // The chooser takes the floating reference.
            gtk_file_chooser_add_filter(chooser, files)
        }
        gtk_file_chooser_set_select_multiple(chooser, multiple ? 1 : 0)
        if let folder, !folder.isEmpty { gtk_file_chooser_set_current_folder(chooser, folder.pathBytes) }
        object.connect(.response) { response in
            defer { g_object_unref(object) }
            guard response == GTK_RESPONSE_ACCEPT.rawValue else { return }
            let paths = takeStrings(gtk_file_chooser_get_filenames(caption_file_chooser(object)))
            if !paths.isEmpty { chosen(paths) }
        }
        gtk_native_dialog_show(caption_native_dialog(object))
    }
}
