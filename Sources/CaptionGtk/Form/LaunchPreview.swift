// The command line's first photo, decoded while GTK registers the application and builds
// the window, so that the window's first frame shows it.

import CGtk
import CaptionLibrary
import Dispatch
import Threads

/// Started right after GTK is initialised (the window's scale factor is known then), on a
/// thread of its own, to fit `area`: the preview's size is not known before the window is
/// laid out, so a size a little larger than the preview of a window of the default size,
/// which the preview scales down when it draws. The photo loader takes it instead of
/// decoding the photo again (and decodes again at the exact size only when the preview is
/// larger), or waits for it; meanwhile the work that waits for the first frame
/// (spell-checking, the offers) also waits for this photo, whose paint it would otherwise
/// hold up.
final class LaunchPreview: @unchecked Sendable {
    typealias Decoded = Result<DecodedPhoto, LibraryError>

    let path: String
    let area: PixelSize
    let scale: Int
    private let lock = Lock()
    private var decoded: Decoded?
    private var waiter: (@Sendable (Decoded) -> Void)?

    private init(path: String, area: PixelSize, scale: Int) {
        self.path = path
        self.area = area
        self.scale = scale
    }

    /// The one decode of this launch, until the form takes it.
    @MainActor private static var current: LaunchPreview?
    /// Jobs waiting for the launch photo to be painted (or given up).
    @MainActor private static var waiting: [MainThread.Job] = []
    @MainActor private static var isSettled = true

    /// Starts decoding `path` for the preview's first frame, on the default screen's scale.
    @MainActor
    static func start(_ path: String) {
        let scale = Int(max(gdk_screen_get_monitor_scale_factor(gdk_screen_get_default(), 0), 1))
        let launch = LaunchPreview(path: path, area: PixelSize(width: 720 * scale, height: 480 * scale), scale: scale)
        current = launch
        isSettled = false
        DispatchQueue.global(qos: .userInitiated).async {
            launch.finish(PhotoDecoder.decode(path, fitting: launch.area, scale: scale))
        }
        // Whatever happens to the photo, the waiting work is not held up for long.
        MainThread.after(milliseconds: 1000) { settle() }
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
            launch.whenDecoded { if case .success(let photo) = $0 { cairo_surface_destroy(photo.surface.pointer) } }
        }
        guard !isSettled else { return }
        isSettled = true
        let jobs = waiting
        waiting = []
        for job in jobs { MainThread.post(priority: G_PRIORITY_LOW, job) }
    }

    /// The decode now if it is done, else nil and `body` later, on the decoding thread.
    func result(orWhenDecoded body: @escaping @Sendable (Decoded) -> Void) -> Decoded? {
        lock.withLock {
            if decoded == nil { waiter = body }
            return decoded
        }
    }

    private func whenDecoded(_ body: @escaping @Sendable (Decoded) -> Void) {
        if let decoded = result(orWhenDecoded: body) { body(decoded) }
    }

    private func finish(_ result: Decoded) {
        let waiter = lock.withLock {
            decoded = result
            return self.waiter
        }
        waiter?(result)
    }
}
