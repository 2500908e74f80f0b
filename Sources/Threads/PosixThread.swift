// A plain POSIX thread running one closure: the one place the Threads module starts one.

#if canImport(Glibc)
    import Glibc
#endif

enum PosixThread {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts a thread running `body`; nil when none could be started, and then `body` has
    /// not run (the caller runs it, or gives up). The thread is the caller's to join or
    /// detach. `body` crosses to the new thread: the callers pass work made for that.
    static func start(_ body: @escaping () -> Void) -> pthread_t? {
        let job = Unmanaged.passRetained(Job(body))
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { raw in
                // raw is the Job passed just below; pthread hands it back unchanged.
                Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, job.toOpaque())
        guard started == 0 else {
            job.release()
            return nil
        }
        return thread
    }
}
