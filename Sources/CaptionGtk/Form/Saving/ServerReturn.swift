// Waits for a server that was gone at a save to answer again, and hands the photo whose
// save it was back to the form, once, when it is still waiting with the same words.

import CaptionLibrary
import CaptionQueue

@MainActor
final class ServerReturn {
    private let library: LibraryAccess
    private let lifetime: Lifetime
    /// The photo whose save found the server gone, with the words that save had.
    private var unsaved: QueuedPhoto?
    private var watch: SourceHandle?
    /// A question is on its way: the next tick does not ask again.
    private var asking = false

    /// Whether the photo still waits with the words its save had (the form knows where).
    var stillUnsaved: (QueuedPhoto) -> Bool = { _ in false }
    /// Whether a save is under way: the photo waits for the next answer rather than
    /// being saved beside it.
    var isSaving: () -> Bool = { false }
    /// The server answered, whatever waits: the form asks again what a gone server could
    /// not tell it (the claim of the photo it shows).
    var onAnswer: (() -> Void)?
    /// The server is back and the photo still waits: save it as Enter would have.
    var onBack: ((QueuedPhoto) -> Void)?

    init(library: LibraryAccess, lifetime: Lifetime) {
        self.library = library
        self.lifetime = lifetime
    }

    /// The server was gone at `photo`'s save. It is asked every two seconds, quietly, until
    /// it answers or the photo no longer waits (its words changed, it was saved another
    /// way): a later save is the user's to make. One photo waits at a time, the last.
    func wait(for photo: QueuedPhoto) {
        unsaved = photo
        guard watch?.isActive != true else { return }
        watch = lifetime.every(milliseconds: 2000) { [weak self] in self?.ask() ?? false }
    }

    /// Whether to go on asking.
    private func ask() -> Bool {
        guard let unsaved, stillUnsaved(unsaved) else {
            unsaved = nil
            return false
        }
        guard !asking else { return true }
        asking = true
        library.perform(
            { library throws(LibraryError) in _ = try library.changeCounter() },
            completion: { [weak self] result in
                guard let self else { return }
                self.asking = false
                guard case .success = result else { return }
                self.onAnswer?()
                guard let unsaved = self.unsaved, self.stillUnsaved(unsaved), !self.isSaving() else { return }
                self.unsaved = nil
                self.watch?.cancel()
                self.onBack?(unsaved)
            })
        return true
    }
}
