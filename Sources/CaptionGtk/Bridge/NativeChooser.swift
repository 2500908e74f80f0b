// The desktop's own file chooser (a portal's, under Flatpak or GNOME), shown and answered.

import CGtk

enum NativeChooser {
    /// Shows `chooser` (a GtkFileChooserNative the caller made and hands over) and gives
    /// `chosen` the paths picked, if any; the chooser is let go once it answers.
    @MainActor
    static func present(_ chooser: OpaquePointer, _ chosen: @escaping @MainActor ([String]) -> Void) {
        let object = UnsafeMutableRawPointer(chooser)
        object.connect(.response) { response in
            defer { g_object_unref(object) }
            guard response == GTK_RESPONSE_ACCEPT.rawValue else { return }
            let paths = takeStrings(gtk_file_chooser_get_filenames(caption_file_chooser(object)))
            if !paths.isEmpty { chosen(paths) }
        }
        gtk_native_dialog_show(caption_native_dialog(object))
    }
}
