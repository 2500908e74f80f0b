// The last caption again (Ctrl+D), and the same caption for the rest of the queue.

import CaptionQueue
import FocusEngine
import Localization
import Shorthand

extension FormController {
    /// Ctrl+D (Ctrl+Shift+D with `both`): the last saved caption's words again.
    func reuseLastCaption(both: Bool) { binding.reuseLastCaption(both: both) { [saves] in saves.lastSaved } }

    /// The words on the form go with the photo on the form and with every other photo of
    /// the queue that has no words of its own, saved in one step on the library's queue,
    /// with a progress bar and Cancel, and one Undo for all (QueueSaving). Photos with words
    /// of their own keep them and stay; a photo that cannot be saved comes back, named.
    func captionRestTheSame() {
        settleInputMethod()
        guard editing == nil, !queueSaving.isRunning, queue.currentPhoto != nil else { return window.errorBell() }
        let others = queue.photosWithoutWords
        // Incomplete words: the same messages as a save, and nothing saved.
        guard engine.isComplete, !others.isEmpty else { return send(.submit) }
        // Variables ({date}, {filename}…) would need each photo's own values, which only the
        // photo on the form has read: the batch refuses them rather than save them as typed.
        guard !engine.normalizedValues.contains(where: Variables.appear(in:)) else {
            return messages.show(problem: tr("Caption the rest of the queue the same takes words without variables"))
        }
        keepWords()
        let words = view.layout.words(of: Submission(values: engine.normalizedValues))
        guard let current = queue.currentPhoto else { return }
        // As the queue had them, for Undo.
        let before = queue.photos.filter { $0 == current || others.contains($0) }
        queueSaving.captionRest(before, words: words, loaded: (current.path, photos.loadedPhoto))
    }

    func takeOut(_ photos: [QueuedPhoto]) {
        queue.remove(Set(photos.map(\.path)))
        // With nothing left to caption while they are saved, focus stays where it was rather
        // than jumping to Choose Photo…, where Enter would open the chooser mid-batch.
        if queue.currentPhoto == nil { withoutFocusMoves { showCurrentPhoto() } } else { showCurrentPhoto() }
    }

    var nextPhoto: String? { FormSpeech.nextPhoto(queue) }

    /// The credits a save went with, when they differ from the save before's (the first save
    /// after the credits were changed): said in the save's notification.
    func creditsOfSave() -> String? {
        let line = standingCredits.line(facts: nil)
        defer { creditsLastSaved = line }
        guard let last = creditsLastSaved else { return nil }
        return line != last && !line.isEmpty ? line : nil
    }
}
