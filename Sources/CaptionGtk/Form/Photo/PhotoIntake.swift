// Photos that arrive from elsewhere: the file chooser, the clipboard, a drop. Files become
// paths; image data with no file behind it is kept as a PNG in the cache folder.

import CGtk
import CaptionLibrary
import Dispatch
import Localization
import POSIXFiles

@MainActor
enum PhotoIntake {
    enum Received {
        case none
        case files([String])
        case image(SharedObject)
    }

    /// A failure's reason, as GdkPixbuf gave it.
    struct Failure: Error {
        let text: String
    }

    /// What the clipboard holds that can be a photo: files copied in a file manager, or an
    /// image copied from another app.
    static func clipboard() -> Received {
        guard let clipboard = gtk_clipboard_get(caption_clipboard_atom()) else { return .none }
        if gtk_clipboard_wait_is_uris_available(clipboard) != 0 {
            let paths = paths(fromURIs: takeStrings(gtk_clipboard_wait_for_uris(clipboard)))
            return paths.isEmpty ? .none : .files(paths)
        }
        if gtk_clipboard_wait_is_image_available(clipboard) != 0, let pixbuf = gtk_clipboard_wait_for_image(clipboard) {
            return .image(SharedObject(pointer: pixbuf))
        }
        return .none
    }

    /// What a drop brought. Takes ownership of both (GTK hands them over as new copies).
    static func dropped(uris: [String], image: SharedObject?) -> Received {
        let paths = paths(fromURIs: uris)
        if !paths.isEmpty {
            if let image { g_object_unref(UnsafeMutableRawPointer(image.pointer)) }
            return .files(paths)
        }
        return image.map { .image($0) } ?? .none
    }

    /// Hands what arrived to `enqueue` as paths, while `lifetime` lasts: image data is
    /// written to a file first. Returns whether anything arrived.
    static func deliver(
        _ received: Received, in lifetime: Lifetime, to enqueue: @escaping @MainActor ([String]) -> Void,
        failure: @escaping @MainActor (String) -> Void
    ) -> Bool {
        switch received {
        case .none: return false
        case .files(let paths): enqueue(paths)
        case .image(let image):
            store(image, in: lifetime) { result in
                switch result {
                case .success(let path): enqueue([path])
                case .failure(let reason):
                    failure(tr("The pasted image could not be kept: {reason}").replacing("{reason}", with: reason.text))
                }
            }
        }
        return true
    }

    /// Local paths of file URIs, freeing the strv; other schemes and other machines' files
    /// are passed over.
    static func paths(fromURIs uris: [String]) -> [String] { uris.compactMap(FileURI.localPath) }

    /// Writes image data as a PNG in the cache folder, off the main thread (a large
    /// screenshot takes a while to encode), and lets go of it.
    static func store(
        _ image: SharedObject, in lifetime: Lifetime,
        completion: @escaping @MainActor (Result<String, Failure>) -> Void
    ) {
        let folder = String(cString: g_get_user_cache_dir()) + "/caption/pasted"
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let path = folder + "/pasted-\(now.tv_sec)-\(now.tv_nsec / 1_000_000).png"
        DispatchQueue.global(qos: .userInitiated).async {
            g_mkdir_with_parents(folder.pathBytes, 0o700)
            var error: UnsafeMutablePointer<GError>?
            let saved = gdk_pixbuf_savev(image.pointer, path.pathBytes, "png", nil, nil, &error) != 0
            let message = error.map { String(cString: $0.pointee.message) } ?? ""
            g_clear_error(&error)
            g_object_unref(UnsafeMutableRawPointer(image.pointer))
            lifetime.post { completion(saved ? .success(path) : .failure(Failure(text: message))) }
        }
    }
}

/// The file chooser for photos (several may be chosen), filtered to the formats Caption takes.
@MainActor
enum PhotoChooser {
    static func present(
        over window: Window, startingIn folder: String? = nil, chosen: @escaping @MainActor ([String]) -> Void
    ) {
        let chooser = gtk_file_chooser_native_new(
            tr("Choose a Photo"), window.gtkWindow, GTK_FILE_CHOOSER_ACTION_OPEN, tr("_Open"), tr("_Cancel"))
        guard let chooser else { return }
        let fileChooser = caption_file_chooser(UnsafeMutableRawPointer(chooser))
        let filter = gtk_file_filter_new()
        gtk_file_filter_set_name(filter, tr("Photos"))
        for type in PhotoFormat.allCases.map(\.mimeType) { gtk_file_filter_add_mime_type(filter, type) }
        gtk_file_chooser_add_filter(fileChooser, filter)
        gtk_file_chooser_set_select_multiple(fileChooser, 1)
        if let folder, !folder.isEmpty { gtk_file_chooser_set_current_folder(fileChooser, folder.pathBytes) }
        NativeChooser.present(chooser) { chosen($0) }
    }
}
