// The original design's scenarios, and the rules around them, as named tests.

import FocusEngine
import Testing

@Suite struct ScenarioTests {
    let photo = CaptionForm.Layout.window.photo
    let title = CaptionForm.Layout.window.requiredIndex(.title)
    let subtitle = CaptionForm.Layout.window.requiredIndex(.subtitle)

    func form(_ fill: String, focus: Int?) -> FocusEngine {
        engine(CaptionForm.Layout.window.formItems(Wording()), fill: fill, focus: focus)
    }

    // "Only one field filled: Next."
    @Test func onlyOneFieldFilledSaysNext() {
        var form = form("100", focus: title)
        _ = form.handle(.edit(item: title, text: "Harbour at dusk"))
        #expect(form.label == .next)
    }

    // "The other one already filled: Done."
    @Test func otherFieldAlreadyFilledSaysDone() {
        var form = form("101", focus: title)
        _ = form.handle(.edit(item: title, text: "Harbour"))
        #expect(form.label == .done)
    }

    @Test func typingInTheFocusedFieldNeverChangesTheLabel() {
        var form = form("101", focus: title)
        for text in ["", "H", "Ha", "", "   ", "Harbour"] {
            _ = form.handle(.edit(item: title, text: text))
            #expect(form.label == .done)
        }
    }

    @Test func titleEnterSubtitleEnterSaves() {
        var form = form("100", focus: title)
        _ = form.handle(.edit(item: title, text: "  Harbour at dusk "))
        #expect(form.handle(.enter) == .focus(subtitle))
        _ = form.handle(.edit(item: subtitle, text: "The last ferry\nleaves"))
        #expect(form.label == .done)
        #expect(form.handle(.enter) == .save(Submission(values: ["", "Harbour at dusk", "The last ferry leaves"])))
    }

    @Test func enterSkipsCompletedItems() {
        var form = form("101", focus: nil)
        _ = form.handle(.focus(subtitle))
        #expect(form.handle(.enter) == .focus(title))
    }

    @Test func enterWrapsAroundToThePhoto() {
        var form = form("011", focus: subtitle)
        #expect(form.handle(.enter) == .focus(photo))
    }

    @Test func enterOnThePhotoOpensTheChooser() {
        var form = form("011", focus: photo)
        #expect(form.handle(.enter) == .choosePhoto(item: photo))
    }

    @Test func activateButtonDoesWhatItsLabelSaysEvenFromThePhoto() {
        var form = form("100", focus: photo)
        #expect(form.label == .next)
        #expect(form.handle(.activate) == .focus(title))
        var complete = self.form("111", focus: photo)
        #expect(complete.handle(.activate) == .save(Submission(values: ["", "words", "words"])))
    }

    @Test func shiftEnterGoesBackAndWraps() {
        var form = form("000", focus: subtitle)
        #expect(form.handle(.back) == .focus(title))
        #expect(form.handle(.back) == .focus(photo))
        #expect(form.handle(.back) == .focus(subtitle))
    }

    @Test func shiftEnterDoesNotSkipCompleteItems() {
        var form = form("111", focus: subtitle)
        #expect(form.handle(.back) == .focus(title))
    }

    // Messages, worded as in the original design.

    @Test func missingPhotoIsNamedAloneInTheSummary() {
        var form = form("000", focus: title)
        #expect(form.handle(.submit) == .reject(focus: photo))
        #expect(form.summary == "No photo chosen")
        #expect(form.message(for: photo) == "No photo chosen")
        #expect(form.message(for: title) == "Title required")
        #expect(form.message(for: subtitle) == "Subtitle required")
    }

    @Test func onlyTheTitleMissing() {
        var form = form("101", focus: nil)
        #expect(form.handle(.submit) == .reject(focus: title))
        #expect(form.summary == "Title required")
        #expect(form.message(for: subtitle) == nil)
    }

    @Test func onlyTheSubtitleMissing() {
        var form = form("110", focus: title)
        #expect(form.handle(.submit) == .reject(focus: subtitle))
        #expect(form.summary == "Subtitle required")
        #expect(form.focus == subtitle)
    }

    @Test func titleAndSubtitleMissing() {
        var form = form("100", focus: nil)
        #expect(form.handle(.submit) == .reject(focus: title))
        #expect(form.summary == "Title and subtitle required")
    }

    @Test func tooLongTitleAndSubtitle() {
        var form = form("100", focus: title)
        _ = form.handle(.edit(item: title, text: String(repeating: "a", count: 121)))
        _ = form.handle(.edit(item: subtitle, text: String(repeating: "b", count: 241)))
        #expect(form.handle(.submit) == .reject(focus: title))
        #expect(form.message(for: title) == "Title is too long (at most 120 characters)")
        #expect(form.message(for: subtitle) == "Subtitle is too long (at most 240 characters)")
        #expect(
            form.summary == "Title is too long (at most 120 characters)\nSubtitle is too long (at most 240 characters)")
    }

    @Test func limitsCountGraphemeClusters() {
        var form = form("101", focus: title)
        let family = "👩‍👩‍👧"  // five scalars, one character
        _ = form.handle(.edit(item: title, text: String(repeating: family, count: 120)))
        #expect(form.isComplete(title))
        _ = form.handle(.edit(item: title, text: String(repeating: family, count: 121)))
        #expect(form.problem(title) == .tooLong(limit: 120))
    }

    @Test func whiteSpaceOnlyIsEmpty() {
        var form = form("101", focus: title)
        _ = form.handle(.edit(item: title, text: " \t\u{3000}\u{00A0}\n"))
        #expect(form.problem(title) == .required)
    }

    @Test func messagesClearAsTheirItemsComplete() {
        var form = form("000", focus: nil)
        _ = form.handle(.submit)
        _ = form.handle(.edit(item: title, text: "Harbour"))
        #expect(form.message(for: title) == nil)
        #expect(form.message(for: subtitle) == "Subtitle required")
        #expect(form.summary == "No photo chosen")
        _ = form.handle(.photo(item: photo, .loaded))
        #expect(form.summary == "Subtitle required")
        _ = form.handle(.edit(item: subtitle, text: "Dusk"))
        #expect(form.summary == nil)
        #expect(form.message(for: subtitle) == nil)
    }

    @Test func noMessageAppearsBeforeASubmit() {
        var form = form("000", focus: title)
        _ = form.handle(.enter)
        _ = form.handle(.edit(item: subtitle, text: String(repeating: "x", count: 300)))
        for item in 0..<3 { #expect(form.message(for: item) == nil) }
        #expect(form.summary == nil)
    }

    @Test func clearingAFlaggedFieldShowsItsNewProblem() {
        var form = form("100", focus: title)
        _ = form.handle(.edit(item: title, text: String(repeating: "a", count: 121)))
        _ = form.handle(.submit)
        _ = form.handle(.edit(item: title, text: ""))
        #expect(form.message(for: title) == "Title required")
    }

    @Test func escapeDismissesTheSummaryButNotTheMessages() {
        var form = form("100", focus: nil)
        _ = form.handle(.submit)
        _ = form.handle(.dismissSummary)
        #expect(form.summary == nil)
        #expect(form.message(for: title) == "Title required")
    }

    @Test func failedSubmitLosesNothingTyped() {
        var form = form("000", focus: title)
        _ = form.handle(.edit(item: title, text: "  kept as typed "))
        _ = form.handle(.submit)
        #expect(form.texts[title] == "  kept as typed ")
    }

    // Photos.

    @Test func arrivingPhotoFocusesTheFirstIncompleteItem() {
        var form = form("000", focus: photo)
        #expect(form.handle(.photo(item: photo, .loading)) == .focus(title))
    }

    @Test func arrivingPhotoCompletingTheFormFocusesTheButton() {
        var form = form("011", focus: photo)
        #expect(form.handle(.photo(item: photo, .loading)) == .focus(nil))
        #expect(form.label == .done)
    }

    @Test func loadingPhotoCountsForTheLabelAndRouting() {
        var form = form("000", focus: title)
        _ = form.handle(.photo(item: photo, .loading))
        _ = form.handle(.edit(item: title, text: "Quick"))
        #expect(form.handle(.enter) == .focus(subtitle))
        _ = form.handle(.edit(item: subtitle, text: "Typist"))
        #expect(form.label == .done)
    }

    @Test func submitWithALoadingPhotoSavesTheWordsAtOnce() {
        var form = form("011", focus: title)
        _ = form.handle(.photo(item: photo, .loading))
        _ = form.handle(.focus(subtitle))
        #expect(form.handle(.enter) == .save(Submission(values: ["", "words", "words"])))
        // The photo's verdict coming after the save asks nothing more of the form.
        #expect(form.handle(.photo(item: photo, .loaded)) == .nothing)
    }

    @Test func photoThatFailsToDecodeSaysSoWithoutMovingFocus() {
        var form = form("000", focus: photo)
        _ = form.handle(.photo(item: photo, .loading))
        _ = form.handle(.edit(item: title, text: "Typing"))
        #expect(form.handle(.photo(item: photo, .failed(message: "The photo is truncated"))) == .nothing)
        #expect(form.focus == title)
        #expect(form.message(for: photo) == "The photo is truncated")
        #expect(form.summary == nil)
    }

    @Test func clearEmptiesTheFormAndFocusesThePhoto() {
        var form = form("111", focus: subtitle)
        #expect(form.handle(.clear) == .focus(photo))
        #expect(form.texts == ["", "", ""])
        #expect(form.label == .next)
    }

    @Test func threeMissingTextItemsAreListed() {
        let items: [FormItem] = [
            .text("Title", "title", limit: 5), .text("Subtitle", "subtitle", limit: 5),
            .text("Place", "place", limit: 5),
        ]
        var form = FocusEngine(items: items)
        _ = form.handle(.submit)
        #expect(form.summary == "Title, subtitle and place required")
    }

    @Test func translatedTemplatesMayMoveTheirPlaceholders() {
        let wording = Wording { message in
            ["{item} required": "必须填写{item}", "Title": "标题"][message] ?? message
        }
        var form = FocusEngine(items: CaptionForm.Layout.window.formItems(wording), wording: wording)
        _ = form.handle(.photo(item: photo, .loaded))
        _ = form.handle(.edit(item: subtitle, text: "x"))
        _ = form.handle(.submit)
        #expect(form.summary == "必须填写标题")
    }
}
