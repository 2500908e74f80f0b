// The window and the words photos carry: a photo captioned elsewhere fills the form, marked
// as the photo's, without ever replacing what the user typed; Export writes every entry.

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
@Suite(.serialized) struct MetadataWindowTests {
    let folder = Harness.temporaryDirectory("caption-metadata-window")
    var library: String { folder + "/library" }

    func makeWindow() throws -> CaptionWindow {
        try Harness.makeWindow(library: library, stateFile: folder + "/window.ini")
    }

    /// A JPEG captioned by Debian's exiftool, as another photo application would leave it.
    func photo(_ name: String, title: String?, description: String?) throws -> String {
        let path = Harness.makePhoto(in: folder, name: name)
        var arguments = ["-q", "-overwrite_original"]
        if let title { arguments.append("-XMP-dc:Title=" + title) }
        if let description { arguments.append("-XMP-dc:Description=" + description) }
        guard arguments.count > 2 else { return path }
        let exiftool = try Process.run(URL(fileURLWithPath: "/usr/bin/exiftool"), arguments: arguments + [path])
        exiftool.waitUntilExit()
        try #require(exiftool.terminationStatus == 0, "exiftool could not caption \(path)")
        return path
    }

    func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_entry_get_text(caption_entry(entry)))
    }

    func open(_ window: CaptionWindow, _ path: String) {
        var settled = false
        window.form.onPhotoSettled = { settled = true }
        window.form.openPhoto(path)
        #expect(Harness.spin { settled }, "the photo never finished loading")
        window.form.onPhotoSettled = nil
    }

    func iconTooltip(_ entry: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard let tooltip = gtk_entry_get_icon_tooltip_text(caption_entry(entry), GTK_ENTRY_ICON_SECONDARY) else {
            return nil
        }
        defer { g_free(tooltip) }
        return String(cString: tooltip)
    }

    @Test func aPhotoCaptionedByExiftoolOpensWithItsWordsMarkedAsThePhotos() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let path = try photo("captioned.jpg", title: "港口 🌅 <b>&amp;", description: "Boats at dusk")
        open(window, path)
        #expect(
            Harness.spin {
                text(window.form.view.titleEntry.pointer) == "港口 🌅 <b>&amp;"
                    && text(window.form.view.subtitleEntry.pointer) == "Boats at dusk"
            })
        for (item, entry) in [
            (CaptionField.title, window.form.view.titleEntry.pointer),
            (CaptionField.subtitle, window.form.view.subtitleEntry.pointer),
        ] {
            #expect(window.form.photoWords.showsWordsFromPhoto(item))
            #expect(iconTooltip(entry) == "From the photo's XMP metadata")
            #expect(gtk_entry_get_icon_name(caption_entry(entry), GTK_ENTRY_ICON_SECONDARY) != nil)
        }
        // The engine has them as typed words: the form is complete and saving keeps them.
        #expect(window.form.engine.summary == nil)
        var saved: Entry?
        window.form.onSaved = { saved = $0 }
        window.activateAction("save")
        #expect(Harness.spin { saved != nil })
        #expect(saved?.title == "港口 🌅 <b>&amp;")
        #expect(saved?.subtitle == "Boats at dusk")
        // The form empties for the next photo, and the marks go with the words.
        #expect(!window.form.photoWords.showsWordsFromPhoto(.title))
        #expect(
            gtk_entry_get_icon_name(caption_entry(window.form.view.titleEntry.pointer), GTK_ENTRY_ICON_SECONDARY) == nil
        )
    }

    @Test func aSidecarBesideThePhotoWinsAndTheMarkNamesIt() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let path = try photo("sided.jpg", title: "Old inside", description: "Old words")
        let sidecar = PhotoMetadata.sidecar(CaptionWords(title: "From darktable", subtitle: "Newer words"))
        #expect(FileManager.default.createFile(atPath: path + ".xmp", contents: Data(sidecar.utf8)))
        open(window, path)
        #expect(Harness.spin { text(window.form.view.titleEntry.pointer) == "From darktable" })
        #expect(text(window.form.view.subtitleEntry.pointer) == "Newer words")
        #expect(iconTooltip(window.form.view.titleEntry.pointer) == "From the sidecar sided.jpg.xmp")
    }

    @Test func changingTheWordsFromThePhotoTakesItsMarkAway() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        open(window, try photo("change.jpg", title: "Harbour", description: "Boats"))
        #expect(Harness.spin { window.form.photoWords.showsWordsFromPhoto(.subtitle) })
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Harbour at night")
        Harness.settle()
        #expect(!window.form.photoWords.showsWordsFromPhoto(.title))
        #expect(iconTooltip(window.form.view.titleEntry.pointer) == nil)
        #expect(window.form.photoWords.showsWordsFromPhoto(.subtitle))
    }

    @Test func wordsTheUserTypedAreNeverReplacedByThePhotos() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        gtk_entry_set_text(caption_entry(window.form.view.titleEntry.pointer), "Typed first")
        Harness.settle()
        open(window, try photo("typed.jpg", title: "From the photo", description: "Also from the photo"))
        #expect(Harness.spin { text(window.form.view.subtitleEntry.pointer) == "Also from the photo" })
        #expect(text(window.form.view.titleEntry.pointer) == "Typed first")
        #expect(!window.form.photoWords.showsWordsFromPhoto(.title))
    }

    @Test func anotherPhotoTakesAwayThePreviousPhotosWordsButNotTheUsers() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        open(window, try photo("first.jpg", title: "First", description: "First words"))
        #expect(Harness.spin { text(window.form.view.subtitleEntry.pointer) == "First words" })
        gtk_entry_set_text(caption_entry(window.form.view.subtitleEntry.pointer), "Mine")
        Harness.settle()
        open(window, try photo("second.jpg", title: "Second", description: nil))
        #expect(Harness.spin { text(window.form.view.titleEntry.pointer) == "Second" })
        #expect(text(window.form.view.subtitleEntry.pointer) == "Mine")
        open(window, try photo("bare.jpg", title: nil, description: nil))
        #expect(
            Harness.spin { text(window.form.view.titleEntry.pointer).isEmpty }, "the second photo's title went with it")
        #expect(text(window.form.view.subtitleEntry.pointer) == "Mine")
    }

    @Test func aPhotoWithDamagedMetadataStillOpensWithAnEmptyForm() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let good = Array(
            FileManager.default.contents(atPath: Harness.makePhoto(in: folder, name: "good.jpg")) ?? Data())
        let payload = Array("http://ns.adobe.com/xap/1.0/\u{0}<x:xmpmeta garbage <<<&&&".utf8)
        let segment: [UInt8] = [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload
        let path = folder + "/damaged.jpg"
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(Array(good[0..<2]) + segment + Array(good[2...])))
        open(window, path)
        // Proves the damaged metadata puts nothing on the form: the photo's words are read
        // just after its frame is drawn, well within these 300 ms.
        Harness.pump(milliseconds: 300)
        #expect(window.form.engine.message(for: 0) == nil, "the photo itself is fine")
        #expect(text(window.form.view.titleEntry.pointer).isEmpty)
    }

    @Test func exportWritesEveryEntryWithItsCaptionIntoTheChosenFolder() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let group = try #require(gtk_widget_get_action_group(window.widget, "win"))
        #expect(g_action_group_has_action(group, "export") != 0)
        let opened = try Library(directory: library)
        _ = try opened.add(
            photoAt: Harness.makePhoto(in: folder, name: "a.jpg"),
            words: CaptionWords(title: "Harbour", subtitle: "Boats"))
        _ = try opened.add(
            photoAt: Harness.makePhoto(in: folder, name: "b.jpg", noise: true),
            words: CaptionWords(title: "Harbour", subtitle: "Again"))
        let out = folder + "/exported"
        var outcome: Result<Exporter.Summary, LibraryError>?
        window.export.exportAll(to: out) { outcome = $0 }
        #expect(Harness.spin { outcome != nil })
        #expect(try outcome?.get() == Exporter.Summary(exported: 2, total: 2, cancelled: false))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["Harbour (2).jpg", "Harbour.jpg"])
        #expect(
            PhotoMetadata.read(out + "/Harbour (2).jpg")
                == PhotoCaption(CaptionWords(title: "Harbour", subtitle: "Again")))
        #expect(window.notification.text == "2 photos exported to “exported”")
    }

    @Test func exportGoesOnPastAPhotoTheLibraryLostAndNamesItInTheNotification() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let opened = try Library(directory: library)
        let lost = try opened.add(
            photoAt: Harness.makePhoto(in: folder, name: "a.jpg"), words: CaptionWords(title: "Lost", subtitle: "x"))
        _ = try opened.add(
            photoAt: Harness.makePhoto(in: folder, name: "b.jpg", noise: true),
            words: CaptionWords(title: "Kept", subtitle: "y"))
        #expect(unlink(library + "/" + lost.photo) == 0)
        let out = folder + "/exported"
        var outcome: Result<Exporter.Summary, LibraryError>?
        window.export.exportAll(to: out) { outcome = $0 }
        #expect(Harness.spin { outcome != nil })
        let summary = try #require(try outcome?.get())
        #expect(summary.exported == 1 && summary.missing.map(\.id) == [lost.id])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["Kept.jpg"])
        #expect(
            window.notification.text
                == "Exported to “exported”: 1 of 2 photos; 1 could not be read from the library (entries \(lost.id))")
    }

    @Test func exportLeavesOutAPhotoThatWouldCarryItsOldCaptionAndSaysSo() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        let opened = try Library(directory: library)
        // IIM in JIS (ESC $ B), which Caption does not convert: its old title cannot be replaced.
        let jis = Harness.makePhoto(in: folder, name: "jis.jpg")
        let tagging = try Tool.run(
            "exiftool",
            ["-q", "-overwrite_original", "-IPTC:CodedCharacterSet=ESC $ B", "-IPTC:ObjectName=OLD TITLE", jis])
        try #require(tagging.status == 0, "exiftool: \(tagging.stderr)")
        let refused = try opened.add(photoAt: jis, words: CaptionWords(title: "New", subtitle: "x"))
        _ = try opened.add(
            photoAt: Harness.makePhoto(in: folder, name: "k.jpg", noise: true),
            words: CaptionWords(title: "Kept", subtitle: "y"))
        let out = folder + "/exported"
        var outcome: Result<Exporter.Summary, LibraryError>?
        window.export.exportAll(to: out) { outcome = $0 }
        #expect(Harness.spin { outcome != nil })
        let summary = try #require(try outcome?.get())
        #expect(summary.missing.map(\.id) == [refused.id] && summary.missing.first?.problem.kind == .oldCaptionInside)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["Kept.jpg"])
        #expect(
            window.notification.text
                == "Exported to “exported”: 1 of 2 photos; 1 left out, holding an old caption Caption cannot replace (entries \(refused.id))"
        )
    }

    @Test func exportIntoAFolderThatCannotBeUsedSaysSoInTheMessageBar() throws {
        let window = try makeWindow()
        defer { gtk_widget_destroy(window.widget) }
        _ = try Library(directory: library).add(
            photoAt: Harness.makePhoto(in: folder, name: "c.jpg"), words: CaptionWords(title: "T", subtitle: "S"))
        let notAFolder = folder + "/plain-file"
        _ = FileManager.default.createFile(atPath: notAFolder, contents: Data("x".utf8))
        var outcome: Result<Exporter.Summary, LibraryError>?
        window.export.exportAll(to: notAFolder) { outcome = $0 }
        #expect(Harness.spin { outcome != nil })
        #expect(window.messages.text == "The export folder cannot be used (Not a directory): \(notAFolder)")
    }
}
