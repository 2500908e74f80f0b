// The form's unsaved state as a draft, and a draft put back on the form.

import CaptionLibrary
import CaptionQueue

extension FormController {
    /// The form's unsaved state. While a saved entry is being edited, the form holds its
    /// words, not the queue's (kept in the queue when the edit began).
    var draft: Draft {
        // Photos still being saved stay in the draft: a crash mid-save loses no words.
        let saving = saves.savingPhotos
        let kept = PhotoQueue(photos: saving + queue.photos, current: queue.current.map { $0 + saving.count })
        return Draft(kept, words: editing == nil ? words : nil)
    }

    /// The window is ending (destroyed, or the app quitting): what is typed is written now,
    /// and the photo let go. What arrives later (a photo decoded or checked, the library's
    /// words) is dropped by the window's lifetime, which has ended.
    func finish() {
        claims.releaseAll()
        drafts.flush()
        photos.clear()
    }

    /// Puts a draft on the form; nil empties the form and the queue.
    func put(_ draft: Draft?) {
        guard let draft else {
            queue = PhotoQueue()
            return clearForm()
        }
        let (queue, loose) = draft.queueAndLooseWords
        self.queue = queue
        guard let loose else { return binding.arrive(arrival) { showCurrentPhoto(resuming: true) } }
        clearForm()
        binding.show(loose)
        refreshPosition()
    }
}
