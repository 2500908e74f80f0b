// Ctrl+C during long work (--export, --write-back): a request to stop before the next
// photo, so that every file is either done or untouched, rather than death mid-write.

import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGINT while long work runs. (A global: a signal handler may capture nothing.)
private let requested = Atomic<Bool>(false)

/// SIGINT sets a flag instead of killing the process; SA_RESTART keeps the photo being
/// written from seeing EINTR. A second Ctrl+C still stops a run at once (SA_RESETHAND):
/// files are written under temporary names, so even then none is left cut short under its
/// own name. A SIGINT ignored from the start (a background job of a script) stays ignored.
struct Interruption {
    private let previous: sigaction

    static func `catch`() -> Interruption {
        requested.store(false, ordering: .relaxed)
        var previous = sigaction()
        sigaction(SIGINT, nil, &previous)
        // SIG_IGN is the handler address 1.
        if let handler = previous.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) == 1 {
            return Interruption(previous: previous)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in requested.store(true, ordering: .relaxed) }
        action.sa_flags = SA_RESTART | Int32(bitPattern: UInt32(SA_RESETHAND))
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, &previous)
        return Interruption(previous: previous)
    }

    var isRequested: Bool { requested.load(ordering: .relaxed) }

    func restore() {
        var previous = previous
        sigaction(SIGINT, &previous, nil)
    }
}
