// The photo on the form: loaded and checked off the main thread, its verdict told to the
// engine, its own words and facts read once its frame is drawn, and its notice.

import CaptionLibrary
import CaptionQueue
import FocusEngine

/// Which photo goes on the form is FormController's decision; this puts it there.
@MainActor
final class FormPhoto {
    let loader: PhotoLoader
    /// The photo's own words (from its metadata), offered in the fields.
    let words: PhotoWords
    private let view: FormView
    private let binding: FormBinding
    private let writer: CaptionWriter
    private let aids: TypingAids
    private let notification: InAppNotification
    private let saves: FormSaves
    /// The user's file a caption of this photo would go into (FormController.captionTarget).
    private var target: String?
    /// A photo's verdict came (tests wait on it).
    var onSettled: (() -> Void)?

    /// `words` is made before the fields are bound to the engine: its handler of a field's
    /// change takes the mark away before the engine hears of the change.
    init(
        view: FormView, loader: PhotoLoader, words: PhotoWords, binding: FormBinding, writer: CaptionWriter,
        aids: TypingAids, notification: InAppNotification, saves: FormSaves
    ) {
        self.view = view
        self.binding = binding
        self.writer = writer
        self.aids = aids
        self.notification = notification
        self.saves = saves
        self.loader = loader
        self.words = words
        words.onSetText = { [weak binding] entry, text in binding?.setText(entry, text) }
        loader.onSettled = { [weak self] result in self?.settled(result) }
    }

    /// Starts loading a photo: it counts at once (a fast typist goes on to Title) and is
    /// checked and decoded off the main thread at the size the preview shows. `ahead` is
    /// what comes next, decoded meanwhile; `recent` says it joins the recent files.
    func load(_ path: String, target: String?, ahead: [String], recent: Bool) {
        // A photo joins the recent files when it is on the form, not when it joins the
        // queue: a folder of a thousand would otherwise flood the list (and cost GTK's
        // recent manager some 5–10 MB), and the list would name photos never looked at.
        if recent { RecentFiles.add([path]) }
        self.target = target
        view.photoName.text = PhotoQueue.name(of: path)
        writer.show(for: target, format: nil)
        loader.load(path)
        loader.decodeAhead(ahead)
        binding.send(.photo(item: view.layout.photo, .loading))
        let request = loader.request
        // The photo's own words are read once its frame is drawn, for the same reason.
        words.offer(from: path) { [weak self] in self?.loader.request == request }
        aids.variables.read(path) { [weak self] in self?.loader.request == request }
    }

    /// The photo's verdict: it counts (and a waiting submit goes on), or its message shows.
    private func settled(_ result: Result<LoadedPhoto, LibraryError>) {
        switch result {
        case .success(let photo):
            onLoaded?(photo)
            writer.show(for: target, format: photo.info.format)
            binding.send(.photo(item: view.layout.photo, .loaded))
            // Not a problem to fix: the photo counts, and the user hears why it looks grey.
            if let notice = photo.notice {
                let request = loader.request
                let show = { [weak self] in
                    guard let self else { return }
                    self.notification.showWhenFree(notice.beforeSaving(photo.path), seconds: 10) { [weak self] in
                        self?.loader.request == request
                    }
                }
                // A save still on its way will show "Saved" with its Undo: the notice waits
                // behind that, as behind one already showing.
                saves.whenIdle(show)
            }
        case .failure(let error):
            binding.send(.photo(item: view.layout.photo, .failed(message: error.message)))
        }
        onSettled?()
    }

    /// The photo on the form was read and checked.
    var onLoaded: ((LoadedPhoto) -> Void)?

    /// No photo on the form.
    func clear() {
        loader.clear()
        target = nil
        view.photoName.text = ""
        writer.show(for: nil, format: nil)
    }
}
