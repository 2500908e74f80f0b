// Completion offers under a field: earlier words of that field that match what is typed
// (for Keywords, earlier keywords matching the one being typed after the last comma)
// (CompletionIndex decides which, and in what order), in a popover that never takes the
// focus from the field. Down and Up move in the list, Enter or Tab accepts the offer chosen
// and does nothing else, Escape closes it; with no offer chosen, Enter and Tab do what they
// always do. Keys that belong to an input method's composition stay the input method's.
//
// Not GtkEntryCompletion: its popup takes Enter for itself without telling the form, so an
// Enter that accepts could not be kept from also moving on, and it pops up over a pinyin
// composition (docs/decisions.md).

import CGtk
import CaptionLibrary
import CaptionText
import FocusEngine
import Localization

@MainActor
final class CompletionOffers {
    /// Each field's earlier values.
    private(set) var indexes: [CaptionField: CompletionIndex] = [:]
    private let entries: [CaptionField: TextEntry]
    /// Whether a field shows a composition now: its keys are then the input method's.
    private let composing: (TextEntry) -> Bool
    private let popover: Popover
    private let list: ListBox
    /// The field the offers are for, the offers, and the one chosen (nil: none yet).
    private(set) var field: CaptionField?
    private(set) var offers: [String] = []
    private(set) var chosen: Int?
    /// Set while the offers themselves put words in a field.
    private var accepting = false
    /// Set while the form puts words into a field itself: no offers for those.
    private var formSetsText = false
    /// The field the user is typing in (not the form setting its words, not an offer just
    /// taken or closed with Escape): new values read from the library are offered for it.
    private var typedIn: CaptionField?
    /// What is shown changed: the form says it to screen readers with the field.
    var onChange: (() -> Void)?

    /// The fields offers are kept for, in `CaptionField`'s order: those the form shows
    /// (`follow`). The library is read for these alone: each is a pass over its entries.
    private(set) var fields = CaptionField.required

    init(entries: [CaptionField: TextEntry], composing: @escaping (TextEntry) -> Bool) {
        self.entries = entries
        self.composing = composing
        list = ListBox()
        list.accessibleName = tr("Earlier captions")
        // A placeholder parent: each field's popover is re-pointed at the field it serves.
        popover = Popover(pointingAt: entries[.title]?.asWidget)
        popover.add(list)
        // No name of its own: Orca announces a named panel as it appears, and then takes it
        // for the focus and no longer says the field's description, where the offers are told.
        list.connect(.listRowActivated) { [weak self] row in self?.accept(row.index) }
        for (field, entry) in entries { watch(field, entry) }
    }

    /// Whether the library's values have arrived.
    private(set) var loaded = false
    /// Saves and undos made before they arrived, applied to them when they do.
    private var early: [(words: CaptionWords, time: Timestamp?)] = []
    /// Captions offered from their Enter whose save the library has not answered yet: a read
    /// of the library that answers first does not have them, so they are applied on top
    /// of it again (see `settle`).
    private var unsettled: [(id: Int, words: CaptionWords, time: Timestamp)] = []
    private var lastUnsettled = 0

    /// Keeps offers for the fields `shown` from now on; true when one of them has none yet,
    /// so that the library is read again.
    func follow(_ shown: [CaptionField]) -> Bool {
        let now = CaptionField.allCases.filter { shown.contains($0) || !$0.isOptional }
        let added = now.contains { !fields.contains($0) }
        fields = now
        return added && loaded
    }

    /// Adopts the library's values, read off the main thread; what was saved or undone
    /// meanwhile is applied on top. The field being typed in offers from them at once.
    func use(_ indexes: [CaptionField: CompletionIndex]) {
        self.indexes = indexes
        loaded = true
        for change in early {
            if let time = change.time { record(change.words, at: time) } else { forget(change.words) }
        }
        early = []
        for change in unsettled { offer(change.words, at: change.time) }
        if let field = typedIn, let entry = entries[field], entry.hasFocus { update(field, entry) }
    }

    /// A saved caption: its words are offered from now on. Undo of the save forgets them.
    func record(_ words: CaptionWords, at time: Timestamp = .now()) {
        // Offered at once, also before the library's values arrive (then again on them).
        if !loaded { early.append((words, time)) }
        offer(words, at: time)
    }

    /// A caption offered from its Enter, before the library has it; `settle` once the
    /// library has answered its save (the library's reads after that have it).
    func recordUnsettled(_ words: CaptionWords) -> Int {
        let time = Timestamp.now()
        lastUnsettled += 1
        unsettled.append((lastUnsettled, words, time))
        offer(words, at: time)
        return lastUnsettled
    }

    /// The save is answered (or was taken back: `forget` follows then).
    func settle(_ id: Int) {
        unsettled.removeAll { $0.id == id }
    }

    private func offer(_ words: CaptionWords, at time: Timestamp) {
        for field in fields {
            for value in Self.offered(words, field) {
                indexes[field, default: CompletionIndex()].record(value, at: time)
            }
        }
    }

    func forget(_ words: CaptionWords) {
        if !loaded { early.append((words, nil)) }
        for field in fields {
            for value in Self.offered(words, field) { indexes[field]?.forget(value) }
        }
    }

    /// What a caption adds to a field's offers: its words, or each of its keywords.
    private static func offered(_ words: CaptionWords, _ field: CaptionField) -> [String] {
        field == .keywords ? words.keywords : [words[field]]
    }

    /// Keywords are offered one at a time, for the one being typed after the last comma,
    /// leaving out those the field already names. `typed` splits a field's text into what
    /// stays and what the offers are for.
    private static func typed(_ text: String, in field: CaptionField) -> (kept: Substring, typed: Substring) {
        guard field == .keywords, let comma = text.lastIndex(where: CaptionWords.isKeywordSeparator)
        else { return (text.prefix(0), text[...]) }
        let after = text.index(after: comma)
        return (text[..<after], text[after...].drop { $0.isWhitespace })
    }

    private func watch(_ item: CaptionField, _ entry: TextEntry) {
        entry.connect(.changed) { [weak self] in
            guard let self, !self.accepting else { return }
            if self.formSetsText {
                self.typedIn = nil
                return self.close()
            }
            self.typedIn = item
            self.update(item, entry)
        }
        // Before the entry's own handler, so Down, Up and Tab do not move the cursor or the
        // focus while an offer list is open; never during a composition.
        entry.connect(.keyPress, after: false) { [weak self] event in
            guard let self, self.field == item, !self.offers.isEmpty, !self.composing(entry) else { return false }
            return self.key(event)
        }
        entry.connect(.notify("has-focus")) { [weak self] _ in
            guard let self, self.field == item, !entry.hasFocus else { return }
            self.close()
        }
    }

    /// Runs `body`, which sets a field's text: it offers nothing.
    func whileFormSetsText(_ body: () -> Void) {
        formSetsText = true
        defer { formSetsText = false }
        body()
    }

    private func update(_ item: CaptionField, _ entry: TextEntry) {
        guard entry.hasFocus, fields.contains(item), let index = indexes[item] else { return close() }
        let (kept, typed) = Self.typed(entry.text, in: item)
        guard item != .keywords || !typed.isEmpty else { return close() }
        let named = Set(CaptionWords.keywords(in: String(kept)).map { $0.lowercased() })
        let offers = index.offers(for: String(typed), now: Timestamp.now()).filter {
            !named.contains($0.lowercased())
        }
        guard !offers.isEmpty else { return close() }
        show(offers, for: item, under: entry)
    }

    private func show(_ offers: [String], for item: CaptionField, under entry: TextEntry) {
        let changedField = field != item
        field = item
        self.offers = offers
        chosen = nil
        let labels = offers.map { offer in
            let label = Label(offer)
            label.setTextAlignment(0)
            label.ellipsize(PANGO_ELLIPSIZE_END, maxWidthChars: 60)
            label.setSideMargins(6)
            return label
        }
        list.setRows(labels, focusable: false)
        if changedField { popover.point(at: entry) }
        popover.showAll()
        onChange?()
    }

    func close() {
        guard field != nil else { return }
        field = nil
        offers = []
        chosen = nil
        popover.hide()
        onChange?()
    }

    /// Down, Up, Tab and Escape while offers show. Returns whether the key was used.
    private func key(_ event: KeyPress) -> Bool {
        guard event.hasNone(of: [GDK_CONTROL_MASK, GDK_MOD1_MASK, GDK_SHIFT_MASK]) else { return false }
        switch event.key {
        case GDK_KEY_Down, GDK_KEY_KP_Down:
            choose(chosen.map { ($0 + 1) % offers.count } ?? 0)
        case GDK_KEY_Up, GDK_KEY_KP_Up:
            choose(chosen.map { ($0 + offers.count - 1) % offers.count } ?? offers.count - 1)
        case GDK_KEY_Escape:
            typedIn = nil
            close()
        case GDK_KEY_Tab, GDK_KEY_KP_Tab:
            guard let chosen else {
                close()
                return false
            }  // Tab moves on, as always
            accept(chosen)
        default:
            return false
        }
        return true
    }

    private func choose(_ index: Int) {
        chosen = index
        list.selectRow(at: index)
        onChange?()
    }

    /// Enter in a field: accepts the chosen offer, and then Enter does nothing else.
    /// Returns false when no offer is chosen (Enter then does what the button says).
    func acceptOnEnter() -> Bool {
        guard let chosen else {
            close()
            return false
        }
        accept(chosen)
        return true
    }

    private func accept(_ index: Int) {
        guard let field, let entry = entries[field], offers.indices.contains(index) else { return }
        let offer = offers[index]
        typedIn = nil
        accepting = true
        let kept = Self.typed(entry.text, in: field).kept
        entry.text = kept.isEmpty ? offer : kept + " " + offer
        entry.caret = -1
        accepting = false
        close()
    }

    /// What a screen reader hears with the field, while offers show: how many, and the
    /// one chosen.
    func description(for item: CaptionField) -> String? {
        guard field == item, !offers.isEmpty else { return nil }
        if let chosen {
            return tr("Suggestion {index} of {count}: {text}. Enter takes it").replacing(
                "{index}", with: String(chosen + 1)
            ).replacing("{count}", with: String(offers.count)).replacing("{text}", with: offers[chosen])
        }
        return offers.count == 1
            ? tr("1 suggestion: {text}. Down to choose it").replacing("{text}", with: offers[0])
            : tr("{count} suggestions. Down to choose one").replacing("{count}", with: String(offers.count))
    }
}
