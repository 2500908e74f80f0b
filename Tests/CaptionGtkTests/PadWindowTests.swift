// Stationery pads in the window: chosen by Ctrl+digit or the primary menu's radio items,
// shown under the fields, said in the notification, saved with each caption, edited on
// Preferences' Credits page, and a key without its pad said rather than ignored.

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
@Suite(.serialized) struct PadWindowTests {
    let folder = Harness.temporaryDirectory("caption-pads")

    /// A credits file holding the user's own credits, with two pads beside it: one an
    /// agency's template made by exiftool, one written by Caption.
    func settings(_ name: String) throws -> String {
        let creditsFile = folder + "/" + name + "/credits.ini"
        #expect(CreditsFile.save(Credits([.creator: "Own Name"]), to: creditsFile) == nil)
        let pads = StationeryPads.folder(besides: creditsFile)
        #expect(StationeryPads.save(Credits([.creator: "Rui Costa"]), as: "Freelance", in: pads) == nil)
        let made = try Tool.run(
            "exiftool",
            [
                "-q", "-o", pads + "/Lusa.xmp", "-XMP-dc:Creator=Ana Lima", "-XMP-photoshop:Credit=Agência Lusa",
                "-XMP-photoshop:Headline=Match day",
            ])
        try #require(made.status == 0, "\(made.stderr)")
        return creditsFile
    }

    @Test func aKeyChoosesAPadWhoseCreditsAreShownSaidAndSavedWithTheCaption() throws {
        let creditsFile = try settings("keys")
        let window = try Harness.makeWindow(library: folder + "/keys-library", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        var told: [String] = []
        window.notification.onShown = { told.append($0) }
        let path = Harness.makePhoto(in: folder, name: "keys.jpg")
        Harness.waitForPhoto(window) { window.openPhoto(path) }
        #expect(window.form.view.credits.text == "Credits: Own Name")
        window.activateAction(PadChoice.keyActionName(2))
        let line = "Stationery pad “Lusa”: Ana Lima · Agência Lusa · Headline: Match day"
        #expect(window.pads.names == ["Freelance", "Lusa"], "read as the key asks for one")
        #expect(window.pads.current == "Lusa")
        #expect(window.form.view.credits.text == line)
        #expect(window.form.view.credits.accessibleDescription.hasPrefix("Stationery pad: Lusa\nCreator: Ana Lima"))
        #expect(told == [line], "said once, at once")
        #expect(CreditsFile.read(creditsFile).pad == "Lusa", "the command line follows the choice")
        #expect(Harness.focusedWidget(window) == window.form.view.titleEntry.pointer, "the keyboard stays in the field")

        // The menu's first item: no pad, the standing credits again; then the pad again.
        g_action_group_activate_action(
            caption_action_group(window.actionGroup), PadChoice.actionName, g_variant_new_string(PadChoice.noPad))
        #expect(window.form.view.credits.text == "Credits: Own Name")
        #expect(told.last == "No stationery pad. Credits: Own Name")
        #expect(CreditsFile.read(creditsFile).pad == nil)
        window.activateAction(PadChoice.keyActionName(2))

        for field in CaptionForm.Layout.window.fields {
            gtk_entry_set_text(caption_entry(window.form.view.entry(field).pointer), "Goal \(field.rawValue)")
        }
        Harness.settle()
        window.activateAction("save")
        #expect(Harness.spin { !window.form.isSaving })
        window.library.drain()
        let entry = try #require(try Library(directory: folder + "/keys-library").entries().first)
        #expect(entry.credits[.creditLine] == "Agência Lusa")
        #expect(entry.credits[.creator] == "Ana Lima")
        #expect(entry.credits.pad == "Lusa", "the entry keeps the pad its credits came from")
        #expect(entry.words[.headline] == "Match day", "a field the caption leaves empty takes the pad's words")
    }

    @Test func aKeyWithoutItsPadIsSaidAndChangesNothing() throws {
        let creditsFile = try settings("missing")
        let window = try Harness.makeWindow(library: folder + "/missing-library", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        var told: [String] = []
        window.notification.onShown = { told.append($0) }
        window.activateAction(PadChoice.keyActionName(3))
        #expect(told == ["There is no stationery pad 3: there are 2"])
        #expect(window.pads.current == nil)
        #expect(window.form.view.credits.text == "Credits: Own Name")
    }

    @Test func aPadAddedWhileTheWindowIsOpenIsInTheMenuAndUnderItsKey() throws {
        let creditsFile = try settings("added")
        let window = try Harness.makeWindow(library: folder + "/added-library", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        #expect(
            StationeryPads.save(
                Credits([.creditLine: "AFP"]), as: "Agence", in: StationeryPads.folder(besides: creditsFile)) == nil)
        window.menuButton.isActive = true
        Harness.settle()
        let popover = try #require(window.menuButton.popover)
        let labels = popover.descendants(ofType: "GtkModelButton").map(\.accessibleName)
        #expect(
            labels.starts(with: [
                "In Caption's Library Only", "Also in the Photo File", "Also in an XMP Sidecar Beside the Photo",
                "No Pad", "1 Agence", "2 Freelance", "3 Lusa",
            ]),
            "\(labels)")
        let radios = popover.descendants(ofType: "GtkModelButton").filter {
            atk_object_get_role($0.accessible) == ATK_ROLE_RADIO_MENU_ITEM
        }
        #expect(radios.count == 7, "the pads are radio items, as where captions go")
        window.menuButton.isActive = false
        window.activateAction(PadChoice.keyActionName(1))
        #expect(window.form.view.credits.text == "Stationery pad “Agence”: AFP")
    }

    @Test func preferencesEditsThePadInUseAndLeavesTheStandingCreditsAlone() throws {
        let creditsFile = try settings("preferences")
        #expect(CreditsFile.usePad("Freelance", in: creditsFile) == nil)
        let window = try Harness.makeWindow(library: folder + "/preferences-library", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        #expect(window.form.view.credits.text == "Stationery pad “Freelance”: Rui Costa")
        window.activateAction("preferences")
        Harness.settle()
        let preferences = try #require(window.preferences)
        #expect(preferences.creditsPage.heading.text == "Stationery Pad “Freelance”")
        let city = try #require(preferences.creditsPage.fields[.city])
        city.text = "Porto"
        preferences.creditsPage.saveNow()
        let pads = StationeryPads.folder(besides: creditsFile)
        #expect(
            try StationeryPads.credits(of: "Freelance", in: pads).get()
                == Credits([.creator: "Rui Costa", .city: "Porto"]))
        #expect(CreditsFile.read(creditsFile).credits == Credits([.creator: "Own Name"]))
        #expect(window.form.view.credits.text == "Stationery pad “Freelance”: Rui Costa · Porto")
        preferences.close()
    }

    func openCreditsPage(_ window: CaptionWindow) throws -> PreferencesWindow {
        window.activateAction("preferences")
        Harness.settle()
        let preferences = try #require(window.preferences)
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_Page_Down, state: GDK_CONTROL_MASK)
        #expect(preferences.isShowingCredits)
        return preferences
    }

    @Test func aNewPadIsNamedInPlaceStartsAsACopyAndIsThenTheOneEdited() throws {
        let creditsFile = try settings("new")
        let window = try Harness.makeWindow(library: folder + "/new-library", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        let preferences = try openCreditsPage(window)
        let row = preferences.creditsPage.padRow
        #expect(row.list.activeID == "", "no pad in use: the standing credits")
        gtk_button_clicked(caption_button(row.newButton.pointer))
        #expect(row.isNaming)
        #expect(preferences.window.focus?.id == row.nameField.id)
        // Escape ends the naming, not the window.
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_Escape)
        #expect(!row.isNaming)
        #expect(!preferences.isClosed)
        #expect(preferences.window.focus?.id == row.newButton.id)

        gtk_button_clicked(caption_button(row.newButton.pointer))
        for (typed, said) in [
            ("Lusa", "There is a stationery pad “Lusa” already"), ("a/b", "A stationery pad's name cannot hold “/”"),
        ] {
            row.nameField.text = typed
            Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_Return)
            #expect(preferences.message == said)
            #expect(row.isNaming, "still naming: the name can be mended")
        }
        row.nameField.text = " AP Sports "
        Harness.press(toplevel: preferences.window.pointer, keyval: GDK_KEY_Return)
        #expect(preferences.message == "Stationery pad “AP Sports” made and in use")
        let pads = StationeryPads.folder(besides: creditsFile)
        #expect(try StationeryPads.credits(of: "AP Sports", in: pads).get() == Credits([.creator: "Own Name"]))
        #expect(window.pads.current == "AP Sports")
        #expect(row.list.activeID == "AP Sports")
        #expect(preferences.creditsPage.heading.text == "Stationery Pad “AP Sports”")

        let city = try #require(preferences.creditsPage.fields[.city])
        city.text = "Porto"
        preferences.creditsPage.saveNow()
        #expect(
            try StationeryPads.credits(of: "AP Sports", in: pads).get()
                == Credits([.creator: "Own Name", .city: "Porto"]))
        #expect(CreditsFile.read(creditsFile).credits == Credits([.creator: "Own Name"]), "the standing ones kept")
        preferences.close()
    }

    @Test func choosingAPadOnTheCreditsPageSavesWhatWasTypedIntoTheOneBefore() throws {
        let creditsFile = try settings("list")
        let window = try Harness.makeWindow(library: folder + "/list-library", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        let preferences = try openCreditsPage(window)
        let creator = try #require(preferences.creditsPage.fields[.creator])
        creator.text = "Own Name Jr"
        preferences.creditsPage.padRow.list.activeID = "Lusa"
        #expect(CreditsFile.read(creditsFile).credits[.creator] == "Own Name Jr", "saved before the switch")
        #expect(window.pads.current == "Lusa")
        #expect(creator.text == "Ana Lima", "the page shows the pad's credits")
        #expect(try #require(preferences.creditsPage.fields[.creditLine]).text == "Agência Lusa")
        #expect(preferences.creditsPage.heading.text == "Stationery Pad “Lusa”")
        #expect(window.form.view.credits.text == "Stationery pad “Lusa”: Ana Lima · Agência Lusa · Headline: Match day")
        #expect(
            try StationeryPads.credits(of: "Lusa", in: StationeryPads.folder(besides: creditsFile)).get()[.creator]
                == "Ana Lima", "showing a pad is no edit of it")
        preferences.creditsPage.padRow.list.activeID = ""
        #expect(window.pads.current == nil)
        #expect(creator.text == "Own Name Jr")
        #expect(preferences.creditsPage.heading.text == "Standing Credits")
        preferences.close()
    }

    @Test func creditsTypedAndNotYetSavedStayWithTheirPadWhenAKeyChoosesAnother() throws {
        let creditsFile = try settings("typed")
        let window = try Harness.makeWindow(library: folder + "/typed-library", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        let preferences = try openCreditsPage(window)
        let city = try #require(preferences.creditsPage.fields[.city])
        city.text = "Porto"
        window.activateAction(PadChoice.keyActionName(2))
        #expect(CreditsFile.read(creditsFile).credits == Credits([.creator: "Own Name", .city: "Porto"]))
        #expect(window.form.view.credits.text == "Stationery pad “Lusa”: Ana Lima · Agência Lusa · Headline: Match day")
        #expect(city.text == "", "the page shows the pad's credits")
        #expect(preferences.creditsPage.heading.text == "Stationery Pad “Lusa”")
        preferences.close()
    }

    @Test func aTemplateIsImportedAsAPadAndAFileThatIsNoneIsSaid() throws {
        let creditsFile = try settings("import")
        let window = try Harness.makeWindow(library: folder + "/import-library", creditsFile: creditsFile)
        defer { gtk_widget_destroy(window.widget) }
        let preferences = try openCreditsPage(window)
        let junk = folder + "/junk.xmp"
        #expect(FileManager.default.createFile(atPath: junk, contents: Data("no XMP".utf8)))
        preferences.creditsPage.padRow.importFile(junk)
        #expect(preferences.message == "The file cannot be a stationery pad (it is not an XMP file): \(junk)")
        #expect(window.pads.current == nil)

        let template = folder + "/Reuters Sport.xmp"
        let made = try Tool.run(
            "exiftool", ["-q", "-o", template, "-XMP-photoshop:Credit=Reuters", "-XMP-photoshop:Source=Reuters"])
        try #require(made.status == 0, "\(made.stderr)")
        preferences.creditsPage.padRow.importFile(template)
        #expect(preferences.message == "Stationery pad “Reuters Sport” imported and in use")
        #expect(window.pads.current == "Reuters Sport")
        #expect(try #require(preferences.creditsPage.fields[.creditLine]).text == "Reuters")
        #expect(preferences.creditsPage.padRow.list.activeID == "Reuters Sport")
        preferences.close()
    }
}
