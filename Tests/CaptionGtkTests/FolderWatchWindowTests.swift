// A watched folder, with GIO's real monitor on a real folder: photos written slowly join the
// queue once whole, once each, in capture order, without touching what is being typed;
// what is no photo, cut short or captioned already is passed over without a word; the watch
// comes back after a restart and goes when stopped. Photos made by ImageMagick and exiftool.

import CGtk
import CaptionLibrary
import CaptionQueue
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct FolderWatchWindowTests {
    let folder = Harness.temporaryDirectory("caption-watch")

    /// A photo made outside the watched folder, so that it arrives only when written there.
    func makePhoto(_ name: String, taken: String? = nil, size: String = "1200x800") throws -> String {
        let path = folder + "/made-" + name
        let made = try Tool.run("convert", ["-size", size, "plasma:", "-quality", "92", path])
        try #require(made.status == 0, "convert: \(made.stderr)")
        if let taken {
            let tagged = try Tool.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(taken)", path])
            try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        }
        return path
    }

    /// A folder to watch, apart from the libraries (which live in `folder`/NAME).
    func makeFolder(_ name: String) -> String {
        let path = folder + "/watched/" + name
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `source` to `target` in `chunks` pieces, the file open throughout, turning
    /// the main loop for `pause` seconds between them; returns the moment it was closed.
    func writeSlowly(_ source: String, to target: String, chunks: Int = 4, pause: Double = 0.4) throws -> Date {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        _ = FileManager.default.createFile(atPath: target, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: target))
        let piece = (bytes.count + chunks - 1) / chunks
        for start in stride(from: 0, to: bytes.count, by: piece) {
            try handle.write(contentsOf: bytes[start..<min(bytes.count, start + piece)])
            // The pace of a slow upload: the watch sees the file grow between pieces, and a
            // watch that took it before it was whole would do so in one of these pauses.
            Harness.pump(milliseconds: Int(pause * 1000))
        }
        try handle.close()
        return Date()
    }

    /// A window with a photo on the form and the Title field holding words, watching `watched`.
    func watchingWindow(_ watched: String, library: String, subfolders: Bool = false) throws -> CaptionWindow {
        let window = try Harness.makeWindow(library: folder + "/" + library, stateFile: folder + "/\(library).ini")
        Harness.waitForPhoto(window) {
            window.form.enqueue([Harness.makePhoto(in: folder, name: "\(library)-on-form.jpg")])
        }
        #expect(window.startWatching(WatchSetting(folder: watched, subfolders: subfolders)))
        return window
    }

    @Test func aPhotoWrittenSlowlyJoinsOnceWholeAndTypingGoesOn() throws {
        let watched = makeFolder("slow")
        let window = try watchingWindow(watched, library: "slow")
        defer { Harness.close(window) }
        let title = window.form.view.titleEntry
        title.grabFocus()
        Harness.type(title, "Half typed")
        var taken: [(String, Date)] = []
        window.watch.onSettled = { path, verdict in if verdict == .taken { taken.append((path, Date())) } }
        var announced: [String] = []
        window.notification.onShown = { announced.append($0) }
        let target = watched + "/IMG_0001.jpg"
        let closed = try writeSlowly(try makePhoto("IMG_0001.jpg", size: "3000x2000"), to: target)
        #expect(Harness.spin(seconds: 20) { window.form.queuedPaths.contains(target) }, "the photo never joined")
        // Proves it joins once: a late report of the file's change would have it checked
        // again and joining 300 ms later, well within these 1.5 s.
        Harness.pump(milliseconds: 1500)
        #expect(window.form.queuedPaths.filter { $0 == target }.count == 1)
        #expect(taken.count == 1 && taken.allSatisfy { $0.1 >= closed }, "taken before the file was closed")
        #expect(Harness.text(title.pointer) == "Half typed", "the words typed stay")
        #expect(Harness.focusedWidget(window) == title.pointer, "focus stays in Title")
        #expect(
            String(cString: gtk_header_bar_get_subtitle(caption_header_bar(window.header.pointer))).hasSuffix("1 new"))
        // Named, with how many wait: a listener hears what came.
        #expect(announced == ["“IMG_0001.jpg” is new: 2 photos in the queue"], "\(announced)")
        #expect(!window.messages.isShowing, "no message")
    }

    @Test func notPhotosAndCutShortFilesArePassedOverSilentlyUntilWhole() throws {
        let watched = makeFolder("silent")
        let window = try watchingWindow(watched, library: "silent")
        defer { Harness.close(window) }
        var settled: [String: ArrivalVerdict] = [:]
        window.watch.onSettled = { settled[$0] = $1 }
        let notes = watched + "/notes.txt"
        try "not a photo".write(toFile: notes, atomically: false, encoding: .utf8)
        let whole = try Data(contentsOf: URL(fileURLWithPath: try makePhoto("cut.jpg")))
        let cut = watched + "/cut.jpg"
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(Harness.spin { settled[notes] == .passedOver && settled[cut] == .incomplete })
        // Proves neither joins: a file taken joins the queue 300 ms after its check, well
        // within these 800 ms.
        Harness.pump(milliseconds: 800)
        #expect(!window.form.queuedPaths.contains(cut) && !window.form.queuedPaths.contains(notes))
        #expect(!window.messages.isShowing, "no message for a file that is no photo or not whole")
        // The rest of the upload arrives: now it is whole.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: cut))
        try handle.seekToEnd()
        try handle.write(contentsOf: whole.suffix(from: whole.count / 2))
        try handle.close()
        #expect(Harness.spin(seconds: 10) { window.form.queuedPaths.contains(cut) })
    }

    @Test func photosCaptionedBeforeArePassedOver() throws {
        let watched = makeFolder("captioned")
        let window = try watchingWindow(watched, library: "captioned")
        defer { Harness.close(window) }
        var settled: [String: ArrivalVerdict] = [:]
        window.watch.onSettled = { settled[$0] = $1 }
        // One in the library already (the same bytes, another name), one carrying its own caption.
        let saved = try makePhoto("saved.jpg")
        _ = try Library(directory: folder + "/captioned").add(
            photoAt: saved, words: CaptionWords(title: "Harbour", subtitle: "Dusk"))
        let tagged = try makePhoto("tagged.jpg")
        let tagging = try Tool.run("exiftool", ["-q", "-overwrite_original", "-XMP-dc:Title=Pier", tagged])
        try #require(tagging.status == 0, "exiftool: \(tagging.stderr)")
        let fresh = try makePhoto("fresh.jpg")
        // Straight from an Olympus: its stock text, padded to 32 bytes, is no caption.
        let olympus = try makePhoto("olympus.jpg")
        let stock = try Tool.run(
            "exiftool",
            ["-q", "-overwrite_original", "-EXIF:ImageDescription=OLYMPUS DIGITAL CAMERA         ", olympus])
        try #require(stock.status == 0, "exiftool: \(stock.stderr)")
        for (source, name) in [(saved, "a.jpg"), (tagged, "b.jpg"), (fresh, "c.jpg"), (olympus, "d.jpg")] {
            #expect(rename(source, watched + "/" + name) == 0)
        }
        #expect(Harness.spin(seconds: 15) { settled.count == 4 }, "settled: \(settled)")
        #expect(settled[watched + "/a.jpg"] == .passedOver, "in the library")
        #expect(settled[watched + "/b.jpg"] == .passedOver, "carries a caption")
        #expect(settled[watched + "/c.jpg"] == .taken)
        #expect(settled[watched + "/d.jpg"] == .taken, "a camera's stock text is no caption")
    }

    @Test func aBurstJoinsInTheOrderThePhotosWereTaken() throws {
        let watched = makeFolder("burst")
        let window = try watchingWindow(watched, library: "burst")
        defer { Harness.close(window) }
        let times = ["2024:05:17 14:03:25", "2024:05:17 14:03:23", "2024:05:17 14:03:24"]
        for (index, taken) in times.enumerated() {
            #expect(rename(try makePhoto("burst-\(index).jpg", taken: taken), watched + "/A\(index).jpg") == 0)
        }
        let expected = [1, 2, 0].map { watched + "/A\($0).jpg" }
        #expect(Harness.spin(seconds: 15) { window.form.queuedPaths.suffix(3) == expected[...] })
        #expect(window.form.queuedPaths.suffix(3) == expected[...], "\(window.form.queuedPaths)")
    }

    @Test func subfoldersOnlyWhenChosen() throws {
        for subfolders in [false, true] {
            let watched = makeFolder("tree-\(subfolders)")
            let window = try watchingWindow(watched, library: "tree-\(subfolders)", subfolders: subfolders)
            defer { Harness.close(window) }
            let inner = makeFolder("tree-\(subfolders)/card/DCIM")
            #expect(inner.hasPrefix(watched))
            // A card's folders appear a moment before its photos: the watch has seen the new
            // folders (and, with subfolders, watches them) before the photo comes.
            Harness.pump(milliseconds: 300)
            let photo = inner + "/deep.jpg"
            #expect(rename(try makePhoto("deep-\(subfolders).jpg"), photo) == 0)
            let joined = Harness.spin(seconds: subfolders ? 10 : 2) { window.form.queuedPaths.contains(photo) }
            #expect(joined == subfolders, "subfolders \(subfolders): joined \(joined)")
        }
    }

    @Test func theWatchComesBackAfterARestartAndGoesWhenStopped() throws {
        let watched = makeFolder("restart")
        let state = folder + "/restart.ini"
        let first = try Harness.makeWindow(library: folder + "/restart", stateFile: state)
        #expect(first.startWatching(WatchSetting(folder: watched, subfolders: false)))
        Harness.close(first)
        // Arrives while Caption is closed.
        let arrived = watched + "/while-closed.jpg"
        #expect(rename(try makePhoto("while-closed.jpg"), arrived) == 0)
        let second = try Harness.makeWindow(library: folder + "/restart", stateFile: state)
        #expect(Harness.spin(seconds: 15) { second.form.queuedPaths.contains(arrived) }, "not resumed")
        #expect(second.watch.setting?.folder == watched)
        second.activateAction("stop-watching")
        #expect(second.watch.setting == nil)
        Harness.close(second)
        let third = try Harness.makeWindow(library: folder + "/restart", stateFile: state)
        defer { Harness.close(third) }
        // Proves stopped stays stopped: a remembered watch resumes once the window's first
        // frame is drawn, well within these 500 ms of the window being shown.
        Harness.pump(milliseconds: 500)
        #expect(third.watch.setting == nil, "stopped stays stopped")
    }

    @Test func aWatchedFolderDeletedEndsTheWatchAndSaysSo() throws {
        let watched = makeFolder("deleted")
        let state = folder + "/deleted.ini"
        let window = try Harness.makeWindow(library: folder + "/deleted", stateFile: state)
        defer { Harness.close(window) }
        #expect(window.startWatching(WatchSetting(folder: watched, subfolders: false)))
        #expect(WindowStateFile.watch(state) != nil)
        try FileManager.default.removeItem(atPath: watched)
        #expect(Harness.spin(seconds: 10) { window.watch.setting == nil }, "still watching a deleted folder")
        #expect(window.messages.isShowing)
        #expect(WindowStateFile.watch(state) == nil, "a deleted folder is not watched again at the next start")
    }

    /// A photo deleted from the watched folder soon after it joined leaves the queue, said
    /// once, whether it is on the form or waiting; one with words typed for it stays.
    @Test func aPhotoDeletedRightAfterItArrivesLeavesTheQueueSaidOnce() throws {
        let watched = makeFolder("deleting")
        let window = try Harness.makeWindow(library: folder + "/deleting", stateFile: folder + "/deleting.ini")
        defer { Harness.close(window) }
        #expect(window.startWatching(WatchSetting(folder: watched, subfolders: false)))
        var told: [String] = []
        window.notification.onShown = { told.append($0) }
        func arrive(_ name: String) throws -> String {
            let path = watched + "/" + name
            #expect(rename(try makePhoto(name), path) == 0)
            #expect(Harness.spin(seconds: 20) { window.form.queuedPaths.contains(path) }, "\(name) never joined")
            return path
        }
        let first = try arrive("a.jpg")
        let second = try arrive("b.jpg")
        #expect(Harness.spin { window.form.photoPath == first })

        unlink(second)
        #expect(Harness.spin { !window.form.queuedPaths.contains(second) }, "the waiting photo stayed")
        unlink(first)
        #expect(Harness.spin { window.form.queuedPaths.isEmpty }, "the photo on the form stayed")
        #expect(window.form.photoPath == nil)
        #expect(
            Harness.spin { told.filter { $0.contains("was deleted") }.count == 2 }
                && told.filter { $0.contains("was deleted") }
                    == ["“b.jpg” was deleted, so it left your queue", "“a.jpg” was deleted, so it left your queue"],
            "\(told)")

        let typed = try arrive("c.jpg")
        #expect(Harness.spin { window.form.photoPath == typed })
        let title = window.form.view.titleEntry
        title.grabFocus()
        Harness.type(title, "Keep me")
        // The removal reaches the form, which keeps the photo with its words.
        let toForm = window.watch.onDeleted
        var heard = false
        window.watch.onDeleted = { path in
            toForm?(path)
            if path == typed { heard = true }
        }
        unlink(typed)
        #expect(Harness.spin { heard }, "the removal was never heard")
        #expect(window.form.queuedPaths == [typed], "the words' photo left")
        #expect(Harness.text(title.pointer) == "Keep me")
        #expect(!window.messages.isShowing, "no “Photo not found”")
    }

    /// A folder this user may not list (no read permission, or no search permission) is
    /// said at once: it was "Watching…" for ever, with nothing joining.
    @Test func aFolderThatCannotBeReadIsSaidInsteadOfWatched() throws {
        let state = folder + "/unreadable.ini"
        let window = try Harness.makeWindow(library: folder + "/unreadable", stateFile: state)
        defer { Harness.close(window) }
        for mode: mode_t in [0o300, 0o600] {
            let watched = makeFolder("unreadable-\(String(mode, radix: 8))")
            chmod(watched, mode)
            defer { chmod(watched, 0o700) }
            let started = Caption.withFileAccessOfNobody {
                window.startWatching(WatchSetting(folder: watched, subfolders: false))
            }
            #expect(!started, "mode \(String(mode, radix: 8))")
            #expect(window.messages.text == "“\(watched)” cannot be watched: it cannot be read")
            #expect(WindowStateFile.watch(state) == nil)
            #expect(window.watch.setting == nil)
        }
    }

    @Test func aFolderThatCannotBeWatchedIsSaidAndNotRemembered() throws {
        let state = folder + "/gone.ini"
        let window = try Harness.makeWindow(library: folder + "/gone", stateFile: state)
        defer { Harness.close(window) }
        #expect(!window.startWatching(WatchSetting(folder: folder + "/no-such-folder", subfolders: false)))
        #expect(window.messages.isShowing)
        #expect(WindowStateFile.watch(state) == nil)
    }
}
