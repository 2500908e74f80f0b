// The form's draft across runs: written as the form changes (DraftWriter), brought back at
// the next start with a word saying so, and thrown away only by a button, with Undo.

import CaptionLibrary
import Localization

/// What the drafts ask of the form that holds the queue and the words.
@MainActor
protocol DraftHolder: AnyObject {
    /// The form's unsaved state now.
    var draft: Draft { get }
    /// Puts a draft on the form; nil empties the form and the queue.
    func put(_ draft: Draft?)
}

@MainActor
final class DraftRecovery {
    let writer: DraftWriter
    weak var holder: DraftHolder?
    private let window: Window
    private let lifetime: Lifetime
    private let notification: InAppNotification

    init(directory: String, window: Window, notification: InAppNotification, lifetime: Lifetime) {
        writer = DraftWriter(directory: directory, lifetime: lifetime)
        self.lifetime = lifetime
        self.window = window
        self.notification = notification
    }

    /// The form changed: its draft is written soon.
    func keep() {
        if let draft = holder?.draft { writer.keep(draft) }
    }

    /// Brings back the draft of an earlier run, saying so, with a way to throw it away.
    /// Returns whether there was one.
    @discardableResult
    func restore() -> Bool {
        guard let saved = writer.store.load(), !saved.isEmpty else { return false }
        writer.adopt(saved)
        holder?.put(saved)
        // Longer than other notifications: it greets the user as the window opens, before
        // they may have looked; and after the focused field has been read.
        window.whenActive(delay: 400, in: lifetime) { [weak self] in
            self?.notification.show(tr("Your unsaved captions are back"), button: .discard, seconds: 20) {
                [weak self] in self?.discard()
            }
        }
        return true
    }

    /// Discard is a button press, never a stray key, and even then it can be undone.
    func discard() {
        guard let discarded = holder?.draft else { return }
        holder?.put(nil)
        notification.show(tr("Unsaved captions discarded"), button: .undo) { [weak self] in
            self?.holder?.put(discarded)
            self?.keep()
        }
    }

    /// Writes what is pending now and waits for it: closing and quitting call this.
    func flush() {
        writer.flush()
    }
}
