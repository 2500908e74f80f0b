// What the form says to a screen reader beyond its labels: what Enter does, which photo is
// on the form, and which comes next after a save.

import CaptionQueue
import FocusEngine
import Localization

enum FormSpeech {
    /// What Enter does now, in words: said with the focused field.
    static func enterHint(_ label: ActivateLabel, editing: Bool) -> String {
        label == .done
            ? (editing ? tr("Enter updates the entry") : tr("Enter saves"))
            : tr("Enter goes to the next empty field")
    }

    /// "harbour.jpg, 1 of 2": the photo on the form, for the photo button's description.
    static func photoDescription(name: String, position: String?) -> String? {
        guard !name.isEmpty else { return nil }
        return [name, position].compactMap { $0 }.joined(separator: ", ")
    }

    /// The photo now on the form after a save: "Next photo: b.jpg, 1 of 2."
    static func nextPhoto(_ queue: PhotoQueue) -> String? {
        guard let photo = queue.currentPhoto else { return nil }
        let name = PhotoQueue.name(of: photo.path)
        guard let position = queue.position else {
            return tr("Next photo: {name}.").replacing("{name}", with: name)
        }
        return tr("Next photo: {name}, {index} of {count}.").replacing("{name}", with: name)
            .replacing("{index}", with: String(position.index)).replacing("{count}", with: String(position.count))
    }
}
