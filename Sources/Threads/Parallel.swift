// Pieces of work at once on plain POSIX threads: loading a photo decodes it while it
// hashes it, and a preview's JPEG is decoded from both ends, so on two cores each costs
// about the longer of its parts.

#if canImport(Glibc)
    import Glibc
#endif

public enum Parallel {
    /// Runs each of `background` on a new thread and `foreground` on this one; returns
    /// when all are done. Work that gets no thread (none left) runs here, in turn.
    public static func run(_ background: [() -> Void], _ foreground: () -> Void) {
        var threads: [pthread_t] = []
        for body in background {
            if let thread = PosixThread.start(body) { threads.append(thread) } else { body() }
        }
        foreground()
        for thread in threads { pthread_join(thread, nil) }
    }
}
