// The form: which photo is on it and what is typed for it. It holds the queue and the entry
// being edited, and decides what the form shows; FormBinding binds the fields to the focus
// engine, FormPhoto loads the photo, FormSaves makes the library writes, QueueSaving says
// what a save did (with its Undo), and DraftRecovery keeps the draft across runs.

import CaptionChecks
import CaptionLibrary
import CaptionMetadata
import CaptionQueue
import CaptionText
import FocusEngine
import Localization
import Shorthand

@MainActor
final class FormController: FormBindingOwner, QueueHolder, DraftHolder {
    let view: FormView
    /// The fields and the engine: what Enter does, what the fields say.
    private let binding: FormBinding
    /// Saves, updates and their undo, on the library's queue.
    private let saves: FormSaves
    /// What a save of the queue's photos did, and its Undo.
    private let queueSaving: QueueSaving
    /// The draft across runs: restored at start, flushed at quit, discarded by its button.
    let drafts: DraftRecovery
    /// The photo on the form.
    private let shown: FormPhoto
    var photos: PhotoLoader { shown.loader }
    /// The photo at 100 %, by keys.
    let zoom: PhotoZoom
    var photoWords: PhotoWords { shown.words }
    /// The caption into the photo file or beside it after a save, as the menu says.
    let writer: CaptionWriter
    /// Code replacements, offers, variables and spell-checking in the fields.
    let aids: TypingAids
    /// The code replacements the fields use; Preferences changes them.
    var replacementTable: ReplacementTable {
        get { aids.replacements.table }
        set {
            aids.replacements.table = newValue
            names = nil
        }
    }
    /// The names the code replacements spell, for the check at Done: made when first
    /// needed after the table changes.
    private var names: NameRoster?
    /// The checks at Done that Preferences leaves on: read from `settingsFile` at the
    /// first Done (nothing of them is needed before), then as Preferences changes them.
    var checkChoices: CheckChoices {
        get {
            if let chosenChecks { return chosenChecks }
            let read = settingsFile.map { CreditsFile.checkChoices($0) } ?? CheckChoices()
            chosenChecks = read
            return read
        }
        set { chosenChecks = newValue }
    }
    private var chosenChecks: CheckChoices?
    /// The file of credits, writing choices and checks.
    var settingsFile: String?
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
    /// The photo on the form, claimed from the other editors of a shared library.
    let claims: PhotoClaims
    /// The photos to ask about again: taken by others, waited on, not yet claimed.
    private var desk = DeskClaimState()
    /// Words whose check findings were said at Done: Done again on them saves.
    private var checkedAndSaid: CaptionWords?
    /// The photo whose creator was last said (once per arrival on the form).
    private var toldOfCreator: String?
    /// The way the form last moved through the queue: passing over goes on that way.
    private var lastStep = 1
    /// A save the server could not take, back on the form with its words: saved by itself
    /// once the server answers, while the form still holds that photo and those words.
    private let serverReturn: ServerReturn
    private let library: LibraryAccess
    private let lifetime: Lifetime

    /// Shows the file chooser; tests replace it, since a chooser would wait for a person.
    var presentChooser: (() -> Void)?
    /// Done on an entry being edited: the form is back on the queue (the entry as it was
    /// opened); the update follows.
    var onEditDone: ((CaptionLibrary.Entry) -> Void)?
    /// An edited entry was updated in the library.
    var onEdited: ((CaptionLibrary.Entry) -> Void)?
    /// Edit Again after an update that failed: the entry (as the library has it now), its
    /// photo, and the words that were not saved.
    var onEditAgain: ((CaptionLibrary.Entry, String, CaptionWords) -> Void)?
    /// Tests wait on these; the app ignores them.
    var onSaved: ((CaptionLibrary.Entry) -> Void)?
    var onPhotoSettled: (() -> Void)?
    /// What "Caption the rest the same" saved, and the photos it could not.
    var onRestCaptioned: (([CaptionLibrary.Entry], [String]) -> Void)?

    init(
        view: FormView, library: LibraryAccess, window: Window, header: HeaderBar, messages: MessageBar,
        notification: InAppNotification, lifetime: Lifetime
    ) {
        self.view = view
        self.window = window
        self.header = header
        self.messages = messages
        self.notification = notification
        self.library = library
        self.lifetime = lifetime
        drafts = DraftRecovery(
            directory: library.draftsDirectory, window: window, notification: notification, lifetime: lifetime)
        let loader = PhotoLoader(preview: view.preview, lifetime: lifetime)
        zoom = PhotoZoom(loader: loader)
        let photoWords = PhotoWords(entries: view.entries, lifetime: lifetime)
        writer = CaptionWriter(library: library, messages: messages, label: view.destination)
        let settler = InputMethodSettler(entries: CaptionField.allCases.map(view.entry))
        aids = TypingAids(
            entries: view.entries, lifetime: lifetime, composing: { settler.composition(in: $0) != nil })
        binding = FormBinding(
            view: view, window: window, messages: messages, inputMethods: settler, aids: aids,
            lifetime: lifetime)
        saves = FormSaves(library: library, writer: writer, completion: aids.completion)
        shown = FormPhoto(
            view: view, loader: loader, words: photoWords, binding: binding, writer: writer, aids: aids,
            notification: notification, saves: saves)
        queueSaving = QueueSaving(saves: saves, notification: notification, messages: messages)
        claims = PhotoClaims(library: library, lifetime: lifetime)
        serverReturn = ServerReturn(library: library, lifetime: lifetime)
        binding.owner = self
        queueSaving.holder = self
        drafts.holder = self
        queueSaving.onSaved = { [weak self] in self?.onSaved?($0) }
        queueSaving.onRestDone = { [weak self] in self?.onRestCaptioned?($0, $1) }
        queueSaving.onUnreachable = { [weak self] in self?.serverReturn.wait(for: $0) }
        serverReturn.stillUnsaved = { [weak self] in self?.stillUnsaved($0) ?? false }
        serverReturn.isSaving = { [weak self] in self?.isSaving ?? false }
        // The photo on the form, whose claim could not be asked while the server was gone,
        // is claimed now rather than at the next renewal.
        serverReturn.onAnswer = { [weak self] in self?.askAgain() }
        serverReturn.onBack = { [weak self] in self?.saveNowTheServerIsBack($0) }
        shown.onSettled = { [weak self] in self?.onPhotoSettled?() }
        shown.onLoaded = { [weak self] in self?.claim($0) }
        claims.onRenewal = { [weak self] in
            self?.desk.renewed()
            self?.askAgain()
        }
        library.whenOthersCommit { [weak self] in self?.askAgain() }
        aids.onChange = { [weak self] in
            self?.binding.refresh()
            self?.tellOfAnotherCreator()
        }
        aids.loadCompletions(from: library)
        writer.show(for: nil, format: nil)
        window.afterFirstDraw { [weak self] in
            guard let self else { return }
            self.drawn = true
            self.followCreators()
            self.aids.variables.readsPlaces = true
            if let path = self.photoPath {
                self.aids.variables.readPlace(path) { [weak self] in self?.photoPath == path }
            }
        }
        binding.refresh()
    }

    /// Where captions go besides the library, from the primary menu.
    func setDestination(_ destination: CaptionDestination?) {
        writer.destination = destination
        writer.show(for: captionTarget, format: photos.loadedPhoto?.info.format)
    }

    // MARK: The fields (FormBinding's)

    var engine: FocusEngine { binding.engine }
    var words: CaptionWords { binding.words }
    /// Feeds one event to the engine and applies what it decides.
    func send(_ event: FormEvent) { binding.send(event) }
    func focus(_ item: CaptionForm.Item?) { binding.focus(item) }
    /// The form shows again (its tab clicked, or Escape in the library): focus goes back to
    /// the engine's field, its words not selected, so that typing goes on where it was.
    func resumeFocus() {
        let item = engine.focusedItem ?? binding.lastFocused
        guard case .text(let field)? = item else { return focus(item) }
        let entry = view.entry(field)
        if !entry.hasFocus { entry.grabFocusWithoutSelecting() }
    }
    /// The engine's focus moves are not made while `body` changes the form wholesale.
    func withoutFocusMoves(_ body: () -> Void) { binding.withoutFocusMoves(body) }
    /// Ctrl+Z right after a code was replaced puts the code back; returns whether it did.
    func undoReplacement() -> Bool { binding.undoReplacement() }
    /// Commits any open composition; every action that reads or changes the form calls it.
    func settleInputMethod() { binding.settleInputMethod() }
    /// A save is in flight (quitting waits for it; tests wait on it).
    var isSaving: Bool { saves.isSaving }
    /// The batch of "Caption the rest of the queue the same" on its way, for tests.
    var captioningRest: WorkProgress? { saves.captioningRest }
    var isEditing: Bool { editing != nil }
    func formChanged() { drafts.keep() }
    func wordsEdited() { notification.forgetUndo() }

    /// The standing credits from Preferences: each new entry is saved with them, and the
    /// line under the fields shows them. Credits that could not be read are not written.
    var standingCredits = StandingCredits.none {
        didSet {
            saves.credits = standingCredits.problem == nil ? standingCredits.template : .none
            // New credits are said once, as the form is reached (at start, or back from
            // Preferences), and with the first save they go into.
            let line = standingCredits.line(facts: nil)
            if standingCredits != oldValue { binding.creditsNews = line.isEmpty ? nil : line }
            // The credits the window started with are no news to a save.
            if creditsLastSaved == nil { creditsLastSaved = line }
            followCreators()
            binding.refresh()
        }
    }

    /// The credits line was just said another way (a pad chosen): not news to the field
    /// reached next.
    func forgetCreditsNews() { binding.creditsNews = nil }

    /// The window has been drawn once: what start-up leaves for later may be read now.
    private var drawn = false

    /// Photos' own creators are read when credits of authorship would be left out of
    /// another creator's photo, from the first frame on; the photo already on the form is
    /// read when that need begins.
    private func followCreators() {
        let wanted = drawn && standingCredits.leavesAuthorshipOutOfOthersPhotos
        guard wanted != aids.variables.readsCreator else { return }
        aids.variables.readsCreator = wanted
        if wanted, let path = photoPath {
            aids.variables.readCreator(path) { [weak self] in self?.photoPath == path }
        }
    }

    /// What the variables stand for on the photo now on the form.
    var photoFacts: PhotoFacts? {
        guard let path = photoPath else { return nil }
        return aids.variables.facts(path: path, position: factsPosition)
    }

    /// The creator the photo on the form names itself, once read.
    var photoCreator: String? { photoPath.flatMap { aids.variables.creator(path: $0) } }

    /// Says once, as another creator's photo arrives, which standing credits stay out of
    /// it; the line under the fields keeps saying it while the photo is on the form.
    private func tellOfAnotherCreator() {
        guard let path = photoPath, path != toldOfCreator, let creator = photoCreator else { return }
        let leftOut = standingCredits.authorshipLeftOut(photoCreator: creator)
        guard !leftOut.isEmpty else { return }
        toldOfCreator = path
        notification.showWhenFree(
            fill(
                tr("This photo is {creator}'s: your credits of authorship ({credits}) are not written into it"),
                ["creator": creator, "credits": leftOut.map(CreditNames.name).joined(separator: ", ")])
        ) { [weak self] in self?.photoPath == path }
    }

    /// {n}: the photo's place in the queue; an entry being edited has none.
    private var factsPosition: Int? { editing == nil ? (queue.position?.index ?? 1) : nil }

    private func keepWords() {
        queue.keep(words)
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
        // In the folder of the photo on the form: the next photos are most often beside it.
        let folder = queue.currentPhoto.map { String($0.path[..<($0.path.lastIndex(of: "/") ?? $0.path.endIndex)]) }
        PhotoChooser.present(over: window, startingIn: folder) { [weak self] paths in
            guard let self else { return }
            // Once the window is active again: a screen reader says nothing of a window it
            // has not come back to, and the refusal below must be heard.
            self.window.whenActive(delay: 100, in: self.photos.lifetime) { [weak self] in
                guard let self else { return }
                // One photo replaces the one on the form; several join the queue. A file
                // that is not a photo is refused at once and named, as from a drop or a
                // paste: it never takes the form's place.
                if paths.count == 1, IncomingFiles.kind(paths[0]) != .notPhoto {
                    self.openPhoto(paths[0])
                } else {
                    self.enqueue(paths)
                }
            }
        }
    }

    /// Adds photos to the queue: the first goes on the form if it has none, the rest wait
    /// their turn. Folders give their photos; what is left out is named (IncomingPhotos).
    func enqueue(_ paths: [String], alreadyShown shown: String? = nil) {
        guard !paths.isEmpty else { return }
        settleInputMethod()
        var incoming = queue.sortIncoming(paths, kind: IncomingFiles.kind, identity: IncomingFiles.identity)
        // The launch's first photo, queued ahead of its folder: no news to the user.
        if let shown { incoming.alreadyQueued.removeAll { $0 == shown } }
        if let message = incoming.message {
            messages.show(problem: message)
            // Named on the command line: the window is still opening, and the alert would
            // go unsaid. It is said once the window is active and its field has been read.
            if !window.isActive {
                window.afterActivation(delay: 600, in: lifetime) { [weak self] in
                    guard self?.messages.text == message else { return }
                    self?.messages.announceAgain()
                }
            }
        }
        let paths = incoming.photos
        guard !paths.isEmpty else { return }
        if queue.append(paths) {
            binding.arrive(arrival) { showCurrentPhoto() }
        } else {
            if editing == nil { photos.decodeAhead(queue.neighbours) }
            refreshPosition()
        }
    }

    /// The photos a launch names: the first now, for the first frame; the rest once the
    /// window is drawn and its photo shown. Each path is looked at as it joins (a file's
    /// first bytes read, a folder's names put in order), and a thousand of them before the
    /// first frame would make start-up grow with the queue. A folder named first gives its
    /// first photo by name now; the folder itself joins after the first frame.
    func enqueueAtLaunch(_ paths: [String]) {
        guard let first = paths.first else { return }
        if let photo = IncomingFiles.firstPhoto(inFolder: first) {
            enqueue([photo])
            window.afterFirstDraw { [weak self] in self?.enqueue(paths, alreadyShown: photo) }
            return
        }
        guard paths.count > 1, IncomingFiles.kind(first) == .photo else { return enqueue(paths) }
        enqueue([first])
        let rest = Array(paths.dropFirst())
        window.afterFirstDraw { [weak self] in self?.enqueue(rest) }
    }

    /// Puts a photo on the form in place of the current one, keeping the words typed.
    func openPhoto(_ path: String) {
        settleInputMethod()
        queue.replaceCurrent(with: path)
        binding.arrive(arrival) {
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
        lastStep = step
        binding.arrive(arrival) { showCurrentPhoto() }
    }

    // MARK: Editors working together

    /// On a shared library, the photo that arrived on the form is claimed; the answer may
    /// pass it over.
    private func claim(_ photo: LoadedPhoto) {
        guard claims.areShared, editing == nil, queue.currentPhoto?.path == photo.path else { return }
        claims.claim(photo.sha256) { [weak self] claim in
            // A key the display server sent while this photo showed acts on it first.
            self?.lifetime.afterPendingEvents { [weak self] in
                guard let self, self.editing == nil, self.queue.currentPhoto?.path == photo.path else { return }
                self.answered(claim, for: photo.path)
            }
        }
    }

    /// Another editor's commit, or a renewal: the photo waited on may be free now, one whose
    /// claim could not be asked may be asked now, and the one held may have been taken back
    /// by an editor whose Enter waited out an outage (their save came first, and this form
    /// is told as when a photo is captioned elsewhere).
    private func askAgain() {
        guard let photo = photos.loadedPhoto, editing == nil, queue.currentPhoto?.path == photo.path,
            desk.asksAgain(about: photo.path, held: claims.holds(photo.sha256))
        else { return }
        claim(photo)
    }

    /// What the claim of the photo on the form found. A photo another editor has is passed
    /// over and waits in the queue with any words typed for it; one already captioned leaves
    /// the queue, unless words were typed for it here: those are never dropped.
    private func answered(_ claim: PhotoClaim?, for path: String) {
        let name = PhotoQueue.name(of: path)
        desk.answered(claim, for: path)
        if claim != nil, claim != .yours { keepWords() }
        let response = ClaimResponse(
            claim, wordsTyped: queue.currentPhoto?.words.isEmpty != true, keyed: keyedSinceArrival)
        switch response {
        case .stay:
            return
        case .keepAsSecondCaption:
            tell(tr("Another editor has captioned “{name}”; Enter saves your words as a second caption"), name)
        case .leaveQueue:
            leaveForm(path, telling: tr("Another editor has captioned “{name}”, so it left your queue"))
        case .stayWhileTaken(let editor):
            // Its Done then fails as taken, and the photo waits in the queue with its words
            // (see QueueSaving).
            tell(
                tr("{editor} is captioning “{name}”; Ctrl+Page Down goes on, and your words wait with it")
                    .replacing("{editor}", with: editor), name)
        case .passOver(let editor):
            settleInputMethod()
            guard queue.moveToNearest(step: lastStep, passing: desk.takenElsewhere) else {
                desk.wait(on: path)
                return tell(
                    tr("{editor} is captioning “{name}”, and the rest of your queue is taken too")
                        .replacing("{editor}", with: editor), name)
            }
            tell(
                tr("{editor} is captioning “{name}”; it waits in your queue").replacing("{editor}", with: editor), name)
            binding.arrive(arrival) { showCurrentPhoto() }
        }
    }

    /// Says why the form moved on, after a "Saved" notification and its Undo if one shows.
    private func tell(_ text: String, _ name: String) {
        notification.showWhenFree(text.replacing("{name}", with: name)) { true }
    }

    /// Shows the queue's current photo with its words, as if it had just arrived: messages
    /// of the previous photo go, and focus goes to the first thing missing. `resuming`: the
    /// words are a draft brought back, being typed when the app ended, so with nothing
    /// missing focus goes back to the last field that holds words, not to Done, where
    /// Enter would save them before they were heard again.
    private func showCurrentPhoto(resuming: Bool = false) {
        keyedSinceArrival = false
        guard let photo = queue.currentPhoto else { return clearForm() }
        let words = photo.words
        // One focus move, not through Choose Photo… on the way: a screen reader would say
        // the button.
        let put = {
            self.send(.clear)
            self.binding.show(words)
            self.load(photo.path)
        }
        if resuming { withoutFocusMoves(put) } else { binding.arrive(with: words, put) }
        if resuming && engine.focus == nil {
            let filled = CaptionField.allCases.last { !words[$0].isEmpty } ?? .title
            focus(.text(filled))
        } else {
            focus(engine.focusedItem)
        }
        refreshPosition()
    }

    /// "2 of 5" under the window title while there is more than one photo, and how many
    /// photos from a watched folder wait ("2 of 5 · 3 new").
    private func refreshPosition() {
        let parts = [positionText, headerNote?()].compactMap { $0 }
        header.subtitle = parts.isEmpty ? nil : parts.joined(separator: " · ")
        binding.refresh()
        drafts.keep()
    }

    /// More for the header after the position (the watched folder's count).
    var headerNote: (() -> String?)?

    /// The header's note changed: shown now, unless an entry being edited has the header.
    func refreshHeader() {
        if editing == nil { refreshPosition() }
    }

    /// Where the photo on the form stands, said with the field: the queue's place, or the
    /// entry being edited.
    var photoPosition: String? {
        editing.map { tr("Editing “{title}”").replacing("{title}", with: $0.entry.title) } ?? positionText
    }

    /// The queue's photos, in order (tests read it).
    var queuedPaths: [String] { queue.photos.map(\.path) }

    /// A photo is put on the form (a watched folder's photo no longer waits).
    var onShowing: ((String) -> Void)?

    /// Photos from a watched folder: they join the queue like any others, but what is left
    /// out (already queued) is not worth a message, and no folder is opened.
    func enqueueArrivals(_ paths: [String]) {
        let incoming = queue.sortIncoming(paths, kind: { _ in .photo }, identity: IncomingFiles.identity)
        let photos = incoming.photos
        guard !photos.isEmpty else { return }
        if editing == nil, queue.currentPhoto == nil, !words.isEmpty || binding.isComposing,
            queue.append(photos), let path = queue.currentPhoto?.path
        {
            // Words typed (or being composed) on the empty form go with the photo that
            // arrives, as with Choose Photo…: the fields do not change, so a word being
            // composed goes on being composed.
            return binding.arrive(arrival) {
                load(path)
                refreshPosition()
            }
        }
        if queue.append(photos) {
            // Only a photo that comes onto the form changes it: one that joins the queue
            // behind the photo being captioned leaves a composition open as it is.
            settleInputMethod()
            binding.arrive(arrival) { showCurrentPhoto() }
        } else {
            if editing == nil { self.photos.decodeAhead(queue.neighbours) }
            refreshPosition()
        }
    }

    /// A queued photo deleted from the watched folder leaves the queue, said once; one with
    /// words typed for it stays (its bytes, read when it came, can still be saved to the
    /// library), and so does an entry being edited.
    func photoDeleted(_ path: String) {
        guard let queued = queue.photos.first(where: { $0.path == path }) else { return }
        let name = PhotoQueue.name(of: path)
        let message = tr("“{name}” was deleted, so it left your queue")
        guard editing == nil, queue.currentPhoto?.path == path else {
            guard queued.words.isEmpty else { return }
            queue.remove([path])
            refreshHeader()
            return tell(message, name)
        }
        keepWords()
        guard queue.currentPhoto?.words.isEmpty == true, !keyedSinceArrival else { return }
        leaveForm(path, telling: message)
    }

    /// The photo on the form leaves the queue, and the next one shows, said with why.
    private func leaveForm(_ path: String, telling why: String) {
        settleInputMethod()
        queue.remove([path])
        tell(why, PhotoQueue.name(of: path))
        binding.arrive(arrival) { showCurrentPhoto() }
    }

    /// The photo now on the form, said with the field focused as it arrives.
    private var arrival: String? {
        queue.currentPhoto.flatMap {
            FormSpeech.photoDescription(name: PhotoQueue.name(of: $0.path), position: positionText)
        }
    }

    private var positionText: String? {
        queue.position.map {
            tr("{index} of {count}").replacing("{index}", with: String($0.index))
                .replacing("{count}", with: String($0.count))
        }
    }

    private func load(_ path: String) {
        onShowing?(path)
        // What comes next: the queue's photo once an edit is done, else its neighbours.
        let ahead = editing != nil ? [queue.currentPhoto?.path].compactMap { $0 } : queue.neighbours
        shown.load(path, target: captionTarget, ahead: ahead, recent: editing == nil)
    }

    /// Empties the form when no photo is left to caption.
    private func clearForm() {
        claims.letGo()
        shown.clear()
        binding.empty()
        send(.clear)
        refreshPosition()
    }

    // MARK: Saving

    func save(_ submission: Submission) {
        guard let path = photoPath else { return }
        // Variables become the photo's values; one that cannot is said, and nothing is saved.
        // Facts not read yet are read now: the save takes the words as they are at this key.
        var words = submission.words
        let needsFacts = CaptionField.allCases.contains { Variables.appear(in: words[$0]) }
        let facts = needsFacts ? (photoFacts ?? aids.variables.readNow(path: path, position: factsPosition)) : nil
        for field in CaptionField.allCases {
            switch CaptionVariables.expand(words[field], facts: facts) {
            case .success(let expanded): words[field] = expanded
            case .failure(let message):
                messages.show(problem: message.text)
                focus(.text(field))
                return
            }
        }
        guard passesChecks(submission.words) else { return }
        guard let edited = editing?.entry else {
            return saveAndMoveOn(QueuedPhoto(path: path, words: words))
        }
        updateAndMoveOn(edited, words: words, photo: path)
    }

    /// The caption checks at Done, as the required fields are checked: the first finding
    /// is said in the message bar and its words selected in their field. A check is advice,
    /// not a rule: Done again on the same words saves them as they are. The words are
    /// checked as typed: `{date}` is still to be filled, and `{{` is a brace the user meant.
    private func passesChecks(_ words: CaptionWords) -> Bool {
        let roster = names ?? NameRoster(replacementTexts: replacementTable.rows.map(\.text))
        names = roster
        let findings = CaptionChecks.findings(
            in: words, variables: Set(Variables.names), names: roster, choices: checkChoices,
            places: [photoFacts?.city, photoFacts?.state, photoFacts?.country].compactMap { $0 })
        guard let first = findings.first, checkedAndSaid != words else {
            checkedAndSaid = nil
            return true
        }
        checkedAndSaid = words
        var text = first.message
        if findings.count > 1 {
            text += " " + fill(tr("(and {count} more)"), ["count": String(findings.count - 1)])
        }
        let said = fill(tr("{finding}. Done again saves the caption as it is."), ["finding": text])
        if let name = first.suggestion {
            messages.show(problem: said, actionLabel: fill(tr("_Make It “{name}”"), ["name": name])) { [weak self] in
                self?.use(name, for: first)
            }
        } else {
            messages.show(problem: said)
        }
        focus(.text(first.field))
        view.entry(first.field).select(characters: first.offset..<(first.offset + first.length))
        return false
    }

    /// The name a check offers, in place of the words it found, as if typed there; the
    /// words are left alone if they changed since.
    private func use(_ name: String, for finding: CaptionFinding) {
        let entry = view.entry(finding.field)
        let range = finding.offset..<(finding.offset + finding.length)
        let characters = Array(entry.text)
        guard range.upperBound <= characters.count, String(characters[range]) == finding.text else { return }
        focus(.text(finding.field))
        aids.whileFormSetsText {
            entry.deleteText(from: range.lowerBound, to: range.upperBound)
            entry.caret = entry.insertText(name, at: range.lowerBound)
        }
        // The words changed under the caret: said, as typing is not.
        aids.say(fill(tr("“{text}” became “{name}”"), ["text": finding.text, "name": name]), with: finding.field)
    }

    /// Done on an entry being edited: the form goes back to the queue's photo in the same
    /// turn, as after a save, and the update follows on the library's queue, so that keys
    /// typed after Done land where they would once it is done. An update that fails is said
    /// with Edit Again, which opens the entry with the words that were not saved; after a
    /// change someone else made meanwhile, against their version, so that Done saves over
    /// it knowingly.
    private func updateAndMoveOn(_ entry: CaptionLibrary.Entry, words: CaptionWords, photo: String) {
        saves.update(entry, words: words) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let updated):
                self.aids.completionSource?.updated(from: entry, to: updated)
                self.notification.show(tr("Updated “{title}”").replacing("{title}", with: updated.title))
                self.onEdited?(updated)
                self.onSaved?(updated)
            case .failure(let error):
                let offer: @MainActor (CaptionLibrary.Entry) -> Void = { [weak self] current in
                    self?.notification.show(error.message, button: .editAgain, seconds: nil) { [weak self] in
                        self?.onEditAgain?(current, photo, words)
                    }
                }
                guard error.kind == .changedElsewhere else { return offer(entry) }
                self.saves.current(entry) { current in offer(current ?? entry) }
            }
        }
        editing = nil
        showCurrentPhoto()
        if queue.currentPhoto == nil { refreshPosition() }
        onEditDone?(entry)
    }

    /// Saves the queue's photo and shows the next one at once, Title focused, while the save
    /// goes on (copying and syncing a camera photo takes longer than a frame; QueueSaving
    /// says what it did, and gives the photo back if it fails).
    private func saveAndMoveOn(_ photo: QueuedPhoto) {
        claims.handToSave(photos.loadedPhoto.flatMap { $0.path == photo.path ? $0.sha256 : nil })
        queueSaving.save(photo, loaded: photos.loadedPhoto)
        queue.removeCurrent()
        lastStep = 1
        showCurrentPhoto()
    }

    /// The server was gone at `photo`'s save and answers again, the photo still waiting
    /// with those words: the save is made as Enter would make it, and the form moves on.
    private func saveNowTheServerIsBack(_ photo: QueuedPhoto) {
        // The server's message is over; a save that fails again says so again.
        messages.clearProblem()
        if editing == nil, queue.currentPhoto?.path == photo.path {
            return send(.submit)
        }
        // It waits elsewhere in the queue: saved from there, the form left as it is.
        queue.remove([photo.path])
        queueSaving.save(photo, loaded: nil)
        refreshHeader()
    }

    /// The photo is still in the queue with the words its save had: on the form (as the
    /// form shows them), or waiting elsewhere in the queue.
    private func stillUnsaved(_ photo: QueuedPhoto) -> Bool {
        if editing == nil, queue.currentPhoto?.path == photo.path { return words == photo.words }
        return queue.photos.contains(photo) && queue.currentPhoto?.path != photo.path
    }

    /// Hands every waiting save to the library's queue now (quitting, before it waits).
    func storeWaiting() { saves.storeWaiting() }

    /// A photo whose save failed waits in the queue just before the photo on the form, whose
    /// fields are not touched; with none on the form (or an entry being edited, which keeps
    /// the form), it comes onto the form when the queue is shown.
    func putBack(_ photo: QueuedPhoto) -> Bool {
        if editing == nil { keepWords() }
        guard queue.putBack([photo]), editing == nil else {
            refreshHeader()
            return false
        }
        // It comes onto the form: an open composition is committed where it shows first.
        settleInputMethod()
        showCurrentPhoto()
        return true
    }

    /// Ctrl+Z while the last save is still on its way takes it back; false when none is.
    func undoPendingSave() -> Bool {
        guard editing == nil else { return false }
        return queueSaving.undoPending()
    }

    /// Before a key reaches a field: what the photo on the form says of itself (its own
    /// words) is put on the form now if it was still being read, so that the key lands
    /// after it, as it would have on a machine that had kept up.
    func beforeKey() {
        keyedSinceArrival = true
        shown.words.settle()
    }

    /// A key has been handled since the photo on the form came onto it: from then on only
    /// keys change which photo the form shows (a claim's answer no longer does).
    private var keyedSinceArrival = false

    /// Photos whose save was undone come back in front of the queue; the words on the form
    /// stay with the photo they were typed for.
    func giveBack(_ photos: [QueuedPhoto]) {
        // Nothing back after a batch: focus, which stayed put while it ran, goes where the
        // form wants it now (Choose Photo… when the queue is done).
        guard !photos.isEmpty else { return focus(engine.focusedItem) }
        if editing == nil { keepWords() }
        queue.restore(photos)
        if editing == nil { showCurrentPhoto() }
    }

    // MARK: Reuse: the last caption again, the same caption for the rest

    /// Ctrl+D (Ctrl+Shift+D with `both`): the last saved caption's words again.
    func reuseLastCaption(both: Bool) { binding.reuseLastCaption(both: both) { [saves] in saves.lastSaved } }

    /// The words on the form go with the photo on the form and with every other photo of
    /// the queue that has no words of its own, saved in one step on the library's queue,
    /// with a progress bar and Cancel, and one Undo for all (QueueSaving). Photos with words
    /// of their own keep them and stay; a photo that cannot be saved comes back, named.
    func captionRestTheSame() {
        settleInputMethod()
        guard editing == nil, !queueSaving.isRunning, queue.currentPhoto != nil else { return window.errorBell() }
        let others = queue.photosWithoutWords
        // Incomplete words: the same messages as a save, and nothing saved.
        guard engine.isComplete, !others.isEmpty else { return send(.submit) }
        // Variables ({date}, {filename}…) would need each photo's own values, which only the
        // photo on the form has read: the batch refuses them rather than save them as typed.
        guard !engine.normalizedValues.contains(where: Variables.appear(in:)) else {
            return messages.show(problem: tr("Caption the rest of the queue the same takes words without variables"))
        }
        keepWords()
        let words = Submission(values: engine.normalizedValues).words
        guard let current = queue.currentPhoto else { return }
        // As the queue had them, for Undo.
        let before = queue.photos.filter { $0 == current || others.contains($0) }
        queueSaving.captionRest(before, words: words, loaded: (current.path, photos.loadedPhoto))
    }

    func takeOut(_ photos: [QueuedPhoto]) {
        queue.remove(Set(photos.map(\.path)))
        // With nothing left to caption while they are saved, focus stays where it was rather
        // than jumping to Choose Photo…, where Enter would open the chooser mid-batch.
        if queue.currentPhoto == nil { withoutFocusMoves { showCurrentPhoto() } } else { showCurrentPhoto() }
    }

    var nextPhoto: String? { FormSpeech.nextPhoto(queue) }

    /// The credits line the last save went with, to say it with a save only when it changed.
    private var creditsLastSaved: String?

    /// The credits a save went with, when they differ from the save before's (the first save
    /// after the credits were changed): said in the save's notification.
    func creditsOfSave() -> String? {
        let line = standingCredits.line(facts: nil)
        defer { creditsLastSaved = line }
        guard let last = creditsLastSaved else { return nil }
        return line != last && !line.isEmpty ? line : nil
    }

    // MARK: Editing a saved entry

    /// Opens a saved entry in the form: the same fields and the same Enter; Done updates it.
    /// `words`: what the form shows instead of the entry's (Edit Again after a failed update).
    func edit(_ entry: CaptionLibrary.Entry, photo path: String, words: CaptionWords? = nil) {
        settleInputMethod()
        if editing == nil { keepWords() }
        claims.letGo()
        editing = (entry, path)
        send(.clear)
        binding.show(words ?? entry.words)
        load(path)
        let editingWords = tr("Editing “{title}”").replacing("{title}", with: entry.title)
        header.subtitle = editingWords
        // The header's subtitle is not read when it changes: the notification is.
        notification.show(editingWords, details: tr("Enter updates the entry"))
    }

    /// An entry deleted from the library view has left it (its Undo expired).
    func removedFromLibrary(_ entry: CaptionLibrary.Entry) { aids.completionSource?.removed(entry) }

    // MARK: The draft

    /// The form's unsaved state. While a saved entry is being edited, the form holds its
    /// words, not the queue's (kept in the queue when the edit began).
    var draft: Draft {
        // Photos still being saved stay in the draft: a crash mid-save loses no words.
        let saving = saves.savingPhotos
        let kept = PhotoQueue(photos: saving + queue.photos, current: queue.current.map { $0 + saving.count })
        return Draft(kept, words: editing == nil ? words : nil)
    }

    /// The window is ending (destroyed, or the app quitting): what is typed is written now,
    /// and the photo let go. What arrives later (a photo decoded or checked, the library's
    /// words) is dropped by the window's lifetime, which has ended.
    func finish() {
        claims.releaseAll()
        drafts.flush()
        photos.clear()
    }

    /// Puts a draft on the form; nil empties the form and the queue.
    func put(_ draft: Draft?) {
        guard let draft else {
            queue = PhotoQueue()
            return clearForm()
        }
        let (queue, loose) = draft.queueAndLooseWords
        self.queue = queue
        guard let loose else { return binding.arrive(arrival) { showCurrentPhoto(resuming: true) } }
        clearForm()
        binding.show(loose)
        refreshPosition()
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
            received, in: photos.lifetime, to: { [weak self] paths in self?.enqueue(paths) },
            failure: { [weak self] problem in self?.messages.show(problem: problem) })
    }
}
