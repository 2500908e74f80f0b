// The length counter beside a field: when it shows, and how it counts.

import FocusEngine
import Testing

@Suite struct LengthCounterTests {
    @Test func showsOnlyPastEightyPercentOfTheLimit() {
        #expect(LengthCounter(text: String(repeating: "a", count: 96), limit: 120) == nil)
        let counter = LengthCounter(text: String(repeating: "a", count: 97), limit: 120)
        #expect(counter?.count == 97)
        #expect(counter?.limit == 120)
        #expect(counter?.isOver == false)
        #expect(LengthCounter(text: "", limit: 0) == nil)
    }

    @Test func countsAsTheEngineDoesGraphemesOfTheNormalisedValue() {
        // 97 family emoji (one grapheme each) between spaces the save would trim.
        let text = "  " + String(repeating: "👩‍👩‍👧", count: 97) + "\u{3000}\n"
        #expect(LengthCounter(text: text, limit: 120)?.count == 97)
        let over = LengthCounter(text: String(repeating: "长", count: 121), limit: 120)
        #expect(over?.isOver == true)
    }

    @Test func theEngineGivesTheCounterOfTextItemsOnly() {
        var engine = CaptionForm.Layout.window.engine()
        _ = engine.handle(
            .edit(item: CaptionForm.Layout.window.requiredIndex(.title), text: String(repeating: "x", count: 112)))
        #expect(
            engine.lengthCounter(for: CaptionForm.Layout.window.requiredIndex(.title))
                == LengthCounter(text: String(repeating: "x", count: 112), limit: 120))
        #expect(engine.lengthCounter(for: CaptionForm.Layout.window.requiredIndex(.subtitle)) == nil)
        #expect(engine.lengthCounter(for: CaptionForm.Layout.window.photo) == nil)
        #expect(engine.lengthCounter(for: 99) == nil)
    }
}
