// The form's Done: variables filled, the checks at Done, the save or the update, and the
// photos that come back into the queue when a save fails or is undone.

import CaptionChecks
import CaptionLibrary
import CaptionQueue
import CaptionText
import FocusEngine
import Localization
import Shorthand

extension FormController {
    func save(_ submission: Submission) {
        guard let path = photoPath else { return }
        // Variables become the photo's values; one that cannot is said, and nothing is saved.
        // Facts not read yet are read now: the save takes the words as they are at this key.
        var words = view.layout.words(of: submission)
        let needsFacts = view.layout.fields.contains { Variables.appear(in: words[$0]) }
        let facts = needsFacts ? (photoFacts ?? aids.variables.readNow(path: path, position: factsPosition)) : nil
        for field in view.layout.fields {
            switch CaptionVariables.expand(words[field], facts: facts) {
            case .success(let expanded): words[field] = expanded
            case .failure(let message):
                messages.show(problem: message.text)
                focus(.text(field))
                return
            }
        }
        guard passesChecks(view.layout.words(of: submission)) else { return }
        guard let edited = editing?.entry else {
            return saveAndMoveOn(QueuedPhoto(path: path, words: words))
        }
        // The form shows some fields; the entry's words in the others stay as they are.
        updateAndMoveOn(edited, words: edited.words.replacing(view.layout.fields, from: words), photo: path)
    }

    /// The caption checks at Done, as the required fields are checked: the first finding
    /// is said in the message bar and its words selected in their field. A check is advice,
    /// not a rule: Done again on the same words saves them as they are. The words are
    /// checked as typed: `{date}` is still to be filled, and `{{` is a brace the user meant.
    func passesChecks(_ words: CaptionWords) -> Bool {
        let roster = names ?? NameRoster(replacementTexts: replacementTable.rows.map(\.text))
        names = roster
        let findings = CaptionChecks.findings(
            in: words, variables: Set(Variables.names), names: roster, choices: checkChoices,
            places: [photoFacts?.city, photoFacts?.state, photoFacts?.country].compactMap { $0 })
        guard let first = findings.first, checkedAndSaid != words else {
            checkedAndSaid = nil
            return true
        }
        checkedAndSaid = words
        var text = first.message
        if findings.count > 1 {
            text += " " + fill(tr("(and {count} more)"), ["count": String(findings.count - 1)])
        }
        let said = fill(tr("{finding}. Done again saves the caption as it is."), ["finding": text])
        if let name = first.suggestion {
            messages.show(problem: said, actionLabel: fill(tr("_Make It “{name}”"), ["name": name])) { [weak self] in
                self?.use(name, for: first)
            }
        } else {
            messages.show(problem: said)
        }
        focus(.text(first.field))
        view.entry(first.field).select(characters: first.offset..<(first.offset + first.length))
        return false
    }

    /// The name a check offers, in place of the words it found, as if typed there; the
    /// words are left alone if they changed since.
    func use(_ name: String, for finding: CaptionFinding) {
        let entry = view.entry(finding.field)
        let range = finding.offset..<(finding.offset + finding.length)
        let characters = Array(entry.text)
        guard range.upperBound <= characters.count, String(characters[range]) == finding.text else { return }
        focus(.text(finding.field))
        aids.whileFormSetsText {
            entry.deleteText(from: range.lowerBound, to: range.upperBound)
            entry.caret = entry.insertText(name, at: range.lowerBound)
        }
        // The words changed under the caret: said, as typing is not.
        aids.say(fill(tr("“{text}” became “{name}”"), ["text": finding.text, "name": name]), with: finding.field)
    }

    /// Done on an entry being edited: the form goes back to the queue's photo in the same
    /// turn, as after a save, and the update follows on the library's queue, so that keys
    /// typed after Done land where they would once it is done. An update that fails is said
    /// with Edit Again, which opens the entry with the words that were not saved; after a
    /// change someone else made meanwhile, against their version, so that Done saves over
    /// it knowingly.
    func updateAndMoveOn(_ entry: CaptionLibrary.Entry, words: CaptionWords, photo: String) {
        saves.update(entry, words: words) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let updated):
                self.aids.completionSource?.updated(from: entry, to: updated)
                self.notification.show(tr("Updated “{title}”").replacing("{title}", with: updated.title))
                self.onEdited?(updated)
                self.onSaved?(updated)
            case .failure(let error):
                let offer: @MainActor (CaptionLibrary.Entry) -> Void = { [weak self] current in
                    self?.notification.show(error.message, button: .editAgain, seconds: nil) { [weak self] in
                        self?.onEditAgain?(current, photo, words)
                    }
                }
                guard error.kind == .changedElsewhere else { return offer(entry) }
                self.saves.current(entry) { current in offer(current ?? entry) }
            }
        }
        editing = nil
        showCurrentPhoto()
        if queue.currentPhoto == nil { refreshPosition() }
        onEditDone?(entry)
    }

    /// Saves the queue's photo and shows the next one at once, Title focused, while the save
    /// goes on (copying and syncing a camera photo takes longer than a frame; QueueSaving
    /// says what it did, and gives the photo back if it fails).
    func saveAndMoveOn(_ photo: QueuedPhoto) {
        claims.handToSave(photos.loadedPhoto.flatMap { $0.path == photo.path ? $0.sha256 : nil })
        queueSaving.save(photo, loaded: photos.loadedPhoto)
        queue.removeCurrent()
        lastStep = 1
        showCurrentPhoto()
    }

    /// The server was gone at `photo`'s save and answers again, the photo still waiting
    /// with those words: the save is made as Enter would make it, and the form moves on.
    func saveNowTheServerIsBack(_ photo: QueuedPhoto) {
        // The server's message is over; a save that fails again says so again.
        messages.clearProblem()
        if editing == nil, queue.currentPhoto?.path == photo.path {
            return send(.submit)
        }
        // It waits elsewhere in the queue: saved from there, the form left as it is.
        queue.remove([photo.path])
        queueSaving.save(photo, loaded: nil)
        refreshHeader()
    }

    /// The photo is still in the queue with the words its save had: on the form (as the
    /// form shows them), or waiting elsewhere in the queue.
    func stillUnsaved(_ photo: QueuedPhoto) -> Bool {
        if editing == nil, queue.currentPhoto?.path == photo.path { return words == photo.words }
        return queue.photos.contains(photo) && queue.currentPhoto?.path != photo.path
    }

    /// Hands every waiting save to the library's queue now (quitting, before it waits).
    func storeWaiting() { saves.storeWaiting() }

    /// A photo whose save failed waits in the queue just before the photo on the form, whose
    /// fields are not touched; with none on the form (or an entry being edited, which keeps
    /// the form), it comes onto the form when the queue is shown.
    func putBack(_ photo: QueuedPhoto) -> Bool {
        if editing == nil { keepWords() }
        guard queue.putBack([photo]), editing == nil else {
            refreshHeader()
            return false
        }
        // It comes onto the form: an open composition is committed where it shows first.
        settleInputMethod()
        showCurrentPhoto()
        return true
    }

    /// Ctrl+Z while the last save is still on its way takes it back; false when none is.
    func undoPendingSave() -> Bool {
        guard editing == nil else { return false }
        return queueSaving.undoPending()
    }

    /// Before a key reaches a field: what the photo on the form says of itself (its own
    /// words) is put on the form now if it was still being read, so that the key lands
    /// after it, as it would have on a machine that had kept up.
    func beforeKey() {
        keyedSinceArrival = true
        shown.words.settle()
    }

    /// Photos whose save was undone come back in front of the queue; the words on the form
    /// stay with the photo they were typed for.
    func giveBack(_ photos: [QueuedPhoto]) {
        // Nothing back after a batch: focus, which stayed put while it ran, goes where the
        // form wants it now (Choose Photo… when the queue is done).
        guard !photos.isEmpty else { return focus(binding.focusedItem) }
        if editing == nil { keepWords() }
        queue.restore(photos)
        if editing == nil { showCurrentPhoto() }
    }
}
