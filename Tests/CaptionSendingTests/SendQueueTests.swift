// The queue of sends in its file, and the thread that sends it: what survives a restart,
// a failure tried again, one that stops the queue, an entry gone before its turn.

import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Dispatch
import Foundation
import Testing
import Threads

@testable import CaptionSending

@Suite struct SendQueueTests {
    @Test func theQueueIsInItsFileAfterEachChangeAndReadBackAsItWas() throws {
        let scratch = Scratch()
        let path = scratch.file("state/caption/send-queue")
        let queue = SendQueue(path: path)
        let first = SendItem(library: "/home/ana/My\tLibrary\nTwo%", entryID: 3, destination: "Agency")
        let second = SendItem(library: "postgresql://desk/photos", entryID: 12, destination: "Wire 100%")
        #expect(queue.add(first) == nil)
        #expect(queue.add(second) == nil)
        #expect(queue.add(first) == nil)
        #expect(SendQueue(path: path).pending == [first, second])
        #expect(queue.remove(first) == nil)
        #expect(SendQueue(path: path).pending == [second])
        #expect(mode(path) & 0o777 == 0o600)
    }

    @Test func aLineEditedIntoNonsenseIsLeftOutAndTheOthersStay() throws {
        let scratch = Scratch()
        let path = scratch.write(
            "send-queue", Array("/lib\t1\tAgency\nnot a line\n/lib\tx\tAgency\n/lib\t%ZZ\tA\n/lib\t2\tWire\n".utf8))
        #expect(
            SendQueue(path: path).pending == [
                SendItem(library: "/lib", entryID: 1, destination: "Agency"),
                SendItem(library: "/lib", entryID: 2, destination: "Wire"),
            ])
    }

    @Test func aQueueThatCannotBeWrittenSaysWhyAndStillSends() throws {
        let scratch = Scratch()
        let blocked = scratch.write("file", [1])
        let queue = SendQueue(path: blocked + "/send-queue")
        let item = SendItem(library: "/lib", entryID: 1, destination: "Agency")
        let problem = queue.add(item)
        #expect(problem?.isEmpty == false)
        #expect(queue.pending == [item])
    }
}

/// Events from the sending thread, waited on by condition, never by time.
final class Events: @unchecked Sendable {
    private let lock = Lock()
    private var events: [SendEvent] = []
    private let arrived = DispatchSemaphore(value: 0)

    func add(_ event: SendEvent) {
        lock.withLock { events.append(event) }
        arrived.signal()
    }

    /// Waits until `condition` holds of the events so far; false after a minute.
    func wait(until condition: ([SendEvent]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + 60
        while true {
            if condition(lock.withLock({ events })) { return true }
            if arrived.wait(timeout: deadline) == .timedOut { return condition(lock.withLock({ events })) }
        }
    }

    var all: [SendEvent] { lock.withLock { events } }
}

@Suite struct SendWorkerTests {
    @Test func photosQueuedBeforeARestartAreSentAfterIt() throws {
        let desk = try Desk(titles: ["One", "Two"])
        let outbox = desk.scratch.folder("outbox")
        let destination = try Destination(name: "Outbox", address: outbox)
        let queueFile = desk.scratch.file("state/send-queue")
        // The first run queued both and ended before sending any.
        let before = SendQueue(path: queueFile)
        before.add(SendItem(library: desk.library, entryID: 2, destination: "Outbox"))
        before.add(SendItem(library: desk.library, entryID: 1, destination: "Outbox"))
        let events = Events()
        let worker = SendWorker(
            queue: SendQueue(path: queueFile), destinations: { $0 == "Outbox" ? destination : nil },
            report: { events.add($0) })
        defer { worker.stop() }
        worker.resume()
        #expect(events.wait { $0.contains(.idle) })
        #expect(desk.scratch.names(in: outbox) == ["One.jpg", "Two.jpg"])
        let sent = events.all.compactMap { event -> Int64? in
            if case .sent(let item, _, _) = event { return item.entryID }
            return nil
        }
        #expect(sent == [2, 1])
        #expect(SendQueue(path: queueFile).pending.isEmpty)
    }

    @Test func aServerAwayIsTriedAgainUntilItAnswers() throws {
        let servers = try Servers()
        let desk = try Desk()
        let (folderName, folder) = servers.folder()
        // The first connection is cut before anything passes: a server away for a moment.
        let relay = try FaultyRelay(serverPort: servers.sftpPort, after: 1, .cut)
        defer { relay.stop() }
        let destination = try servers.sftpDestination(through: relay.port, folder: folderName)
        let events = Events()
        let worker = SendWorker(
            queue: SendQueue(path: desk.scratch.file("send-queue")), backOff: [0.05],
            destinations: { _ in destination }, password: { _ in servers.password }, report: { events.add($0) })
        defer { worker.stop() }
        worker.send(SendItem(library: desk.library, entryID: 1, destination: "Relayed"))
        #expect(events.wait { $0.contains(.idle) })
        let kinds = events.all.map { event -> String in
            switch event {
            case .sending: "sending"
            case .sent: "sent"
            case .retrying(_, let error, _): "retrying \(error.isTransient)"
            case .stopped: "stopped"
            case .dropped: "dropped"
            case .idle: "idle"
            }
        }
        #expect(kinds == ["sending", "retrying true", "sending", "sent", "idle"])
        #expect(desk.scratch.names(in: folder) == ["Harbour at dawn.jpg"])
    }

    @Test func aRefusedPasswordStopsTheQueueUntilResumed() throws {
        let servers = try Servers()
        let desk = try Desk()
        let (folderName, folder) = servers.folder()
        let destination = try Destination(name: "Agency", address: servers.ftp + folderName + "/")
        let password = Locked("wrong")
        let events = Events()
        let worker = SendWorker(
            queue: SendQueue(path: desk.scratch.file("send-queue")), backOff: [0.05],
            destinations: { _ in destination }, password: { _ in password.withLock { $0 } },
            report: { events.add($0) })
        defer { worker.stop() }
        let item = SendItem(library: desk.library, entryID: 1, destination: "Agency")
        worker.send(item)
        #expect(
            events.wait {
                $0.contains { if case .stopped(_, let error) = $0 { error.kind == .loginRefused } else { false } }
            })
        #expect(worker.queue.pending == [item])
        // Mended: the next resume sends it.
        password.withLock { $0 = servers.password }
        worker.resume()
        #expect(events.wait { $0.contains(.idle) })
        #expect(desk.scratch.names(in: folder) == ["Harbour at dawn.jpg"])
        #expect(worker.queue.pending.isEmpty)
    }

    @Test func anEntryRemovedBeforeItsTurnIsNotSent() throws {
        let desk = try Desk(titles: ["Kept", "Undone"])
        let outbox = desk.scratch.folder("outbox")
        let destination = try Destination(name: "Outbox", address: outbox)
        _ = try Library(directory: desk.library).remove(id: 2)
        let events = Events()
        let worker = SendWorker(
            queue: SendQueue(path: desk.scratch.file("send-queue")), destinations: { _ in destination },
            report: { events.add($0) })
        defer { worker.stop() }
        // Both queued before the thread starts: were the second added after, the thread
        // could pass over the first and fall idle in between.
        worker.queue.add(SendItem(library: desk.library, entryID: 2, destination: "Outbox"))
        worker.queue.add(SendItem(library: desk.library, entryID: 1, destination: "Outbox"))
        worker.resume()
        #expect(events.wait { $0.contains(.idle) })
        #expect(desk.scratch.names(in: outbox) == ["Kept.jpg"])
        #expect(worker.queue.pending.isEmpty)
        let sent = events.all.compactMap { event -> Int64? in
            if case .sent(let item, _, _) = event { return item.entryID }
            return nil
        }
        #expect(sent == [1])
    }
}
