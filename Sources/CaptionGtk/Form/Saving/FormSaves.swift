// Every library write the form makes, on the library's queue, and what follows each one
// whatever the form shows: the caption into the photo or beside it, the offers learning it.

import CGtk
import CaptionLibrary
import CaptionQueue
import CaptionText

/// The form decides what it shows after a write; this holds what is in flight, so that the
/// draft keeps photos not yet saved and a second Done waits for the first.
@MainActor
final class FormSaves {
    typealias Saved = @MainActor (Result<CaptionLibrary.Entry, LibraryError>) -> Void
    typealias Removed = @MainActor (Result<Void, LibraryError>) -> Void

    private let library: LibraryAccess
    private let writer: CaptionWriter
    private let completion: CompletionOffers
    /// Told of each entry a save adds to the library (not of an edit's update): it is sent
    /// where the menu says.
    var onAdded: ((CaptionLibrary.Entry) -> Void)?

    /// Photos whose save is on its way, with their words: they have left the queue, and
    /// stay in the draft until the library has them.
    private(set) var savingPhotos: [QueuedPhoto] = []
    /// Saves waiting for the next frame before they go to the library's queue.
    private var unstored: [(ticket: Ticket, photo: QueuedPhoto, loaded: LoadedPhoto?, credits: Credits, then: Saved)] =
        []
    /// Saves on the library's queue, by ticket: what each made, for a removal queued behind it.
    private var stored: [Ticket: Made] = [:]
    /// Each save's offer, settled when the library answers it (CompletionOffers).
    private var offered: [Ticket: Int] = [:]

    /// The entry a save's job made. Written by that job on the library's queue and read only
    /// by a removal queued behind it on the same queue, which runs after it.
    private final class Made: @unchecked Sendable {
        var id: Int64?
    }
    /// An edited entry's update is on its way.
    private var updating = 0
    /// The batch of "Caption the rest of the queue the same" on its way, for tests.
    private(set) var captioningRest: WorkProgress?
    /// The captions saved or updated here, newest last, from the Enter that asked for each
    /// (not from the library's answer): Ctrl+D right after Enter repeats that caption, however
    /// late the library has it. One whose save failed or was undone leaves; with none left,
    /// the library's newest entry is asked for instead.
    private var recent: [(ticket: Ticket, words: CaptionWords)] = []
    private var lastTicket = 0
    /// What waits for the saves in flight (see `whenIdle`).
    private var afterSaves: (() -> Void)?
    /// The standing credits each new entry is saved with (expanded for its photo); an
    /// edited entry keeps those it was saved with.
    var credits = Credits.none

    init(library: LibraryAccess, writer: CaptionWriter, completion: CompletionOffers) {
        self.library = library
        self.writer = writer
        self.completion = completion
    }

    /// A save is in flight (the draft keeps its words, quitting waits for it).
    var isSaving: Bool { updating > 0 || !savingPhotos.isEmpty }

    /// One save asked for by the form, from its Enter on.
    struct Ticket: Hashable {
        fileprivate let number: Int
    }

    private func newTicket(remembering words: CaptionWords) -> Ticket {
        lastTicket += 1
        let ticket = Ticket(number: lastTicket)
        recent.append((ticket, words))
        // Ctrl+D needs only the newest; a few more stand in for ones that fail or are undone.
        if recent.count > 16 { recent.removeFirst(recent.count - 16) }
        return ticket
    }

    private func forgetRecent(_ ticket: Ticket) {
        recent.removeAll { $0.ticket == ticket }
    }

    /// Runs `body` now if no save is on its way, else once none is, after the handler that
    /// said "Saved". Only the latest waits: an older one was about a photo no longer shown.
    func whenIdle(_ body: @escaping () -> Void) {
        if isSaving { afterSaves = body } else { body() }
    }

    private func runWhenIdle() {
        guard !isSaving, let body = afterSaves else { return }
        afterSaves = nil
        body()
    }

    // MARK: A photo of the queue

    /// Saves a photo of the queue once the next photo's frame is drawn: writing and syncing
    /// the copy would otherwise take a core from the main thread and the X server while
    /// they paint it. The photo counts as in flight (and stays in the draft) from now on,
    /// and its words are the last caption (Ctrl+D) and offered as typed, from now on too.
    /// `loaded` is nil for a photo whose check had not finished: the save checks it.
    @discardableResult
    func add(_ photo: QueuedPhoto, loaded: LoadedPhoto?, then: @escaping Saved) -> Ticket {
        let ticket = newTicket(remembering: photo.words)
        offered[ticket] = completion.recordUnsettled(photo.words)
        savingPhotos.append(photo)
        unstored.append((ticket, photo, loaded, credits, then))
        MainThread.post(priority: G_PRIORITY_LOW) { [weak self] in self?.storeWaiting() }
        return ticket
    }

    /// Takes back a save asked for by Enter (Ctrl+Z before the library answered): its words
    /// are no longer the last caption nor offered. If it had not yet gone to the library, the
    /// library never hears of it; else the entry's removal goes on the library's queue now,
    /// right behind the save, before any write asked for after this key. `then` hears of a
    /// removal that failed.
    func withdraw(_ ticket: Ticket, words: CaptionWords, then: @escaping Removed) {
        forgetRecent(ticket)
        if let offer = offered.removeValue(forKey: ticket) { completion.settle(offer) }
        completion.forget(words)
        if let index = unstored.firstIndex(where: { $0.ticket == ticket }) {
            let photo = unstored.remove(at: index).photo
            if let saving = savingPhotos.firstIndex(of: photo) { savingPhotos.remove(at: saving) }
            runWhenIdle()
            return
        }
        guard let made = stored[ticket] else { return }
        library.perform(
            { library throws(LibraryError) in
                // No entry when the save itself failed: nothing to take back.
                if let id = made.id { _ = try library.remove(id: id) }
            },
            completion: { result in then(result) })
    }

    /// Hands every waiting save to the library's queue now; quitting calls this before it
    /// waits for that queue, so that a Done just before Ctrl+Q is saved.
    func storeWaiting() {
        let waiting = unstored
        unstored = []
        for (ticket, photo, loaded, credits, then) in waiting {
            store(photo, ticket: ticket, loaded: loaded, credits: credits, then: then)
        }
    }

    private func store(
        _ photo: QueuedPhoto, ticket: Ticket, loaded: LoadedPhoto?, credits template: Credits,
        then: @escaping Saved
    ) {
        let editor = library.claimant
        let made = Made()
        stored[ticket] = made
        library.perform(
            { library throws(LibraryError) in
                let credits = StandingCredits.forPhoto(template, at: photo.path).credits
                let entry =
                    if let loaded {
                        try library.add(loaded, words: photo.words, credits: credits, editor: editor)
                    } else {
                        try library.add(photoAt: photo.path, words: photo.words, credits: credits, editor: editor)
                    }
                made.id = entry.id
                return entry
            },
            completion: { [weak self] result in
                guard let self else { return }
                self.stored[ticket] = nil
                if let offer = self.offered.removeValue(forKey: ticket) { self.completion.settle(offer) }
                if let index = self.savingPhotos.firstIndex(of: photo) { self.savingPhotos.remove(at: index) }
                switch result {
                case .success(let entry):
                    self.writer.saved(entry, from: photo.path, sha256: loaded?.sha256)
                    self.onAdded?(entry)
                case .failure:
                    // Withdrawn already if Ctrl+Z took it back: then nothing is left to forget.
                    if self.recent.contains(where: { $0.ticket == ticket }) {
                        self.forgetRecent(ticket)
                        self.completion.forget(photo.words)
                    }
                }
                then(result)
                self.runWhenIdle()
            })
    }

    /// Undo of a save: the entry leaves the library, and its words are no longer the last
    /// caption nor offered, from now on.
    func undo(_ entry: CaptionLibrary.Entry, ticket: Ticket?, then: @escaping Removed) {
        if let ticket { forgetRecent(ticket) }
        completion.forget(entry.words)
        remove(entry, then: then)
    }

    /// The entry leaves the library (its words already forgotten here).
    func remove(_ entry: CaptionLibrary.Entry, then: @escaping Removed) {
        library.perform(
            { library throws(LibraryError) in _ = try library.remove(id: entry.id) },
            completion: { result in then(result) })
    }

    // MARK: An entry being edited

    /// Editing a saved entry updates its words; its photo is already in the library. Its
    /// words then go where its photo came from, if Caption knows. A change someone else made
    /// to the entry since it was read (another editor, another Caption) is not saved over.
    func update(_ entry: CaptionLibrary.Entry, words: CaptionWords, then: @escaping Saved) {
        updating += 1
        let id = entry.id
        let read = entry.updated
        library.perform(
            { library throws(LibraryError) in try library.update(id: id, words: words, unchangedSince: read) },
            completion: { [weak self] result in
                guard let self else { return }
                self.updating -= 1
                if case .success(let entry) = result { _ = self.newTicket(remembering: entry.words) }
                then(result)
                if case .success(let entry) = result, let source = entry.source {
                    self.writer.saved(entry, from: source, sha256: nil)
                }
                self.runWhenIdle()
            })
    }

    /// The entry as the library has it now, for an edit that met someone else's change.
    func current(_ entry: CaptionLibrary.Entry, then: @escaping @MainActor (CaptionLibrary.Entry?) -> Void) {
        let id = entry.id
        library.perform(
            { library throws(LibraryError) in try library.entry(id: id) },
            completion: { result in then((try? result.get()) ?? nil) })
    }

    // MARK: Reuse: the last caption again, the same caption for the rest

    /// The last saved caption's words: this window's, else the library's newest entry's,
    /// else nil. The library is asked while the caller waits: the keys after Ctrl+D belong
    /// after the words it puts in.
    var lastSaved: CaptionWords? {
        if let words = recent.last?.words { return words }
        let newest = library.performAndWait { library throws(LibraryError) in
            try library.entries(after: nil, limit: 1).first
        }
        return (try? newest.get())?.flatMap { $0 }?.words
    }

    /// Saves every photo of `batch` with the same words, in one step on the library's queue,
    /// advancing `progress` until it is cancelled. `loaded` is the photo that was on the
    /// form, already read and checked. A photo that cannot be saved is named in the outcome.
    func captionRest(
        _ batch: [QueuedPhoto], words: CaptionWords, loaded: (path: String, photo: LoadedPhoto?),
        progress: WorkProgress,
        then: @escaping @MainActor (Result<RestCaptioned, LibraryError>) -> Void
    ) {
        captioningRest = progress
        savingPhotos += batch
        let template = credits
        let editor = library.claimant
        library.perform(
            { library throws(LibraryError) in
                var saved: [CaptionLibrary.Entry] = []
                var savedPaths: [String] = []
                var failed: [(path: String, message: String)] = []
                for photo in batch where !progress.isCancelled {
                    do throws(LibraryError) {
                        let credits = StandingCredits.forPhoto(template, at: photo.path).credits
                        if photo.path == loaded.path, let photo = loaded.photo {
                            saved.append(try library.add(photo, words: words, credits: credits, editor: editor))
                        } else {
                            saved.append(
                                try library.add(photoAt: photo.path, words: words, credits: credits, editor: editor))
                        }
                        savedPaths.append(photo.path)
                    } catch {
                        failed.append((photo.path, error.message))
                    }
                    progress.advance()
                }
                return RestCaptioned(
                    saved: saved, savedPaths: savedPaths, failed: failed.map(\.path), messages: failed.map(\.message))
            },
            completion: { [weak self] result in
                guard let self else { return }
                self.captioningRest = nil
                self.savingPhotos.removeAll { batch.contains($0) }
                if case .success(let outcome) = result {
                    // Each caption also goes where the menu says, as a single save's does.
                    for (entry, path) in zip(outcome.saved, outcome.savedPaths) {
                        self.writer.saved(entry, from: path, sha256: path == loaded.path ? loaded.photo?.sha256 : nil)
                        self.onAdded?(entry)
                        self.completion.record(entry.words)
                    }
                    if !outcome.saved.isEmpty { _ = self.newTicket(remembering: words) }
                }
                then(result)
                self.runWhenIdle()
            })
    }

    /// Undo of the batch: its entries leave the library.
    func undoRest(_ entries: [CaptionLibrary.Entry], then: @escaping Removed) {
        if let words = entries.first?.words { recent.removeAll { $0.words == words } }
        for entry in entries { completion.forget(entry.words) }
        let ids = entries.map(\.id)
        library.perform(
            { library throws(LibraryError) in for id in ids { _ = try library.remove(id: id) } },
            completion: { result in then(result) })
    }
}

/// What "Caption the rest of the queue the same" did on the library's queue.
struct RestCaptioned: Sendable {
    let saved: [CaptionLibrary.Entry]
    /// The photos of `saved`, in the same order.
    let savedPaths: [String]
    /// The photos that could not be saved, and why.
    let failed: [String]
    let messages: [String]
}
