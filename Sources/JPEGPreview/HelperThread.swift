// The second decoding thread: a plain POSIX thread, joined before the data it reads is freed.

#if canImport(Glibc)
import Glibc
#endif

struct HelperThread {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private var thread = pthread_t()

    /// Starts `body` on a new thread; nil when no thread can be had (the caller then does
    /// the work itself).
    static func start(_ body: @escaping () -> Void) -> HelperThread? {
        let job = Unmanaged.passRetained(Job(body))
        var helper = HelperThread()
        guard pthread_create(&helper.thread, nil, { raw in
            // raw is the Job passed below, handed back unchanged.
            Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, job.toOpaque()) == 0 else {
            job.release()
            return nil
        }
        return helper
    }

    func join() { pthread_join(thread, nil) }
}
