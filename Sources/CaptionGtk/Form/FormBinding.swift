// The form's fields bound to the focus engine: GTK signals become engine events, and the
// engine's decisions are applied here; nowhere else decides what Enter does.

import CaptionLibrary
import CaptionText
import FocusEngine
import Localization
import Shorthand

/// What the binding asks of the form around it: the decisions that reach beyond the fields
/// (a photo to choose, words to save), and what the fields say about the photo.
@MainActor
protocol FormBindingOwner: AnyObject {
    /// A saved entry is on the form: Enter says it updates.
    var isEditing: Bool { get }
    /// The photo's place in the queue ("2 of 5"), or the entry being edited.
    var photoPosition: String? { get }
    /// What the variables stand for on the photo now on the form.
    var photoFacts: PhotoFacts? { get }
    /// The creator the photo now on the form names itself, once read.
    var photoCreator: String? { get }
    /// The standing credits, for the line under the fields.
    var standingCredits: StandingCredits { get }
    func choosePhoto()
    func save(_ submission: Submission)
    /// Ctrl+V in a field: whether a photo was pasted instead of text.
    func pastePhoto() -> Bool
    /// An event went through the engine: what the form holds may have changed.
    func formChanged()
    /// The user changed the words: an Undo of the last save no longer applies.
    func wordsEdited()
}

@MainActor
final class FormBinding {
    private(set) var engine: FocusEngine
    weak var owner: FormBindingOwner?
    private let view: FormView
    private let window: Window
    private let messages: MessageBar
    private let aids: TypingAids
    /// The fields' open compositions, committed before the form is read or changes.
    private let inputMethods: InputMethodSettler
    /// Set while the form itself changes an entry's text, so that it is not taken for typing.
    private var settingText = false
    /// The window's: once it has ended, nothing reaches the engine or the fields (a key
    /// GTK still delivers while the window is torn down, a call of the window's own end).
    private let lifetime: Lifetime

    init(
        view: FormView, window: Window, messages: MessageBar, inputMethods: InputMethodSettler,
        aids: TypingAids, lifetime: Lifetime
    ) {
        self.view = view
        self.lifetime = lifetime
        self.window = window
        self.messages = messages
        self.inputMethods = inputMethods
        self.aids = aids
        engine = view.layout.engine(Wording(translate: { tr($0) }))
        FormInput.connect(view, in: window) { [weak self] input in self?.handle(input) ?? false }
        messages.onDismiss = { [weak self] in self?.send(.dismissSummary) }
        lifetime.onEnd { [weak self] in self?.caretHold?.release() }
    }

    /// The form's item that last had focus, kept while focus is outside the form (the
    /// library, the header), for focus to come back to.
    private(set) var lastFocused: CaptionForm.Item?

    /// Shows `layout`'s fields from now on (Preferences turned one on or off, or moved
    /// one). The fields that stay keep their words, messages and focus; a field turned on
    /// takes the words its entry holds (an entry opened for editing may have some). Focus in
    /// a field turned off goes to the first item still ahead.
    func rearrange(to layout: CaptionForm.Layout) {
        let old = view.layout
        guard layout != old, !lifetime.isOver else { return }
        settleInputMethod()
        let focusLeaves = focusedItem.map { layout.index(of: $0) == nil } ?? false
        // The engine first: GTK reports the focus of a row being hidden as the view
        // changes, and the report must reach an engine of the new layout.
        engine = layout.carry(engine, from: old)
        view.arrange(layout)
        aids.formShows(layout.fields)
        for field in layout.fields where old.index(of: .text(field)) == nil {
            let text = view.entry(field).text
            if !text.isEmpty, let item = layout.index(of: .text(field)) {
                _ = engine.handle(.edit(item: item, text: text))
            }
        }
        if let last = lastFocused, layout.index(of: last) == nil { lastFocused = nil }
        if focusLeaves {
            let next = engine.items.indices.first(where: engine.isAhead).flatMap(layout.item(at:))
            lastFocused = next
            focus(next)
        }
        refresh()
        owner?.formChanged()
    }

    // MARK: Engine decisions -> widgets

    private func handle(_ input: FormInput) -> Bool {
        guard !lifetime.isOver else { return false }
        switch input {
        // An Enter that accepts a completion offer does only that.
        case .event(.enter) where aids.completion.acceptOnEnter(): break
        case .event(let event):
            if case .focus(let index) = event {
                let item = index.flatMap(view.layout.item(at:))
                if let item { lastFocused = item }
                arrival = DescribedArrival()
                if item != saidBySummary { saidBySummary = nil }
                if !arriving { arrivedPhoto = nil }
                if creditsSaid { (creditsNews, creditsSaid) = (nil, false) }
                aids.focusMoved(to: item)
            }
            send(event)
        case .typed(let field, let text):
            guard !settingText else { return true }
            // Words the form or a test puts in another field are not the user typing here.
            if view.entry(field).isFocus { arrival.isSettled = true }
            aids.typed()
            // The photo stays named until focus moves: a description that changed at the
            // first letter would be read again, «Enter goes to the next empty field» twice.
            messages.clearProblem()
            // Typing reaches only the entries the layout shows.
            guard let item = view.layout.index(of: .text(field)) else { return true }
            send(.edit(item: item, text: text))
        case .paste: return owner?.pastePhoto() ?? false
        }
        return true
    }

    /// Feeds one event to the engine and applies what it decides.
    func send(_ event: FormEvent) {
        guard !lifetime.isOver else { return }
        if [.submit, .activate, .enter, .back].contains(event) {
            settleInputMethod()
            // The user acted on the photo that arrived: it has been named.
            if !arriving { arrivedPhoto = nil }
            if creditsSaid { (creditsNews, creditsSaid) = (nil, false) }
        }
        // Enter (or a save) right after a code replaces it, as a space would.
        if [.submit, .activate, .enter].contains(event), let entry = focusedEntry {
            aids.replacements.replaceAtCursor(of: entry)
        }
        let decision = engine.handle(event)
        apply(decision)
        refresh()
        if case .edit = event, !holdingFocus, !arriving { owner?.wordsEdited() }
        owner?.formChanged()
    }

    private func apply(_ decision: FormDecision) {
        switch decision {
        case .nothing:
            break
        case .focus(let index):
            focus(index.flatMap(view.layout.item(at:)))
        case .reject(let index):
            let item = view.layout.item(at: index)
            messages.clearProblem()
            focus(item)
            saidBySummary = item
        case .choosePhoto:
            owner?.choosePhoto()
        case .save(let submission):
            owner?.save(submission)
        }
    }

    /// The form's item that has focus; nil for the activate button or elsewhere.
    var focusedItem: CaptionForm.Item? { view.layout.focusedItem(of: engine) }

    func focus(_ item: CaptionForm.Item?) {
        guard !holdingFocus, !lifetime.isOver else { return }
        let widget = item.map(view.widget(for:)) ?? view.activateButton.asWidget
        if !widget.hasFocus { widget.grabFocus() }
    }

    /// Set while the form changes wholesale (an entry opened for editing): the focus moves
    /// the engine decides on the way are not made, so that one deliberate move follows.
    /// A screen reader merges focus moves a few milliseconds apart and says a stale one.
    private var holdingFocus = false

    /// Puts a photo with these words on the form (`body` does it, with the engine's focus
    /// moves held) so that a screen reader hears the field it lands in once, as it ends up.
    /// The field focus will go to is described first, as it will be with the photo there,
    /// and focus goes to it before the words change: a description changed after the focus
    /// is read a second time. The fields' carets, moved by the new words, are held back until
    /// GTK has finished reporting the focus (`CaretHold`). Nothing is rendered on the way.
    func arrive(with words: CaptionWords, _ body: () -> Void) {
        var preview = engine
        _ = preview.handle(.clear)
        for (index, item) in view.layout.items.enumerated() {
            guard let field = item.field else { continue }
            _ = preview.handle(.edit(item: index, text: words[field]))
        }
        _ = preview.handle(.photo(item: view.layout.photo, .loading))
        // The field focus goes to says what it will say once the photo is there before it
        // is focused: a change after would be read a second time.
        let target = view.layout.focusedItem(of: preview).map(view.widget(for:)) ?? view.activateButton.asWidget
        // Selected words go unselected first, before their field's notifications are held:
        // a screen reader told of the selection only after the words change reads the change
        // as «Selection deleted», though the words stay with their photo.
        for entry in view.entries.values { entry.deselect() }
        render(preview, describing: target)
        holdingRender = true
        let moving = !target.hasFocus
        focus(view.layout.focusedItem(of: preview))
        caretHold?.release()
        caretHold = moving && target.hasFocus ? CaretHold(view.entries.values.map(\.asWidget), until: target) : nil
        withoutFocusMoves(body)
        holdingRender = false
        refresh()
    }

    private var holdingRender = false
    /// What the focused field said as focus came to it.
    private var arrival = DescribedArrival()
    private var caretHold: CaretHold?

    func withoutFocusMoves(_ body: () -> Void) {
        let held = holdingFocus
        holdingFocus = true
        body()
        holdingFocus = held
    }

    // MARK: What a screen reader hears

    /// The field a failed submit sent focus to, while focus stays there: the summary's
    /// alert says its message, so the field's description does not say it a second time.
    private var saidBySummary: CaptionForm.Item?

    /// A photo the user just put on the form (chose, dropped, skipped to), named by the
    /// focused field until focus moves or the user acts (Enter, a save): nothing else says
    /// which photo came.
    private var arrivedPhoto: String?
    /// The credits line, said once in the focused field as the form is reached after the
    /// credits were set (at start, or back from Preferences); `creditsSaid` once it was.
    var creditsNews: String?
    private var creditsSaid = false
    private var arriving = false

    /// Runs `body`, which puts a photo on the form; `photo` ("b.jpg, 2 of 3") is said with
    /// the field focused on the way.
    func arrive(_ photo: String?, _ body: () -> Void) {
        arriving = true
        arrivedPhoto = photo
        body()
        arriving = false
    }

    /// What the focused field says first as the form is reached: the photo that arrived,
    /// and the credits line when it is news.
    private var arrivalNews: String? {
        if creditsNews != nil, view.entries.values.contains(where: \.isFocus) { creditsSaid = true }
        let news = [arrivedPhoto, creditsNews].compactMap { $0 }
        return news.isEmpty ? nil : news.joined(separator: ". ")
    }

    /// Shows the engine's state; runs on every keystroke and focus change.
    func refresh() {
        guard !lifetime.isOver, !holdingRender else { return }
        render(engine)
    }

    /// `describing`: the widget whose accessible description is set, when not the focused one.
    private func render(_ engine: FocusEngine, describing: Widget? = nil) {
        let editing = owner?.isEditing ?? false
        let empty = engine.focus.map { engine.items[$0].isText && engine.problem($0) == .required } ?? false
        let enter = FormSpeech.enterHint(engine.label, editing: editing, isEmpty: empty)
        // The place in the queue, not the whole header: a count of new photos changing
        // would make the field's description change under the user's typing.
        let photo = FormSpeech.photoDescription(name: view.photoName.text, position: owner?.photoPosition)
        let quiet = engine.summary != nil ? saidBySummary : nil
        // Besides the engine's words, a field says its offers and what its variables become.
        let facts = owner?.photoFacts
        let details = view.render(
            engine, enterHint: enter, photoDescription: photo, quiet: quiet, arrived: arrivalNews,
            describing: describing, arrival: &arrival
        ) { [aids] item in
            aids.notes(for: item, facts: facts)
        }
        messages.details = details
        messages.summary = engine.summary
        if let credits = owner?.standingCredits {
            view.showCredits(credits.line(facts: facts, photoCreator: owner?.photoCreator), details: credits.details)
        }
    }

    // MARK: The words on the form

    var words: CaptionWords { CaptionWords(fields: view.layout.fields) { view.entry($0).text } }

    func setText(_ entry: TextEntry, _ text: String) {
        // Selected words replaced by the next photo's would be read as «Selection deleted»,
        // though they stay with their photo: the selection goes first.
        entry.deselect()
        inputMethods.whileFormSetsText { aids.whileFormSetsText { entry.text = text } }
    }

    /// Puts words on the form as if typed (the engine hears of them), without the mark of
    /// the photo's words.
    func show(_ words: CaptionWords) {
        for (field, entry) in view.entries { setText(entry, words[field]) }
    }

    /// Empties the fields without the engine hearing of it as typing; `.clear` follows.
    func empty() {
        settingText = true
        show(.empty)
        settingText = false
    }

    /// Ctrl+D: the focused field takes the same field of the last saved caption; `both`
    /// (Ctrl+Shift+D): both fields do. The engine hears of it as of typing, so the button
    /// and Enter say what comes next; focus stays where it is. `lastSaved` gives the last
    /// saved caption's words (FormSaves.lastSaved), before the next key is handled.
    func reuseLastCaption(both: Bool, lastSaved: () -> CaptionWords?) {
        settleInputMethod()
        let fields = both ? view.layout.fields : [focusedItem?.field].compactMap { $0 }
        guard !fields.isEmpty else { return window.errorBell() }
        guard let words = lastSaved() else {
            window.errorBell()
            return messages.show(problem: tr("No caption saved yet: Ctrl+D repeats the last one saved"))
        }
        for field in fields {
            let entry = view.entry(field)
            setText(entry, words[field])
            // The cursor after the words, to go on typing.
            entry.caret = -1
        }
    }

    /// The text field with the focus, if any.
    private var focusedEntry: TextEntry? {
        view.entries.values.first { $0.id == window.focus?.id }
    }

    /// Ctrl+Z right after a code was replaced puts the code back; returns whether it did.
    func undoReplacement() -> Bool {
        aids.replacements.undo(focus: window.focus)
    }

    /// Commits any open composition into its field, as it shows (see InputMethodSettler).
    /// Every action that reads the form or changes what it shows calls this first.
    func settleInputMethod() {
        inputMethods.settle(focus: window.focus)
    }

    /// Whether a field shows a composition not yet committed.
    var isComposing: Bool { view.entries.values.contains { inputMethods.composition(in: $0) != nil } }
}
