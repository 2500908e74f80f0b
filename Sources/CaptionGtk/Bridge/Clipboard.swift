// The desktop's clipboard, read for what can become a photo: files or an image.

import CGtk
import Pixbufs

@MainActor
enum Clipboard {
    /// The URIs of files copied in a file manager, if that is what it holds.
    static var uris: [String]? {
        guard let clipboard = gtk_clipboard_get(caption_clipboard_atom()),
            gtk_clipboard_wait_is_uris_available(clipboard) != 0
        else { return nil }
        return takeStrings(gtk_clipboard_wait_for_uris(clipboard))
    }

    /// An image copied from another app, if that is what it holds.
    static var image: Pixbuf? {
        guard let clipboard = gtk_clipboard_get(caption_clipboard_atom()),
            gtk_clipboard_wait_is_image_available(clipboard) != 0
        else { return nil }
        return gtk_clipboard_wait_for_image(clipboard).map { Pixbuf(taking: $0) }
    }
}
