// A desk turns fields on or off while a photo is on the form: the words typed in the fields
// that stay, and where the user was, stay with them.

import CaptionText
import FocusEngine
import Testing

@Suite struct RearrangedFormTests {
    let plain = CaptionForm.Layout.window
    let wider = CaptionForm.Layout(optional: [.headline, .event])

    /// The photo loaded, Title typed, focus in Subtitle, on the window's plain form.
    func started() -> FocusEngine {
        var form = plain.engine()
        _ = form.handle(.photo(item: plain.photo, .loaded))
        _ = form.handle(.edit(item: plain.requiredIndex(.title), text: "Harbour"))
        _ = form.handle(.focus(plain.requiredIndex(.subtitle)))
        return form
    }

    @Test func turningAFieldOnKeepsTheWordsAndTheFocus() {
        let form = wider.carry(started(), from: plain)
        #expect(form.items.count == 5)
        #expect(form.texts[wider.requiredIndex(.title)] == "Harbour")
        #expect(form.photos[wider.photo] == .loaded)
        #expect(wider.focusedItem(of: form) == .text(.subtitle))
        // The new fields are empty and ahead: Enter leads there after Subtitle.
        #expect(form.texts[wider.index(of: .text(.headline))!] == "")
        #expect(form.isAhead(wider.index(of: .text(.headline))!))
    }

    @Test func enterFollowsTheNewFormAtOnce() {
        var form = wider.carry(started(), from: plain)
        _ = form.handle(.edit(item: wider.requiredIndex(.subtitle), text: "Ferry"))
        #expect(form.handle(.enter) == .focus(wider.index(of: .text(.headline))))
        #expect(form.handle(.enter) == .focus(wider.index(of: .text(.event))))
        #expect(form.label == .done)
    }

    @Test func turningAFieldOffDropsOnlyItsItem() {
        var form = wider.carry(started(), from: plain)
        _ = form.handle(.edit(item: wider.index(of: .text(.event))!, text: "Regatta"))
        _ = form.handle(.focus(wider.index(of: .text(.event))))
        let back = plain.carry(form, from: wider)
        #expect(back.items.count == 3)
        #expect(back.texts == ["", "Harbour", ""])
        // Focus was in a field no longer shown: no item has it.
        #expect(back.focus == nil)
    }

    @Test func aReorderedFormKeepsEachFieldsWords() {
        var form = wider.carry(started(), from: plain)
        _ = form.handle(.edit(item: wider.index(of: .text(.headline))!, text: "Boats"))
        _ = form.handle(.edit(item: wider.index(of: .text(.event))!, text: "Regatta"))
        _ = form.handle(.focus(wider.index(of: .text(.event))))
        let swapped = CaptionForm.Layout(optional: [.event, .headline])
        let moved = swapped.carry(form, from: wider)
        #expect(swapped.words(of: Submission(values: moved.normalizedValues))[.headline] == "Boats")
        #expect(swapped.words(of: Submission(values: moved.normalizedValues))[.event] == "Regatta")
        #expect(swapped.focusedItem(of: moved) == .text(.event))
    }

    @Test func aMessageStaysWithItsField() {
        var form = wider.carry(started(), from: plain)
        #expect(form.handle(.submit) == .reject(focus: wider.requiredIndex(.subtitle)))
        let swapped = CaptionForm.Layout(optional: [.event])
        let moved = swapped.carry(form, from: wider)
        #expect(moved.message(for: swapped.requiredIndex(.subtitle)) != nil)
        #expect(moved.summary != nil)
    }

    @Test func anOptionalFieldPassedStaysPassed() {
        var form = wider.carry(started(), from: plain)
        _ = form.handle(.focus(wider.index(of: .text(.headline))))
        _ = form.handle(.focus(wider.requiredIndex(.title)))
        let swapped = CaptionForm.Layout(optional: [.event, .headline])
        let moved = swapped.carry(form, from: wider)
        #expect(moved.passed == [swapped.index(of: .text(.headline))!])
    }
}
