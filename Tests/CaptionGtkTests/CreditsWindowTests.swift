// The standing credits in the window: set by keys on the Preferences' Credits page, saved as
// typed, shown on one line under the fields (expanded for the photo on the form), and saved
// with each caption into the library and the photo.

import CGtk
import CaptionLibrary
import CaptionMetadata
import CaptionTestSupport
import CaptionText
import FocusEngine
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct CreditsWindowTests {
    let folder = Harness.temporaryDirectory("caption-credits")

    /// A photo taken in 2019, as its Exif says.
    func photo(_ name: String) throws -> String {
        let path = Harness.makePhoto(in: folder, name: name)
        let dated = try Tool.run(
            "exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2019:07:14 10:00:00", "-Make=Canon", path])
        try #require(dated.status == 0, "\(dated.stderr)")
        return path
    }

    func preferences(_ window: CaptionWindow) throws -> PreferencesWindow {
        window.activateAction("preferences")
        Harness.settle()
        return try #require(window.preferences)
    }

    func press(_ preferences: PreferencesWindow, _ keyval: Int32, _ state: GdkModifierType = GdkModifierType(0)) {
        Harness.press(toplevel: preferences.window.pointer, keyval: keyval, state: state)
    }

    /// Types into the focused field of the Preferences window, then Enter.
    func type(_ preferences: PreferencesWindow, _ text: String) throws {
        let focus = try #require(preferences.window.focus)
        Harness.type(TextEntry(unchecked: focus.pointer), text)
        press(preferences, GDK_KEY_Return)
    }

    @Test func theCreditsAreSetByKeysSavedAsTypedAndShownUnderTheFields() throws {
        let credits = folder + "/keys.ini"
        let window = try Harness.makeWindow(library: folder + "/keys", creditsFile: credits)
        defer { gtk_widget_destroy(window.widget) }
        #expect(!window.form.view.credits.isVisible, "no line while no credits are set")
        let path = try photo("keys.jpg")
        Harness.waitForPhoto(window) { window.openPhoto(path) }

        let preferences = try preferences(window)
        press(preferences, GDK_KEY_Page_Down, GDK_CONTROL_MASK)
        #expect(preferences.isShowingCredits)
        #expect(preferences.window.focus?.accessibleName == "Creator")
        try type(preferences, "Ana Lima")
        #expect(preferences.window.focus?.accessibleName == "Credit line", "Enter goes on to the next credit")
        try type(preferences, "Agência Lusa")
        try type(preferences, "© {year} Ana Lima")
        #expect(preferences.window.focus?.accessibleName == "Source")
        for _ in 0..<4 { press(preferences, GDK_KEY_Return) }
        #expect(
            preferences.window.focus?.id == preferences.creditsPage.replaceButton.id,
            "after the last credit, the choice")
        #expect(
            preferences.creditsPage.replaceButton.accessibleDescription.hasPrefix(
                "A photo that already names its Creator"))

        #expect(
            Harness.spin { CreditsFile.read(credits).credits[.copyright] == "© {year} Ana Lima" },
            "saved once typing pauses, as typed")
        #expect(CreditsFile.read(credits).credits[.creator] == "Ana Lima")
        #expect(window.form.view.credits.isVisible)
        #expect(window.form.view.credits.text == "Credits: Ana Lima · Agência Lusa · © 2019 Ana Lima")
        #expect(
            window.form.view.credits.accessibleDescription.hasPrefix("Creator: Ana Lima\nCredit line: Agência Lusa"))

        // The choice is saved at once.
        gtk_button_clicked(caption_button(preferences.creditsPage.replaceButton.pointer))
        #expect(CreditsFile.read(credits).credits.replacesPhotos)
        #expect(window.form.standingCredits.template.replacesPhotos)

        // A variable Caption does not know is said at once; the photo's line says it is left out.
        press(preferences, GDK_KEY_Page_Up, GDK_CONTROL_MASK)
        press(preferences, GDK_KEY_Page_Down, GDK_CONTROL_MASK)
        let source = try #require(preferences.creditsPage.fields[.source])
        source.grabFocus()
        Harness.type(source, "{desk}")
        #expect(preferences.creditsPage.status.text.hasPrefix("Unknown variable {desk} in Source"))
        preferences.creditsPage.saveNow()
        #expect(
            window.form.view.credits.text.hasSuffix(
                "(Source left out: this photo has no value for a variable in them)"))
        // Ctrl+Z in a credit's field is the field's own, not the codes' undo.
        press(preferences, GDK_KEY_z, GDK_CONTROL_MASK)
        #expect(preferences.message != "Nothing to undo")
        preferences.close()
    }

    /// The choice is kept in the credits' file, beside them, so the command line follows it
    /// too; the window's writes follow it from the next one on.
    @Test func theIIMChoiceIsOnByDefaultAndSavedWhenTurnedOff() throws {
        let credits = folder + "/iim.ini"
        let window = try Harness.makeWindow(library: folder + "/iim", creditsFile: credits)
        defer { gtk_widget_destroy(window.widget) }
        let preferences = try preferences(window)
        // Another test's writes must not see this one's choice: it is taken here instead.
        var chosen: [WritingChoices] = []
        preferences.creditsPage.onWritingChoicesChange = { chosen.append($0) }
        press(preferences, GDK_KEY_Page_Down, GDK_CONTROL_MASK)
        #expect(preferences.creditsPage.iimButton.isActive, "on by default")
        #expect(
            preferences.creditsPage.iimButton.accessibleDescription
                == "IPTC-IIM is added to JPEG and TIFF photos that have none.")
        // Its mnemonic reaches it from the keyboard, and turns it off.
        press(preferences, GDK_KEY_i, GDK_MOD1_MASK)
        #expect(preferences.window.focus?.id == preferences.creditsPage.iimButton.id)
        #expect(!preferences.creditsPage.iimButton.isActive)
        #expect(chosen == [WritingChoices(addsIIM: false)])
        #expect(CreditsFile.writingChoices(credits) == WritingChoices(addsIIM: false))
        #expect(
            preferences.creditsPage.iimButton.accessibleDescription
                == "IPTC-IIM is written only where a photo already has it.")
        #expect(try String(contentsOfFile: credits, encoding: .utf8).contains("[writing]\niim_for_older_systems=false"))

        // The place from GPS: off at first, on by Alt+G, said, saved beside the IIM choice.
        #expect(!preferences.creditsPage.placeButton.isActive, "off by default")
        press(preferences, GDK_KEY_g, GDK_MOD1_MASK)
        #expect(preferences.window.focus?.id == preferences.creditsPage.placeButton.id)
        #expect(preferences.creditsPage.placeButton.isActive)
        #expect(chosen.last == WritingChoices(addsIIM: false, placeFromGPS: true))
        #expect(CreditsFile.writingChoices(credits) == WritingChoices(addsIIM: false, placeFromGPS: true))
        #expect(
            preferences.creditsPage.placeButton.accessibleDescription.hasPrefix(
                "An unset City, Country and country code"))
        preferences.close()
    }

    @Test func aSavedCaptionCarriesTheCreditsIntoTheLibraryAndThePhoto() throws {
        let creditsFile = folder + "/save.ini"
        var standing = Credits([.creator: "Ana Lima", .copyright: "© {year} Ana Lima", .countryCode: "PT"])
        standing.replacesPhotos = false
        #expect(CreditsFile.save(standing, to: creditsFile) == nil)
        let window = try Harness.makeWindow(library: folder + "/save", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        g_action_group_activate_action(
            caption_action_group(window.actionGroup), DestinationChoice.actionName,
            g_variant_new_string(DestinationChoice.word(.photo)))
        let path = try photo("save.jpg")
        // The photo names its own creator, the same person as the credits: kept as it is
        // written there, and her copyright goes in.
        let own = try Tool.run("exiftool", ["-q", "-overwrite_original", "-XMP-dc:Creator=ANA LIMA", path])
        try #require(own.status == 0)
        Harness.waitForPhoto(window) { window.openPhoto(path) }
        #expect(window.form.view.credits.text == "Credits: Ana Lima · © 2019 Ana Lima · PT")
        for field in CaptionForm.Layout.window.fields {
            gtk_entry_set_text(caption_entry(window.form.view.entry(field).pointer), "Harbour \(field.rawValue)")
        }
        Harness.settle()
        var written: Result<WriteBackResult, WriteBackError>?
        window.form.writer.onWritten = { written = $0 }
        window.activateAction("save")
        #expect(Harness.spin { written != nil }, "the write-back never finished")
        let entry = try #require(try Library(directory: folder + "/save").entries().first)
        var expected = Credits([.creator: "Ana Lima", .copyright: "© 2019 Ana Lima", .countryCode: "PT"])
        expected.replacesPhotos = false
        #expect(entry.credits == expected, "the library keeps the credits as they went in, {year} expanded")
        let seen = try Tool.run("exiftool", ["-j", "-XMP-dc:Creator", "-XMP-dc:Rights", "-IFD0:Copyright", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(seen.stdout.utf8)) as? [[String: Any]])
        #expect(object.first?["Creator"] as? String == "ANA LIMA")
        #expect(object.first?["Rights"] as? String == "© 2019 Ana Lima")
        #expect(object.first?["Copyright"] as? String == "© 2019 Ana Lima")
    }

    /// Another photographer's picture on the desk: its creator stays, the desk's copyright
    /// does not go under their name, and the form says so once, as the photo arrives.
    @Test func anotherCreatorsPhotoIsToldAndKeepsItsAuthorship() throws {
        let creditsFile = folder + "/other.ini"
        #expect(
            CreditsFile.save(
                Credits([.creator: "Ana Lima", .copyright: "© {year} Ana Lima", .city: "Porto"]), to: creditsFile)
                == nil)
        let window = try Harness.makeWindow(library: folder + "/other", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        g_action_group_activate_action(
            caption_action_group(window.actionGroup), DestinationChoice.actionName,
            g_variant_new_string(DestinationChoice.word(.photo)))
        let path = try photo("rui.jpg")
        let theirs = try Tool.run(
            "exiftool", ["-q", "-overwrite_original", "-XMP-dc:Creator=Rui Costa", "-IPTC:By-line=Rui Costa", path])
        try #require(theirs.status == 0)
        var told: [String] = []
        window.notification.onShown = { told.append($0) }
        Harness.waitForPhoto(window) { window.openPhoto(path) }
        let note = "This photo is Rui Costa's: your credits of authorship (Copyright notice) are not written into it"
        #expect(Harness.spin { told.contains(note) }, "told: \(told)")
        #expect(
            window.form.view.credits.text
                == "Credits: Ana Lima · © 2019 Ana Lima · Porto (Copyright notice left out: this photo is Rui Costa's)")
        for field in CaptionForm.Layout.window.fields {
            gtk_entry_set_text(caption_entry(window.form.view.entry(field).pointer), "Harbour \(field.rawValue)")
        }
        Harness.settle()
        #expect(told.filter { $0 == note }.count == 1, "said once: \(told)")
        var written: Result<WriteBackResult, WriteBackError>?
        window.form.writer.onWritten = { written = $0 }
        window.activateAction("save")
        #expect(Harness.spin { written != nil }, "the write-back never finished")
        let seen = try Tool.run("exiftool", ["-j", "-XMP-dc:Creator", "-XMP-dc:Rights", "-XMP-photoshop:City", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(seen.stdout.utf8)) as? [[String: Any]])
        #expect(object.first?["Creator"] as? String == "Rui Costa")
        #expect(object.first?["Rights"] == nil, "no copyright notice under another creator's name")
        #expect(object.first?["City"] as? String == "Porto", "the place is the desk's to give")
    }

    @Test func creditsThatCannotBeReadAreSaidAndNotWritten() throws {
        let creditsFile = folder + "/broken.ini"
        try Data([0x63, 0x3D, 0x00, 0xFF]).write(to: URL(fileURLWithPath: creditsFile))
        let window = try Harness.makeWindow(library: folder + "/broken", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        #expect(window.form.view.credits.isVisible)
        #expect(window.form.view.credits.text.hasPrefix("The standing credits cannot be read"))
        #expect(window.form.standingCredits.template.isEmpty && window.form.standingCredits.problem != nil)
    }
}
