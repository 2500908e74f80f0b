// Photos of the queue on their way to the library, once the form has moved on: the one
// that was on the form (Done), or the rest with the same words (with a progress bar and
// Cancel). What each save did, in words, and its Undo.

import CaptionLibrary
import CaptionQueue
import CaptionText
import Localization

/// What the batch asks of the form that holds the queue.
@MainActor
protocol QueueHolder: AnyObject {
    /// The photos leave the queue while they are saved; the form shows what is left, and
    /// focus stays where it was when nothing is.
    func takeOut(_ photos: [QueuedPhoto])
    /// Photos whose save was undone (or, after a batch, not saved) come back in front of
    /// the queue, the first on the form; focus goes where the form wants it, also when none
    /// come back.
    func giveBack(_ photos: [QueuedPhoto])
    /// A photo whose save failed after the form moved on comes back into the queue without
    /// changing what the form shows (just before its photo), or onto the form if it has
    /// none. Returns true when it is on the form.
    func putBack(_ photo: QueuedPhoto) -> Bool
    /// "Next photo: b.jpg, 1 of 2.": said with the outcome, since the form changed.
    var nextPhoto: String? { get }
    /// The credits the save went with, when they changed since the save before.
    func creditsOfSave() -> String?
    func settleInputMethod()
    /// The queue changed: the draft follows.
    func formChanged()
}

/// The library writes themselves are FormSaves'; this decides what the form says of them.

@MainActor
final class QueueSaving {
    weak var holder: QueueHolder?
    private let saves: FormSaves
    private let notification: InAppNotification
    private let messages: MessageBar
    /// A photo of the queue is in the library (tests wait on it).
    var onSaved: ((CaptionLibrary.Entry) -> Void)?
    /// A photo came back because the library's server could not be reached.
    var onUnreachable: ((QueuedPhoto) -> Void)?
    /// Tests wait on this: what the batch saved (or, after Undo, nothing), and the photos
    /// that came back to the queue.
    var onRestDone: (([CaptionLibrary.Entry], [String]) -> Void)?
    /// The last save asked for from the form, from its Enter until the library has answered:
    /// Ctrl+Z in between takes it back, as the Undo of its notification would after.
    private var pending: PendingSave?

    /// A save on its way, and whether Ctrl+Z took it back meanwhile.
    private final class PendingSave {
        let photo: QueuedPhoto
        var ticket: FormSaves.Ticket?
        var undone = false

        init(photo: QueuedPhoto) { self.photo = photo }
    }

    init(saves: FormSaves, notification: InAppNotification, messages: MessageBar) {
        self.saves = saves
        self.notification = notification
        self.messages = messages
    }

    // MARK: The photo that was on the form

    /// Saves the photo that was on the form, which has left the queue meanwhile, with the
    /// words it had at Enter. When the save fails, the photo and those words come back into
    /// the queue with the library's message, never into the fields being typed in: nothing
    /// typed is lost, and nothing lands on another photo.
    func save(_ photo: QueuedPhoto, loaded: LoadedPhoto?) {
        let save = PendingSave(photo: photo)
        pending = save
        save.ticket = saves.add(photo, loaded: loaded) { [weak self] result in
            guard let self else { return }
            if self.pending === save { self.pending = nil }
            switch result {
            case .success where save.undone:
                // Ctrl+Z came before the library had it: the photo is already back on the
                // form, and the entry's removal is queued right behind this save.
                break
            case .success(let entry):
                // The photo left the queue when Done was pressed; the form shows the next one.
                let details = [self.holder?.nextPhoto, self.holder?.creditsOfSave()].compactMap { $0 }
                self.notification.show(
                    tr("Saved “{title}”").replacing("{title}", with: entry.title), button: .undo,
                    details: details.isEmpty ? nil : details.joined(separator: " ")
                ) { [weak self] in self?.undo(entry, ticket: save.ticket, from: photo.path) }
                self.onSaved?(entry)
            case .failure where save.undone:
                break  // nothing was saved, and the photo is back already
            case .failure(let error):
                self.failed(photo, error)
            }
            self.holder?.formChanged()
        }
    }

    /// The photo whose save failed waits in the queue again with its words, said with the
    /// library's reason; the form stays as it is unless it had no photo.
    private func failed(_ photo: QueuedPhoto, _ error: LibraryError) {
        if holder?.putBack(photo) ?? false {
            messages.show(problem: error.message)
        } else {
            messages.show(
                problem: tr("“{name}” was not saved and waits before this photo (Ctrl+Page Up): {reason}")
                    .replacing("{name}", with: PhotoQueue.name(of: photo.path))
                    .replacing("{reason}", with: error.message))
        }
        if error.kind == .unreachable { onUnreachable?(photo) }
    }

    /// Ctrl+Z while the last save asked for is still on its way: it is taken back at once,
    /// its photo and words back on the form; the library never has it, or loses it as soon as
    /// it answers. Returns false when no save is on its way.
    func undoPending() -> Bool {
        guard let save = pending, let ticket = save.ticket else { return false }
        pending = nil
        save.undone = true
        saves.withdraw(ticket, words: save.photo.words) { [weak self] result in
            if case .failure(let error) = result { self?.messages.show(problem: error.message) }
        }
        holder?.settleInputMethod()
        holder?.giveBack([save.photo])
        notification.show(
            tr("Save undone: “{title}” is back on the form").replacing("{title}", with: save.photo.title))
        holder?.formChanged()
        return true
    }

    /// Undo of a save: its photo and words come back to the form at once, in front of
    /// whatever the user moved on to (whose words are kept), and the entry leaves the library.
    private func undo(_ entry: CaptionLibrary.Entry, ticket: FormSaves.Ticket?, from path: String) {
        holder?.settleInputMethod()
        holder?.giveBack([QueuedPhoto(path: path, words: entry.words)])
        // Said, since the form changing under the focus is not.
        notification.show(tr("Save undone: “{title}” is back on the form").replacing("{title}", with: entry.title))
        saves.undo(entry, ticket: ticket) { [weak self] result in
            if case .failure(let error) = result { self?.messages.show(problem: error.message) }
        }
    }

    // MARK: The rest of the queue, the same

    /// A batch is on its way: one at a time.
    var isRunning: Bool { saves.captioningRest != nil }

    /// Saves `before` (the photos as the queue had them, kept for Undo) with `words`.
    /// `loaded` is the photo that was on the form, already read and checked.
    func captionRest(_ before: [QueuedPhoto], words: CaptionWords, loaded: (path: String, photo: LoadedPhoto?)) {
        // As they are being saved, for the draft.
        let batch = before.map { QueuedPhoto(path: $0.path, words: words) }
        let panel = ProgressPanel(progress: WorkProgress(total: batch.count), title: tr("Captioning the rest…"))
        saves.captionRest(batch, words: words, loaded: loaded, progress: panel.progress) { [weak self] result in
            panel.stop()
            guard let self else { return }
            self.notification.show(progress: nil)
            let outcome = (try? result.get()) ?? RestCaptioned(saved: [], savedPaths: [], failed: [], messages: [])
            self.finished(outcome, before: before, words: words)
            if case .failure(let error) = result { self.messages.show(problem: error.message) }
            self.holder?.formChanged()
        }
        holder?.takeOut(batch)
        notification.show(progress: panel)
    }

    /// What the batch did: the photos it did not save (failed or cancelled) come back to
    /// the queue as they were; the rest can be undone together.
    private func finished(_ outcome: RestCaptioned, before: [QueuedPhoto], words: CaptionWords) {
        let savedPaths = Set(outcome.savedPaths)
        let unsaved = before.filter { !savedPaths.contains($0.path) }
        holder?.giveBack(unsaved)
        if !outcome.failed.isEmpty {
            let names = zip(outcome.failed, outcome.messages).map { PhotoQueue.name(of: $0) + ": " + $1 }
            messages.show(
                problem: tr("{count} photos could not be saved and are back in the queue: {names}")
                    .replacing("{count}", with: String(outcome.failed.count))
                    .replacing("{names}", with: names.joined(separator: "; ")))
        }
        let entries = outcome.saved
        if !entries.isEmpty {
            notification.show(
                tr("Captioned {count} photos “{title}”").replacing("{count}", with: String(entries.count))
                    .replacing("{title}", with: words.title), button: .undo,
                details: holder?.nextPhoto
            ) { [weak self] in self?.undoRest(entries, before: before.filter { savedPaths.contains($0.path) }) }
        }
        onRestDone?(entries, unsaved.map(\.path))
    }

    /// Undo of the batch: its entries leave the library, and its photos come back in front,
    /// with the words they had before (the photo that was on the form, its words).
    /// Like a single save's Undo, the photos come back at once and the entries leave after.
    private func undoRest(_ entries: [CaptionLibrary.Entry], before: [QueuedPhoto]) {
        holder?.settleInputMethod()
        holder?.giveBack(before)
        notification.show(
            tr("Undone: {count} photos are back in the queue").replacing("{count}", with: String(before.count)))
        saves.undoRest(entries) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result { self.messages.show(problem: error.message) }
            self.onRestDone?([], before.map(\.path))
        }
    }
}
