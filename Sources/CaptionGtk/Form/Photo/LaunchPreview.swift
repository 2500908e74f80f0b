// The command line's first photo, decoded while GTK registers the application and builds
// the window, so that the window's first frame shows it, or at first its embedded picture.

import CGtk
import CaptionLibrary
import Dispatch
import Threads

/// Started right after GTK is initialised (the window's scale factor is known then), on a
/// thread of its own at a lower priority, so that it takes no time from the main thread
/// building the window on two cores. It gives, in turn: the small picture the photo
/// carries of itself (a JPEG's Exif thumbnail, a RAW's smallest preview, a HEIC's
/// thumbnail), which is ready early and so makes the first frame; then the photo decoded
/// to fit `area`, once the application has registered (`decodeOnceRegistered`). The
/// preview's size is not known before the window is laid out, so `area` is a little
/// larger than the preview of a window of the default size, and the preview scales it
/// down when it draws. The photo loader takes both instead of decoding the photo again
/// (and decodes again at the exact size only when the preview is larger); meanwhile the
/// work that waits for the first frame (spell-checking, the offers) also waits for the
/// photo, whose paint it would otherwise hold up.
final class LaunchPreview: @unchecked Sendable {
    typealias Decoded = Result<DecodedPhoto, LibraryError>

    /// What the decoding thread gives, in this order.
    enum Stage: Sendable {
        /// The embedded picture, when the photo has one.
        case embedded(DecodedPhoto)
        case decoded(Decoded)
    }

    let path: String
    let area: PixelSize
    let scale: Int
    // `given` and `follower` are read and written only under `lock`.
    private let lock = Lock()
    private var given: [Stage] = []
    private var follower: (@Sendable (Stage) -> Void)?

    private init(path: String, area: PixelSize, scale: Int) {
        self.path = path
        self.area = area
        self.scale = scale
    }

    /// Run on the decoding thread between the embedded picture and the photo's decode: tests
    /// hold the decode there to see what is shown meanwhile.
    nonisolated(unsafe) static var beforeDecoding: (@Sendable () -> Void)?

    /// The one decode of this launch, until the form takes it.
    @MainActor private static var current: LaunchPreview?
    /// The launch whose photo waits for the application to register.
    @MainActor private static var held: LaunchPreview?
    /// Signalled once the photo may be decoded; `decodes` says whether it is still wanted.
    private let registered = DispatchSemaphore(value: 0)
    // Read and written only under `lock`.
    private var decodes = true
    /// Jobs waiting for the launch photo to be painted (or given up).
    @MainActor private static var waiting: [MainThread.Job] = []
    @MainActor private static var isSettled = true

    /// Starts decoding `path` for the preview's first frame, on the default screen's scale.
    /// `holdingDecode`: the photo itself waits for `decodeOnceRegistered` (its small
    /// picture does not).
    @MainActor
    static func start(_ path: String, holdingDecode: Bool = false) {
        let scale = GtkApp.screenScale
        let launch = LaunchPreview(path: path, area: PixelSize(width: 720 * scale, height: 480 * scale), scale: scale)
        current = launch
        if holdingDecode { held = launch }
        isSettled = false
        LowPriorityThread.run {
            if let info = try? PhotoInspector.inspect(path),
                let picture = PhotoDecoder.embedded(path, info: info, scale: scale)
            {
                launch.give(.embedded(picture))
            }
            if holdingDecode {
                launch.registered.wait()
                guard launch.lock.withLock({ launch.decodes }) else { return }
            }
            beforeDecoding?()
            launch.give(.decoded(PhotoDecoder.decode(path, fitting: launch.area, scale: scale)))
        }
        // Whatever happens to the photo, the waiting work is not held up for long.
        MainThread.after(milliseconds: 1000) { settle() }
    }

    /// The application has registered: the held photo is decoded now, while the window is
    /// built, or not at all when `wanted` is false (another instance runs and shows it).
    /// Decoded beside registering, it made registering about 4 ms longer
    /// (docs/performance.md).
    @MainActor
    static func decodeOnceRegistered(wanted: Bool) {
        guard let launch = held else { return }
        held = nil
        launch.lock.withLock { launch.decodes = wanted }
        launch.registered.signal()
    }

    /// The launch decode of `path` at `scale`, if this is it; it is taken once.
    @MainActor
    static func take(_ path: String, scale: Int) -> LaunchPreview? {
        guard let launch = current else { return nil }
        guard launch.path == path, launch.scale == scale else {
            settle()
            return nil
        }
        current = nil
        return launch
    }

    /// Runs `job` now, or once the launch photo has been painted or given up.
    @MainActor
    static func afterPhoto(_ job: @escaping MainThread.Job) {
        if isSettled { job() } else { waiting.append(job) }
    }

    /// The launch photo is on the screen, or will not be: the waiting work may run, and a
    /// decode nobody took is let go.
    @MainActor
    static func settle() {
        if let launch = current {
            current = nil
            // Stages given and still to come are let go with the last reference to them.
            _ = launch.follow { _ in }
        }
        guard !isSettled else { return }
        isSettled = true
        let jobs = waiting
        waiting = []
        for job in jobs { MainThread.post(priority: G_PRIORITY_LOW, job) }
    }

    /// The stages given so far, now; `body` gets each later one, on the decoding thread.
    func follow(_ body: @escaping @Sendable (Stage) -> Void) -> [Stage] {
        lock.withLock {
            follower = body
            defer { given = [] }
            return given
        }
    }

    private func give(_ stage: Stage) {
        let follower = lock.withLock {
            if self.follower == nil { given.append(stage) }
            return self.follower
        }
        follower?(stage)
    }
}
