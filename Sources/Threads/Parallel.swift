// Pieces of work at once on plain POSIX threads: loading a photo decodes it while it
// hashes it, and a preview's JPEG is decoded from both ends, so on two cores each costs
// about the longer of its parts.

#if canImport(Glibc)
    import Glibc
#endif

public enum Parallel {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs each of `background` on a new thread and `foreground` on this one; returns
    /// when all are done. Work that gets no thread (none left) runs here, in turn.
    public static func run(_ background: [() -> Void], _ foreground: () -> Void) {
        var threads: [pthread_t] = []
        for body in background {
            let job = Unmanaged.passRetained(Job(body))
            var thread = pthread_t()
            let started = pthread_create(
                &thread, nil,
                { raw in
                    // raw is the Job passed just below; pthread hands it back unchanged.
                    Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
                    return nil
                }, job.toOpaque())
            if started == 0 {
                threads.append(thread)
            } else {
                job.takeRetainedValue().body()
            }
        }
        foreground()
        for thread in threads { pthread_join(thread, nil) }
    }
}
