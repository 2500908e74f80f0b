// The focus engine: a value that takes the form's events and answers what Enter does.

import CaptionText

/// What the activate button says, and so what Enter does now.
public enum ActivateLabel: Sendable, Hashable {
    case next
    case done
}

/// Something that happened in a front end.
public enum FormEvent: Sendable, Hashable {
    /// The text of an item changed (typing, paste, clearing). The raw text, as shown.
    case edit(item: Int, text: String)
    /// Focus went to an item, or to no item (`nil`: the activate button, or elsewhere).
    case focus(Int?)
    /// Enter in the focused item.
    case enter
    /// The activate button was activated (a click, or Enter or Space while it has focus):
    /// it does what its label says, whichever item has focus.
    case activate
    /// Shift+Enter: back to the previous item.
    case back
    /// Ctrl+Enter, Ctrl+S: save if everything is complete.
    case submit
    /// A photo item's state changed.
    case photo(item: Int, PhotoState)
    /// Escape: hide the summary (the inline messages stay).
    case dismissSummary
    /// A save finished: empty the form for the next photo.
    case clear
}

/// What the front end must do now, besides showing the engine's new state.
public enum FormDecision: Sendable, Hashable {
    case nothing
    /// Put the keyboard focus on this item, or on the activate button (`nil`).
    case focus(Int?)
    /// Open the file chooser of this photo item.
    case choosePhoto(item: Int)
    /// Everything is complete: store these values.
    case save(Submission)
    /// A submit failed: messages are set; focus goes to the first incomplete item.
    case reject(focus: Int)
}

/// The values to store, normalised, in form order (photo items hold "").
public struct Submission: Sendable, Hashable {
    public var values: [String]

    public init(values: [String]) { self.values = values }
}

public struct FocusEngine: Sendable {
    public let items: [FormItem]
    public let wording: Wording
    /// The text as the user typed it, per item ("" for photo items).
    public private(set) var texts: [String]
    /// The photo state per item (`.empty` for text items, and ignored there).
    public private(set) var photos: [PhotoState]
    public private(set) var focus: Int?
    /// Items whose inline message shows: set by a failed submit, and an item leaves as
    /// soon as it is complete. Messages never appear while the user is still typing.
    public private(set) var flagged: Set<Int> = []
    public private(set) var summaryVisible = false
    /// Optional items the user has been in and left since the form was last cleared: Enter
    /// no longer leads to them, empty or not.
    public private(set) var passed: Set<Int> = []
    /// Each item's problem, derived from `texts` and `photos` whenever one of them changes.
    private var problems: [Problem?]
    /// Whether each item's normalised text is empty, derived with `problems`: `label` asks
    /// it of every optional item on every event.
    private var blank: [Bool]

    public init(items: [FormItem], wording: Wording = Wording()) {
        precondition(!items.isEmpty, "a form has at least one item")
        self.items = items
        self.wording = wording
        texts = Array(repeating: "", count: items.count)
        photos = Array(repeating: .empty, count: items.count)
        problems = []
        blank = []
        problems = items.indices.map(problemFromValues)
        blank = texts.map(Self.isBlank)
    }

    private func problemFromValues(_ item: Int) -> Problem? {
        Self.problem(of: items[item], text: texts[item], photo: photos[item])
    }

    // MARK: State read by the front ends

    /// The item's problem, or nil when it is complete. A photo that is still loading has
    /// none.
    public func problem(_ item: Int) -> Problem? { problems[item] }

    /// Works out one item's problem from its value. Kept apart from `problems` so that the
    /// text is normalised once per edit, not on every Enter.
    static func problem(of item: FormItem, text: String, photo: PhotoState) -> Problem? {
        switch item.kind {
        case .photo:
            switch photo {
            case .loading, .loaded: return nil
            case .empty: return .noPhoto
            case .failed(let message): return .photoFailed(message: message)
            }
        case .text(let limit):
            let value = TextNormalization.normalize(text)
            if value.isEmpty { return item.isOptional ? nil : .required }
            if TextNormalization.length(value) > limit { return .tooLong(limit: limit) }
            return nil
        }
    }

    public func isComplete(_ item: Int) -> Bool { problem(item) == nil }

    public var isComplete: Bool { items.indices.allSatisfy(isComplete) }

    /// Enter still leads to the item: it is incomplete, or it is optional, empty, and the
    /// user has not yet been in it for this photo.
    public func isAhead(_ item: Int) -> Bool {
        if problems[item] != nil { return true }
        return items[item].isOptional && !passed.contains(item) && blank[item]
    }

    private static func isBlank(_ text: String) -> Bool { TextNormalization.normalize(text).isEmpty }

    /// `Done` when no item other than the focused one is still ahead, so the label does not
    /// change while the user types in the focused field.
    public var label: ActivateLabel {
        for index in items.indices where index != focus && isAhead(index) {
            return .next
        }
        return .done
    }

    /// The inline message under an item, while it shows.
    public func message(for item: Int) -> String? {
        guard flagged.contains(item), let problem = problem(item) else { return nil }
        return wording.message(for: problem, of: items[item])
    }

    /// The summary above the form after a failed submit, while it shows. A missing photo
    /// comes first and alone: it is the step the user must take before anything else.
    public var summary: String? {
        guard summaryVisible else { return nil }
        let shown = flagged.sorted().compactMap { index in problem(index).map { (index, $0) } }
        if let photo = shown.first(where: { !items[$0.0].isText }) {
            return wording.message(for: photo.1, of: items[photo.0])
        }
        var lines: [String] = []
        let missing = shown.filter { $0.1 == .required }.map { items[$0.0] }
        if !missing.isEmpty { lines.append(wording.required(missing)) }
        for (index, problem) in shown where problem != .required {
            lines.append(wording.message(for: problem, of: items[index]))
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// The values as they would be stored.
    public var normalizedValues: [String] {
        items.indices.map { items[$0].isText ? TextNormalization.normalize(texts[$0]) : "" }
    }

    // MARK: Events

    public mutating func handle(_ event: FormEvent) -> FormDecision {
        switch event {
        case .edit(let item, let text):
            texts[item] = text
            problems[item] = problemFromValues(item)
            blank[item] = Self.isBlank(text)
            unflagCompleted()
            return .nothing

        case .focus(let item):
            leave(for: item)
            focus = item
            return .nothing

        case .enter:
            if let current = focus, !items[current].isText {
                return .choosePhoto(item: current)
            }
            return activate()

        case .activate:
            return activate()

        case .back:
            let count = items.count
            let previous = focus.map { ($0 + count - 1) % count } ?? count - 1
            return moveFocus(to: previous)

        case .submit:
            return submit()

        case .photo(let item, let state):
            return photoChanged(item, state)

        case .dismissSummary:
            summaryVisible = false
            return .nothing

        case .clear:
            texts = Array(repeating: "", count: items.count)
            photos = Array(repeating: .empty, count: items.count)
            problems = items.indices.map(problemFromValues)
            blank = texts.map(Self.isBlank)
            flagged = []
            summaryVisible = false
            passed = []
            focus = nil
            return moveFocus(to: items.firstIndex { !$0.isText } ?? 0)
        }
    }

    /// The same form with other items: item `i` of the result takes the state of this
    /// engine's item `sources[i]` (its words, photo, message, whether it was passed, the
    /// focus), or starts empty where `sources[i]` is nil. A desk that turns a field on or off
    /// while a photo is on the form keeps every word typed in the fields that stay.
    public func rearranged(into newItems: [FormItem], from sources: [Int?]) -> FocusEngine {
        precondition(newItems.count == sources.count, "one source per item")
        var result = FocusEngine(items: newItems, wording: wording)
        for (index, source) in sources.enumerated() {
            guard let source, items.indices.contains(source) else { continue }
            result.texts[index] = texts[source]
            result.photos[index] = photos[source]
            if flagged.contains(source) { result.flagged.insert(index) }
            if passed.contains(source) { result.passed.insert(index) }
        }
        result.problems = newItems.indices.map(result.problemFromValues)
        result.blank = result.texts.map(Self.isBlank)
        result.focus = focus.flatMap { old in sources.firstIndex(of: old) }
        result.summaryVisible = summaryVisible
        result.unflagCompleted()
        return result
    }

    // MARK: Rules

    /// The first item still ahead after `start` in form order, wrapping, never `start`
    /// itself; from no focus, the first such item. Nil when there is none.
    func firstAhead(after start: Int?) -> Int? {
        let count = items.count
        let origin = start ?? (count - 1)
        for step in 1...count {
            let index = (origin + step) % count
            if index == start { continue }
            if isAhead(index) { return index }
        }
        return nil
    }

    /// What the label promises: `Done` submits, `Next` moves to the next incomplete item.
    private mutating func activate() -> FormDecision {
        if label == .done { return submit() }
        return moveFocus(to: firstAhead(after: focus))
    }

    private mutating func moveFocus(to item: Int?) -> FormDecision {
        leave(for: item)
        focus = item
        return .focus(item)
    }

    /// Focus goes from the focused item to `next`: an optional item left behind is passed.
    private mutating func leave(for next: Int?) {
        if let current = focus, current != next, items[current].isOptional { passed.insert(current) }
    }

    /// A photo still decoding counts: the save takes the words as they are at this key, and
    /// the front end checks the photo with the save (a photo that turns out broken comes
    /// back with its own message). Waiting here instead would leave the form on this photo,
    /// and the keys typed meanwhile for the next one would land in it.
    private mutating func submit() -> FormDecision {
        let incomplete = items.indices.filter { !isComplete($0) }
        if let first = incomplete.first {
            flagged = Set(incomplete)
            summaryVisible = true
            leave(for: first)
            focus = first
            return .reject(focus: first)
        }
        flagged = []
        summaryVisible = false
        return .save(Submission(values: normalizedValues))
    }

    private mutating func photoChanged(_ item: Int, _ state: PhotoState) -> FormDecision {
        guard !items[item].isText else { return .nothing }
        let before = photos[item]
        photos[item] = state
        problems[item] = problemFromValues(item)
        unflagCompleted()
        switch state {
        case .loading where !before.countsAsComplete, .loaded where !before.countsAsComplete:
            // A photo arrived: on to the first thing still ahead, or to the button so that
            // Enter saves.
            return moveFocus(to: items.indices.first { isAhead($0) })
        case .failed:
            // Say so at once, by the photo, without moving the user's focus.
            flagged.insert(item)
            return .nothing
        default:
            return .nothing
        }
    }

    private mutating func unflagCompleted() {
        flagged = flagged.filter { !isComplete($0) }
        if flagged.isEmpty { summaryVisible = false }
    }
}
