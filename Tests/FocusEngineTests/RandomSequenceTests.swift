// Long random event sequences, checked against the design's invariants after every event.

import CaptionTestSupport
import CaptionText
import FocusEngine
import Foundation
import Testing

@Suite struct RandomSequenceTests {
    static let eventsPerRun = 20_000

    /// CAPTION_SEED replays a run; otherwise a fresh seed, printed so a failure can be replayed.
    static var seed: UInt64 {
        if let text = ProcessInfo.processInfo.environment["CAPTION_SEED"], let value = UInt64(text) {
            return value
        }
        return UInt64.random(in: 1...UInt64.max)
    }

    @Test(arguments: [
        CaptionForm.Layout.window.formItems(Wording()),
        [.text("A", limit: 3), .photo("P"), .photo("Q"), .text("B", limit: 4), .text("C", limit: 2)],
        [
            .photo("P"), .text("A", limit: 3), .text("H", limit: 4, isOptional: true), .text("B", limit: 4),
            .text("K", limit: 2, isOptional: true),
        ],
    ])
    func invariantsHoldAfterEveryEvent(items: [FormItem]) {
        let seed = Self.seed
        print("RandomSequenceTests seed \(seed) (replay with CAPTION_SEED=\(seed))")
        var random = SplitMix(seed: seed)
        var form = FocusEngine(items: items)
        var typed = Array(repeating: "", count: items.count)
        var photos = Array(repeating: PhotoState.empty, count: items.count)
        let texts = [
            "", " ", "a", "ab", "abcd", "\u{3000}x\u{3000}", "é\u{301}", "👩‍👩‍👧👩‍👩‍👧", "\n\t",
            String(repeating: "z", count: 300),
        ]
        let photoStates: [PhotoState] = [.empty, .loading, .loaded, .failed(message: "broken")]
        var saves = 0
        var rejects = 0
        // Optional items focus has left since the last clear, as the test sees focus move.
        var left: Set<Int> = []

        func complete(_ index: Int) -> Bool {
            switch items[index].kind {
            case .photo: return photos[index] == .loading || photos[index] == .loaded
            case .text(let limit):
                let value = TextNormalization.normalize(typed[index])
                return (!value.isEmpty || items[index].isOptional) && value.count <= limit
            }
        }

        /// Enter still leads there: incomplete, or optional, empty and not yet left.
        func ahead(_ index: Int) -> Bool {
            !complete(index)
                || (items[index].isOptional && !left.contains(index)
                    && TextNormalization.normalize(typed[index]).isEmpty)
        }

        for step in 0..<Self.eventsPerRun {
            let context = "seed \(seed), step \(step)"
            let textItems = items.indices.filter { items[$0].isText }
            let photoItems = items.indices.filter { !items[$0].isText }
            let event: FormEvent
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<35:
                let onFocused = form.focus.map { items[$0].isText } ?? false
                let item =
                    onFocused && Bool.random(using: &random) ? form.focus! : textItems.randomElement(using: &random)!
                event = .edit(item: item, text: texts.randomElement(using: &random)!)
            case 35..<50:
                event = .focus(Bool.random(using: &random) ? nil : items.indices.randomElement(using: &random))
            case 50..<65: event = .enter
            case 65..<70: event = .activate
            case 70..<78: event = .back
            case 78..<85: event = .submit
            case 85..<96:
                if let item = photoItems.randomElement(using: &random) {
                    event = .photo(item: item, photoStates.randomElement(using: &random)!)
                } else {
                    event = .enter
                }
            case 96..<99: event = .dismissSummary
            default: event = .clear
            }

            let labelBefore = form.label
            let focusBefore = form.focus
            let decision = form.handle(event)

            switch event {
            case .edit(let item, let text):
                typed[item] = text
                if item == focusBefore {
                    #expect(form.label == labelBefore, "typing in the focused field changed the label, \(context)")
                }
            case .photo(let item, let state): photos[item] = state
            case .clear:
                typed = Array(repeating: "", count: items.count)
                photos = Array(repeating: .empty, count: items.count)
                left = []
            default: break
            }
            if event != .clear, let before = focusBefore, before != form.focus, items[before].isOptional {
                left.insert(before)
            }
            #expect(form.passed == left, "\(context)")

            // Nothing typed is lost.
            #expect(form.texts == typed, "\(context)")

            // A save happens only when every item is complete (a photo still decoding counts:
            // the save checks it).
            if case .save(let submission) = decision {
                saves += 1
                #expect(items.indices.allSatisfy(complete), "saved an incomplete form, \(context)")
                let expected = items.indices.map { items[$0].isText ? TextNormalization.normalize(typed[$0]) : "" }
                #expect(submission.values == expected, "\(context)")
            }

            // A rejected submit focuses the first incomplete item and says what is missing.
            if case .reject(let focus) = decision {
                rejects += 1
                #expect(focus == items.indices.first { !complete($0) }, "\(context)")
                #expect(form.focus == focus, "\(context)")
                #expect(form.summary != nil, "\(context)")
                for index in items.indices where !complete(index) {
                    #expect(form.message(for: index) != nil, "no message for item \(index), \(context)")
                }
            }

            // Messages only ever describe incomplete items; a summary has a message under it.
            for index in items.indices where form.message(for: index) != nil {
                #expect(!complete(index), "message on a complete item \(index), \(context)")
            }
            if form.summary != nil {
                #expect(items.indices.contains { form.message(for: $0) != nil }, "\(context)")
            }

            // The label names exactly what Enter does now, and what the activate button does
            // from anywhere.
            let enterFollowsLabel = form.focus.map { items[$0].isText } ?? true
            for probeEvent in enterFollowsLabel ? [FormEvent.enter, .activate] : [.activate] {
                var probe = form
                let outcome = probe.handle(probeEvent)
                switch (form.label, outcome) {
                case (.next, .focus(let target?)):
                    // The first item still ahead after the focus, in form order, wrapping.
                    let origin = form.focus ?? items.count - 1
                    let expected = (1...items.count).map { (origin + $0) % items.count }
                        .first { $0 != form.focus && ahead($0) }
                    #expect(target == expected, "Next moved to \(target), \(context)")
                case (.done, .save), (.done, .reject):
                    break
                default:
                    Issue.record("label \(form.label) but \(probeEvent) did \(outcome), \(context)")
                }
            }
        }
        #expect(saves > 0 && rejects > 0, "the run should exercise both saves and rejects")
        print("RandomSequenceTests: \(Self.eventsPerRun) events, \(saves) saves, \(rejects) rejected submits")
    }
}
