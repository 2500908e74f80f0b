// caption --export and --add, run as the built binary: photos written with their captions
// for other applications to read, safe names, untouched sources, and folders that refuse.

import CSQLite
import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionMetadata

@Suite("Command line: --export, and --add with the photo's own words")
struct ExportCommandTests {
    /// A library in `scratch` holding `photos` (format, title, subtitle), added oldest
    /// first. WebP goes in by SQL, as a library made on another machine holds it: the
    /// export must not depend on whether this machine has GdkPixbuf's WebP loader.
    func library(_ scratch: Scratch, _ photos: [(PhotoFormat, String, String)]) throws -> String {
        let directory = scratch.file("library")
        let library = try Library(directory: directory)
        for (index, (format, title, subtitle)) in photos.enumerated() {
            let path = try Photos.file(format, in: scratch, seed: UInt32(index + 1))
            if format == .webp {
                try insertRow(directory, photo: path, words: CaptionWords(title: title, subtitle: subtitle))
            } else {
                _ = try library.add(photoAt: path, words: CaptionWords(title: title, subtitle: subtitle))
            }
        }
        return directory
    }

    func insertRow(_ directory: String, photo: String, words: CaptionWords) throws {
        let bytes = Photos.bytes(photo)
        let name = "photos/" + Photos.sha256(ofFile: photo) + ".webp"
        try #require(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes)))
        var db: OpaquePointer?
        try #require(sqlite3_open(directory + "/library.sqlite3", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let sql =
            "INSERT INTO entries (photo, title, subtitle, width, height, original_name, created, updated) VALUES ("
            + "\(literal(name)), \(literal(words.title)), \(literal(words.subtitle)), 64, 48, 'photo.webp', \(now), \(now))"
        try #require(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
    }

    @Test(
        "--export writes JPEG, PNG and WebP entries named after their titles, and exiftool and exiv2 both read the caption",
        arguments: 0..<EmbeddingTests.texts.count)
    func exportRoundTrip(text: Int) throws {
        let scratch = Scratch()
        let (title, subtitle) = EmbeddingTests.texts[text]
        let formats: [PhotoFormat] = [.jpeg, .png, .webp]
        let directory = try library(scratch, formats.map { ($0, title, subtitle) })
        let out = scratch.file("out")
        let outcome = try Caption.run(["--library", directory, "--export", out])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let stem = ExportName.stem(from: title, fallback: "")
        let expected = formats.map { out + "/" + stem + "." + $0.fileExtension }
        #expect(
            outcome.stdout == expected.enumerated().map { "Exported entry \($0.offset + 1): \($0.element)\n" }.joined())
        for path in expected {
            try Readers.expect(path, title: title, description: subtitle)
            // IIM for older systems goes into the JPEG alone.
            #expect(try Readers.exiftool(path).iptc.contains("IPTC:ObjectName") == path.hasSuffix(".jpg"))
        }
        // GdkPixbuf's JPEG has no Exif, and Caption makes none (it would have to invent a
        // resolution and a colour space): the caption is in XMP alone.
        #expect(try Readers.exiftool(expected[0]).exifDescription == nil, "no Exif made for a JPEG without it")
        #expect(
            scratch.names(in: out) == expected.map { ($0 as NSString).lastPathComponent }.sorted(),
            "nothing else, no temporary file")
    }

    @Test(
        "names are safe and unique: the same title twice, a file already there, slashes, hidden, reversed and long titles"
    )
    func safeUniqueNames() throws {
        let long = String(repeating: "港", count: 150)
        let titles = [
            "Harbour", "Harbour", "a/b\\c:d*e?f\"g<h>i|j", "..hidden", "\u{202E}gpj.exe", long, "tab\tand\u{2028}line",
        ]
        let scratch = Scratch()
        let directory = try library(scratch, titles.map { (.jpeg, $0, "S") })
        let out = scratch.folder("out")
        let mine = scratch.write("out/Harbour.jpg", Array("the user's own file".utf8))
        let outcome = try Caption.run(["--library", directory, "--export", out])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Photos.bytes(mine) == Array("the user's own file".utf8), "nothing in the folder is replaced")
        let cut = String(repeating: "港", count: 66)  // 198 bytes of UTF-8: the most whole characters under 200
        #expect(
            scratch.names(in: out)
                == [
                    "Harbour (2).jpg", "Harbour (3).jpg", "Harbour.jpg", "a_b_c_d_e_f_g_h_i_j.jpg",
                    "gpj.exe.jpg", "hidden.jpg", "tab and line.jpg", cut + ".jpg",
                ].sorted())
        for name in scratch.names(in: out) where name != "Harbour.jpg" {
            #expect(name.utf8.count <= 255)
            #expect(PhotoMetadata.read(out + "/" + name)[.subtitle] == "S")
        }
    }

    @Test("a stored photo gone behind Caption's back stops nothing: the others are exported, it is named, exit 1")
    func missingPhotoStopsNothing() throws {
        let scratch = Scratch()
        let directory = try library(scratch, [(.jpeg, "First", "a"), (.png, "Second", "b"), (.jpeg, "Third", "c")])
        let second = try #require(try Library(directory: directory).entry(id: 2))
        #expect(unlink(directory + "/" + second.photo) == 0)
        let out = scratch.file("out")
        for arguments in [["--export", out], ["--export", out + "-ids", "--id", "3", "--id", "2", "--id", "1"]] {
            let outcome = try Caption.run(["--library", directory] + arguments)
            #expect(outcome.status == 1)
            #expect(outcome.stdout.contains("Exported entry 1: ") && outcome.stdout.contains("Exported entry 3: "))
            #expect(!outcome.stdout.contains("Exported entry 2"))
            #expect(
                outcome.stderr.contains("The library's copy of the photo of entry 2 cannot be read"),
                "\(outcome.stderr)")
            #expect(outcome.stderr.contains("1 of 3 photos could not be exported; the others are in " + arguments[1]))
            #expect(scratch.names(in: arguments[1]).sorted() == ["First.jpg", "Third.jpg"])
        }
    }

    @Test("a stored copy replaced by a link (to a secret) or by another file is not exported, and is named")
    func replacedCopyIsNotExported() throws {
        let scratch = Scratch()
        let directory = try library(scratch, [(.jpeg, "First", "a"), (.png, "Second", "b"), (.jpeg, "Third", "c")])
        let stored = try Library(directory: directory)
        let second = try #require(try stored.entry(id: 2))
        let third = try #require(try stored.entry(id: 3))
        let secret = scratch.write("secret", Array("root:$6$hash:19000:0:99999:7:::\n".utf8))
        #expect(unlink(directory + "/" + second.photo) == 0)
        #expect(symlink(secret, directory + "/" + second.photo) == 0)
        // Another photo's bytes under the third's name: a real JPEG, but not the one saved.
        let first = try #require(try stored.entry(id: 1))
        #expect(unlink(directory + "/" + third.photo) == 0)
        try FileManager.default.copyItem(atPath: directory + "/" + first.photo, toPath: directory + "/" + third.photo)
        let out = scratch.file("out")
        let outcome = try Caption.run(["--library", directory, "--export", out])
        #expect(outcome.status == 1)
        for (id, entry) in [(2, second), (3, third)] {
            #expect(
                outcome.stderr.contains(
                    "The library's copy of the photo of entry \(id) was replaced by something else: "
                        + directory + "/" + entry.photo),
                "\(outcome.stderr)")
        }
        #expect(scratch.names(in: out) == ["First.jpg"])
        let exported = try Data(contentsOf: URL(fileURLWithPath: out + "/First.jpg"))
        #expect(!exported.contains(Data("root:".utf8)))
    }

    @Test("a desk's server gone mid-export stops it with one error, not one line for each photo not yet fetched")
    func serverGoneMidExportStopsOnce() throws {
        let server = try PrivateServer()
        let scratch = Scratch()
        let address = try PostgresAddress(server.address)
        let ana = try Library(server: address, cache: scratch.file("ana-cache"))
        for index in 1...5 {
            _ = try ana.add(
                photoAt: scratch.write("p\(index).jpg", Photos.jpeg(seed: UInt32(index), width: 40, height: 30)),
                words: CaptionWords(title: "Photo \(index)", subtitle: "S"))
        }
        // Rui's machine has none of the photos: each would be fetched as it is exported.
        let rui = try Library(server: address, cache: scratch.file("rui-cache"))
        let entries = try rui.entries()
        try server.stop()
        var missing: [LibraryError] = []
        let error = #expect(throws: LibraryError.self) {
            try Exporter.export(
                entries, from: rui, to: scratch.file("out"), into: .photo, missing: { missing.append($1) })
        }
        #expect(error?.kind == .unreachable, "\(String(describing: error))")
        #expect(missing.isEmpty, "\(missing.map(\.message))")
    }

    @Test("names a device on Windows (CON, aux.jpg, COM1) get a _ in front; invisible-only titles take the fallback")
    func windowsDevicesAndInvisibleNames() {
        #expect(ExportName.stem(from: "CON", fallback: "Photo 1") == "_CON")
        #expect(ExportName.stem(from: "aux", fallback: "Photo 1") == "_aux")
        #expect(ExportName.stem(from: "Com1.final", fallback: "Photo 1") == "_Com1.final")
        #expect(ExportName.stem(from: "Console", fallback: "Photo 1") == "Console")
        #expect(ExportName.stem(from: "\u{200B}\u{FEFF}", fallback: "Photo 1") == "Photo 1")
        #expect(ExportName.stem(from: "\u{2060} \u{200D}", fallback: "Photo 1") == "Photo 1")
    }

    @Test("what a killed export left in the folder goes with the next export there; links and other files stay")
    func leftoversOfAKilledExportGo() throws {
        let scratch = Scratch()
        let directory = try library(scratch, [(.jpeg, "Harbour", "a")])
        let out = scratch.folder("out")
        let leftover = scratch.write("out/.caption-export-1a2b3c.jpg", Photos.jpeg())
        let mine = scratch.write("out/.hidden-of-mine.jpg", Photos.jpeg())
        let victim = scratch.write("victim.jpg", Photos.jpeg())
        #expect(symlink(victim, out + "/.caption-export-link.jpg") == 0)
        let outcome = try Caption.run(["--library", directory, "--export", out])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(FileManager.default.fileExists(atPath: mine) && FileManager.default.fileExists(atPath: victim))
        var info = stat()
        #expect(lstat(out + "/.caption-export-link.jpg", &info) == 0, "a link is not Caption's to remove")
    }

    @Test("--export --sidecar writes each photo exactly as the library holds it, and NAME.EXT.xmp beside it")
    func sidecars() throws {
        let scratch = Scratch()
        let directory = try library(
            scratch, [(.jpeg, "港口 <b>&amp;", "🌅"), (.png, "港口 <b>&amp;", "second"), (.webp, "W", "webp")])
        let out = scratch.file("out")
        let outcome = try Caption.run(["--library", directory, "--export", out, "--sidecar"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let stem = "港口 _b_&amp;"
        // Each sidecar is named after its photo's whole name, so a PNG with the same title
        // takes the same stem.
        let names = [stem + ".jpg", stem + ".jpg.xmp", stem + ".png", stem + ".png.xmp", "W.webp", "W.webp.xmp"]
        #expect(scratch.names(in: out) == names.sorted())
        #expect(outcome.stdout.contains("Exported entry 1: \(out)/\(stem).jpg and \(out)/\(stem).jpg.xmp\n"))
        let opened = try Library(directory: directory)
        for (id, name) in [(Int64(1), names[0]), (2, names[2]), (3, names[4])] {
            let entry = try #require(try opened.entry(id: id))
            let copy = try #require(opened.photoPath(of: entry))
            #expect(
                Photos.sha256(ofFile: out + "/" + name) == Photos.sha256(ofFile: copy),
                "\(name) is the library's copy, untouched")
        }
        try Readers.expect(out + "/" + stem + ".jpg.xmp", title: "港口 <b>&amp;", description: "🌅")
        try Readers.expect(out + "/" + stem + ".png.xmp", title: "港口 <b>&amp;", description: "second")
        try Readers.expect(out + "/W.webp.xmp", title: "W", description: "webp")
    }

    @Test(
        "HEIF, AVIF and RAW photos go out exactly as they are with NAME.EXT.xmp beside them (darktable's and digiKam's name), and the export says so"
    )
    func sidecarForFormatsExempiCannotWrite() throws {
        let scratch = Scratch()
        let formats: [PhotoFormat] = [.heif, .avif, .dng]
        let directory = try library(scratch, formats.map { ($0, "Harbour \($0.rawValue)", "S") })
        let out = scratch.file("out")
        let outcome = try Caption.run(["--library", directory, "--export", out])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let opened = try Library(directory: directory)
        for (index, format) in formats.enumerated() {
            let stem = out + "/Harbour \(format.rawValue)"
            let photo = stem + "." + format.fileExtension
            let entry = try #require(try opened.entry(id: Int64(index + 1)))
            #expect(
                Photos.sha256(ofFile: photo) == Photos.sha256(ofFile: try #require(opened.photoPath(of: entry))),
                "\(format): untouched")
            try Readers.expect(photo + ".xmp", title: "Harbour \(format.rawValue)", description: "S")
            #expect(CaptionFinder.find(photo).origin == .sidecar(photo + ".xmp"), "\(format): found beside the photo")
            #expect(
                outcome.stderr.contains(
                    "the caption of entry \(index + 1) could not be written into the photo; it is in \(photo).xmp"))
        }
    }

    /// IIM in a character set Caption does not convert (JIS, ESC $ B) cannot take the new
    /// words; the old title would go out inside the photo, a sidecar or not. Such a photo is
    /// left out and named, the others go, and the exit status says so.
    @Test("an export never ships a photo whose old caption it could not replace: it is named and left out, exit 1")
    func photoKeepingItsOldCaptionIsLeftOut() throws {
        let scratch = Scratch()
        let directory = scratch.file("library")
        let library = try Library(directory: directory)
        let old = try Photos.file(.jpeg, in: scratch, name: "jis.jpg", seed: 1)
        let tagging = try Tool.run(
            "exiftool",
            ["-q", "-overwrite_original", "-IPTC:CodedCharacterSet=ESC $ B", "-IPTC:ObjectName=OLD TITLE", old])
        try #require(tagging.status == 0, "exiftool: \(tagging.stderr)")
        let kept = try library.add(photoAt: old, words: CaptionWords(title: "Harbour", subtitle: "Dusk"))
        _ = try library.add(
            photoAt: try Photos.file(.jpeg, in: scratch, name: "fine.jpg", seed: 2),
            words: CaptionWords(title: "Pier", subtitle: "Dawn"))
        let out = scratch.file("out")
        let outcome = try Caption.run(["--library", directory, "--export", out])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "The photo of entry \(kept.id) still holds its old caption, which Caption cannot replace (its IPTC block uses a character set Caption cannot convert); it was not exported"
            ), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("1 of 2 photos could not be exported; the others are in \(out)"))
        #expect(scratch.names(in: out) == ["Pier.jpg"], "nothing of the refused photo is in the folder")
        // Asked for beside the photo, it goes out as the library holds it: the user chose that.
        let beside = scratch.file("beside")
        let sidecars = try Caption.run(["--library", directory, "--export", beside, "--sidecar"])
        #expect(sidecars.status == 0, "\(sidecars.stderr)")
        #expect(scratch.names(in: beside) == ["Harbour.jpg", "Harbour.jpg.xmp", "Pier.jpg", "Pier.jpg.xmp"])
    }

    @Test("16-bit TIFF and arithmetic-coded JPEG photos from other encoders get their caption inside")
    func embeddedInFilesFromOtherEncoders() throws {
        let scratch = Scratch()
        let directory = scratch.file("library")
        let library = try Library(directory: directory)
        for kind in [ExternalPhotos.Kind.tiff16, .arithmeticJPEG, .webp] {
            _ = try library.add(
                photoAt: try ExternalPhotos.make(kind, in: scratch.path),
                words: CaptionWords(title: kind.rawValue, subtitle: "S"))
        }
        let out = scratch.file("out")
        let outcome = try Caption.run(["--library", directory, "--export", out])
        #expect(outcome.status == 0 && outcome.stderr == "", "\(outcome.stderr)")
        for (kind, ext) in [(ExternalPhotos.Kind.tiff16, "tif"), (.arithmeticJPEG, "jpg"), (.webp, "webp")] {
            try Readers.expect(out + "/" + kind.rawValue + "." + ext, title: kind.rawValue, description: "S")
        }
    }

    @Test("exporting never changes the library's copies or the user's originals")
    func sourcesUntouched() throws {
        let scratch = Scratch()
        let original = try Photos.file(.jpeg, in: scratch, name: "original.jpg")
        _ = try Tool.run(
            "exiftool", ["-q", "-overwrite_original", "-XMP-dc:Title=Old", "-IPTC:Caption-Abstract=Old", original])
        let directory = scratch.file("library")
        _ = try Library(directory: directory).add(
            photoAt: original, words: CaptionWords(title: "New", subtitle: "Words"))
        let photos = scratch.names(in: directory + "/photos").map { directory + "/photos/" + $0 }
        let before = ([original] + photos).map { Photos.sha256(ofFile: $0) }
        for extra in [[], ["--sidecar"]] {
            #expect(try Caption.run(["--library", directory, "--export", scratch.file("out")] + extra).status == 0)
        }
        #expect(([original] + photos).map { Photos.sha256(ofFile: $0) } == before)
        #expect(
            PhotoMetadata.read(scratch.file("out/New.jpg"))
                == PhotoCaption(CaptionWords(title: "New", subtitle: "Words")))
    }

    @Test("--id exports only the entries named, in that order; an unknown number exports nothing and exits 1")
    func onlySomeEntries() throws {
        let scratch = Scratch()
        let directory = try library(scratch, [(.jpeg, "One", "1"), (.png, "Two", "2"), (.jpeg, "Three", "3")])
        let out = scratch.file("out")
        var outcome = try Caption.run(["--library", directory, "--export", out, "--id", "3", "--id=1", "--id", "3"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "Exported entry 3: \(out)/Three.jpg\nExported entry 1: \(out)/One.jpg\n")
        let other = scratch.file("other")
        outcome = try Caption.run(["--library", directory, "--export", other, "--id", "2", "--id", "9"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: There is no entry 9 in the library\n")
        #expect(!FileManager.default.fileExists(atPath: other + "/Two.png"))
    }

    @Test("an empty library has nothing to export (exit 0)")
    func emptyLibrary() throws {
        let scratch = Scratch()
        let outcome = try Caption.run(["--library", scratch.file("library"), "--export", scratch.file("out")])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "The library is empty; there is nothing to export.\n")
    }

    @Test("a read-only export folder, as an ordinary user: exit 1, one line naming it, and nothing left in it")
    func readOnlyFolder() throws {
        let scratch = Scratch()
        let directory = try library(scratch, [(.jpeg, "Harbour", "Boats")])
        try Caption.giveToNobody(directory)
        let out = scratch.folder("out")
        chmod(out, 0o555)
        for sidecar in [false, true] {
            let outcome = try Caption.run(
                ["--library", directory, "--export", out] + (sidecar ? ["--sidecar"] : []),
                unprivileged: true)
            #expect(outcome.status == 1)
            #expect(outcome.stdout == "")
            #expect(outcome.stderr == "caption: Cannot write to the export folder (Permission denied): \(out)\n")
            #expect(scratch.names(in: out).isEmpty)
        }
        let inside = out + "/new"
        let outcome = try Caption.run(["--library", directory, "--export", inside], unprivileged: true)
        #expect(outcome.stderr == "caption: Cannot write to the export folder (Permission denied): \(inside)\n")
    }

    @Test(
        "a full export folder (ulimit -f): exit 1, one line saying so, no partial file, the photos before it whole",
        arguments: [false, true])
    func fullFolder(sidecar: Bool) throws {
        let scratch = Scratch()
        let directory = scratch.file("library")
        let library = try Library(directory: directory)
        _ = try library.add(
            photoAt: try Photos.file(.png, in: scratch, name: "small.png"),
            words: CaptionWords(title: "Small", subtitle: "fits"))
        let big = scratch.write("big.jpg", Photos.make("jpeg", width: 400, height: 300, seed: 7))
        #expect(Photos.bytes(big).count > 40 * 1024)
        _ = try library.add(photoAt: big, words: CaptionWords(title: "Big", subtitle: "does not fit"))
        let out = scratch.file("out")
        let outcome = try Caption.run(
            ["--library", directory, "--export", out] + (sidecar ? ["--sidecar"] : []),
            shellPrefix: "ulimit -f 64;")  // 32 KiB in 512-byte blocks
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: Not enough disk space in the export folder (File too large): \(out)\n")
        #expect(scratch.names(in: out) == (sidecar ? ["Small.png", "Small.png.xmp"] : ["Small.png"]))
        let check = sidecar ? out + "/Small.png.xmp" : out + "/Small.png"
        try Readers.expect(check, title: "Small", description: "fits")
        _ = try PixelReader.pixels(out + "/Small.png")
    }

    @Test("a folder that fills while exempi writes its copy: the same one line, and no partial file of exempi's either")
    func fullFolderDuringExempisWrite() throws {
        let scratch = Scratch()
        // Just under the limit, so that the copy fits and exempi's, a few KiB of XMP and
        // Exif larger, does not.
        let limit = 64 * 512
        var width = 200
        var bytes = Photos.make("jpeg", width: width, height: 150, seed: 3)
        while bytes.count < limit - 2048 || bytes.count > limit - 512 {
            width += bytes.count < limit - 2048 ? 4 : -1
            bytes = Photos.make("jpeg", width: width, height: 150, seed: 3)
            try #require(width > 50 && width < 2000, "no JPEG size fits the test")
        }
        let directory = scratch.file("library")
        _ = try Library(directory: directory).add(
            photoAt: scratch.write("near.jpg", bytes),
            words: CaptionWords(title: "Near", subtitle: String(repeating: "words ", count: 300)))
        let out = scratch.file("out")
        let outcome = try Caption.run(["--library", directory, "--export", out], shellPrefix: "ulimit -f 64;")
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: Not enough disk space in the export folder (File too large): \(out)\n")
        #expect(scratch.names(in: out).isEmpty)
    }

    @Test("a photo with damaged metadata is added and exported, its caption written fresh, with no noise on stderr")
    func damagedMetadata() throws {
        let scratch = Scratch()
        let photo = try DamagedPhotos.make(.jpegXMPNotXML, in: scratch)
        let directory = scratch.file("library")
        var outcome = try Caption.run(["--library", directory, "--add", photo])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: Title and subtitle required\n", "exempi's own complaint stays out of it")
        outcome = try Caption.run(["--library", directory, "--add", photo, "--title", "Fresh", "--subtitle", "words"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        outcome = try Caption.run(["--library", directory, "--export", scratch.file("out")])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        try Readers.expect(scratch.file("out/Fresh.jpg"), title: "Fresh", description: "words")
    }

    @Test("--add without --title and --subtitle takes them from the photo's XMP; an option given, even empty, wins")
    func addTakesThePhotosWords() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        _ = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Title=港口 🌅 <b>&amp;",
                "-XMP-dc:Description=Boats\nat dusk", photo,
            ])
        let directory = scratch.file("library")
        var outcome = try Caption.run(["--library", directory, "--add", photo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var entry = try #require(try Library(directory: directory).entry(id: 1))
        #expect(entry.title == "港口 🌅 <b>&amp;")
        #expect(entry.subtitle == "Boats at dusk", "normalised by the form's rule")
        outcome = try Caption.run(["--library", directory, "--add", photo, "--title", "Mine"])
        entry = try #require(try Library(directory: directory).entry(id: 2))
        #expect((entry.title, entry.subtitle) == ("Mine", "Boats at dusk"))
        outcome = try Caption.run(["--library", directory, "--add", photo, "--subtitle", ""])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: Subtitle required\n")
    }
}
