// The thread that sends the queue while the user goes on captioning: one photo at a time,
// in order, a failure that may pass tried again with a growing wait.

import CaptionLibrary
import Dispatch
import Localization
import Threads

/// What the sending thread reports, on that thread: the window posts it to its own.
public enum SendEvent: Sendable, Equatable {
    /// `item` is being sent; `waiting` more after it.
    case sending(SendItem, waiting: Int)
    case sent(SendItem, name: String, waiting: Int)
    /// Failed for a reason that may pass: tried again after `seconds`.
    case retrying(SendItem, SendError, seconds: Double)
    /// Failed for a reason that will not pass by itself (a password or a key refused, no
    /// such destination): the queue waits until `resume()`.
    case stopped(SendItem, SendError)
    /// The photo could not be made ready (the library cannot give it): taken out of the
    /// queue, the others go on.
    case dropped(SendItem, SendError)
    /// Nothing left to send.
    case idle
}

public final class SendWorker: Sendable {
    /// Seconds between tries of a send that keeps failing for a reason that may pass: a
    /// few quick ones for a blip, then every five minutes for as long as the queue waits.
    public static let backOff: [Double] = [1, 3, 9, 30, 60, 120, 300]

    public let queue: SendQueue
    private let backOff: [Double]
    private let patience: Patience
    private let destinations: @Sendable (String) -> Destination?
    private let password: @Sendable (String) throws(SendError) -> String?
    private let report: @Sendable (SendEvent) -> Void
    private let wakeUp = DispatchSemaphore(value: 0)
    private let state = Locked(State())

    private struct State {
        var started = false
        var stopped = false
        var paused = false
    }

    /// `destinations` finds a destination by name (the file, read again each time: it may
    /// have changed), `password` its password (the keyring).
    public init(
        queue: SendQueue, backOff: [Double] = SendWorker.backOff, patience: Patience = Patience(),
        destinations: @escaping @Sendable (String) -> Destination? = { DestinationFile.destination(named: $0) },
        password: @escaping @Sendable (String) throws(SendError) -> String? = { name throws(SendError) in
            try Passwords.password(for: name)
        },
        report: @escaping @Sendable (SendEvent) -> Void
    ) {
        self.queue = queue
        self.backOff = backOff.isEmpty ? [1] : backOff
        self.patience = patience
        self.destinations = destinations
        self.password = password
        self.report = report
    }

    /// Adds `item` to the queue (its file first) and sends it when its turn comes.
    public func send(_ item: SendItem) {
        queue.add(item)
        resume()
    }

    /// Starts the sending thread if it is not running, and wakes it: after new items, or to
    /// try again what stopped.
    public func resume() {
        let start = state.withLock { state -> Bool in
            state.paused = false
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        if start { LowPriorityThread.run { [self] in run() } }
        wakeUp.signal()
    }

    /// Ends the thread after the send under way; the queue stays in its file.
    public func stop() {
        state.withLock { $0.stopped = true }
        wakeUp.signal()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        var libraries: [String: Library] = [:]
        var failures = 0
        var saidIdle = true
        while !isStopped {
            let paused = state.withLock { $0.paused }
            guard !paused, let item = queue.pending.first else {
                if !paused && !saidIdle {
                    report(.idle)
                    saidIdle = true
                }
                wakeUp.wait()
                continue
            }
            saidIdle = false
            report(.sending(item, waiting: queue.pending.count - 1))
            do throws(SendError) {
                let name = try sendOne(item, libraries: &libraries)
                queue.remove(item)
                failures = 0
                if let name { report(.sent(item, name: name, waiting: queue.pending.count)) }
            } catch  where error.kind == .photo {
                queue.remove(item)
                report(.dropped(item, error))
            } catch  where error.isTransient {
                let wait = backOff[min(failures, backOff.count - 1)]
                failures += 1
                report(.retrying(item, error, seconds: wait))
                // Woken early by a new photo or resume(): tried again at once.
                _ = wakeUp.wait(timeout: .now() + wait)
            } catch {
                failures = 0
                state.withLock { $0.paused = true }
                report(.stopped(item, error))
            }
        }
    }

    /// Sends one photo; its name on the server, or nil when its entry is gone (a save
    /// undone): then there is nothing to send.
    private func sendOne(_ item: SendItem, libraries: inout [String: Library]) throws(SendError) -> String? {
        guard let destination = destinations(item.destination) else {
            throw SendError(
                .keyring, fill(tr("There is no destination “{name}” any more"), ["name": item.destination]))
        }
        let library: Library
        let found: Entry?
        do throws(LibraryError) {
            if let opened = libraries[item.library] {
                library = opened
            } else {
                library = try Library.open(item.library)
                libraries[item.library] = library
            }
            found = try library.entry(id: item.entryID)
        } catch {
            // The library could not be read (a server away): tried again, as a server is.
            throw SendError(.unreachable, error.message)
        }
        guard let entry = found else { return nil }
        let password = destination.kind == .folder ? nil : try password(item.destination)
        var name: String?
        var missing: LibraryError?
        try Sender.send(
            [entry], from: library, to: destination, password: password, patience: patience, backOff: [],
            sent: { name = $0.name }, missing: { _, problem in missing = problem })
        if let missing { throw SendError(.photo, missing.message) }
        return name
    }
}
