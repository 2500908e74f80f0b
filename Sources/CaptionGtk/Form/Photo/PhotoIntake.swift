// Photos that arrive from elsewhere: the file chooser, the clipboard, a drop. Files become
// paths; image data with no file behind it is kept as a PNG in the cache folder.

import CaptionLibrary
import Dispatch
import Localization
import POSIXFiles
import Pixbufs

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
enum PhotoIntake {
    enum Received {
        case none
        case files([String])
        case image(Pixbuf)
    }

    /// A failure's reason, as GdkPixbuf gave it.
    struct Failure: Error {
        let text: String
    }

    /// What the clipboard holds that can be a photo: files copied in a file manager, or an
    /// image copied from another app.
    static func clipboard() -> Received {
        if let uris = Clipboard.uris {
            let paths = paths(fromURIs: uris)
            return paths.isEmpty ? .none : .files(paths)
        }
        return Clipboard.image.map { .image($0) } ?? .none
    }

    /// What a drop brought: its files when it has any, else its image.
    static func dropped(uris: [String], image: Pixbuf?) -> Received {
        let paths = paths(fromURIs: uris)
        if !paths.isEmpty { return .files(paths) }
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
    /// screenshot takes a while to encode).
    static func store(
        _ image: Pixbuf, in lifetime: Lifetime,
        completion: @escaping @MainActor (Result<String, Failure>) -> Void
    ) {
        let folder = UserFiles.cacheFolder + "/caption/pasted"
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let path = folder + "/pasted-\(now.tv_sec)-\(now.tv_nsec / 1_000_000).png"
        DispatchQueue.global(qos: .userInitiated).async {
            UserFiles.makeFolder(folder)
            let saved = image.savePNG(to: path).map { path }.mapError { Failure(text: $0.message) }
            lifetime.post { completion(saved) }
        }
    }
}

/// The file chooser for photos (several may be chosen), filtered to the formats Caption takes.
@MainActor
enum PhotoChooser {
    static func present(
        over window: Window, startingIn folder: String? = nil, chosen: @escaping @MainActor ([String]) -> Void
    ) {
        NativeChooser.open(
            title: tr("Choose a Photo"), accept: tr("_Open"), cancel: tr("_Cancel"), over: window,
            filter: NativeChooser.Filter(name: tr("Photos"), mimeTypes: PhotoFormat.allCases.map(\.mimeType)),
            multiple: true, startingIn: folder, chosen: chosen)
    }
}
