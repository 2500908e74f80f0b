// The photo on the form: decoded off the main thread at the size the preview shows (or taken
// ready from the photos decoded ahead), then checked whole (what a save stores), each answer
// dropped when a newer photo replaced it.

import CaptionLibrary
import CaptionQueue
import Dispatch
import Localization
import Threads

@MainActor
final class PhotoLoader {
    let preview: PhotoPreview
    /// The photo read and checked whole, once it is; a save then only copies and commits.
    private(set) var loadedPhoto: LoadedPhoto?
    /// Bumped for every photo put on the form: answers for an older one are dropped.
    private(set) var request = 0
    private(set) var path: String?
    private var largerDecodeScheduled = false
    /// The previews of the queue's photos either side of this one, decoded ahead.
    let prefetch: PreviewPrefetch
    /// The window's: decodes and checks that answer after it ended are dropped.
    let lifetime: Lifetime
    /// The request whose photo has been checked (or failed): decoding ahead waits for it,
    /// so that it never takes a core from the photo the user is looking at.
    private var settledRequest = -1
    /// The verdict on the photo: it counts, or why not.
    var onSettled: ((Result<LoadedPhoto, LibraryError>) -> Void)?

    init(preview: PhotoPreview, lifetime: Lifetime) {
        self.preview = preview
        self.lifetime = lifetime
        prefetch = PreviewPrefetch(lifetime: lifetime)
        preview.onNeedsLargerDecode = { [weak self] _ in self?.scheduleLargerDecode() }
    }

    /// Starts loading a photo: shown at once when it was decoded ahead, else decoded at the
    /// size the preview shows; then checked whole.
    func load(_ path: String) {
        loadedPhoto = nil
        request += 1
        self.path = path
        preview.clear()
        let area = preview.wantedArea
        if let launch = LaunchPreview.take(path, scale: preview.scaleFactor) {
            let request = request
            let follow: @MainActor (LaunchPreview.Stage) -> Void = { [weak self] stage in
                self?.launchStage(stage, of: launch, request: request)
            }
            // What was decoded while the window was built is shown now: the first frame has it.
            let lifetime = lifetime
            for stage in launch.follow({ stage in
                lifetime.post { follow(stage) }
            }) { follow(stage) }
        } else if let ready = prefetch.take(path, area: area, scale: preview.scaleFactor) {
            // Shown in this very turn of the main loop: the next frame has it.
            preview.show(ready, area: area, name: PhotoQueue.name(of: path))
            checkOncePainted(path, request: request)
        } else {
            decode(path, request: request, area: area, settles: true)
        }
    }

    /// The launch decode gave a stage for `request`: its embedded picture until the photo
    /// is decoded, then the photo, after whose paint the work waiting for it may start.
    private func launchStage(_ stage: LaunchPreview.Stage, of launch: LaunchPreview, request: Int) {
        guard request == self.request else { return LaunchPreview.settle() }
        switch stage {
        case .embedded(let picture):
            preview.show(picture, area: launch.area, name: PhotoQueue.name(of: launch.path))
        case .decoded(let decoded):
            if case .success = decoded {
                preview.afterNextPaint { [weak self] in
                    LaunchPreview.settle()
                    // Scaled down when drawn; decoded again only for a preview larger than it.
                    guard let self, request == self.request else { return }
                    let wanted = self.preview.wantedArea
                    guard launch.area.width < wanted.width || launch.area.height < wanted.height else { return }
                    self.decode(launch.path, request: request, area: wanted, settles: false)
                }
            }
            arrived(decoded, path: launch.path, request: request, area: launch.area, settles: true)
            if case .failure = decoded { LaunchPreview.settle() }
        }
    }

    /// No photo: answers still on their way are dropped, and so is what was decoded ahead.
    func clear() {
        loadedPhoto = nil
        request += 1
        path = nil
        preview.clear()
        prefetch.clear()
    }

    /// The photos to decode ahead (the queue's next and previous), once the photo on the
    /// form has been checked; any other decoded ahead is let go now.
    func decodeAhead(_ paths: [String]) {
        prefetch.want(paths, area: preview.wantedArea, scale: preview.scaleFactor)
        if settledRequest == request { prefetch.start() }
    }

    /// Decodes for the preview, then (for a newly chosen photo) checks the whole file, so
    /// that a damaged photo is named before the user tries to save it. Both off the main
    /// thread; the preview shows as soon as it is ready.
    private func decode(_ path: String, request: Int, area: PixelSize, settles: Bool) {
        let scale = preview.scaleFactor
        DispatchQueue.global(qos: .userInitiated).async {
            let decoded = PhotoDecoder.decode(path, fitting: area, scale: scale)
            self.lifetime.post(to: self) {
                $0.arrived(decoded, path: path, request: request, area: area, settles: settles)
            }
        }
    }

    /// A decode for `request` is done: shown if the photo is still the one on the form.
    private func arrived(
        _ decoded: Result<DecodedPhoto, LibraryError>, path: String, request: Int, area: PixelSize, settles: Bool
    ) {
        switch decoded {
        case .success(let photo):
            // A newer photo replaced this one while it decoded.
            guard request == self.request else { return }
            preview.show(photo, area: area, name: PhotoQueue.name(of: path))
            if settles { checkOncePainted(path, request: request) }
        case .failure(let error):
            if settles { settle(.failure(error), request: request) }
        }
    }

    /// Starts the check of the whole photo once the preview is on the screen, or after a
    /// quarter of a second if it is not drawn (the library shows, the window is hidden):
    /// started with the preview, the check's threads slowed the preview's frame by up to a
    /// fifth (`make bench`, the smooth photo).
    private func checkOncePainted(_ path: String, request: Int) {
        let once = Once()
        let start: MainThread.Job = { [weak self] in
            // Once, and not for a photo another has replaced meanwhile.
            guard once.claim(), let self, request == self.request else { return }
            self.check(path, request: request)
        }
        preview.afterNextPaint(start)
        lifetime.after(milliseconds: 250, start)
    }

    /// Reads, decodes and hashes the whole photo on two threads: at a lower priority it never
    /// takes a core from the main thread or the display server, which paint what the user
    /// types.
    private func check(_ path: String, request: Int) {
        LowPriorityThread.run {
            let check: Result<LoadedPhoto, LibraryError>
            do throws(LibraryError) {
                check = .success(try PhotoInspector.load(path))
            } catch {
                check = .failure(error)
            }
            self.lifetime.post { [weak self] in self?.settle(check, request: request) }
        }
    }

    private func settle(_ result: Result<LoadedPhoto, LibraryError>, request: Int) {
        guard request == self.request else { return }
        settledRequest = request
        switch result {
        case .success(let photo): loadedPhoto = photo
        case .failure: preview.clear()
        }
        onSettled?(result)
        prefetch.start()
    }

    /// The window grew: decode again, sharper, once resizing has paused.
    private func scheduleLargerDecode() {
        guard !largerDecodeScheduled, let path else { return }
        largerDecodeScheduled = true
        let request = request
        lifetime.after(milliseconds: 200) { [weak self] in
            guard let self else { return }
            self.largerDecodeScheduled = false
            guard request == self.request else { return }
            self.decode(path, request: request, area: self.preview.wantedArea, settles: false)
        }
    }

}

/// True the first time it is asked, on the main thread.
@MainActor
private final class Once: Sendable {
    private var done = false

    func claim() -> Bool {
        defer { done = true }
        return !done
    }
}
