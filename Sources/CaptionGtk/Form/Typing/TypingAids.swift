// What saves typing in the form's fields: code replacements, offers from earlier captions,
// variables and spell-checking, and what each says to a screen reader with its field.

import CaptionLibrary
import CaptionText
import FocusEngine
import Localization
import Shorthand

@MainActor
final class TypingAids {
    /// Codes typed in the fields become their text (CodeReplacer).
    let replacements: CodeReplacer
    /// Earlier captions offered under the field being typed in.
    let completion: CompletionOffers
    /// {date}, {camera}…: the photo's facts, and the words as they will be saved.
    let variables: CaptionVariables
    /// Misspelt words marked in the fields, with suggestions in their context menu.
    let spelling: SpellCheck
    private let entries: [CaptionField: TextEntry]
    /// What the last code replacement did, said with its field until the next change.
    private var replacementNote: (field: CaptionField, words: String)?
    /// Something the fields say changed: the form shows it again.
    var onChange: (() -> Void)?

    /// Made before the form's own handlers are connected, so that the offers are up to date
    /// when the form reads them on the same keystroke.
    init(
        entries: [CaptionField: TextEntry], lifetime: Lifetime, composing: @escaping @MainActor (TextEntry) -> Bool
    ) {
        self.entries = entries
        variables = CaptionVariables(lifetime: lifetime)
        let ordered = CaptionField.allCases.compactMap { entries[$0] }
        replacements = CodeReplacer(table: ReplacementStore.load(), entries: ordered)
        completion = CompletionOffers(entries: entries, composing: composing)
        spelling = SpellCheck(entries: ordered)
        completion.onChange = { [weak self] in self?.onChange?() }
        replacements.onReplaced = { [weak self] entry, match, undone in self?.said(entry, match, undone: undone) }
        variables.onFacts = { [weak self] in self?.onChange?() }
    }

    /// Where the offers come from, kept in step with the library; made with the library.
    private(set) var completionSource: CompletionSource?

    /// Reads every earlier title and subtitle for the offers, on the library's queue, and
    /// follows the library's changes from then on. The read waits for the first frame: with
    /// 10,000 entries it took 3.5 MB and a core's time in front of it (`make bench`).
    func loadCompletions(from library: LibraryAccess) {
        let ordered = CaptionField.allCases.compactMap { entries[$0] }
        let source = CompletionSource(offers: completion, library: library, entries: ordered)
        completionSource = source
        ordered.first?.afterFirstDraw { [weak source] in source?.load() }
    }

    /// The form shows `fields` from now on: offers are kept for them, and read from the
    /// library for one that had none.
    func formShows(_ fields: [CaptionField]) {
        if completion.follow(fields) { completionSource?.readAgain() }
    }

    /// The form sets a field's text: none of the aids takes it for typing.
    func whileFormSetsText(_ body: () -> Void) {
        replacements.whileFormSetsText { completion.whileFormSetsText(body) }
    }

    /// Focus moved to `item`: what a code became is said once, with its field, not on
    /// coming back to it.
    func focusMoved(to item: CaptionForm.Item?) {
        if item?.field != replacementNote?.field { replacementNote = nil }
    }

    func typed() {
        replacementNote = nil
    }

    private func said(_ entry: TextEntry, _ match: Match, undone: Bool) {
        guard let field = entries.first(where: { $0.value.id == entry.id })?.key else { return }
        let words =
            undone
            ? tr("{code} is back").replacing("{code}", with: match.code)
            : tr("{code} became {text}. Ctrl+Z takes it back").replacing("{code}", with: match.code)
                .replacing("{text}", with: match.text)
        say(words, with: field)
    }

    /// Words said once with a field (its description, which a screen reader reads as it
    /// changes): a change made in it that typing did not make.
    func say(_ words: String, with field: CaptionField) {
        replacementNote = (field, words)
        onChange?()
    }

    /// What a field says besides the engine's words: under it, what its variables become
    /// ("Saved as: …", or why it cannot be saved); with it, its offers or a replacement.
    func notes(for field: CaptionField, facts: PhotoFacts?) -> (expansion: String?, offers: String?) {
        let note = replacementNote?.field == field ? replacementNote?.words : nil
        return (
            expansionWords(for: field, facts: facts),
            [note, completion.description(for: field)].compactMap { $0 }.first
        )
    }

    private func expansionWords(for field: CaptionField, facts: PhotoFacts?) -> String? {
        guard let entry = entries[field], Variables.appear(in: entry.text) else { return nil }
        switch CaptionVariables.expand(entry.text, facts: facts) {
        case .success(let words): return tr("Saved as: {words}").replacing("{words}", with: words)
        case .failure(let message): return message.text
        }
    }
}
