// What the form says to a screen reader beyond its labels: what Enter does, which photo is
// on the form, and which comes next after a save.

import CaptionQueue
import FocusEngine
import Localization

enum FormSpeech {
    /// What Enter does now, in words: said with the focused field.
    /// `isEmpty`: the focused field is empty; Enter there says it is required and stays,
    /// so the hint says when Enter saves, not «Enter saves».
    static func enterHint(_ label: ActivateLabel, editing: Bool, isEmpty: Bool = false) -> String {
        if label == .done, isEmpty {
            return editing ? tr("Enter updates the entry once it is filled") : tr("Enter saves once it is filled")
        }
        return label == .done
            ? (editing ? tr("Enter updates the entry") : tr("Enter saves"))
            : tr("Enter goes to the next empty field")
    }

    /// "harbour.jpg, 1 of 2": the photo on the form, for the photo button's description.
    static func photoDescription(name: String, position: String?) -> String? {
        guard !name.isEmpty else { return nil }
        return [name, position].compactMap { $0 }.joined(separator: ", ")
    }

    /// The photo now on the form after a save: "Next photo: b.jpg, 2 photos left." The
    /// queue has lost the photo saved, so its "1 of 2" would not say where in the batch
    /// the user is; what is left does.
    static func nextPhoto(_ queue: PhotoQueue) -> String? {
        guard let photo = queue.currentPhoto else { return nil }
        let name = PhotoQueue.name(of: photo.path)
        let left = queue.position?.count ?? 1
        return fill(
            trn("Next photo: {name}, {count} photo left.", "Next photo: {name}, {count} photos left.", left),
            ["name": name, "count": String(left)])
    }
}
