// A form's layout: which fields it shows, in which order, and the name of each position.

import CaptionText
import FocusEngine
import Testing

@Suite struct LayoutTests {
    @Test func titleAndSubtitleComeFirstThenTheOptionalFieldsInTheOrderGiven() {
        let layout = CaptionForm.Layout(optional: [.jobID, .title, .headline, .jobID])
        #expect(layout.fields == [.title, .subtitle, .jobID, .headline])
        #expect(layout.items == [.photo, .text(.title), .text(.subtitle), .text(.jobID), .text(.headline)])
    }

    @Test func everyPositionHasItsItemAndAFieldNotShownHasNone() {
        let layout = CaptionForm.Layout(optional: [.event])
        for (index, item) in layout.items.enumerated() {
            #expect(layout.index(of: item) == index)
            #expect(layout.item(at: index) == item)
        }
        #expect(layout.index(of: .text(.keywords)) == nil)
        #expect(layout.item(at: layout.items.count) == nil && layout.item(at: -1) == nil)
        #expect(layout.photo == 0)
        #expect(layout.requiredIndex(.subtitle) == layout.index(of: .text(.subtitle)))
    }

    @Test func aSubmissionGivesTheShownFieldsWordsAndNothingElse() {
        let layout = CaptionForm.Layout(optional: [.keywords, .state])
        var engine = layout.engine()
        _ = engine.handle(.photo(item: layout.photo, .loaded))
        for (index, text) in [(1, "Ferry"), (2, "Night"), (4, "Lisboa")] {
            _ = engine.handle(.edit(item: index, text: text))
        }
        guard case .save(let submission) = engine.handle(.submit) else {
            Issue.record("an empty optional field stopped the save")
            return
        }
        var expected = CaptionWords(title: "Ferry", subtitle: "Night")
        expected[.state] = "Lisboa"
        #expect(layout.words(of: submission) == expected)
    }

    @Test func theEngineOfALayoutKnowsWhichFieldsAreOptional() {
        let layout = CaptionForm.Layout.everyField
        let items = layout.formItems(Wording())
        #expect(items.count == 1 + CaptionField.allCases.count)
        for (item, formItem) in zip(layout.items, items) {
            #expect(formItem.isOptional == (item.field?.isOptional ?? false), "\(item)")
        }
        #expect(items[layout.index(of: .text(.jobID)) ?? 0].name == "Job ID")
    }

    @Test func theFocusedItemIsNamedByTheLayout() {
        let layout = CaptionForm.Layout(optional: [.headline])
        var engine = layout.engine()
        _ = engine.handle(.focus(3))
        #expect(layout.focusedItem(of: engine) == .text(.headline))
        _ = engine.handle(.focus(nil))
        #expect(layout.focusedItem(of: engine) == nil)
    }
}
