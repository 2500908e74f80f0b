// Captions into photos as cameras, phones and other programs make them (made by
// Tests/fixtures/make-camera-photos with cjpeg, ImageMagick, exiftool and exiv2): in every
// mode the caption's own fields change, and every other tag, picture and pixel stays.

import CaptionLibrary
import CaptionTestSupport
import Foundation
import Testing

@testable import CaptionMetadata

enum CameraPhotos {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures").path

    /// The fixtures, made once for the whole run (about 2 s), and what making them said.
    private static let made: (scratch: Scratch, outcome: Outcome) = {
        let scratch = Scratch("camera-photos")
        // A static is never released: the folder goes when the test process ends.
        atexit { try? FileManager.default.removeItem(atPath: CameraPhotos.made.scratch.path) }
        let outcome =
            (try? Tool.run(folder + "/make-camera-photos", [scratch.file("made")]))
            ?? Outcome(status: -1, stdout: "", stderr: "make-camera-photos could not be started")
        return (scratch, outcome)
    }()

    /// A copy of every fixture in `scratch`; the folder holding them.
    static func make(in scratch: Scratch) throws -> String {
        try #require(made.outcome.status == 0, "make-camera-photos: \(made.outcome.stderr)")
        let target = scratch.file("photos")
        let copied = try Tool.run("/bin/cp", ["-a", made.scratch.file("made"), target])
        try #require(copied.status == 0, "cp: \(copied.stderr)")
        return target
    }

    /// The photos, each with what makes it hard: maker notes with absolute offsets, a gain
    /// map behind an MPF index, XMP past 64 KB (the caption in its standard part, and in its
    /// extended part), Latin-1 IIM (undeclared, and declared ESC . A), Exif in a PNG text chunk, CMYK,
    /// a comment holding the caption, a comment before Exif, no Exif at all, bytes between
    /// segments, sidecars.
    static let names = [
        "camera.jpg", "phone-ultrahdr.jpg", "extended-xmp.jpg", "caption-in-extended-xmp.jpg", "latin1-iim.jpg",
        "latin1-declared-iim.jpg", "exiv2-exif.png", "cmyk-adobe.jpg",
        "comment.jpg", "comment-before-exif.jpg", "jfif-only.jpg", "junk-between.jpg", "IMG_0001.JPG",
    ]

    static let jpegs = names.filter { !$0.hasSuffix(".png") }

    /// The tags that are the caption's own, and so may change: the words, the fields that
    /// repeat them, IIM's character set, record versions and digest (a photo without IIM
    /// gets a block), the XMP toolkit's stamp, and the extended XMP's GUID (its checksum).
    /// Language variants of dc:title and dc:description go too.
    static let captionTags: Set<String> = [
        "XMP-dc:Title", "XMP-dc:Description", "XMP-photoshop:Headline", "XMP-exif:UserComment", "XMP-x:XMPToolkit",
        "XMP-xmpNote:HasExtendedXMP", "IFD0:ImageDescription", "IFD0:XPTitle", "IFD0:XPSubject", "IFD0:XPComment",
        "ExifIFD:UserComment", "IPTC:ObjectName", "IPTC:Caption-Abstract", "IPTC:Headline", "IPTC:CodedCharacterSet",
        "IPTC:EnvelopeRecordVersion", "IPTC:ApplicationRecordVersion", "Photoshop:IPTCDigest",
        "File:CurrentIPTCDigest", "File:Comment",
    ]

    /// Every tag exiftool reads (`-n -G1 -a`, binary values as such) other than the
    /// caption's own and the file's own (name, size, dates). A picture's place in the file
    /// (MPImageStart) is not its content: the pictures are compared byte for byte instead.
    static func otherTags(_ path: String) throws -> [String: String] {
        let outcome = try Tool.run("exiftool", ["-n", "-G1", "-a", "-j", "-b", path])
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
        let object = try #require(try Readers.firstObject(outcome.stdout))
        var kept: [String: String] = [:]
        for (key, value) in object {
            let group = key.prefix { $0 != ":" }
            if ["System", "ExifTool", "SourceFile"].contains(String(group)) || key == "SourceFile" { continue }
            if captionTags.contains(key) || key.hasPrefix("XMP-dc:Title-") || key.hasPrefix("XMP-dc:Description-")
                || key.hasSuffix(":MPImageStart") || key == "File:FileSize"
            {
                continue
            }
            kept[key] = "\(value)"
        }
        return kept
    }

    /// exiftool's -validate warnings.
    static func warnings(_ path: String) throws -> Set<String> {
        let outcome = try Tool.run("exiftool", ["-validate", "-warning", "-a", "-s3", path])
        return Set(outcome.stdout.split(separator: "\n").dropFirst().map(String.init))
    }

    /// A JPEG's segments up to its first scan as exiv2 lists them: the marker's name, or for
    /// an APP1 what it holds ("Exif", "XMP", "ExtendedXMP").
    static func structure(_ path: String) throws -> [String] {
        let outcome = try Tool.run("exiv2", ["-pS", path])
        try #require(outcome.status == 0, "exiv2 -pS: \(outcome.stderr)")
        var kinds: [String] = []
        for line in outcome.stdout.split(separator: "\n") {
            let columns = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard columns.count >= 2, columns[1].hasPrefix("0xff") else { continue }
            let marker = String(columns[1].split(separator: " ").last ?? "")
            if marker == "SOS" { break }
            let data = columns.count > 3 ? columns[3] : ""
            let held = [
                ("Exif", "Exif"), ("http://ns.adobe.com/xap/1.0/", "XMP"),
                ("http://ns.adobe.com/xmp/ext", "ExtendedXMP"),
            ]
            .first { marker == "APP1" && data.hasPrefix($0.0) }?.1
            kinds.append(held ?? marker)
        }
        return kinds
    }

    /// The further pictures of an MPF file, as exiftool extracts them.
    static func pictures(_ path: String) throws -> [Data] {
        try (2...4).compactMap { index in
            let outcome = try Tool.run(
                "/bin/sh", ["-c", "exiftool -b -MPImage\(index) \"$1\" | base64 -w0", "sh", path])
            let data = Data(base64Encoded: outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Data()
            return data.isEmpty ? nil : data
        }
    }

    /// What Shotwell, gThumb, digiKam and darktable show as the title and caption, by each
    /// app's own reading order (Tests/fixtures/read-as-apps, over GExiv2).
    static func asApps(_ path: String) throws -> [String: [String?]] {
        let outcome = try Tool.run(folder + "/read-as-apps", [path])
        try #require(outcome.status == 0, "read-as-apps: \(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        return object.mapValues { value in ((value as? [Any]) ?? []).map { $0 as? String } }
    }
}

@Suite("Camera and phone photos: the caption's fields change, nothing else")
struct CameraPhotoTests {
    static let title = "Harbour 港"
    static let subtitle = "Boats at dusk 🌅"

    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case inPlace, writeBack, export, sidecar
        var testDescription: String { rawValue }
        /// The modes that write the caption into a photo file.
        static let intoPhotos: [Mode] = [.inPlace, .writeBack, .export]
    }

    /// Captions `photo` in `mode`, with `fields` given besides Title and Subtitle
    /// (`["--headline", "…"]`); the file that holds the caption then.
    static func caption(_ photo: String, _ mode: Mode, scratch: Scratch, fields: [String] = []) throws -> String {
        let library = scratch.file("lib")
        let words = ["--title", title, "--subtitle", subtitle] + fields
        switch mode {
        case .inPlace:
            let outcome = try Caption.run(["--library", library, "--add", photo] + words + ["--in-place"])
            try #require(outcome.status == 0, "\(outcome.stderr)")
            return photo
        case .writeBack:
            let added = try Caption.run(["--library", library, "--add", photo] + words)
            try #require(added.status == 0, "\(added.stderr)")
            let outcome = try Caption.run(["--library", library, "--write-back"])
            try #require(outcome.status == 0, "\(outcome.stderr)")
            return photo
        case .sidecar:
            let outcome = try Caption.run(["--library", library, "--add", photo] + words + ["--sidecar"])
            try #require(outcome.status == 0, "\(outcome.stderr)")
            return photo + ".xmp"
        case .export:
            let added = try Caption.run(["--library", library, "--add", photo] + words)
            try #require(added.status == 0, "\(added.stderr)")
            let folder = scratch.file("out")
            let outcome = try Caption.run(["--library", library, "--export", folder])
            try #require(outcome.status == 0, "\(outcome.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            try #require(names.count == 1, "one photo exported: \(names)")
            return folder + "/" + names[0]
        }
    }

    @Test(
        "every tag but the caption's own reads the same (exiftool -n), pixels and further pictures too, no new -validate warning; a sidecar leaves the photo as it was",
        arguments: CameraPhotos.names, Mode.allCases)
    func onlyTheCaptionChanges(name: String, mode: Mode) throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/" + name
        let tags = try CameraPhotos.otherTags(photo)
        let pixels = try PixelReader.pixels(photo)
        let warnings = try CameraPhotos.warnings(photo)
        let pictures = try CameraPhotos.pictures(photo)
        let hadExif = tags.keys.contains { $0.hasPrefix("IFD0:") }

        let bytes = Photos.sha256(ofFile: photo)
        let captioned = try Self.caption(photo, mode, scratch: scratch)
        if mode == .sidecar {
            #expect(Photos.sha256(ofFile: photo) == bytes, "\(name): the photo itself is untouched")
            try Readers.expect(captioned, title: Self.title, description: Self.subtitle)
            return
        }

        let after = try CameraPhotos.otherTags(captioned)
        let changed = Set(tags.keys).union(after.keys).filter { tags[$0] != after[$0] }.sorted()
        #expect(
            changed.isEmpty, "\(name): changed \(changed.map { "\($0): \(tags[$0] ?? "-") → \(after[$0] ?? "-")" })")
        #expect(try PixelReader.pixels(captioned) == pixels, "\(name): pixels")
        #expect(try CameraPhotos.pictures(captioned) == pictures, "\(name): the pictures after the first")
        let added = try CameraPhotos.warnings(captioned).subtracting(warnings)
        #expect(added.isEmpty, "\(name): new exiftool -validate warnings \(added)")

        let everything = try #require(
            try Readers.firstObject(try Tool.run("exiftool", ["-a", "-G1", "-j", captioned]).stdout))
        let old = everything.filter { key, value in
            key != "SourceFile" && !key.hasPrefix("System:") && "\(value)".contains("OLD")
        }
        #expect(old.isEmpty, "\(name): old words left in \(old.keys.sorted())")
        try Readers.expect(captioned, title: Self.title, description: Self.subtitle)
        let seen = try Readers.exiftool(captioned)
        #expect(seen.exifDescription == (hadExif ? Self.subtitle : nil), "\(name): Exif ImageDescription where Exif is")
    }

    /// Readers that find Exif by position, and offsets some tools keep from the file's
    /// start, need Exif to stay the first APP1; the XMP specification puts XMP after it.
    @Test(
        "Exif stays the first APP1 and a new XMP packet goes right after it; no other segment moves (exiv2 -pS)",
        arguments: CameraPhotos.jpegs, Mode.intoPhotos)
    func exifStaysFirstAndXMPFollowsIt(name: String, mode: Mode) throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/" + name
        let before = try CameraPhotos.structure(photo)
        let captioned = try Self.caption(photo, mode, scratch: scratch)
        let after = try CameraPhotos.structure(captioned)
        let packets: Set = ["XMP", "ExtendedXMP"]
        // A photo without Photoshop resources gets a segment of them for its new IIM, right
        // after the APP1 segments.
        let made = packets.union(before.contains("APP13") ? [] : ["APP13"])
        #expect(
            after.filter { !made.contains($0) } == before.filter { !made.contains($0) },
            "\(name): \(before) → \(after)")
        if let added = after.firstIndex(of: "APP13"), !before.contains("APP13") {
            let lastAPP1 = after.lastIndex { ["APP1", "Exif"].contains($0) || packets.contains($0) }
            #expect(lastAPP1.map { $0 + 1 } == added, "\(name): \(after)")
        }
        let firstAPP1 = after.first { ["APP1", "Exif"].contains($0) || packets.contains($0) }
        if before.contains("Exif") { #expect(firstAPP1 == "Exif", "\(name): \(after)") }
        if !before.contains("XMP"), let exif = after.firstIndex(of: "Exif") {
            #expect(after.dropFirst(exif + 1).first == "XMP", "\(name): \(after)")
        }
        #expect(after.contains("XMP"), "\(name): \(after)")
    }

    @Test(
        "Shotwell, gThumb, digiKam and darktable each find the new title and caption by their own reading order",
        arguments: CameraPhotos.names, Mode.intoPhotos)
    func everyAppReadsTheNewWords(name: String, mode: Mode) throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/" + name
        let hasExifDirectory = try CameraPhotos.otherTags(photo).keys.contains { $0.hasPrefix("ExifIFD:") }
        let captioned = try Self.caption(photo, mode, scratch: scratch)
        let seen = try CameraPhotos.asApps(captioned)
        for app in ["gthumb", "digikam", "darktable"] {
            #expect(seen[app] == [Self.title, Self.subtitle], "\(name): \(app) shows \(seen[app] ?? [])")
        }
        // Shotwell reads a comment from Exif UserComment only, which Caption writes where the
        // photo has an Exif directory (every camera's and phone's photo) and does not invent.
        #expect(
            seen["shotwell"] == [Self.title, hasExifDirectory ? Self.subtitle : nil],
            "\(name): Shotwell shows \(seen["shotwell"] ?? [])")
    }

    @Test(
        "sidecars beside a photo captioned in place take the words too, keeping ratings, labels and darktable's history"
    )
    func sidecarsBesideAreUpdated() throws {
        let scratch = Scratch()
        let folder = try CameraPhotos.make(in: scratch)
        let photo = folder + "/IMG_0001.JPG"
        func others(_ sidecar: String) throws -> [String: String] {
            try CameraPhotos.otherTags(sidecar).filter { !$0.key.hasPrefix("File:") }
        }
        let darktable = try others(photo + ".xmp")
        let lightroom = try others(folder + "/IMG_0001.xmp")
        #expect(darktable["XMP-darktable:History_end"] != nil && lightroom["XMP-crs:Exposure2012"] != nil)
        let outcome = try Caption.run(
            [
                "--library", scratch.file("lib"), "--add", photo, "--title", Self.title, "--subtitle", Self.subtitle,
                "--in-place",
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.contains(photo + ", " + photo + ".xmp, " + folder + "/IMG_0001.xmp"), "\(outcome.stdout)")
        for sidecar in [photo + ".xmp", folder + "/IMG_0001.xmp"] {
            try Readers.expect(sidecar, title: Self.title, description: Self.subtitle)
        }
        #expect(try others(photo + ".xmp") == darktable)
        #expect(try others(folder + "/IMG_0001.xmp") == lightroom)
    }

    @Test("a sidecar that cannot take the new words stops the write before the photo changes")
    func unwritableSidecarStopsTheWrite() throws {
        let scratch = Scratch()
        let folder = try CameraPhotos.make(in: scratch)
        let photo = folder + "/IMG_0001.JPG"
        chmod(folder + "/IMG_0001.xmp", 0o444)
        let before = Photos.sha256(ofFile: photo)
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S", "--in-place"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("The sidecar is read-only: " + folder + "/IMG_0001.xmp"), "\(outcome.stderr)")
        #expect(Photos.sha256(ofFile: photo) == before, "the photo is untouched")
    }

    /// Agencies' older systems read IIM alone: a JPEG or TIFF without it gets a block
    /// holding the caption and the credits, as exiftool, exiv2 and GExiv2 read it; with
    /// `--no-iim` none is made.
    @Test(
        "a JPEG or TIFF without IIM gets one: UTF-8, the title cut at a character to 64 bytes, credits, a true digest",
        arguments: ["jfif-only.jpg", "phone-ultrahdr.jpg", "comment-before-exif.jpg", "scan.tif"])
    func photoWithoutIIMGetsOne(name: String) throws {
        let scratch = Scratch()
        let folder = try CameraPhotos.make(in: scratch)
        if name == "scan.tif" {
            let made = try Tool.run("convert", ["-size", "64x48", "gradient:navy-orange", folder + "/scan.tif"])
            try #require(made.status == 0, "convert: \(made.stderr)")
        }
        let photo = folder + "/" + name
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let set = try Caption.run(["--set-credits", "--creator", "Bea Costa", "--city", "Zürich"], environment: config)
        try #require(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("IPTC-IIM is added to JPEG and TIFF photos that have none."), "\(set.stdout)")
        let title = String(repeating: "港", count: 30)
        let added = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", title, "--subtitle", "Boats", "--in-place"],
            environment: config)
        try #require(added.status == 0, "\(added.stderr)")
        let read = try #require(
            try Readers.firstObject(
                try Tool.run("exiftool", ["-j", "-G1", "-IPTC:all", "-IPTCDigest", "-CurrentIPTCDigest", photo]).stdout)
        )
        #expect(read["IPTC:CodedCharacterSet"] as? String == "UTF8")
        #expect(read["IPTC:ObjectName"] as? String == String(repeating: "港", count: 21), "64 bytes: 21 characters")
        #expect(read["IPTC:Caption-Abstract"] as? String == "Boats")
        #expect(read["IPTC:By-line"] as? String == "Bea Costa")
        #expect(read["IPTC:City"] as? String == "Zürich")
        #expect(read["Photoshop:IPTCDigest"] as? String == read["File:CurrentIPTCDigest"] as? String)
        let exiv2 = try Tool.run("exiv2", ["-Pkt", "-g", "Iptc.Application2.Caption", photo])
        #expect(exiv2.stdout.contains("Boats"), "exiv2: \(exiv2.stdout)\(exiv2.stderr)")
        let gexiv2 = try CreditReaders.gexiv2(photo)
        #expect(gexiv2["Iptc.Application2.Byline"] == "Bea Costa" && gexiv2["Iptc.Application2.City"] == "Zürich")

        // Turned off, a photo without IIM gets none.
        let off = try Caption.run(["--set-credits", "--no-iim"], environment: config)
        #expect(off.stdout.contains("IPTC-IIM is written only where a photo already has it."), "\(off.stdout)")
        let other = Scratch()
        let fresh = try CameraPhotos.make(in: other) + "/jfif-only.jpg"
        let plain = try Caption.run(
            ["--library", scratch.file("lib2"), "--add", fresh, "--title", "T", "--subtitle", "S", "--in-place"],
            environment: config)
        try #require(plain.status == 0, "\(plain.stderr)")
        #expect(try Readers.exiftool(fresh).iptc.isEmpty)
    }

    @Test(
        "Latin-1 IIM, declared in 1:90 or not, becomes UTF-8 with 1:90: its other datasets read the same, the digest matches",
        arguments: ["latin1-iim.jpg", "latin1-declared-iim.jpg"], Mode.intoPhotos)
    func latinIIMBecomesUTF8(name: String, mode: Mode) throws {
        let scratch = Scratch()
        let photo = try Self.caption(try CameraPhotos.make(in: scratch) + "/" + name, mode, scratch: scratch)
        let read = try #require(
            try Readers.firstObject(
                try Tool.run("exiftool", ["-j", "-G1", "-IPTC:all", "-IPTCDigest", "-CurrentIPTCDigest", photo]).stdout)
        )
        #expect(read["IPTC:CodedCharacterSet"] as? String == "UTF8")
        #expect(read["IPTC:City"] as? String == "Zürich")
        #expect(read["IPTC:By-line"] as? String == "José Núñez")
        #expect(read["Photoshop:IPTCDigest"] as? String == read["File:CurrentIPTCDigest"] as? String)
        let bytes = Photos.bytes(photo)
        let utf8 = Array("Zürich".utf8)
        #expect(bytes.indices.dropLast(utf8.count).contains { bytes[$0..<($0 + utf8.count)].elementsEqual(utf8) })
    }

    @Test("extended XMP past 64 KB keeps every keyword; a caption held there moves to the standard packet")
    func extendedXMPKept() throws {
        let scratch = Scratch()
        let folder = try CameraPhotos.make(in: scratch)
        let photo = folder + "/extended-xmp.jpg"
        let keywords = try Tool.run("exiftool", ["-s3", "-sep", "|", "-XMP-dc:Subject", photo]).stdout
        #expect(keywords.split(separator: "|").count == 900)
        _ = try Self.caption(photo, .inPlace, scratch: scratch)
        #expect(try Tool.run("exiftool", ["-s3", "-sep", "|", "-XMP-dc:Subject", photo]).stdout == keywords)

        // The same photo with its title and description in the extended part.
        let moved = folder + "/caption-in-extended-xmp.jpg"
        #expect(try Readers.exiftool(moved).title == "OLD TITLE", "exiftool reads the caption from extended XMP")
        _ = try Self.caption(moved, .inPlace, scratch: scratch)
        let all = try Tool.run("exiftool", ["-a", "-G1", "-j", moved]).stdout
        #expect(!all.contains("OLD"), "no old words in the standard or the extended packet")
        try Readers.expect(moved, title: Self.title, description: Self.subtitle)
        #expect(try Tool.run("exiftool", ["-s3", "-sep", "|", "-XMP-dc:Subject", moved]).stdout == keywords)
        #expect(try CameraPhotos.warnings(moved).isEmpty, "the GUID is the extended part's MD5")
    }

    @Test("a JPEG comment that held the caption takes the new words; one that did not (a library's stamp) stays")
    func commentsThatHeldTheCaption() throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/comment.jpg"
        _ = try Self.caption(photo, .inPlace, scratch: scratch)
        let comments = try Tool.run("exiftool", ["-a", "-s3", "-Comment", photo]).stdout
        #expect(comments.contains(Self.subtitle), "\(comments)")
        #expect(comments.contains("CREATOR: gd-jpeg v1.0"), "\(comments)")
        #expect(!comments.contains("OLD"), "\(comments)")
    }

    @Test("a subtitle with emoji in Exif UserComment reads whole in exiftool, exiv2 and GExiv2 (no UCS-2 to fail on)")
    func userCommentWithEmoji() throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/camera.jpg"
        let subtitle = "Fähre 🚢 um neun, 渡轮"
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", subtitle, "--in-place"])
        try #require(outcome.status == 0, "\(outcome.stderr)")
        #expect(try Tool.run("exiftool", ["-s3", "-ExifIFD:UserComment", photo]).stdout == subtitle + "\n")
        let exiv2 = try Tool.run("exiv2", ["-Pt", "-K", "Exif.Photo.UserComment", photo])
        #expect(exiv2.stdout.contains(subtitle) && exiv2.stderr.isEmpty, "\(exiv2.stdout) \(exiv2.stderr)")
        let gexiv2 = try Tool.run(
            "python3",
            [
                "-c",
                "import gi, sys; gi.require_version('GExiv2', '0.10'); from gi.repository import GExiv2; "
                    + "m = GExiv2.Metadata(); m.open_path(sys.argv[1]); "
                    + "print(m.try_get_tag_interpreted_string('Exif.Photo.UserComment'))",
                photo,
            ])
        #expect(gexiv2.stdout.hasSuffix(subtitle + "\n"), "GExiv2: \(gexiv2.stdout) \(gexiv2.stderr)")
        // Within UCS-2 the Exif standard's own encoding stays.
        let plain = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "Fähre, 渡轮", "--in-place"])
        try #require(plain.status == 0, "\(plain.stderr)")
        let raw = try Tool.run("exiv2", ["-Pv", "-K", "Exif.Photo.UserComment", photo]).stdout
        #expect(raw.hasPrefix("charset=Unicode Fähre, 渡轮"), "\(raw)")
    }

    @Test("a hard-linked photo is refused in place, with the sidecar offered; its other name keeps what it had")
    func hardLinkRefused() throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/camera.jpg"
        let other = scratch.file("same-photo.jpg")
        #expect(link(photo, other) == 0)
        let before = Photos.sha256(ofFile: photo)
        let library = scratch.file("lib")
        try WriteBackTests.expectRefused(
            try WriteBackTests.addInPlace(photo, library), photo: photo, before: before, library: library,
            saying:
                "The photo has other names (hard links), which would keep the old words; Caption does not write it: "
                + photo)
        #expect(Photos.sha256(ofFile: other) == before)
        var info = stat()
        #expect(stat(photo, &info) == 0 && info.st_nlink == 2, "still one file with two names")
    }

    @Test("a photo another user owns is refused to an ordinary user; root writes it and keeps its owner")
    func otherUsersPhoto() throws {
        try #require(Caption.isRoot, "making a photo another user owns needs root; make test runs as root")
        let scratch = Scratch()
        let folder = try CameraPhotos.make(in: scratch)
        let photo = folder + "/camera.jpg"
        chmod(folder, 0o777)
        chmod(photo, 0o666)
        let library = scratch.folder("nobody-lib")
        try Caption.giveToNobody(library)
        let before = Photos.sha256(ofFile: photo)
        let refused = try Caption.run(
            ["--library", library, "--add", photo, "--title", "T", "--subtitle", "S", "--in-place"], unprivileged: true)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("The photo belongs to another user: " + photo), "\(refused.stderr)")
        #expect(Photos.sha256(ofFile: photo) == before)

        chown(photo, 65534, 65534)
        let written = try Caption.run(
            ["--library", scratch.file("root-lib"), "--add", photo, "--title", "T", "--subtitle", "S", "--in-place"])
        #expect(written.status == 0, "\(written.stderr)")
        var info = stat()
        #expect(stat(photo, &info) == 0 && info.st_uid == 65534 && info.st_gid == 65534, "the owner stays")
        #expect(Photos.sha256(ofFile: photo) != before)
    }
}
