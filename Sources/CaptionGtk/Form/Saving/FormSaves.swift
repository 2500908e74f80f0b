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

    /// Photos whose save is on its way, with their words: they have left the queue, and
    /// stay in the draft until the library has them.
    private(set) var savingPhotos: [QueuedPhoto] = []
    /// Saves waiting for the next frame before they go to the library's queue.
    private var unstored: [(photo: QueuedPhoto, loaded: LoadedPhoto?, credits: Credits, then: Saved)] = []
    /// An edited entry's update is on its way.
    private var updating = false
    /// The batch of "Caption the rest of the queue the same" on its way, for tests.
    private(set) var captioningRest: WorkProgress?
    /// The words of the last caption saved or updated here; nil until then (or after its
    /// save was undone), when the library's newest entry is asked for instead.
    private var lastSaved: CaptionWords?
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

    /// A save is in flight: further submits wait for it instead of saving twice.
    var isSaving: Bool { updating || !savingPhotos.isEmpty }

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
    /// they paint it. The photo counts as in flight (and stays in the draft) from now on.
    func add(_ photo: QueuedPhoto, loaded: LoadedPhoto?, then: @escaping Saved) {
        savingPhotos.append(photo)
        unstored.append((photo, loaded, credits, then))
        MainThread.post(priority: G_PRIORITY_LOW) { [weak self] in self?.storeWaiting() }
    }

    /// Hands every waiting save to the library's queue now; quitting calls this before it
    /// waits for that queue, so that a Done just before Ctrl+Q is saved.
    func storeWaiting() {
        let waiting = unstored
        unstored = []
        for (photo, loaded, credits, then) in waiting { store(photo, loaded: loaded, credits: credits, then: then) }
    }

    private func store(_ photo: QueuedPhoto, loaded: LoadedPhoto?, credits template: Credits, then: @escaping Saved) {
        let editor = library.claimant
        library.perform(
            { library throws(LibraryError) in
                let credits = StandingCredits.forPhoto(template, at: photo.path).credits
                if let loaded { return try library.add(loaded, words: photo.words, credits: credits, editor: editor) }
                return try library.add(photoAt: photo.path, words: photo.words, credits: credits, editor: editor)
            },
            completion: { [weak self] result in
                guard let self else { return }
                if let index = self.savingPhotos.firstIndex(of: photo) { self.savingPhotos.remove(at: index) }
                if case .success(let entry) = result {
                    self.writer.saved(entry, from: photo.path, sha256: loaded?.sha256)
                    self.lastSaved = entry.words
                    self.completion.record(entry.words)
                }
                then(result)
                self.runWhenIdle()
            })
    }

    /// Undo of a save: the entry leaves the library.
    func undo(_ entry: CaptionLibrary.Entry, then: @escaping Removed) {
        lastSaved = nil  // the library's newest entry is the last caption again
        library.perform(
            { library throws(LibraryError) in _ = try library.remove(id: entry.id) },
            completion: { [weak self] result in
                if case .success = result { self?.completion.forget(entry.words) }
                then(result)
            })
    }

    // MARK: An entry being edited

    /// Editing a saved entry updates its words; its photo is already in the library. Its
    /// words then go where its photo came from, if Caption knows. A change someone else made
    /// to the entry since it was read (another editor, another Caption) is not saved over.
    func update(_ entry: CaptionLibrary.Entry, words: CaptionWords, then: @escaping Saved) {
        updating = true
        let id = entry.id
        let read = entry.updated
        library.perform(
            { library throws(LibraryError) in try library.update(id: id, words: words, unchangedSince: read) },
            completion: { [weak self] result in
                guard let self else { return }
                self.updating = false
                if case .success(let entry) = result { self.lastSaved = entry.words }
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

    /// Hands `body` the last saved caption's words: this session's, else the library's
    /// newest entry's (read on the library's queue), else nil.
    func withLastSaved(_ body: @escaping @MainActor (CaptionWords?) -> Void) {
        if let lastSaved { return body(lastSaved) }
        library.perform(
            { library throws(LibraryError) in try library.entries(after: nil, limit: 1).first },
            completion: { [weak self] result in
                let newest = (try? result.get())?.flatMap { $0 }?.words
                body(self?.lastSaved ?? newest)
            })
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
                        self.completion.record(entry.words)
                    }
                    if !outcome.saved.isEmpty { self.lastSaved = words }
                }
                then(result)
                self.runWhenIdle()
            })
    }

    /// Undo of the batch: its entries leave the library.
    func undoRest(_ entries: [CaptionLibrary.Entry], then: @escaping Removed) {
        lastSaved = nil
        let ids = entries.map(\.id)
        library.perform(
            { library throws(LibraryError) in for id in ids { _ = try library.remove(id: id) } },
            completion: { [weak self] result in
                if case .success = result {
                    for entry in entries { self?.completion.forget(entry.words) }
                }
                then(result)
            })
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
