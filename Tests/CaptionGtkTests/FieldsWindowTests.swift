// The form's optional fields as a desk turns them on in Preferences: the form follows at
// once, keeps what was typed, and Enter, Tab and the save cover exactly the fields shown.

import CGtk
import CaptionLibrary
import CaptionText
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct FieldsWindowTests {
    let folder = Harness.temporaryDirectory("caption-fields")

    func windowWithPhoto(_ name: String, settings: String? = nil) throws -> (CaptionWindow, String) {
        let window = try Harness.makeWindow(library: folder + "/" + name, creditsFile: settings)
        let photo = Harness.makePhoto(in: folder, name: name + ".jpg")
        Harness.waitForPhoto(window) { window.form.enqueue([photo]) }
        return (window, photo)
    }

    /// Preferences opened by its action, on the Fields page, the third (Ctrl+Page Down
    /// twice).
    func fieldsPage(_ window: CaptionWindow) throws -> PreferencesWindow {
        window.activateAction("preferences")
        Harness.settle()
        let preferences = try #require(window.preferences)
        press(preferences, GDK_KEY_Page_Down, GDK_CONTROL_MASK)
        press(preferences, GDK_KEY_Page_Down, GDK_CONTROL_MASK)
        return preferences
    }

    func press(_ preferences: PreferencesWindow, _ keyval: Int32, _ state: GdkModifierType = GdkModifierType(0)) {
        Harness.press(toplevel: preferences.window.pointer, keyval: keyval, state: state)
    }

    func focusName(_ preferences: PreferencesWindow) -> String { preferences.window.focus?.accessibleName ?? "" }

    func focusedEntry(_ window: CaptionWindow) -> CaptionField? {
        window.form.view.entries.first { $0.value.hasFocus }?.key
    }

    @Test func fieldsTurnedOnJoinTheFormAtOnceAndKeepWhatWasTyped() throws {
        let (window, _) = try windowWithPhoto("on")
        defer { Harness.close(window) }
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        Harness.type(window.form.view.titleEntry, "Harbour")
        #expect(!window.form.view.entry(.headline).isVisible, "a field not turned on is not shown")

        let preferences = try fieldsPage(window)
        #expect(focusName(preferences) == "Headline", "the page opens on the first field's switch")
        #expect(preferences.window.focus?.accessibleDescription == "1 of 9 in the list. Alt+Up and Alt+Down move it")
        press(preferences, GDK_KEY_space)
        press(preferences, GDK_KEY_Tab)
        press(preferences, GDK_KEY_Tab)
        #expect(focusName(preferences) == "Alt Text")
        press(preferences, GDK_KEY_space)
        #expect(window.form.view.layout.fields == [.title, .subtitle, .headline, .altText])
        #expect(window.form.view.entry(.headline).isVisible && window.form.view.entry(.altText).isVisible)
        #expect(window.form.view.titleEntry.text == "Harbour", "what was typed stays")
        press(preferences, GDK_KEY_Escape)
        Harness.settle()

        // Enter's flow covers the new fields: Subtitle, then each once, then the save.
        window.form.view.subtitleEntry.grabFocus()
        Harness.type(window.form.view.subtitleEntry, "Ferries at dawn")
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(focusedEntry(window) == .headline)
        #expect(window.form.view.activateButton.label == "Next")
        Harness.type(window.form.view.entry(.headline), "Morning crossing")
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(focusedEntry(window) == .altText)
        #expect(window.form.view.activateButton.label == "Done", "an empty optional field is the last stop")
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(Harness.spin { saved.count == 1 })
        #expect(saved.first?.words[.headline] == "Morning crossing")
        #expect(saved.first?.words[.title] == "Harbour")
        #expect(saved.first?.words[.altText] == "")
    }

    @Test func altDownMovesAFieldAndTheFormAndTheFileFollow() throws {
        let settings = folder + "/order.ini"
        let (window, _) = try windowWithPhoto("order", settings: settings)
        defer { Harness.close(window) }
        let preferences = try fieldsPage(window)
        press(preferences, GDK_KEY_space)
        press(preferences, GDK_KEY_Tab)
        press(preferences, GDK_KEY_space)
        #expect(window.form.view.layout.fields == [.title, .subtitle, .headline, .keywords])
        press(preferences, GDK_KEY_Up, GDK_MOD1_MASK)
        #expect(focusName(preferences) == "Keywords", "focus goes with the field")
        #expect(preferences.window.focus?.accessibleDescription.hasPrefix("1 of 9") == true)
        #expect(window.form.view.layout.fields == [.title, .subtitle, .keywords, .headline])
        press(preferences, GDK_KEY_Up, GDK_MOD1_MASK)
        #expect(focusName(preferences) == "Keywords", "the top of the list is as far as it goes")
        #expect(CreditsFile.formChoices(settings).shown == [.keywords, .headline])
        press(preferences, GDK_KEY_Escape)
        Harness.settle()

        // Tab follows the rows as they stand.
        window.form.view.subtitleEntry.grabFocus()
        Harness.press(window, keyval: GDK_KEY_Tab)
        #expect(focusedEntry(window) == .keywords)
    }

    @Test func aFieldTurnedOffLeavesTheFormAndFocusGoesOn() throws {
        let settings = folder + "/off.ini"
        #expect(CreditsFile.save(FormChoices(order: [.event], on: [.event]), to: settings) == nil)
        let (window, _) = try windowWithPhoto("off", settings: settings)
        defer { Harness.close(window) }
        #expect(window.form.view.layout.fields == [.title, .subtitle, .event], "the file's fields from the start")
        Harness.type(window.form.view.titleEntry, "Harbour")
        Harness.type(window.form.view.subtitleEntry, "Ferries")
        window.form.view.entry(.event).grabFocus()
        Harness.type(window.form.view.entry(.event), "Regatta")
        let preferences = try fieldsPage(window)
        #expect(focusName(preferences) == "Event")
        press(preferences, GDK_KEY_space)
        #expect(window.form.view.layout.fields == [.title, .subtitle])
        #expect(!window.form.view.entry(.event).isVisible)
        press(preferences, GDK_KEY_Escape)
        #expect(Harness.spin { window.window.isActive || window.preferences == nil })
        Harness.settle()
        // Nothing is ahead: focus is on the button, which saves.
        #expect(focusedEntry(window) == nil)
        #expect(window.form.view.activateButton.label == "Done")
        #expect(window.form.binding.words[.event] == "", "a field not shown is not saved")
    }

    @Test func aFieldTurnedOnShowsTheWordsOfTheEntryBeingEdited() throws {
        let window = try Harness.makeWindow(library: folder + "/edit")
        defer { Harness.close(window) }
        // A caption saved from the command line with a headline, opened for editing.
        var words = CaptionWords(title: "Harbour", subtitle: "Ferries")
        words[.headline] = "Crossing"
        let library = try Library(directory: window.library.location)
        let kept = try library.add(photoAt: Harness.makePhoto(in: folder, name: "edit.jpg"), words: words)
        window.form.edit(kept, photo: try #require(window.library.photoPath(of: kept)))
        Harness.settle()
        let preferences = try fieldsPage(window)
        press(preferences, GDK_KEY_space)
        #expect(window.form.view.entry(.headline).text == "Crossing")
        #expect(window.form.binding.words[.headline] == "Crossing")
        #expect(window.form.binding.engine.texts.contains("Crossing"), "the engine hears of the words shown")
    }

    @Test func aSettingsFileThatCannotBeWrittenIsSaid() throws {
        // A folder where the file should be: it cannot be replaced.
        let settings = folder + "/unwritable.ini"
        try FileManager.default.createDirectory(atPath: settings, withIntermediateDirectories: true)
        let (window, _) = try windowWithPhoto("unwritable", settings: settings)
        defer { Harness.close(window) }
        let preferences = try fieldsPage(window)
        press(preferences, GDK_KEY_space)
        #expect(!preferences.fieldsPage.status.text.isEmpty)
        #expect(window.form.view.layout.fields == [.title, .subtitle, .headline], "the form follows all the same")
    }

    /// A library whose captions name keywords, and a window on it with a photo, its offers
    /// read; `settings` chooses the form's fields.
    func windowOnKeywords(_ name: String, settings: String) throws -> CaptionWindow {
        let directory = folder + "/" + name
        let library = try Library(directory: directory)
        for (index, keywords) in ["harbour, ferry", "Harbour; dawn", "hills, harbour"].enumerated() {
            var words = CaptionWords(title: "Photo \(index)", subtitle: "Taken")
            words[.keywords] = keywords
            let photo = Harness.makePhoto(
                width: 60 + Int32(index), height: 40, in: folder, name: "\(name)-\(index).jpg")
            _ = try library.add(photoAt: photo, words: words)
        }
        let window = try Harness.makeWindow(library: directory, creditsFile: settings)
        #expect(Harness.spin { window.form.aids.completion.loaded }, "the offers were never read")
        let photo = Harness.makePhoto(width: 90, in: folder, name: name + ".jpg")
        Harness.waitForPhoto(window) { window.form.enqueue([photo]) }
        return window
    }

    func type(_ window: CaptionWindow, _ text: String) {
        for scalar in text.unicodeScalars {
            Harness.press(window, keyval: Int32(gdk_unicode_to_keyval(scalar.value)))
        }
    }

    @Test func keywordsAreOfferedOneAtATimeAfterTheLastComma() throws {
        let settings = folder + "/keywords.ini"
        #expect(CreditsFile.save(FormChoices(on: [.keywords]), to: settings) == nil)
        let window = try windowOnKeywords("keywords", settings: settings)
        defer { Harness.close(window) }
        window.form.view.entry(.keywords).grabFocus()
        Harness.settle()
        type(window, "ferry, ha")
        #expect(window.form.aids.completion.offers == ["harbour"], "each keyword once, not the whole list")
        Harness.press(window, keyval: GDK_KEY_Down)
        Harness.press(window, keyval: GDK_KEY_Return)
        #expect(window.form.view.entry(.keywords).text == "ferry, harbour", "only the keyword typed is completed")
        #expect(window.form.view.entry(.keywords).hasFocus, "Enter took the offer and did nothing else")
        // A keyword the field names already is not offered again.
        type(window, ", h")
        #expect(window.form.aids.completion.offers == ["hills"])
    }

    @Test func aFieldTurnedOnIsOfferedTheLibrarysWords() throws {
        let window = try windowOnKeywords("turned-on", settings: folder + "/turned-on.ini")
        defer { Harness.close(window) }
        #expect(window.form.aids.completion.indexes[.keywords] == nil, "a field not shown is not read")
        let preferences = try fieldsPage(window)
        press(preferences, GDK_KEY_Tab)
        #expect(focusName(preferences) == "Keywords")
        press(preferences, GDK_KEY_space)
        #expect(Harness.spin { window.form.aids.completion.indexes[.keywords] != nil }, "the library was not read")
        press(preferences, GDK_KEY_Escape)
        Harness.settle()
        window.form.view.entry(.keywords).grabFocus()
        Harness.settle()
        type(window, "da")
        #expect(window.form.aids.completion.offers == ["dawn"])
    }
}
