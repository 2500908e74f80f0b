// Optional fields: Enter leads to each once per photo, and an empty one never stops a save.

import FocusEngine
import Testing

@Suite struct OptionalItemTests {
    // Photo, Title, Subtitle, then two fields a desk turned on.
    let items: [FormItem] = [
        .photo("Photo"), .text("Title", "title", limit: 20), .text("Subtitle", "subtitle", limit: 20),
        .text("Headline", "headline", limit: 5, isOptional: true),
        .text("Event", "event", limit: 20, isOptional: true),
    ]
    let photo = 0, title = 1, subtitle = 2, headline = 3, event = 4

    /// The photo loaded and Title and Subtitle typed, focus in Subtitle.
    func filled() -> FocusEngine {
        var form = FocusEngine(items: items)
        _ = form.handle(.photo(item: photo, .loaded))
        _ = form.handle(.edit(item: title, text: "Harbour"))
        _ = form.handle(.edit(item: subtitle, text: "Ferry"))
        _ = form.handle(.focus(subtitle))
        return form
    }

    @Test func enterVisitsEachOptionalFieldOnceThenSaves() {
        var form = filled()
        #expect(form.label == .next)
        #expect(form.handle(.enter) == .focus(headline))
        #expect(form.label == .next)
        #expect(form.handle(.enter) == .focus(event))
        #expect(form.label == .done)
        #expect(form.handle(.enter) == .save(Submission(values: ["", "Harbour", "Ferry", "", ""])))
    }

    @Test func anEmptyOptionalFieldNeverStopsASubmit() {
        var form = filled()
        #expect(form.handle(.submit) == .save(Submission(values: ["", "Harbour", "Ferry", "", ""])))
        #expect(form.message(for: headline) == nil)
        #expect(form.summary == nil)
    }

    @Test func anOptionalFieldLeftOnceIsSkippedByNext() {
        var form = filled()
        _ = form.handle(.focus(headline))
        _ = form.handle(.focus(title))
        #expect(form.handle(.enter) == .focus(event))
        #expect(form.passed == [headline])
    }

    @Test func anOptionalFieldWithWordsIsNotAhead() {
        var form = filled()
        _ = form.handle(.edit(item: headline, text: "Gale"))
        _ = form.handle(.edit(item: event, text: "Storm"))
        #expect(form.label == .done)
        #expect(form.handle(.enter) == .save(Submission(values: ["", "Harbour", "Ferry", "Gale", "Storm"])))
    }

    @Test func anOptionalFieldOverItsLimitStopsTheSaveWithItsMessage() {
        var form = filled()
        _ = form.handle(.edit(item: headline, text: "Far too long"))
        #expect(form.handle(.submit) == .reject(focus: headline))
        #expect(form.message(for: headline) == "Headline is too long (at most 5 characters)")
        #expect(form.message(for: event) == nil)
    }

    @Test func aMissingRequiredFieldIsSaidAloneWhileOptionalOnesAreEmpty() {
        var form = FocusEngine(items: items)
        _ = form.handle(.photo(item: photo, .loaded))
        _ = form.handle(.edit(item: subtitle, text: "Ferry"))
        #expect(form.handle(.submit) == .reject(focus: title))
        #expect(form.summary == "Title required")
    }

    @Test func shiftEnterBackOutOfAnOptionalFieldPassesIt() {
        var form = filled()
        _ = form.handle(.enter)
        #expect(form.handle(.back) == .focus(subtitle))
        #expect(form.handle(.enter) == .focus(event))
    }

    @Test func clearMakesEveryOptionalFieldAheadAgain() {
        var form = filled()
        _ = form.handle(.enter)
        _ = form.handle(.enter)
        #expect(form.handle(.clear) == .focus(photo))
        #expect(form.passed.isEmpty)
        _ = form.handle(.photo(item: photo, .loaded))
        _ = form.handle(.edit(item: title, text: "A"))
        _ = form.handle(.edit(item: subtitle, text: "B"))
        _ = form.handle(.focus(subtitle))
        #expect(form.handle(.enter) == .focus(headline))
    }

    /// Typed ahead before the photo came: the photo's arrival leads on to the first optional
    /// field, not to the button.
    @Test func aPhotoArrivingAfterTheRequiredWordsLeadsToTheFirstOptionalField() {
        var form = FocusEngine(items: items)
        _ = form.handle(.edit(item: title, text: "Harbour"))
        _ = form.handle(.edit(item: subtitle, text: "Ferry"))
        _ = form.handle(.focus(photo))
        #expect(form.handle(.photo(item: photo, .loading)) == .focus(headline))
    }

    @Test func typingInAnOptionalFieldNeverChangesTheLabel() {
        var form = filled()
        _ = form.handle(.enter)
        _ = form.handle(.enter)
        for text in ["G", "", "Gale", " "] {
            _ = form.handle(.edit(item: event, text: text))
            #expect(form.label == .done)
        }
    }
}
