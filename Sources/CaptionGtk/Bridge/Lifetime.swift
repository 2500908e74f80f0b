// The life of one window. Main-thread jobs, timers, library answers and signal handlers
// registered through it run only while the window lives: its end drops them all at once,
// so no part of the window keeps a flag of its own for "the window has gone".

import CGtk

@MainActor
final class Lifetime {
    /// Set by `end()`; nothing registered here runs after.
    private(set) var isOver = false
    /// Timers still waiting, removed at the end (weakly: a timer that fired lets go).
    private var sources: [WeakSource] = []
    /// Handlers on objects that may outlive the window, or fire while it is destroyed.
    private var connections: [(object: GObjectRef, id: UInt)] = []
    /// What the parts of the window do at its end, last registered first.
    private var endings: [() -> Void] = []

    nonisolated init() {}

    /// Runs `job` on the main thread soon, unless the window has ended by then. Callable
    /// from any thread (a worker's answer); what the job holds is let go either way.
    nonisolated func post(priority: Int32 = G_PRIORITY_DEFAULT, _ job: @escaping MainThread.Job) {
        MainThread.post(priority: priority) { [weak self] in
            guard let self, !self.isOver else { return }
            job()
        }
    }

    /// Runs `job` once the events the display server has already sent (keys typed ahead
    /// among them) have been handled, and what is due has been drawn: GDK's events and
    /// GTK's redraws come before low-priority work.
    func afterPendingEvents(_ job: @escaping MainThread.Job) {
        post(priority: G_PRIORITY_LOW, job)
    }

    /// As `post`, for a job of `owner`, held weakly: it runs only while the owner lives too.
    nonisolated func post<Owner: AnyObject & Sendable>(
        to owner: Owner, _ job: @escaping @Sendable @MainActor (Owner) -> Void
    ) {
        post { [weak owner] in
            guard let owner else { return }
            job(owner)
        }
    }

    /// Runs `job` once after `milliseconds`, unless the window has ended.
    @discardableResult
    func after(milliseconds: UInt32, _ job: @escaping MainThread.Job) -> SourceHandle {
        track(
            MainThread.after(milliseconds: milliseconds) { [weak self] in
                guard let self, !self.isOver else { return }
                job()
            })
    }

    /// Runs `job` every `milliseconds` while it returns true and the window lives.
    @discardableResult
    func every(milliseconds: UInt32, _ job: @escaping MainThread.Repeating) -> SourceHandle {
        track(
            MainThread.every(milliseconds: milliseconds) { [weak self] in
                guard let self, !self.isOver else { return false }
                return job()
            })
    }

    /// Runs `job` every `seconds` at idle priority while it returns true and the window lives.
    @discardableResult
    func every(seconds: UInt32, _ job: @escaping MainThread.Repeating) -> SourceHandle {
        track(
            MainThread.every(seconds: seconds) { [weak self] in
                guard let self, !self.isOver else { return false }
                return job()
            })
    }

    /// Runs `job` whenever `descriptor` is readable, while it returns true and the window
    /// lives.
    @discardableResult
    func whenReadable(_ descriptor: Int32, _ job: @escaping MainThread.Repeating) -> SourceHandle {
        track(
            MainThread.whenReadable(descriptor) { [weak self] in
                guard let self, !self.isOver else { return false }
                return job()
            })
    }

    /// The handler `id` of `object` is disconnected at the end. For objects that outlive
    /// the window (the application, GTK's settings, a screen) or that emit while the
    /// window is torn down (focus and notify signals of its widgets).
    func hold(_ object: some GObjectConvertible, handler id: UInt) {
        guard !isOver else { return g_signal_handler_disconnect(object.objectPointer, gulong(id)) }
        connections.append((GObjectRef(adding: object.objectPointer), id))
    }

    /// `body` runs at the end, before the window's widgets are freed.
    func onEnd(_ body: @escaping () -> Void) {
        endings.append(body)
    }

    /// The window ends: its parts finish (last registered first), its handlers are
    /// disconnected, its timers removed, and jobs still on their way are dropped. Once.
    func end() {
        guard !isOver else { return }
        isOver = true
        for body in endings.reversed() { body() }
        endings = []
        for connection in connections
        where g_signal_handler_is_connected(connection.object.pointer, gulong(connection.id)) != 0 {
            g_signal_handler_disconnect(connection.object.pointer, gulong(connection.id))
        }
        connections = []
        for source in sources { source.handle?.cancel() }
        sources = []
    }

    private func track(_ handle: SourceHandle) -> SourceHandle {
        // Timers come and go while typing: those that fired are let go of as new ones come.
        if sources.count >= 32 { sources.removeAll { $0.handle?.isActive != true } }
        sources.append(WeakSource(handle: handle))
        return handle
    }
}

private struct WeakSource {
    weak var handle: SourceHandle?
}
