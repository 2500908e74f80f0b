// The draft: the form's unsaved words and photos, written as they change and brought back
// on the next start, so a crash or a closed window loses nothing typed.

import CGtk
import CaptionLibrary
import Dispatch
import Localization

/// Writes drafts off the main thread, at most one every `interval` while the user types
/// (the first change starts the clock, later ones update what will be written), and
/// never the same draft twice.
@MainActor
final class DraftKeeper {
    let store: DraftStore
    static let interval: UInt32 = 300
    private let queue = DispatchQueue(label: "io.github.caption_app.Caption.draft")
    private var pending: Draft?
    private var timer: UInt32 = 0
    private(set) var lastWritten: Draft?
    /// Tests count writes; a failed write is reported here too.
    var onWritten: ((Result<Draft, LibraryError>) -> Void)?

    init(directory: String) {
        store = DraftStore(directory: directory)
    }

    func keep(_ draft: Draft) {
        guard draft != lastWritten || pending != nil else { return }
        pending = draft
        if timer == 0 {
            timer = MainThread.after(milliseconds: Self.interval) { [weak self] in
                self?.timer = 0
                self?.write()
            }
        }
    }

    /// The draft the store holds from now on (after a restore).
    func adopt(_ draft: Draft) {
        lastWritten = draft
    }

    /// Writes what is pending now and waits for it: closing and quitting call this.
    func flush() {
        if timer != 0 {
            g_source_remove(timer)
            timer = 0
        }
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

extension CaptionWindow {
    /// The form's unsaved state: the queue with the words typed for each photo, and words
    /// typed before any photo was chosen.
    var draft: Draft {
        var queue = self.queue
        // While a saved entry is being edited, the form holds its words, not the queue's
        // (kept in the queue when the edit began).
        let title = editing == nil ? text(of: titleEntry) : ""
        let subtitle = editing == nil ? text(of: subtitleEntry) : ""
        if editing == nil { queue.keep(title: title, subtitle: subtitle) }
        var items = queue.photos.map { DraftItem(path: $0.path, title: $0.title, subtitle: $0.subtitle) }
        guard let current = queue.current else {
            items.append(DraftItem(path: nil, title: title, subtitle: subtitle))
            return Draft(items: items, current: items.count - 1)
        }
        return Draft(items: items, current: current)
    }

    func keepDraft() {
        drafts.keep(draft)
    }

    /// Brings back the draft of an earlier run, saying so, with a way to throw it away.
    /// Returns whether there was one.
    @discardableResult
    public func restoreDraft() -> Bool {
        guard let saved = drafts.store.load(), !saved.isEmpty else { return false }
        drafts.adopt(saved)
        show(saved)
        // Longer than other notifications: it greets the user as the window opens, before
        // they may have looked.
        notification.show(tr("Your unsaved captions are back"), button: .discard, seconds: 20) { [weak self] in
            self?.discardDraft()
        }
        return true
    }

    /// Discard is a button press, never a stray key, and even then it can be undone.
    func discardDraft() {
        let discarded = draft
        queue = PhotoQueue()
        clearForm()
        notification.show(tr("Unsaved captions discarded")) { [weak self] in
            self?.show(discarded)
            self?.keepDraft()
        }
    }

    /// Puts a draft on the form.
    private func show(_ draft: Draft) {
        let photos = draft.items.enumerated().compactMap { index, item in
            item.path.map { (index, QueuedPhoto(path: $0, title: item.title, subtitle: item.subtitle)) }
        }
        let current = photos.firstIndex { $0.0 == draft.current }
        queue = PhotoQueue(photos: photos.map(\.1), current: current)
        if current != nil {
            showCurrentPhoto()
        } else {
            clearForm()
            let loose = draft.items[draft.current]
            setText(titleEntry, loose.title)
            setText(subtitleEntry, loose.subtitle)
            refreshPosition()
        }
    }

    public func flushDraft() {
        drafts.flush()
    }
}
