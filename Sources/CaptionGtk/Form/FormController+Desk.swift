// The form on a library other editors share: the photo on it claimed, and what the
// answer asks of the form (ClaimResponse, DeskClaimState).

import CaptionLibrary
import CaptionQueue
import Localization

extension FormController {
    /// On a shared library, the photo that arrived on the form is claimed; the answer may
    /// pass it over.
    func claim(_ photo: LoadedPhoto) {
        guard claims.areShared, editing == nil, queue.currentPhoto?.path == photo.path else { return }
        claims.claim(photo.sha256) { [weak self] claim in
            // A key the display server sent while this photo showed acts on it first.
            self?.lifetime.afterPendingEvents { [weak self] in
                guard let self, self.editing == nil, self.queue.currentPhoto?.path == photo.path else { return }
                self.answered(claim, for: photo.path)
            }
        }
    }

    /// Another editor's commit, or a renewal: the photo waited on may be free now, one whose
    /// claim could not be asked may be asked now, and the one held may have been taken back
    /// by an editor whose Enter waited out an outage (their save came first, and this form
    /// is told as when a photo is captioned elsewhere).
    func askAgain() {
        guard let photo = photos.loadedPhoto, editing == nil, queue.currentPhoto?.path == photo.path,
            desk.asksAgain(about: photo.path, held: claims.holds(photo.sha256))
        else { return }
        claim(photo)
    }

    /// What the claim of the photo on the form found. A photo another editor has is passed
    /// over and waits in the queue with any words typed for it; one already captioned leaves
    /// the queue, unless words were typed for it here: those are never dropped.
    func answered(_ claim: PhotoClaim?, for path: String) {
        let name = PhotoQueue.name(of: path)
        desk.answered(claim, for: path)
        if claim != nil, claim != .yours { keepWords() }
        let response = ClaimResponse(
            claim, wordsTyped: queue.currentPhoto?.words.isEmpty != true, keyed: keyedSinceArrival)
        switch response {
        case .stay:
            return
        case .keepAsSecondCaption:
            tell(tr("Another editor has captioned “{name}”; Enter saves your words as a second caption"), name)
        case .leaveQueue:
            leaveForm(path, telling: tr("Another editor has captioned “{name}”, so it left your queue"))
        case .stayWhileTaken(let editor):
            // Its Done then fails as taken, and the photo waits in the queue with its words
            // (see QueueSaving).
            tell(
                tr("{editor} is captioning “{name}”; Ctrl+Page Down goes on, and your words wait with it")
                    .replacing("{editor}", with: editor), name)
        case .passOver(let editor):
            settleInputMethod()
            guard queue.moveToNearest(step: lastStep, passing: desk.takenElsewhere) else {
                desk.wait(on: path)
                return tell(
                    tr("{editor} is captioning “{name}”, and the rest of your queue is taken too")
                        .replacing("{editor}", with: editor), name)
            }
            tell(
                tr("{editor} is captioning “{name}”; it waits in your queue").replacing("{editor}", with: editor), name)
            binding.arrive(arrival) { showCurrentPhoto() }
        }
    }

    /// Says why the form moved on, after a "Saved" notification and its Undo if one shows.
    func tell(_ text: String, _ name: String) {
        notification.showWhenFree(text.replacing("{name}", with: name)) { true }
    }
}
