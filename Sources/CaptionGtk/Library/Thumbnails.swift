// Thumbnails of library photos, made off the main thread and cached where every freedesktop
// app looks for them ($XDG_CACHE_HOME/thumbnails/normal, named by the MD5 of the file URI,
// stamped with Thumb::URI and Thumb::MTime), so a file manager reuses Caption's and back.

import CaptionLibrary
import POSIXFiles
import Pixbufs

#if canImport(Glibc)
    import Glibc
#endif

enum Thumbnails {
    /// The "normal" size of the specification.
    static let size = 128

    /// The thumbnail of the photo at `path`: from the cache when it is still valid for the
    /// file as it is, otherwise made and cached. Nil when the photo cannot be read. Runs
    /// on any thread.
    static func thumbnail(for path: String) -> Pixbuf? {
        var info = stat()
        guard stat(path, &info) == 0, let uri = FileURI.uri(of: path) else { return nil }
        let mtime = String(info.st_mtim.tv_sec)
        let file = cacheFile(uri: uri)

        if case .success(let cached) = Pixbuf.load(path: file) {
            if cached.option("tEXt::Thumb::URI") == uri && cached.option("tEXt::Thumb::MTime") == mtime {
                return cached
            }
        }

        let loaded =
            Pixbuf.load(path: path, fitting: (size, size))
            .flatMapError { _ in
                // Where the incremental loader fails and the whole-file one shows the photo,
                // as the form's preview does (a GIF cut short, an arithmetic-coded JPEG):
                // scaled to fit here, the EXIF orientation going with the pixels.
                Pixbuf.load(path: path).map { whole in
                    max(whole.width, whole.height) > size ? whole.fitting((size, size), keepingOptions: true) : whole
                }
            }
        guard case .success(let picture) = loaded else { return nil }
        let thumbnail = picture.upright()
        store(thumbnail, as: file, uri: uri, mtime: mtime, size: Int64(info.st_size))
        return thumbnail
    }

    /// Writes the thumbnail under a temporary name and renames it, as the specification
    /// asks, so another program never reads half a file. A failure only costs the cache.
    private static func store(_ thumbnail: Pixbuf, as file: String, uri: String, mtime: String, size: Int64) {
        UserFiles.makeFolder(folder)
        let temporary = file + ".caption-\(getpid()).tmp"
        let text: [(key: String, value: String)] = [
            ("tEXt::Thumb::URI", uri), ("tEXt::Thumb::MTime", mtime),
            ("tEXt::Thumb::Size", String(size)), ("tEXt::Software", "Caption"),
        ]
        if case .success = thumbnail.savePNG(to: temporary, text: text) {
            chmod(temporary, 0o600)
            if rename(temporary, file) != 0 { unlink(temporary) }
        } else {
            unlink(temporary)
        }
    }

    private static var folder: String { UserFiles.cacheFolder + "/thumbnails/normal" }

    /// The cache file of a URI: the MD5 of the URI, in hexadecimal.
    private static func cacheFile(uri: String) -> String {
        folder + "/" + Hash.md5Hex(Array(uri.utf8)) + ".png"
    }

    /// Where the cached thumbnail of `path` lives (tests look there).
    static func cachePath(for path: String) -> String? { FileURI.uri(of: path).map(cacheFile) }
}
