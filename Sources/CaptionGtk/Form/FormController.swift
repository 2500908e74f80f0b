// The form: which photo is on it and what is typed for it. It holds the queue and the entry
// being edited, and decides what the form shows; FormBinding binds the fields to the focus
// engine, FormPhoto loads the photo, FormSaves makes the library writes, QueueSaving says
// what a save did (with its Undo), and DraftRecovery keeps the draft across runs. Its
// own jobs are beside it, one file each: FormController+Queue (photos joining, moving,
// leaving), +Saving (Done), +Desk (claims on a shared library), +Reuse, +Editing, +Draft and
// +Intake (paste and drops).

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
    let binding: FormBinding
    /// Saves, updates and their undo, on the library's queue.
    let saves: FormSaves
    /// What a save of the queue's photos did, and its Undo.
    let queueSaving: QueueSaving
    /// The draft across runs: restored at start, flushed at quit, discarded by its button.
    let drafts: DraftRecovery
    /// The photo on the form.
    let shown: FormPhoto
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
    var names: NameRoster?
    /// The checks at Done that Preferences leaves on, with those of the stationery pad in
    /// use over them: read from `settingsFile` at the first Done (nothing of them is needed
    /// before) and when another pad is in use, and as Preferences changes them.
    var checkChoices: CheckChoices {
        get {
            if let chosenChecks, chosenChecks.pad == standingCredits.pad { return chosenChecks.choices }
            let read =
                settingsFile.map { StationeryPads.checkChoices(with: standingCredits.pad, creditsPath: $0) }
                ?? CheckChoices()
            chosenChecks = (standingCredits.pad, read)
            return read
        }
        set { chosenChecks = (standingCredits.pad, newValue) }
    }
    private var chosenChecks: (pad: String?, choices: CheckChoices)?

    /// Shows the optional fields Preferences turned on, in its order, from now on: the
    /// photo on the form keeps its words.
    func showFields(_ choices: FormChoices) {
        binding.rearrange(to: CaptionForm.Layout(optional: choices.shown))
    }
    /// The file of credits, writing choices and checks.
    var settingsFile: String?
    var spelling: SpellCheck { aids.spelling }
    let window: Window
    let header: HeaderBar
    let messages: MessageBar
    let notification: InAppNotification
    /// The photos to caption and what was typed for each.
    var queue = PhotoQueue()
    /// A saved entry open in the form for editing, with its photo in the library. The queue
    /// waits meanwhile, its words kept.
    var editing: (entry: Entry, path: String)?
    /// The photo on the form, claimed from the other editors of a shared library.
    let claims: PhotoClaims
    /// The photos to ask about again: taken by others, waited on, not yet claimed.
    var desk = DeskClaimState()
    /// Words whose check findings were said at Done: Done again on them saves.
    var checkedAndSaid: CaptionWords?
    /// The photo whose creator was last said (once per arrival on the form).
    private var toldOfCreator: String?
    /// The way the form last moved through the queue: passing over goes on that way.
    var lastStep = 1
    /// A save the server could not take, back on the form with its words: saved by itself
    /// once the server answers, while the form still holds that photo and those words.
    private let serverReturn: ServerReturn
    /// A key has been handled since the photo on the form came onto it: from then on only
    /// keys change which photo the form shows (a claim's answer no longer does).
    var keyedSinceArrival = false
    /// The credits line the last save went with, to say it with a save only when it changed.
    var creditsLastSaved: String?
    private let library: LibraryAccess
    let lifetime: Lifetime

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
    /// More for the header after the position (the watched folder's count).
    var headerNote: (() -> String?)?
    /// A photo is put on the form (a watched folder's photo no longer waits).
    var onShowing: ((String) -> Void)?

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
        aids.formShows(view.layout.fields)
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
        let item = binding.focusedItem ?? binding.lastFocused
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
    var factsPosition: Int? { editing == nil ? (queue.position?.index ?? 1) : nil }

    func keepWords() {
        queue.keep(words)
    }
}
