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
    /// Photos not saved, or whose save was undone, come back in front of the queue; focus
    /// goes where the form wants it, also when none come back.
    func giveBack(_ photos: [QueuedPhoto])
    /// "Next photo: b.jpg, 1 of 2.": said with the outcome, since the form changed.
    var nextPhoto: String? { get }
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

    init(saves: FormSaves, notification: InAppNotification, messages: MessageBar) {
        self.saves = saves
        self.notification = notification
        self.messages = messages
    }

    // MARK: The photo that was on the form

    /// Saves the photo that was on the form, which has left the queue meanwhile. When the
    /// save fails, the photo and its words come back on the form in front of the next one
    /// (whose words are kept), with the library's message: nothing typed is lost.
    func save(_ photo: QueuedPhoto, loaded: LoadedPhoto?) {
        saves.add(photo, loaded: loaded) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let entry):
                // The photo left the queue when Done was pressed; the form shows the next one.
                self.notification.show(
                    tr("Saved “{title}”").replacing("{title}", with: entry.title), button: .undo,
                    details: self.holder?.nextPhoto
                ) { [weak self] in self?.undo(entry, from: photo.path) }
                self.onSaved?(entry)
            case .failure(let error):
                self.holder?.settleInputMethod()
                self.holder?.giveBack([photo])
                self.messages.show(problem: error.message)
                if error.kind == .unreachable { self.onUnreachable?(photo) }
            }
            self.holder?.formChanged()
        }
    }

    /// Undo of a save: the entry leaves the library, and its photo and words come back to
    /// the form in front of whatever the user moved on to (whose words are kept).
    private func undo(_ entry: CaptionLibrary.Entry, from path: String) {
        holder?.settleInputMethod()
        saves.undo(entry) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result { return self.messages.show(problem: error.message) }
            self.holder?.giveBack([QueuedPhoto(path: path, words: entry.words)])
            // Said, since the form changing under the focus is not.
            self.notification.show(
                tr("Save undone: “{title}” is back on the form").replacing("{title}", with: entry.title))
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
    private func undoRest(_ entries: [CaptionLibrary.Entry], before: [QueuedPhoto]) {
        holder?.settleInputMethod()
        saves.undoRest(entries) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result { return self.messages.show(problem: error.message) }
            self.holder?.giveBack(before)
            self.notification.show(
                tr("Undone: {count} photos are back in the queue").replacing("{count}", with: String(before.count)))
            self.onRestDone?([], before.map(\.path))
        }
    }
}
