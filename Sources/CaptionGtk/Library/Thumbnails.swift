// Thumbnails of library photos, made off the main thread and cached where every freedesktop
// app looks for them ($XDG_CACHE_HOME/thumbnails/normal, named by the MD5 of the file URI,
// stamped with Thumb::URI and Thumb::MTime), so a file manager reuses Caption's and back.

import CGtk
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

enum Thumbnails {
    /// The "normal" size of the specification.
    static let size: Int32 = 128

    /// The thumbnail of the photo at `path`: from the cache when it is still valid for the
    /// file as it is, otherwise made and cached. Nil when the photo cannot be read. Runs
    /// on any thread; returns a reference the caller owns.
    static func thumbnail(for path: String) -> SharedObject? {
        var info = stat()
        guard stat(path, &info) == 0, let uri = g_filename_to_uri(path.pathBytes, nil, nil) else { return nil }
        defer { g_free(uri) }
        let uriText = String(cString: uri)
        let mtime = String(info.st_mtim.tv_sec)
        let folder = String(cString: g_get_user_cache_dir()) + "/thumbnails/normal"
        guard let digest = g_compute_checksum_for_string(G_CHECKSUM_MD5, uri, -1) else { return nil }
        let file = folder + "/" + String(cString: digest) + ".png"
        g_free(digest)

        if let cached = gdk_pixbuf_new_from_file(file.pathBytes, nil) {
            let storedURI = gdk_pixbuf_get_option(cached, "tEXt::Thumb::URI").map { String(cString: $0) }
            let storedTime = gdk_pixbuf_get_option(cached, "tEXt::Thumb::MTime").map { String(cString: $0) }
            if storedURI == uriText && storedTime == mtime { return SharedObject(pointer: cached) }
            g_object_unref(UnsafeMutableRawPointer(cached))
        }

        guard let loaded = gdk_pixbuf_new_from_file_at_scale(path.pathBytes, size, size, 1, nil) ?? wholeFile(path)
        else {
            return nil
        }
        var thumbnail = loaded
        if let turned = gdk_pixbuf_apply_embedded_orientation(loaded) {
            g_object_unref(UnsafeMutableRawPointer(loaded))
            thumbnail = turned
        }
        store(thumbnail, as: file, in: folder, uri: uriText, mtime: mtime, size: Int64(info.st_size))
        return SharedObject(pointer: thumbnail)
    }

    /// Where the incremental loader fails and the whole-file one shows the photo, as the
    /// form's preview does (a GIF cut short, an arithmetic-coded JPEG): scaled to fit here.
    private static func wholeFile(_ path: String) -> OpaquePointer? {
        guard let whole = gdk_pixbuf_new_from_file(path.pathBytes, nil) else { return nil }
        let width = Double(gdk_pixbuf_get_width(whole))
        let height = Double(gdk_pixbuf_get_height(whole))
        let scale = min(1, Double(size) / max(width, height, 1))
        guard scale < 1,
            let scaled = gdk_pixbuf_scale_simple(
                whole, max(1, Int32(width * scale)), max(1, Int32(height * scale)), GDK_INTERP_BILINEAR)
        else { return whole }
        // The EXIF orientation, which the caller applies, goes with the pixels.
        gdk_pixbuf_copy_options(whole, scaled)
        g_object_unref(UnsafeMutableRawPointer(whole))
        return scaled
    }

    /// Writes the thumbnail under a temporary name and renames it, as the specification
    /// asks, so another program never reads half a file. A failure only costs the cache.
    private static func store(
        _ pixbuf: OpaquePointer, as file: String, in folder: String,
        uri: String, mtime: String, size: Int64
    ) {
        g_mkdir_with_parents(folder.pathBytes, 0o700)
        let temporary = file + ".caption-\(getpid()).tmp"
        let options = [
            ("tEXt::Thumb::URI", uri), ("tEXt::Thumb::MTime", mtime),
            ("tEXt::Thumb::Size", String(size)), ("tEXt::Software", "Caption"),
        ]
        var keys: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.0) } + [nil]
        var values: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.1) } + [nil]
        defer { (keys + values).forEach { free($0) } }
        if gdk_pixbuf_savev(pixbuf, temporary.pathBytes, "png", &keys, &values, nil) != 0 {
            chmod(temporary, 0o600)
            if rename(temporary, file) != 0 { unlink(temporary) }
        } else {
            unlink(temporary)
        }
    }

    /// Where the cached thumbnail of `path` lives (tests look there).
    static func cachePath(for path: String) -> String? {
        guard let uri = g_filename_to_uri(path.pathBytes, nil, nil) else { return nil }
        defer { g_free(uri) }
        guard let digest = g_compute_checksum_for_string(G_CHECKSUM_MD5, uri, -1) else { return nil }
        defer { g_free(digest) }
        return String(cString: g_get_user_cache_dir()) + "/thumbnails/normal/" + String(cString: digest) + ".png"
    }
}
