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
    /// Codes typed in the fields become their text (CodeReplacer).
    let replacements: CodeReplacer
    /// Earlier captions offered under the field being typed in.
    let completion: CompletionOffers
    /// {date}, {camera}…: the photo's facts, and the words as they will be saved.
    let variables = CaptionVariables()
    /// Misspelt words marked in the fields, with suggestions in their context menu.
    let spelling: SpellCheck
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
        replacements = CodeReplacer(
            table: ReplacementStore.load(), entries: view.entries.sorted { $0.key < $1.key }.map(\.value))
        // Made before the form's own handlers are connected: the offers are up to date when
        // the form reads them on the same keystroke.
        completion = CompletionOffers(entries: view.entries, composing: { settler.composition(in: $0) != nil })
        spelling = SpellCheck(entries: view.entries.sorted { $0.key < $1.key }.map(\.value))
        photoWords.onSetText = { [weak self] entry, text in self?.setText(entry, text) }
        photos.onSettled = { [weak self] result in self?.photoSettled(result) }
        completion.onChange = { [weak self] in self?.refresh() }
        replacements.onReplaced = { [weak self] entry, match, undone in self?.said(entry, match, undone: undone) }
        variables.onFacts = { [weak self] in self?.refresh() }
        FormInput.connect(view, in: window) { [weak self] input in self?.handle(input) ?? false }
        loadCompletions()
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
                // What a code became is said once, with its field; not on coming back to it.
                if item != replacementNote?.item { replacementNote = nil }
            }
            send(event)
        case .typed(let item, let text):
            guard !settingText else { return true }
            replacementNote = nil
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
        let details = view.render(engine, enterHint: enter, photoDescription: photo, quiet: quiet) { [self] item in
            let note = replacementNote?.item == item ? replacementNote?.words : nil
            return (expansionWords(for: item), [note, completion.description(for: item)].compactMap { $0 }.first)
        }
        messages.details = details
        messages.summary = engine.summary
    }

    /// What the last code replacement did, said with its field until the next change.
    private var replacementNote: (item: Int, words: String)?

    private func said(_ entry: TextEntry, _ match: Match, undone: Bool) {
        guard let item = view.entries.first(where: { $0.value.pointer == entry.pointer })?.key else { return }
        let words =
            undone
            ? tr("{code} is back").replacing("{code}", with: match.code)
            : tr("{code} became {text}. Ctrl+Z takes it back").replacing("{code}", with: match.code)
                .replacing("{text}", with: match.text)
        replacementNote = (item, words)
        refresh()
    }

    /// Under a field holding a variable: "Saved as: …", or why it cannot be saved.
    private func expansionWords(for item: Int) -> String? {
        guard let entry = view.entries[item], Variables.appear(in: entry.text) else { return nil }
        switch CaptionVariables.expand(entry.text, facts: photoFacts) {
        case .success(let words): return tr("Saved as: {words}").replacing("{words}", with: words)
        case .failure(let message): return message.text
        }
    }

    /// What the variables stand for on the photo now on the form.
    private var photoFacts: PhotoFacts? {
        guard let path = photoPath else { return nil }
        return variables.facts(path: path, position: editing == nil ? (queue.position?.index ?? 1) : nil)
    }

    // MARK: The words on the form

    var words: FormWords {
        FormWords(view.entries.mapValues(\.text))
    }

    private func setText(_ entry: TextEntry, _ text: String) {
        inputMethods.whileFormSetsText {
            replacements.whileFormSetsText { completion.whileFormSetsText { entry.text = text } }
        }
    }

    /// The text field with the focus, if any.
    private var focusedEntry: TextEntry? {
        view.entries.values.first { $0.pointer == window.focus }
    }

    /// Ctrl+Z right after a code was replaced puts the code back; returns whether it did.
    func undoReplacement() -> Bool {
        replacements.undo(focus: window.focus)
    }

    /// Reads every earlier title and subtitle for the offers, on the library's queue.
    private func loadCompletions() {
        library.perform(
            { library throws(LibraryError) in
                (CompletionIndex(try library.usage(of: .title)), CompletionIndex(try library.usage(of: .subtitle)))
            },
            completion: { [weak self] result in
                // Without the library's words the form still works; the offers start empty.
                guard case .success(let (titles, subtitles)) = result else { return }
                self?.completion.use(titles: titles, subtitles: subtitles)
            })
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
        RecentFiles.add(paths)
        if queue.append(paths) {
            arrive { showCurrentPhoto() }
        } else {
            refreshPosition()
        }
    }

    /// Puts a photo on the form in place of the current one, keeping the words typed.
    func openPhoto(_ path: String) {
        settleInputMethod()
        RecentFiles.add([path])
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
        view.photoName.text = PhotoQueue.name(of: path)
        writer.show(for: captionTarget, format: nil)
        photos.load(path)
        send(.photo(item: CaptionForm.photo, .loading))
        let request = photos.request
        photoWords.offer(from: path) { [weak self] in self?.photos.request == request }
        variables.read(path) { [weak self] in self?.photos.request == request }
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
                notification.showWhenFree(notice.beforeSaving(photo.path), seconds: 10) { [weak self] in
                    self?.photos.request == request
                }
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
        isSaving = true
        view.activateButton.isSensitive = false
        let loaded = photos.loadedPhoto
        // Editing a saved entry updates its words; its photo is already in the library.
        let editedID = editing?.entry.id
        library.perform(
            { library throws(LibraryError) in
                if let editedID { return try library.update(id: editedID, title: title, subtitle: subtitle) }
                if let loaded { return try library.add(loaded, title: title, subtitle: subtitle) }
                return try library.add(photoAt: path, title: title, subtitle: subtitle)
            },
            completion: { [weak self] result in
                guard let self else { return }
                self.isSaving = false
                self.view.activateButton.isSensitive = true
                switch result {
                case .success(let entry) where editedID != nil:
                    self.edited(entry)
                    self.onSaved?(entry)
                    // An edited entry's words go where its photo came from, if Caption knows.
                    if let source = entry.source { self.writer.saved(entry, from: source, sha256: nil) }
                case .success(let entry):
                    self.writer.saved(entry, from: path, sha256: loaded?.sha256)
                    self.saved(entry, from: path)
                case .failure(let error):
                    // Everything typed stays; the library says what went wrong.
                    self.messages.show(problem: error.message)
                }
            })
    }

    private func saved(_ entry: CaptionLibrary.Entry, from path: String) {
        // The saved photo leaves the queue; the next one, if any, takes its place.
        queue.removeCurrent()
        completion.record(title: entry.title, subtitle: entry.subtitle)
        showCurrentPhoto()
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
        editing = nil
        showCurrentPhoto()
        if queue.currentPhoto == nil { refreshPosition() }
        notification.show(tr("Updated “{title}”").replacing("{title}", with: entry.title))
        onEdited?(entry)
    }

    // MARK: The draft

    /// The form's unsaved state. While a saved entry is being edited, the form holds its
    /// words, not the queue's (kept in the queue when the edit began).
    var draft: Draft { Draft(queue, words: editing == nil ? words : nil) }

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
