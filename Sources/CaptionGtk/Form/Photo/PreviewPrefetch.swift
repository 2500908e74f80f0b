// The previews of the photos either side of the one on the form, decoded ahead on a
// low-priority thread, so that Done or Ctrl+Page Down/Up shows the photo in the next frame.

import POSIXFiles
import Threads

@MainActor
final class PreviewPrefetch {
    /// At most this many decoded previews are kept, whatever the queue's length: the next
    /// photo and the previous one (about 1.5 MB each in a window of the default size).
    static let capacity = 2

    private struct Ready {
        let path: String
        /// The file as it was before it was decoded: a photo changed since is decoded again.
        let stamp: FileStamp
        let area: PixelSize
        let scale: Int
        let photo: DecodedPhoto
    }

    private var ready: [Ready] = []
    /// The photos to have ready, the most needed first.
    private var wanted: [String] = []
    /// Wanted photos that could not be decoded: the form names their problem when they are
    /// shown; decoding them again meanwhile would only repeat it.
    private var failed: Set<String> = []
    private var area = PixelSize(width: 0, height: 0)
    private var scale = 1
    /// The decode on its way: one at a time, so that two never share the cores the photo on
    /// the form is still being checked on.
    private var decoding: String?
    /// Whether decoding may go on: not between a new `want` and its `start`.
    private var started = false

    /// Decodes started, and previews handed over ready; tests read them.
    private(set) var decodesStarted = 0
    private(set) var hits = 0
    /// The window's: a decode that ends after it is let go of.
    private let lifetime: Lifetime

    init(lifetime: Lifetime) {
        self.lifetime = lifetime
    }

    /// Tests wait on this; the app does not need it.
    var onReady: ((String) -> Void)?

    /// Keeps the previews of `paths` (at most `capacity`, the most needed first) decoded to
    /// fit `area` at `scale`, and lets every other go; `start()` decodes the missing ones.
    func want(_ paths: [String], area: PixelSize, scale: Int) {
        var unique: [String] = []
        for path in paths where !unique.contains(path) && unique.count < Self.capacity { unique.append(path) }
        wanted = unique
        failed.formIntersection(unique)
        if area != self.area || scale != self.scale { failed = [] }
        self.area = area
        self.scale = scale
        drop { !unique.contains($0.path) || $0.area != area || $0.scale != scale }
        started = false
    }

    /// Decodes the wanted previews not yet ready, one after the other.
    func start() {
        started = true
        startNext()
    }

    /// The preview of `path` decoded ahead, if it was decoded for this `area` and `scale`
    /// and the file has not changed since; it leaves the cache (the caller owns it now).
    func take(_ path: String, area: PixelSize, scale: Int) -> DecodedPhoto? {
        guard let index = ready.firstIndex(where: { $0.path == path }) else { return nil }
        let found = ready.remove(at: index)
        guard found.area == area, found.scale == scale, FileStamp(path: path) == found.stamp else { return nil }
        hits += 1
        return found.photo
    }

    /// Lets every preview go; one still decoding is dropped when it arrives.
    func clear() {
        wanted = []
        failed = []
        started = false
        drop { _ in true }
    }

    /// How many decoded previews are held now.
    var count: Int { ready.count }

    private func drop(where unwanted: (Ready) -> Bool) {
        ready.removeAll(where: unwanted)
    }

    private func startNext() {
        guard started, decoding == nil,
            let path = wanted.first(where: { path in
                !failed.contains(path) && !ready.contains { $0.path == path }
            })
        else { return }
        decoding = path
        decodesStarted += 1
        let area = area
        let scale = scale
        LowPriorityThread.run {
            // Stamped before it is read: a change during the decode shows as a change.
            let stamp = FileStamp(path: path)
            let decoded = stamp.map { _ in PhotoDecoder.decode(path, fitting: area, scale: scale) }
            let photo = try? decoded?.get()
            self.lifetime.post(to: self) { prefetch in
                prefetch.decoding = nil
                prefetch.finished(path, stamp: stamp, area: area, scale: scale, photo: photo)
                prefetch.startNext()
            }
        }
    }

    private func finished(_ path: String, stamp: FileStamp?, area: PixelSize, scale: Int, photo: DecodedPhoto?) {
        guard let photo, let stamp else {
            if wanted.contains(path) { failed.insert(path) }
            return
        }
        // The form moved on, or the window changed size, while it decoded.
        guard wanted.contains(path), area == self.area, scale == self.scale,
            !ready.contains(where: { $0.path == path })
        else { return }
        ready.append(Ready(path: path, stamp: stamp, area: area, scale: scale, photo: photo))
        onReady?(path)
    }
}
