// The caption checks at Done, as a user meets them: the first finding said in the message
// bar and its words selected in their field, the photo kept; Done again saves the words as
// they are; changed words are checked again.

import CGtk
import CaptionChecks
import CaptionLibrary
import CaptionMetadata
import CaptionText
import Foundation
import Shorthand
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct CheckWindowTests {
    let folder = Harness.temporaryDirectory("caption-checks")

    func windowWithPhoto(_ name: String, creditsFile: String? = nil) throws -> (CaptionWindow, String) {
        let window = try Harness.makeWindow(library: folder + "/" + name, creditsFile: creditsFile)
        let photo = Harness.makePhoto(in: folder, name: name + ".jpg")
        Harness.waitForPhoto(window) { window.form.enqueue([photo]) }
        return (window, photo)
    }

    /// Preferences over `window`, as its shortcut opens it.
    func openPreferences(_ window: CaptionWindow) throws -> PreferencesWindow {
        window.activateAction("preferences")
        Harness.settle()
        return try #require(window.preferences)
    }

    func selection(_ entry: TextEntry) -> Range<Int>? {
        var start: Int32 = 0
        var end: Int32 = 0
        guard gtk_editable_get_selection_bounds(caption_editable(entry.pointer), &start, &end) != 0 else { return nil }
        return Int(start)..<Int(end)
    }

    /// Enter in the last field, as the user presses it to save.
    func done(_ window: CaptionWindow) {
        window.form.view.subtitleEntry.grabFocus()
        Harness.press(window, keyval: GDK_KEY_Return)
        Harness.settle()
    }

    /// Both fields typed, then Enter in the last.
    func type(_ window: CaptionWindow, _ title: String, _ subtitle: String) {
        Harness.type(window.form.view.titleEntry, title)
        Harness.type(window.form.view.subtitleEntry, subtitle)
        done(window)
    }

    @Test func doneSaysAPlaceholderLeftInSelectsItAndDoneAgainSavesAsItIs() throws {
        let (window, photo) = try windowWithPhoto("tk")
        defer { Harness.close(window) }
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        type(window, "Harbour", "Mayor TK opens the bridge")
        #expect(
            window.messages.text
                == "Subtitle: “TK” is a placeholder left in. Done again saves the caption as it is.",
            "\(window.messages.text ?? "")")
        #expect(window.form.view.subtitleEntry.hasFocus)
        #expect(selection(window.form.view.subtitleEntry) == 6..<8, "the words found are selected")
        #expect(saved.isEmpty && window.form.photoPath == photo, "not saved, the photo kept")

        // Done again: a check is advice, and the words go as they are.
        done(window)
        #expect(Harness.spin { saved.count == 1 }, "Done again saves")
        #expect(saved.first?.subtitle == "Mayor TK opens the bridge")
    }

    /// A name spelt otherwise than the code replacements spell it: said with the name
    /// meant, and Alt+M puts that name in place of the words; Done then saves.
    @Test func aNameSpeltOtherwiseIsOfferedAsTheCodesSpellItAndAltMUsesIt() throws {
        let (window, _) = try windowWithPhoto("names")
        defer { Harness.close(window) }
        window.form.replacementTable = ReplacementTable([
            Replacement(code: "=bo", text: "Barack Obama (USA)"), Replacement(code: "=am", text: "Angela Merkel"),
        ])
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        type(window, "Summit", "Barak Obama greets Angela Merkel")
        #expect(
            window.messages.text
                == "Subtitle: “Barak Obama” is spelt “Barack Obama” in the codes. Done again saves the caption as it is.",
            "\(window.messages.text ?? "")")
        #expect(window.messages.actionLabel == "_Make It “Barack Obama”")
        #expect(selection(window.form.view.subtitleEntry) == 0..<11)
        // At once, as a typist presses it: before the bar has even been drawn.
        Harness.press(window, keyval: GDK_KEY_m, state: GDK_MOD1_MASK)
        #expect(window.form.view.subtitleEntry.text == "Barack Obama greets Angela Merkel")
        #expect(window.form.view.subtitleEntry.hasFocus)
        #expect(!window.messages.isShowing, "the offer is taken")
        done(window)
        #expect(Harness.spin { saved.count == 1 }, "\(window.messages.text ?? "")")
        #expect(saved.first?.subtitle == "Barack Obama greets Angela Merkel")
    }

    /// Preferences' Checks page: a check switched off (by its Alt key) is saved beside the
    /// credits, for the command line too, and the next Done finds nothing of it.
    @Test func aCheckSwitchedOffInPreferencesFindsNothingFromTheNextDone() throws {
        let settings = folder + "/switch.ini"
        let (window, _) = try windowWithPhoto("switch", creditsFile: settings)
        defer { Harness.close(window) }
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        let preferences = try openPreferences(window)
        // The last page: Ctrl+Page Up goes round to it, as the guide says.
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_Page_Up, state: GDK_CONTROL_MASK)
        #expect(preferences.pages.visibleChildName == "checks")
        #expect(
            CaptionCheck.allCases.allSatisfy {
                preferences.checksPage.buttons[$0]?.isActive == !CheckChoices.offByDefault.contains($0)
            }, "all on at first but the dateline's and the headline's case")
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_p, state: GDK_MOD1_MASK)
        #expect(preferences.checksPage.buttons[.leftovers]?.isActive == false)
        #expect(CreditsFile.checkChoices(settings) == CheckChoices(off: [.leftovers, .dateline, .headlineCase]))
        #expect(window.form.checkChoices == CheckChoices(off: [.leftovers, .dateline, .headlineCase]))
        preferences.close()
        Harness.settle()

        type(window, "Harbour", "Mayor TK opens the bridge")
        #expect(Harness.spin { saved.count == 1 }, "\(window.messages.text ?? "")")
        #expect(saved.first?.subtitle == "Mayor TK opens the bridge")
    }

    /// A stationery pad's own checks, made on the Checks page while the pad is in use: its
    /// dateline pattern is held to the subtitle at Done, Preferences' are left as they were,
    /// and another pad in use brings Preferences' back.
    @Test func aPadsOwnChecksAndDatelinePatternApplyWhileItIsInUse() throws {
        let settings = folder + "/pad-checks-settings/credits.ini"
        let pads = StationeryPads.folder(besides: settings)
        #expect(StationeryPads.save(Credits([.creator: "Ana Lima"]), as: "Local", in: pads) == nil)
        #expect(StationeryPads.save(Credits([.creditLine: "Wire Agency"]), as: "Wire", in: pads) == nil)
        #expect(CreditsFile.usePad("Wire", in: settings) == nil)
        let (window, _) = try windowWithPhoto("pad-checks", creditsFile: settings)
        defer { Harness.close(window) }
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        let preferences = try openPreferences(window)
        let page = preferences.checksPage
        preferences.show(.checks)
        #expect(page.padButton.isVisible && page.padButton.hasFocus, "the pad's switch first, where a pad is in use")
        #expect(page.padButton.label == "_Own checks for the stationery pad “Wire”")
        #expect(!page.padButton.isActive)
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_o, state: GDK_MOD1_MASK)
        #expect(page.padButton.isActive)
        #expect(StationeryPads.checks(of: "Wire", in: pads) == PadChecks(owning: CheckChoices()), "starts as it was")
        #expect(!page.patternEntry.isSensitive, "no pattern while the dateline check is off")
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_d, state: GDK_MOD1_MASK)
        #expect(page.patternEntry.isSensitive)
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_l, state: GDK_MOD1_MASK)
        #expect(page.patternEntry.hasFocus)
        Harness.type(page.patternEntry, "city -")
        #expect(
            page.status.text
                == "“city -” names none of CITY, STATE, COUNTRY, MONTH, D, DAY and YEAR: it is matched as written")
        page.patternEntry.text = ""
        Harness.type(page.patternEntry, "CITY, COUNTRY - MONTH D:")
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_Return)
        #expect(page.status.text == "")
        let wire = StationeryPads.checks(of: "Wire", in: pads)
        #expect(wire.on.contains(.dateline) && wire.datelinePattern == "CITY, COUNTRY - MONTH D:")
        #expect(CreditsFile.checkChoices(settings) == CheckChoices(), "Preferences' own are left as they were")
        preferences.close()
        Harness.settle()

        type(window, "Ferry", "Lisbon - May 17: boats")
        #expect(
            window.messages.text
                == "Subtitle does not open with the dateline “CITY, COUNTRY - MONTH D:”: “,” is wanted at “-”. Done again saves the caption as it is.",
            "\(window.messages.text ?? "")")
        #expect(window.form.view.subtitleEntry.hasFocus)
        #expect(selection(window.form.view.subtitleEntry) == 7..<8, "the word where it parts from the pattern")
        #expect(saved.isEmpty)

        // The local paper's pad: Preferences' checks, no dateline asked for.
        window.activateAction(PadChoice.keyActionName(1))
        Harness.type(window.form.view.subtitleEntry, "Lisbon - May 17: boats at dawn")
        done(window)
        #expect(Harness.spin { saved.count == 1 }, "\(window.messages.text ?? "")")
        #expect(saved.first?.subtitle == "Lisbon - May 17: boats at dawn")

        // The wire's pad again: its own checks shown; taken away, Preferences' come back.
        window.activateAction(PadChoice.keyActionName(2))
        let again = try openPreferences(window)
        again.show(.checks)
        #expect(again.checksPage.padButton.isActive && again.checksPage.buttons[.dateline]?.isActive == true)
        #expect(again.checksPage.patternEntry.text == "CITY, COUNTRY - MONTH D:")
        Harness.press(toplevel: again.window.pointer, keyval: GDK_KEY_o, state: GDK_MOD1_MASK)
        #expect(StationeryPads.checks(of: "Wire", in: pads) == .none)
        #expect(again.checksPage.buttons[.dateline]?.isActive == false && again.checksPage.patternEntry.text == "")
        #expect(window.form.checkChoices == CheckChoices())
        again.close()
    }

    /// The dateline check, where a desk switched it on: the subtitle's missing place said,
    /// the caret at its end; Done again saves.
    @Test func aSubtitleWithoutAPlaceIsSaidWhereTheDeskAsksForOne() throws {
        let (window, _) = try windowWithPhoto("dateline")
        defer { Harness.close(window) }
        window.form.checkChoices = CheckChoices(off: [])
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        type(window, "Harbour", "Boats on Monday")
        #expect(
            window.messages.text
                == "Subtitle says no place, as a wire caption must (a city, or a dateline). Done again saves the caption as it is.",
            "\(window.messages.text ?? "")")
        #expect(window.form.view.subtitleEntry.hasFocus && window.form.view.subtitleEntry.caret == 15)
        done(window)
        #expect(Harness.spin { saved.count == 1 })
    }

    @Test func aHeadlineNotInTitleCaseIsSaidAndAltMMakesItSo() throws {
        let (window, _) = try windowWithPhoto("title-case")
        defer { Harness.close(window) }
        window.form.showFields(FormChoices(order: [.headline], on: [.headline]))
        window.form.checkChoices = CheckChoices(off: [.dateline])
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        Harness.type(window.form.view.titleEntry, "Storm")
        Harness.type(window.form.view.subtitleEntry, "Waves at the pier")
        let headline = window.form.view.entry(.headline)
        headline.grabFocus()
        Harness.type(headline, "storm hits the coast")
        Harness.press(window, keyval: GDK_KEY_Return)
        Harness.settle()
        #expect(
            window.messages.text
                == "Headline is not in Title Case: “Storm Hits the Coast”. Done again saves the caption as it is.",
            "\(window.messages.text ?? "")")
        #expect(window.messages.actionLabel == "_Make It “Storm Hits the Coast”")
        #expect(headline.hasFocus)
        Harness.press(window, keyval: GDK_KEY_m, state: GDK_MOD1_MASK)
        #expect(headline.text == "Storm Hits the Coast")
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(Harness.spin { saved.count == 1 }, "\(window.messages.text ?? "")")
        #expect(saved.first?.words[.headline] == "Storm Hits the Coast")
    }

    /// Words as typed are checked: a variable the form fills and a doubled brace (a brace
    /// as text) are nothing to say.
    @Test func variablesAndBracesTypedOnPurposeAreNoFinding() throws {
        let (window, _) = try windowWithPhoto("braces")
        defer { Harness.close(window) }
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        _ = Harness.spin { window.form.photoFacts != nil }
        type(window, "Harbour {filename}", "Set {{n}} of the series")
        #expect(Harness.spin { saved.count == 1 }, "\(window.messages.text ?? "")")
        #expect(saved.first?.subtitle == "Set {n} of the series")
    }

    @Test func wordsChangedAfterAFindingAreCheckedAgain() throws {
        let (window, _) = try windowWithPhoto("again")
        defer { Harness.close(window) }
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        type(window, "XXX at the pier", "Boats leave the the harbour")
        #expect(window.messages.text?.hasPrefix("Title: “XXX” is a placeholder left in (and 1 more).") == true)
        #expect(window.form.view.titleEntry.hasFocus)
        #expect(selection(window.form.view.titleEntry) == 0..<3)
        // The title mended, the doubled word is found at the next Done: new words, new check.
        type(window, "Fans at the pier", "Boats leave the the harbour")
        #expect(window.messages.text?.hasPrefix("Subtitle: “the the” is typed twice.") == true)
        #expect(selection(window.form.view.subtitleEntry) == 12..<19)
        #expect(saved.isEmpty)
        type(window, "Fans at the pier", "Boats leave the harbour")
        #expect(Harness.spin { saved.count == 1 }, "nothing found: saved at the first Done")
        #expect(saved.first?.title == "Fans at the pier")
    }
}
