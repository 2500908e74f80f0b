// Marks of start-up's phases on standard error when CAPTION_STARTUP_TRACE is set, for the
// timeline in docs/performance.md and the start-up guard of `make test`.

import CStartupTrace
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// Each phase is marked once, as one line, `caption-startup PHASE NANOSECONDS`: the time
/// on CLOCK_MONOTONIC, the clock a caller that spawned the program reads too, so the phases
/// line up with the spawn without a clock of their own. One write(2) each, so that a
/// system-call trace (strace) sees the marks in order with the files opened around them.
public enum StartupTrace {
    /// Read once; without the variable a mark costs a load and a branch.
    private static let isOn = getenv("CAPTION_STARTUP_TRACE") != nil && caption_startup_trace_linked() == 1
    private static let marked = Marked()

    public static func mark(_ phase: StaticString) {
        guard isOn, marked.insert(phase.description) else { return }
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let line = "caption-startup \(phase) \(Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec))\n"
        line.withCString { _ = write(2, $0, strlen($0)) }
    }

    /// The phases marked so far: the library's queue marks beside the main thread.
    private final class Marked: @unchecked Sendable {
        private let lock = Lock()
        private var phases: Set<String> = []

        func insert(_ phase: String) -> Bool { lock.withLock { phases.insert(phase).inserted } }
    }
}
