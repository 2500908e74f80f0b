// Writes the form's draft (its unsaved words and photos) as it changes, off the main thread,
// so a crash or a closed window loses nothing typed.

import CaptionLibrary
import Dispatch
import Localization

/// Writes drafts off the main thread, at most one every `interval` while the user types
/// (the first change starts the clock, later ones update what will be written), and
/// never the same draft twice.
@MainActor
final class DraftWriter {
    let store: DraftStore
    static let interval: UInt32 = 300
    private let queue = DispatchQueue(label: "io.github.caption_app.Caption.draft")
    private var pending: Draft?
    private var timer: SourceHandle?
    private(set) var lastWritten: Draft?
    /// Tests count writes; a failed write is reported here too.
    var onWritten: ((Result<Draft, LibraryError>) -> Void)?

    /// The window's: after it ends, its last words are written (`flush`) and nothing after.
    private let lifetime: Lifetime

    init(directory: String, lifetime: Lifetime) {
        store = DraftStore(directory: directory)
        self.lifetime = lifetime
    }

    func keep(_ draft: Draft) {
        guard !lifetime.isOver, draft != lastWritten || pending != nil else { return }
        // An empty form that has written nothing removes nothing: the draft on disk is an
        // earlier run's, there to be restored (and thrown away only by Discard).
        if draft.isEmpty && lastWritten == nil {
            pending = nil
            return
        }
        pending = draft
        if timer?.isActive != true {
            timer = lifetime.after(milliseconds: Self.interval) { [weak self] in self?.write() }
        }
    }

    /// The draft the store holds from now on (after a restore).
    func adopt(_ draft: Draft) {
        lastWritten = draft
    }

    /// Writes what is pending now and waits for it: closing and quitting call this.
    func flush() {
        timer?.cancel()
        write()
        queue.sync {}
    }

    private func write() {
        guard let draft = pending else { return }
        pending = nil
        guard draft != lastWritten else { return }
        lastWritten = draft
        let store = store
        queue.async { [weak self] in
            let result: Result<Draft, LibraryError>
            do throws(LibraryError) {
                try store.save(draft)
                result = .success(draft)
            } catch {
                result = .failure(error)
            }
            MainThread.post { self?.onWritten?(result) }
        }
    }
}
