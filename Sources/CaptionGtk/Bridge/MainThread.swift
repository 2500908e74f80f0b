// Work that reports back to the GTK main thread: idle and timeout sources, and the job that
// waits for the first frame.

import CGtk

/// A GLib source (idle or timeout) that can be cancelled; cancelling twice, or after it ran,
/// does nothing.
@MainActor
final class SourceHandle {
    /// The GLib source id while it waits; set only by `MainThread`.
    var id: UInt32 = 0
    var isActive: Bool { id != 0 }

    func cancel() {
        if id != 0 { g_source_remove(id) }
        id = 0
    }
}

extension GObjectConvertible {
    /// Runs `job` once, after the first frame that drew this widget and after the photo
    /// the program was started with is painted, at low priority: work that the first frame
    /// does not need (spell-checking, the offers) then costs start-up nothing, and does not
    /// hold up the photo. A plain idle would not do: one runs while the X server maps the
    /// window, which is before the first frame.
    @MainActor
    func afterFirstDraw(_ job: @escaping MainThread.Job) {
        var posted = false
        connect(.draw) { _ in
            guard !posted else { return }
            posted = true
            MainThread.post(priority: G_PRIORITY_LOW) { LaunchPreview.afterPhoto(job) }
        }
    }
}

/// Runs code on the GTK main thread. Work done elsewhere (decoding, saving) reports back
/// through this: the main actor's own queue is never drained while gtk_main runs, so
/// Task { @MainActor } would wait forever; a GLib idle source runs on the loop.
/// Jobs capture what they need weakly (`[weak self]`): a source never keeps a window alive.
enum MainThread {
    typealias Job = @Sendable @MainActor () -> Void
    typealias Repeating = @Sendable @MainActor () -> Bool

    /// `priority` G_PRIORITY_LOW waits until GTK has drawn what is due (its redraws run at
    /// a higher priority): for work that must not delay a frame.
    /// GLib's monotonic clock, in microseconds: what its timers count in.
    nonisolated static var monotonicMicroseconds: Int { Int(g_get_monotonic_time()) }

    static func post(priority: Int32 = G_PRIORITY_DEFAULT, _ job: @escaping Job) {
        let callback: @convention(c) (gpointer?) -> gboolean = { data in
            nonisolated(unsafe) let handler: ClosureBox<Job> = box(data)
            MainActor.assumeIsolated { handler.body() }
            return 0  // G_SOURCE_REMOVE
        }
        g_idle_add_full(priority, callback, retained(job), releaseSource)
    }

    /// Runs `job` once after `milliseconds`.
    @MainActor
    @discardableResult
    static func after(milliseconds: UInt32, _ job: @escaping Job) -> SourceHandle {
        let handle = SourceHandle()
        let once: Job = { [weak handle] in
            handle?.id = 0
            job()
        }
        let callback: @convention(c) (gpointer?) -> gboolean = { data in
            nonisolated(unsafe) let handler: ClosureBox<Job> = box(data)
            MainActor.assumeIsolated { handler.body() }
            return 0
        }
        handle.id = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, callback, retained(once), releaseSource)
        return handle
    }

    /// Runs `job` each time `descriptor` has something to read (or has ended), for as long
    /// as it returns true: waiting on a socket with the main loop, not a thread or a timer.
    @MainActor
    static func whenReadable(_ descriptor: Int32, _ job: @escaping Repeating) -> SourceHandle {
        let handle = SourceHandle()
        let body: Repeating = { [weak handle] in
            let again = job()
            if !again { handle?.id = 0 }
            return again
        }
        let callback: @convention(c) (gint, GIOCondition, gpointer?) -> gboolean = { _, _, data in
            nonisolated(unsafe) let handler: ClosureBox<Repeating> = box(data)
            return MainActor.assumeIsolated { handler.body() } ? 1 : 0
        }
        let condition = GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        handle.id = g_unix_fd_add_full(
            G_PRIORITY_DEFAULT, descriptor, condition, callback, retained(body), releaseSource)
        return handle
    }

    /// Runs `job` every `seconds` at idle priority for as long as it returns true.
    @MainActor
    static func every(seconds: UInt32, _ job: @escaping Repeating) -> SourceHandle {
        repeating(job) { callback, data, release in
            g_timeout_add_seconds_full(G_PRIORITY_DEFAULT_IDLE, seconds, callback, data, release)
        }
    }

    /// Runs `job` every `milliseconds` for as long as it returns true.
    @MainActor
    static func every(milliseconds: UInt32, _ job: @escaping Repeating) -> SourceHandle {
        repeating(job) { callback, data, release in
            g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, callback, data, release)
        }
    }

    @MainActor
    private static func repeating(
        _ job: @escaping Repeating,
        add: (GSourceFunc, gpointer, GDestroyNotify) -> UInt32
    ) -> SourceHandle {
        let handle = SourceHandle()
        let body: Repeating = { [weak handle] in
            let again = job()
            if !again { handle?.id = 0 }
            return again
        }
        let callback: @convention(c) (gpointer?) -> gboolean = { data in
            nonisolated(unsafe) let handler: ClosureBox<Repeating> = box(data)
            return MainActor.assumeIsolated { handler.body() } ? 1 : 0
        }
        handle.id = add(callback, retained(body), releaseSource)
        return handle
    }
}
