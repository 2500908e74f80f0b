// Sending as you go: each photo saved is handed to the sending thread for the destination
// the menu chose; the header says what is being sent, and a failure is said once, in the
// message bar (which a screen reader announces), with the reason.

import CaptionLibrary
import CaptionSending
import Localization

@MainActor
final class PhotoSender {
    private let worker: SendWorker
    private let library: LibraryAccess
    private let messages: MessageBar
    /// Where saved photos go; nil: nowhere.
    var destination: String?
    /// "Sending 3 to Agency", for the header while photos wait; nil when none does.
    private(set) var headerText: String?
    /// Told when `headerText` changes.
    var onHeaderChanged: (() -> Void)?
    /// Each event as the window handles it (tests wait on these).
    var onEvent: ((SendEvent) -> Void)?
    /// The failure said last, so that each try that fails the same way is not said again.
    private var said: String?

    /// `queueFile` keeps the sends waiting across restarts, `destinationsFile` names the
    /// destinations (tests pass their own); `backOff` and `patience` as `SendWorker` takes them.
    init(
        library: LibraryAccess, messages: MessageBar, lifetime: Lifetime, queueFile: String,
        destinationsFile: String, backOff: [Double] = SendWorker.backOff, patience: Patience = Patience()
    ) {
        self.library = library
        self.messages = messages
        // The sending thread reports to this sender, once it exists, on the main thread.
        let box = Box()
        worker = SendWorker(
            queue: SendQueue(path: queueFile), backOff: backOff, patience: patience,
            destinations: { DestinationFile.destination(named: $0, in: destinationsFile) },
            report: { [weak lifetime] event in lifetime?.post { box.sender?.handle(event) } })
        box.sender = self
    }

    /// Holds the sender weakly for the sending thread's reports, which only read it on
    /// the main thread.
    private final class Box: @unchecked Sendable {
        weak var sender: PhotoSender?
    }

    /// The photos a crash or a quit left waiting go on, once the window is up: libcurl is
    /// not loaded before the first frame.
    func resumeWaiting() {
        guard !worker.queue.pending.isEmpty else { return }
        worker.resume()
    }

    /// A new entry was saved: it goes to the destination chosen, if any.
    func saved(_ entry: Entry) {
        guard let destination else { return }
        worker.send(SendItem(library: library.location, entryID: entry.id, destination: destination))
        update(waiting: worker.queue.pending.count, to: destination)
    }

    /// The window is going: the send under way ends, the rest wait in the queue's file.
    func finish() { worker.stop() }

    private func handle(_ event: SendEvent) {
        switch event {
        case .sending(let item, let waiting):
            update(waiting: waiting + 1, to: item.destination)
        case .sent(let item, _, let waiting):
            if said != nil {
                said = nil
                messages.clearProblem()
            }
            update(waiting: waiting, to: item.destination)
        case .retrying(let item, let error, let seconds):
            say(
                fill(
                    tr("Photos are not reaching {destination}: {reason}. Caption tries again in {seconds} s."),
                    [
                        "destination": item.destination, "reason": error.message,
                        "seconds": String(Int(seconds.rounded(.up))),
                    ]), sameAs: item.destination + error.message)
        case .stopped(let item, let error):
            say(
                fill(
                    tr("Photos are not being sent to {destination}: {reason}. They wait until the next save."),
                    ["destination": item.destination, "reason": error.message]), sameAs: nil)
        case .dropped(_, let error):
            say(fill(tr("A photo could not be sent: {reason}"), ["reason": error.message]), sameAs: nil)
        case .idle:
            update(waiting: 0, to: nil)
        }
        onEvent?(event)
    }

    /// A failure in the message bar, unless the same one was said last (a key of what
    /// makes it the same, nil: always said).
    private func say(_ text: String, sameAs key: String?) {
        if let key, said == key { return }
        said = key ?? text
        messages.show(problem: text)
    }

    private func update(waiting: Int, to destination: String?) {
        let text =
            waiting > 0 && destination != nil
            ? fill(
                trn("Sending {count} photo to {destination}", "Sending {count} photos to {destination}", waiting),
                ["count": String(waiting), "destination": destination ?? ""]) : nil
        guard text != headerText else { return }
        headerText = text
        onHeaderChanged?()
    }
}
