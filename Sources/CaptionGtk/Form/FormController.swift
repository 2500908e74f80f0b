// The form: widgets bound to the focus engine. GTK signals become engine events; the
// engine's decisions are applied here, and nowhere else decides what Enter does. It owns the
// queue of photos, the photo loading, the draft and saving.

import CGtk
import CaptionLibrary
import CaptionMetadata
import CaptionQueue
import FocusEngine
import Localization
import Shorthand

@MainActor
final class FormController {
    let view: FormView
    private(set) var engine: FocusEngine
    private let library: LibraryAccess
    private let drafts: DraftKeeper
    let photos: PhotoLoader
    let photoWords: PhotoWords
    /// The caption into the photo file or beside it after a save, as the menu says.
    let writer: CaptionWriter
    /// The fields' open compositions, committed before the form is read or changes.
    private let inputMethods: InputMethodSettler
    /// Code replacements, offers, variables and spell-checking in the fields.
    let aids: TypingAids
    var replacements: CodeReplacer { aids.replacements }
    var completion: CompletionOffers { aids.completion }
    var spelling: SpellCheck { aids.spelling }
    private let window: Window
    private let header: HeaderBar
    private let messages: MessageBar
    private let notification: InAppNotification
    /// The photos to caption and what was typed for each.
    private var queue = PhotoQueue()
    /// A saved entry open in the form for editing, with its photo in the library. The queue
    /// waits meanwhile, its words kept.
    private var editing: (entry: Entry, path: String)?
    /// A save is in flight: further submits wait for it instead of saving twice.
    private(set) var isSaving = false
    /// Set while the form itself changes an entry's text, so that it is not taken for typing.
    private var settingText = false

    /// Shows the file chooser; tests replace it, since a chooser would wait for a person.
    var presentChooser: (() -> Void)?
    /// An edited entry was updated in the library.
    var onEdited: ((CaptionLibrary.Entry) -> Void)?
    /// Tests wait on these; the app ignores them.
    var onSaved: ((CaptionLibrary.Entry) -> Void)?
    var onPhotoSettled: (() -> Void)?

    init(
        view: FormView, library: LibraryAccess, window: Window, header: HeaderBar, messages: MessageBar,
        notification: InAppNotification
    ) {
        self.view = view
        self.library = library
        self.window = window
        self.header = header
        self.messages = messages
        self.notification = notification
        engine = CaptionForm.engine(Wording(translate: { tr($0) }))
        drafts = DraftKeeper(directory: library.directory)
        photos = PhotoLoader(preview: view.preview)
        photoWords = PhotoWords(entries: view.entries)
        writer = CaptionWriter(library: library, messages: messages, label: view.destination)
        let settler = InputMethodSettler(entries: view.entries.sorted { $0.key < $1.key }.map(\.value))
        inputMethods = settler
        aids = TypingAids(entries: view.entries, composing: { settler.composition(in: $0) != nil })
        photoWords.onSetText = { [weak self] entry, text in self?.setText(entry, text) }
        photos.onSettled = { [weak self] result in self?.photoSettled(result) }
        aids.onChange = { [weak self] in self?.refresh() }
        FormInput.connect(view, in: window) { [weak self] input in self?.handle(input) ?? false }
        aids.loadCompletions(from: library)
        messages.onDismiss = { [weak self] in self?.send(.dismissSummary) }
        writer.show(for: nil, format: nil)
        refresh()
    }

    /// Where captions go besides the library, from the primary menu.
    func setDestination(_ destination: CaptionDestination) {
        writer.destination = destination
        writer.show(for: captionTarget, format: photos.loadedPhoto?.info.format)
    }

    // MARK: Engine decisions -> widgets

    private func handle(_ input: FormInput) -> Bool {
        switch input {
        // An Enter that accepts a completion offer does only that.
        case .event(.enter) where completion.acceptOnEnter(): break
        case .event(let event):
            if case .focus(let item) = event {
                if item != saidBySummary { saidBySummary = nil }
                if !arriving { arrivedPhoto = nil }
                aids.focusMoved(to: item)
            }
            send(event)
        case .typed(let item, let text):
            guard !settingText else { return true }
            aids.typed()
            if !arriving { arrivedPhoto = nil }
            messages.clearProblem()
            send(.edit(item: item, text: text))
        case .paste: return pastePhoto()
        }
        return true
    }

    /// Feeds one event to the engine and applies what it decides.
    func send(_ event: FormEvent) {
        if isSaving, event == .submit || event == .enter || event == .activate, engine.label == .done {
            return  // the save in flight answers this press
        }
        if [.submit, .activate, .enter, .back].contains(event) { settleInputMethod() }
        // Enter (or a save) right after a code replaces it, as a space would.
        if [.submit, .activate, .enter].contains(event), let entry = focusedEntry {
            replacements.replaceAtCursor(of: entry)
        }
        let decision = engine.handle(event)
        apply(decision)
        refresh()
        keepDraft()
    }

    private func apply(_ decision: FormDecision) {
        switch decision {
        case .nothing, .waitForPhoto:
            break
        case .focus(let item):
            focus(item)
        case .reject(let item):
            messages.clearProblem()
            focus(item)
            saidBySummary = item
        case .choosePhoto:
            choosePhoto()
        case .save(let submission):
            save(submission)
        }
    }

    func focus(_ item: Int?) {
        guard !holdingFocus else { return }
        let widget = item.map { view.itemWidgets[$0] } ?? view.activateButton.asWidget
        if !widget.hasFocus { widget.grabFocus() }
    }

    /// Set while the form changes wholesale (an entry opened for editing): the focus moves
    /// the engine decides on the way are not made, so that one deliberate move follows.
    /// A screen reader merges focus moves a few milliseconds apart and says a stale one.
    private var holdingFocus = false

    func withoutFocusMoves(_ body: () -> Void) {
        let held = holdingFocus
        holdingFocus = true
        body()
        holdingFocus = held
    }

    /// The field a failed submit sent focus to, while focus stays there: the summary's
    /// alert says its message, so the field's description does not say it a second time.
    private var saidBySummary: Int?

    /// A photo the user just put on the form (chose, dropped, skipped to), named by the
    /// focused field until focus moves or typing starts: nothing else says which photo came.
    private var arrivedPhoto: String?
    private var arriving = false

    private func arrive(_ body: () -> Void) {
        arriving = true
        arrivedPhoto = queue.currentPhoto.flatMap {
            FormSpeech.photoDescription(name: PhotoQueue.name(of: $0.path), position: positionText)
        }
        body()
        arriving = false
    }

    /// Shows the engine's state; runs on every keystroke and focus change.
    private func refresh() {
        let enter = [arrivedPhoto, FormSpeech.enterHint(engine.label, editing: editing != nil)].compactMap { $0 }
            .joined(separator: ". ")
        let photo = FormSpeech.photoDescription(name: view.photoName.text, position: header.subtitle)
        let quiet = engine.summary != nil ? saidBySummary : nil
        // Besides the engine's words, a field says its offers and what its variables become.
        let facts = photoFacts
        let details = view.render(engine, enterHint: enter, photoDescription: photo, quiet: quiet) { [aids] item in
            aids.notes(for: item, facts: facts)
        }
        messages.details = details
        messages.summary = engine.summary
    }

    /// What the variables stand for on the photo now on the form.
    private var photoFacts: PhotoFacts? {
        guard let path = photoPath else { return nil }
        return aids.variables.facts(path: path, position: editing == nil ? (queue.position?.index ?? 1) : nil)
    }

    // MARK: The words on the form

    var words: FormWords {
        FormWords(view.entries.mapValues(\.text))
    }

    private func setText(_ entry: TextEntry, _ text: String) {
        inputMethods.whileFormSetsText { aids.whileFormSetsText { entry.text = text } }
    }

    /// The text field with the focus, if any.
    private var focusedEntry: TextEntry? {
        view.entries.values.first { $0.pointer == window.focus }
    }

    /// Ctrl+Z right after a code was replaced puts the code back; returns whether it did.
    func undoReplacement() -> Bool {
        replacements.undo(focus: window.focus)
    }

    /// Commits any open composition into its field, as it shows (see InputMethodSettler).
    /// Every action that reads the form or changes what it shows calls this first.
    func settleInputMethod() {
        inputMethods.settle(focus: window.focus)
    }

    /// Puts words on the form as if typed (the engine hears of them), without the mark of
    /// the photo's words.
    private func show(_ words: FormWords) {
        for (item, entry) in view.entries { setText(entry, words[item]) }
    }

    private func keepWords() {
        queue.keep(title: words.title, subtitle: words.subtitle)
    }

    // MARK: Photos

    var photoPath: String? { editing?.path ?? queue.currentPhoto?.path }

    /// The user's file a caption from the form would go into: the photo on the form, or,
    /// for an entry being edited, the file it was saved from (nil when Caption does not
    /// know it: the photo on the form is then the library's own copy).
    var captionTarget: String? {
        guard let editing else { return queue.currentPhoto?.path }
        return editing.entry.source
    }

    func choosePhoto() {
        if let presentChooser { return presentChooser() }
        PhotoChooser.present(over: window) { [weak self] paths in
            // One photo replaces the one on the form; several join the queue.
            if paths.count == 1 { self?.openPhoto(paths[0]) } else { self?.enqueue(paths) }
        }
    }

    /// Adds photos to the queue: the first goes on the form if it has none, the rest wait
    /// their turn. Folders give their photos; what is left out is named (IncomingPhotos).
    func enqueue(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        settleInputMethod()
        let incoming = queue.sortIncoming(paths, kind: IncomingFiles.kind, identity: IncomingFiles.identity)
        if let message = incoming.message { messages.show(problem: message) }
        let paths = incoming.photos
        guard !paths.isEmpty else { return }
        if queue.append(paths) {
            arrive { showCurrentPhoto() }
        } else {
            if editing == nil { photos.decodeAhead(queue.neighbours) }
            refreshPosition()
        }
    }

    /// Puts a photo on the form in place of the current one, keeping the words typed.
    func openPhoto(_ path: String) {
        settleInputMethod()
        queue.replaceCurrent(with: path)
        arrive {
            load(path)
            refreshPosition()
        }
    }

    /// Skips to the next (1) or previous (-1) photo of the queue; what was typed stays with
    /// the photo it was typed for.
    func skip(by step: Int) {
        settleInputMethod()
        keepWords()
        guard queue.move(by: step) else { return window.errorBell() }
        arrive { showCurrentPhoto() }
    }

    /// Shows the queue's current photo with its words, as if it had just arrived: messages
    /// of the previous photo go, and focus goes to the first thing missing.
    private func showCurrentPhoto() {
        guard let photo = queue.currentPhoto else { return clearForm() }
        // One focus move at the end, not through Choose Photo… on the way: a screen reader
        // would say the button.
        withoutFocusMoves {
            send(.clear)
            show(FormWords(title: photo.title, subtitle: photo.subtitle))
            load(photo.path)
        }
        focus(engine.focus)
        refreshPosition()
    }

    /// "2 of 5" under the window title while there is more than one photo.
    private func refreshPosition() {
        header.subtitle = positionText
        refresh()
        keepDraft()
    }

    private var positionText: String? {
        queue.position.map {
            tr("{index} of {count}").replacing("{index}", with: String($0.index))
                .replacing("{count}", with: String($0.count))
        }
    }

    /// Starts loading a photo: it counts at once (a fast typist goes on to Title) and is
    /// checked and decoded off the main thread at the size the preview shows.
    private func load(_ path: String) {
        // A photo joins the recent files when it is on the form, not when it joins the
        // queue: a folder of a thousand would otherwise flood the list (and cost GTK's
        // recent manager some 5–10 MB), and the list would name photos never looked at.
        if editing == nil { RecentFiles.add([path]) }
        view.photoName.text = PhotoQueue.name(of: path)
        writer.show(for: captionTarget, format: nil)
        photos.load(path)
        // What comes next: the queue's photo once an edit is done, else its neighbours.
        photos.decodeAhead(editing != nil ? [queue.currentPhoto?.path].compactMap { $0 } : queue.neighbours)
        send(.photo(item: CaptionForm.photo, .loading))
        let request = photos.request
        // The photo's own words are read once its frame is drawn, for the same reason.
        MainThread.post(priority: G_PRIORITY_LOW) { [weak self] in
            self?.photoWords.offer(from: path) { [weak self] in self?.photos.request == request }
        }
        aids.variables.read(path) { [weak self] in self?.photos.request == request }
    }

    /// The photo's verdict: it counts (and a waiting submit goes on), or its message shows.
    private func photoSettled(_ result: Result<LoadedPhoto, LibraryError>) {
        switch result {
        case .success(let photo):
            writer.show(for: captionTarget, format: photo.info.format)
            send(.photo(item: CaptionForm.photo, .loaded))
            // Not a problem to fix: the photo counts, and the user hears why it looks grey.
            if let notice = photo.notice {
                let request = photos.request
                let show = { [weak self] in
                    guard let self else { return }
                    self.notification.showWhenFree(notice.beforeSaving(photo.path), seconds: 10) { [weak self] in
                        self?.photos.request == request
                    }
                }
                // A save still on its way will show "Saved" with its Undo: the notice waits
                // behind that, as behind one already showing.
                if isSaving { noticeAfterSave = show } else { show() }
            }
        case .failure(let error): send(.photo(item: CaptionForm.photo, .failed(message: error.message)))
        }
        onPhotoSettled?()
    }

    /// Empties the form when no photo is left to caption.
    private func clearForm() {
        photos.clear()
        view.photoName.text = ""
        writer.show(for: nil, format: nil)
        settingText = true
        show(.empty)
        settingText = false
        send(.clear)
        refreshPosition()
    }

    // MARK: Saving

    private func save(_ submission: Submission) {
        guard let path = photoPath else { return }
        // Variables become the photo's values; one that cannot is said, and nothing is saved.
        var values: [Int: String] = [:]
        for item in [CaptionForm.title, CaptionForm.subtitle] {
            switch CaptionVariables.expand(submission.values[item], facts: photoFacts) {
            case .success(let words): values[item] = words
            case .failure(let message):
                messages.show(problem: message.text)
                focus(item)
                return
            }
        }
        let title = values[CaptionForm.title] ?? ""
        let subtitle = values[CaptionForm.subtitle] ?? ""
        guard let editedID = editing?.entry.id else {
            return saveAndMoveOn(QueuedPhoto(path: path, title: title, subtitle: subtitle))
        }
        isSaving = true
        view.activateButton.isSensitive = false
        // Editing a saved entry updates its words; its photo is already in the library.
        library.perform(
            { library throws(LibraryError) in try library.update(id: editedID, title: title, subtitle: subtitle) },
            completion: { [weak self] result in
                guard let self else { return }
                self.isSaving = false
                self.view.activateButton.isSensitive = true
                switch result {
                case .success(let entry):
                    self.edited(entry)
                    self.onSaved?(entry)
                    // An edited entry's words go where its photo came from, if Caption knows.
                    if let source = entry.source { self.writer.saved(entry, from: source, sha256: nil) }
                case .failure(let error):
                    // Everything typed stays; the library says what went wrong.
                    self.messages.show(problem: error.message)
                }
            })
    }

    /// Photos whose save is on its way, with their words: they have left the queue, and
    /// stay in the draft until the library has them.
    private var savingPhotos: [QueuedPhoto] = []

    /// Saves the queue's photo and shows the next one at once, Title focused, while the save
    /// goes on (copying and syncing a camera photo takes longer than a frame). When the save
    /// fails, the photo and its words come back on the form in front of the next one (whose
    /// words are kept), with the library's message: nothing typed is lost.
    private func saveAndMoveOn(_ photo: QueuedPhoto) {
        let loaded = photos.loadedPhoto
        isSaving = true
        savingPhotos.append(photo)
        queue.removeCurrent()
        showCurrentPhoto()
        // Once the next photo's frame is drawn: writing and syncing the copy would otherwise
        // take a core from the main thread and the X server while they paint it.
        unstored.append((photo, loaded))
        MainThread.post(priority: G_PRIORITY_LOW) { [weak self] in self?.storeWaiting() }
    }

    /// The notice of the photo now on the form, held while a save is on its way.
    private var noticeAfterSave: (() -> Void)?

    /// Once no save is on its way, the notice that waited for it.
    private func showNoticeAfterSave() {
        guard !isSaving, let notice = noticeAfterSave else { return }
        noticeAfterSave = nil
        notice()
    }

    /// Saves waiting for the next frame before they go to the library's queue.
    private var unstored: [(photo: QueuedPhoto, loaded: LoadedPhoto?)] = []

    /// Hands every waiting save to the library's queue now; quitting calls this before it
    /// waits for that queue, so that a Done just before Ctrl+Q is saved.
    func storeWaiting() {
        let waiting = unstored
        unstored = []
        for (photo, loaded) in waiting { store(photo, loaded: loaded) }
    }

    private func store(_ photo: QueuedPhoto, loaded: LoadedPhoto?) {
        library.perform(
            { library throws(LibraryError) in
                if let loaded { return try library.add(loaded, title: photo.title, subtitle: photo.subtitle) }
                return try library.add(photoAt: photo.path, title: photo.title, subtitle: photo.subtitle)
            },
            completion: { [weak self] result in
                guard let self else { return }
                if let index = self.savingPhotos.firstIndex(of: photo) { self.savingPhotos.remove(at: index) }
                self.isSaving = !self.savingPhotos.isEmpty
                switch result {
                case .success(let entry):
                    self.writer.saved(entry, from: photo.path, sha256: loaded?.sha256)
                    self.saved(entry, from: photo.path)
                case .failure(let error):
                    self.settleInputMethod()
                    if self.editing == nil { self.keepWords() }
                    self.queue.restore(photo)
                    if self.editing == nil { self.showCurrentPhoto() }
                    self.messages.show(problem: error.message)
                }
                self.showNoticeAfterSave()
                self.keepDraft()
            })
    }

    private func saved(_ entry: CaptionLibrary.Entry, from path: String) {
        lastSaved = FormWords(title: entry.title, subtitle: entry.subtitle)
        completion.record(title: entry.title, subtitle: entry.subtitle)
        // The photo left the queue when Done was pressed; the form shows the next one.
        notification.show(
            tr("Saved “{title}”").replacing("{title}", with: entry.title), button: .undo,
            details: FormSpeech.nextPhoto(queue)
        ) { [weak self] in self?.undo(entry, from: path) }
        onSaved?(entry)
    }

    /// Undo of a save: the entry leaves the library, and its photo and words come back to
    /// the form in front of whatever the user moved on to (whose words are kept).
    private func undo(_ entry: CaptionLibrary.Entry, from path: String) {
        settleInputMethod()
        lastSaved = nil  // the library's newest entry is the last caption again
        library.perform(
            { library throws(LibraryError) in _ = try library.remove(id: entry.id) },
            completion: { [weak self] result in
                guard let self else { return }
                if case .failure(let error) = result { return self.messages.show(problem: error.message) }
                self.completion.forget(title: entry.title, subtitle: entry.subtitle)
                self.keepWords()
                self.queue.restore(QueuedPhoto(path: path, title: entry.title, subtitle: entry.subtitle))
                self.showCurrentPhoto()
                // Said, since the form changing under the focus is not.
                self.notification.show(
                    tr("Save undone: “{title}” is back on the form").replacing("{title}", with: entry.title))
            })
    }

    // MARK: Reuse: the last caption again, the same caption for the rest

    /// The words of the last caption saved or updated here; nil until then (or after its
    /// save was undone), when the library's newest entry is asked for instead.
    private var lastSaved: FormWords?

    /// Ctrl+D: the focused field takes the same field of the last saved caption; `both`
    /// (Ctrl+Shift+D): both fields do. The engine hears of it as of typing, so the button
    /// and Enter say what comes next; focus stays where it is.
    func reuseLastCaption(both: Bool) {
        settleInputMethod()
        let items =
            both ? view.entries.keys.sorted() : [engine.focus].compactMap { $0 }.filter { view.entries[$0] != nil }
        guard !items.isEmpty else { return window.errorBell() }
        withLastSaved { [weak self] words in
            guard let self else { return }
            guard let words else {
                self.window.errorBell()
                return self.messages.show(problem: tr("No caption saved yet: Ctrl+D repeats the last one saved"))
            }
            for item in items {
                guard let entry = self.view.entries[item] else { continue }
                self.setText(entry, words[item])
                // The cursor after the words, to go on typing.
                gtk_editable_set_position(OpaquePointer(entry.objectPointer), -1)
            }
        }
    }

    /// Hands `body` the last saved caption's words: this session's, else the library's
    /// newest entry's (read on the library's queue), else nil.
    private func withLastSaved(_ body: @escaping @MainActor (FormWords?) -> Void) {
        if let lastSaved { return body(lastSaved) }
        library.perform(
            { library throws(LibraryError) in try library.entries(after: nil, limit: 1).first },
            completion: { [weak self] result in
                let newest = (try? result.get())?.flatMap { $0 }.map {
                    FormWords(title: $0.title, subtitle: $0.subtitle)
                }
                body(self?.lastSaved ?? newest)
            })
    }

    /// The batch of "Caption the rest of the queue the same" on its way, for tests.
    private(set) var captioningRest: WorkProgress?
    /// Tests wait on this: what the batch saved, and the photos it could not.
    var onRestCaptioned: (([CaptionLibrary.Entry], [String]) -> Void)?

    /// The words on the form go with the photo on the form and with every other photo of
    /// the queue that has no words of its own, saved in one step on the library's queue,
    /// with a progress bar and Cancel, and one Undo for all. Photos with words of their own
    /// keep them and stay; a photo that cannot be saved comes back to the queue, named.
    func captionRestTheSame() {
        settleInputMethod()
        guard editing == nil, captioningRest == nil, queue.currentPhoto != nil else { return window.errorBell() }
        let others = queue.photosWithoutWords
        // Incomplete words: the same messages as a save, and nothing saved.
        guard engine.isComplete, !others.isEmpty else { return send(.submit) }
        // Variables ({date}, {filename}…) would need each photo's own values, which only the
        // photo on the form has read: the batch refuses them rather than save them as typed.
        guard !engine.normalizedValues.contains(where: Variables.appear(in:)) else {
            return messages.show(problem: tr("Caption the rest of the queue the same takes words without variables"))
        }
        keepWords()
        let values = engine.normalizedValues
        let title = values[CaptionForm.title]
        let subtitle = values[CaptionForm.subtitle]
        // As the queue had them, for Undo; then as they are being saved, for the draft.
        guard let current = queue.currentPhoto else { return }
        let before = queue.photos.filter { $0 == current || others.contains($0) }
        let batch = before.map { QueuedPhoto(path: $0.path, title: title, subtitle: subtitle) }
        let loaded = photos.loadedPhoto
        let progress = WorkProgress(total: batch.count)
        captioningRest = progress
        isSaving = true
        savingPhotos += batch
        queue.remove(Set(batch.map(\.path)))
        showCurrentPhoto()
        let panel = ProgressPanel(progress: progress, title: tr("Captioning the rest…"))
        notification.show(progress: panel)
        let currentPath = current.path
        library.perform(
            { library throws(LibraryError) in
                var saved: [CaptionLibrary.Entry] = []
                var savedPaths: [String] = []
                var failed: [(path: String, message: String)] = []
                for photo in batch where !progress.isCancelled {
                    do throws(LibraryError) {
                        // The photo that was on the form is already read and checked.
                        if photo.path == currentPath, let loaded {
                            saved.append(try library.add(loaded, title: title, subtitle: subtitle))
                        } else {
                            saved.append(try library.add(photoAt: photo.path, title: title, subtitle: subtitle))
                        }
                        savedPaths.append(photo.path)
                    } catch {
                        failed.append((photo.path, error.message))
                    }
                    progress.advance()
                }
                return RestCaptioned(
                    saved: saved, savedPaths: savedPaths, failed: failed.map(\.path), messages: failed.map(\.message))
            },
            completion: { [weak self] result in
                panel.stop()
                guard let self else { return }
                self.notification.show(progress: nil)
                self.captioningRest = nil
                self.savingPhotos.removeAll { batch.contains($0) }
                self.isSaving = !self.savingPhotos.isEmpty
                let outcome = (try? result.get()) ?? RestCaptioned(saved: [], savedPaths: [], failed: [], messages: [])
                self.restCaptioned(
                    outcome, before: before, words: FormWords(title: title, subtitle: subtitle),
                    loaded: (currentPath, loaded?.sha256))
                if case .failure(let error) = result { self.messages.show(problem: error.message) }
                self.showNoticeAfterSave()
                self.keepDraft()
            })
    }

    /// What the batch did: the photos it did not save (failed or cancelled) come back to
    /// the queue as they were; the rest can be undone together.
    private func restCaptioned(
        _ outcome: RestCaptioned, before: [QueuedPhoto], words: FormWords,
        loaded: (path: String, sha256: String?)
    ) {
        let savedPaths = Set(outcome.savedPaths)
        let unsaved = before.filter { !savedPaths.contains($0.path) }
        if !unsaved.isEmpty {
            if editing == nil { keepWords() }
            queue.restore(unsaved)
            if editing == nil { showCurrentPhoto() }
        }
        if !outcome.failed.isEmpty {
            let names = zip(outcome.failed, outcome.messages).map { PhotoQueue.name(of: $0) + ": " + $1 }
            messages.show(
                problem: tr("{count} photos could not be saved and are back in the queue: {names}")
                    .replacing("{count}", with: String(outcome.failed.count))
                    .replacing("{names}", with: names.joined(separator: "; ")))
        }
        let entries = outcome.saved
        // Each caption also goes where the menu says, as a single save's does.
        for (entry, path) in zip(entries, outcome.savedPaths) {
            writer.saved(entry, from: path, sha256: path == loaded.path ? loaded.sha256 : nil)
            completion.record(title: entry.title, subtitle: entry.subtitle)
        }
        if !entries.isEmpty {
            lastSaved = words
            notification.show(
                tr("Captioned {count} photos “{title}”").replacing("{count}", with: String(entries.count))
                    .replacing("{title}", with: words.title), button: .undo,
                details: FormSpeech.nextPhoto(queue)
            ) { [weak self] in self?.undoRest(entries, before: before.filter { savedPaths.contains($0.path) }) }
        }
        onRestCaptioned?(entries, unsaved.map(\.path))
    }

    /// Undo of the batch: its entries leave the library, and its photos come back in front,
    /// with the words they had before (the photo that was on the form, its words).
    private func undoRest(_ entries: [CaptionLibrary.Entry], before: [QueuedPhoto]) {
        settleInputMethod()
        lastSaved = nil
        let ids = entries.map(\.id)
        library.perform(
            { library throws(LibraryError) in for id in ids { _ = try library.remove(id: id) } },
            completion: { [weak self] result in
                guard let self else { return }
                if case .failure(let error) = result { return self.messages.show(problem: error.message) }
                for entry in entries { self.completion.forget(title: entry.title, subtitle: entry.subtitle) }
                if self.editing == nil { self.keepWords() }
                self.queue.restore(before)
                if self.editing == nil { self.showCurrentPhoto() }
                self.notification.show(
                    tr("Undone: {count} photos are back in the queue").replacing("{count}", with: String(before.count)))
                self.onRestCaptioned?([], before.map(\.path))
            })
    }

    // MARK: Editing a saved entry

    /// Opens a saved entry in the form: the same fields and the same Enter; Done updates it.
    func edit(_ entry: CaptionLibrary.Entry, photo path: String) {
        settleInputMethod()
        if editing == nil { keepWords() }
        editing = (entry, path)
        send(.clear)
        show(FormWords(title: entry.title, subtitle: entry.subtitle))
        load(path)
        let editingWords = tr("Editing “{title}”").replacing("{title}", with: entry.title)
        header.subtitle = editingWords
        // The header's subtitle is not read when it changes: the notification is.
        notification.show(editingWords, details: tr("Enter updates the entry"))
    }

    /// The update is in the library: back to the queue's photo.
    private func edited(_ entry: CaptionLibrary.Entry) {
        if let old = editing?.entry { aids.completionSource?.updated(from: old, to: entry) }
        editing = nil
        lastSaved = FormWords(title: entry.title, subtitle: entry.subtitle)
        showCurrentPhoto()
        if queue.currentPhoto == nil { refreshPosition() }
        notification.show(tr("Updated “{title}”").replacing("{title}", with: entry.title))
        onEdited?(entry)
    }

    // MARK: The draft

    /// The form's unsaved state. While a saved entry is being edited, the form holds its
    /// words, not the queue's (kept in the queue when the edit began).
    var draft: Draft {
        // Photos still being saved stay in the draft: a crash mid-save loses no words.
        let kept = PhotoQueue(
            photos: savingPhotos + queue.photos, current: queue.current.map { $0 + savingPhotos.count })
        return Draft(kept, words: editing == nil ? words : nil)
    }

    private func keepDraft() {
        drafts.keep(draft)
    }

    var draftKeeper: DraftKeeper { drafts }

    /// Brings back the draft of an earlier run, saying so, with a way to throw it away.
    /// Returns whether there was one.
    @discardableResult
    func restoreDraft() -> Bool {
        guard let saved = drafts.store.load(), !saved.isEmpty else { return false }
        drafts.adopt(saved)
        show(saved)
        // Longer than other notifications: it greets the user as the window opens, before
        // they may have looked; and after the focused field has been read.
        window.whenActive(delay: 400) { [weak self] in
            self?.notification.show(tr("Your unsaved captions are back"), button: .discard, seconds: 20) {
                [weak self] in self?.discardDraft()
            }
        }
        return true
    }

    /// Discard is a button press, never a stray key, and even then it can be undone.
    func discardDraft() {
        let discarded = draft
        queue = PhotoQueue()
        clearForm()
        notification.show(tr("Unsaved captions discarded"), button: .undo) { [weak self] in
            self?.show(discarded)
            self?.keepDraft()
        }
    }

    /// Puts a draft on the form.
    private func show(_ draft: Draft) {
        let (queue, loose) = draft.queueAndLooseWords
        self.queue = queue
        guard let loose else { return showCurrentPhoto() }
        clearForm()
        show(loose)
        refreshPosition()
    }

    func flushDraft() {
        drafts.flush()
    }

    // MARK: Photos from elsewhere: paste and drops

    /// Ctrl+V: files copied in a file manager, or an image copied from another app, become
    /// photos. Returns false when the clipboard holds neither, so a text field pastes text.
    @discardableResult
    func pastePhoto() -> Bool { take(PhotoIntake.clipboard()) }

    /// What a drop brought: files join the queue; image data with no file becomes one.
    func receive(_ drop: PhotoIntake.Received) { take(drop) }

    @discardableResult
    private func take(_ received: PhotoIntake.Received) -> Bool {
        PhotoIntake.deliver(
            received, to: { [weak self] paths in self?.enqueue(paths) },
            failure: { [weak self] problem in self?.messages.show(problem: problem) })
    }
}

/// What "Caption the rest of the queue the same" did on the library's queue.
struct RestCaptioned: Sendable {
    let saved: [CaptionLibrary.Entry]
    /// The photos of `saved`, in the same order.
    let savedPaths: [String]
    /// The photos that could not be saved, and why.
    let failed: [String]
    let messages: [String]
}
