// The processor time the calling thread spends, for the few tests that bound how much work
// something takes: unlike the wall clock it does not grow when other processes share the
// processors (a build, the CPU hog), so such a bound fails only when the work itself grew.

import Foundation

public enum ThreadTime {
    /// The calling thread's processor time so far.
    public static var now: Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// The processor time `body` takes on the calling thread.
    public static func measure(_ body: () throws -> Void) rethrows -> Duration {
        let start = now
        try body()
        return now - start
    }
}
