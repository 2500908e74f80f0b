// Background work that must never compete with the main thread: a thread of its own, niced.

import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// How much lower than the app's other threads. On Linux the nice value belongs to a
/// thread, and the threads it starts inherit it; at 10 it gets about a tenth of a core that
/// a normal thread also wants, and all of an idle one.
private let niceness: Int32 = 10

public enum LowPriorityThread {
    /// Runs `body` on a new, detached thread at the lower priority. A pooled thread (a
    /// dispatch queue's) is never niced: it could not be raised again for the next work.
    public static func run(_ body: @escaping @Sendable () -> Void) {
        let thread = PosixThread.start {
            // 0: this thread. Lowering one's own priority needs no privilege; failing to
            // only costs the courtesy.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            body()
        }
        if let thread { pthread_detach(thread) } else { body() }
    }
}

/// A serial queue on one long-lived thread at the lower priority, for a stream of small jobs
/// where a thread each would cost more than the work: thumbnails while the user scrolls.
/// A dispatch queue's pooled threads cannot be niced, and at normal priority thumbnails
/// for a fast scroll took the CPU from the main thread and the display server on a
/// two-core machine (docs/performance.md, the library view).
public final class LowPriorityQueue: @unchecked Sendable {
    // `jobs` and `started` are read and written only under `lock`.
    private let lock = Lock()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false
    private let waiting = DispatchSemaphore(value: 0)

    public init() {}

    public func async(_ job: @escaping @Sendable () -> Void) {
        let start = lock.withLock {
            jobs.append(job)
            defer { started = true }
            return !started
        }
        if start {
            LowPriorityThread.run { [self] in
                while true {
                    waiting.wait()
                    let next = lock.withLock { jobs.isEmpty ? nil : jobs.removeFirst() }
                    next?()
                }
            }
        }
        waiting.signal()
    }
}
