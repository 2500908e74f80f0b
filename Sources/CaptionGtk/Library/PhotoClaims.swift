// The photo on the form, claimed on a library several editors share, so that the others'
// queues pass over it; kept alive while it is on the form, let go when the editor moves on.

import CaptionLibrary

@MainActor
final class PhotoClaims {
    private let library: LibraryAccess
    private let lifetime: Lifetime
    /// The photo claimed for the form, by content. One handed to a save is no longer held
    /// here: its claim stays until the save ends it, so that no one takes the photo between
    /// Enter and the commit.
    private var held: String?
    private var renewal: SourceHandle?
    /// Runs at each renewal: the form asks again about a photo another editor had.
    var onRenewal: (() -> Void)?

    init(library: LibraryAccess, lifetime: Lifetime) {
        self.library = library
        self.lifetime = lifetime
    }

    /// Only a library on a server has other editors.
    var areShared: Bool { library.isServer }

    /// Claims the photo now on the form, letting go of the one before it (unless it is being
    /// saved). `answer` gets nil when the server could not say: the form then carries on,
    /// and a save says what is wrong.
    func claim(_ sha256: String, answer: @escaping @MainActor (PhotoClaim?) -> Void) {
        let releasing = held.map { $0 == sha256 ? [] : [$0] } ?? []
        held = sha256
        let editor = library.editor
        library.perform(
            { library throws(LibraryError) in
                try library.claim(sha256: sha256, for: editor, releasing: releasing)
            },
            completion: { [weak self] result in
                guard let self else { return }
                let claim = try? result.get()
                if claim != .yours, self.held == sha256 { self.held = nil }
                self.keepRenewing()
                answer(claim)
            })
    }

    /// Whether the photo with this content is the form's, claimed.
    func holds(_ sha256: String) -> Bool { held == sha256 }

    /// The photo on the form goes to a save, which ends its claim.
    func handToSave(_ sha256: String?) {
        guard let sha256, held == sha256 else { return }
        held = nil
    }

    /// The form shows no photo of the queue (an entry is edited, or the queue is empty):
    /// the claim ends.
    func letGo() {
        guard let sha256 = held else { return }
        held = nil
        let editor = library.editor
        library.perform(
            { library throws(LibraryError) in
                try library.releaseClaims(of: editor, photos: [sha256])
            }, completion: { _ in })
    }

    /// The window ends: every claim of this editor ends with it. The work is done even
    /// though the window is gone; quitting waits for it with the saves.
    func releaseAll() {
        guard areShared else { return }
        held = nil
        renewal?.cancel()
        let editor = library.editor
        library.perform({ library throws(LibraryError) in try library.releaseClaims(of: editor) }, completion: { _ in })
    }

    /// Renews this editor's claims every `ClaimTerms.renewalSeconds` while the window lives.
    private func keepRenewing() {
        guard renewal?.isActive != true else { return }
        renewal = lifetime.every(seconds: UInt32(ClaimTerms.renewalSeconds)) { [weak self] in
            guard let self else { return false }
            let editor = self.library.editor
            self.library.perform(
                { library throws(LibraryError) in try library.renewClaims(of: editor) }, completion: { _ in })
            self.onRenewal?()
            return true
        }
    }
}
