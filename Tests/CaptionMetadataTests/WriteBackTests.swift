// Captions into the user's own photos through the command line: --add --in-place and
// --sidecar, --write-back, and every way it can fail leaving the photo as it was.

import CMetadataSupport
import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionMetadata

/// A photo as a user may have it: old words in every field some app shows (IPTC, Exif
/// ImageDescription, UserComment, the XP tags, XMP with a French title and a headline),
/// and a camera model, a GPS position and an sRGB ICC profile that must survive.
enum OldPhoto {
    static let profile = "/usr/share/color/icc/sRGB.icc"

    static func make(_ format: PhotoFormat, in scratch: Scratch, name: String? = nil) throws -> String {
        let photo = try Photos.file(format, in: scratch, name: name)
        let outcome = try Tool.run(
            "exiftool",
            [
                "-q", "-q", "-overwrite_original", "-ICC_Profile<=" + profile, "-IPTC:CodedCharacterSet=UTF8",
                "-IPTC:ObjectName=OLD TITLE", "-IPTC:Caption-Abstract=OLD CAPTION", "-IPTC:Headline=OLD TITLE",
                "-EXIF:ImageDescription=OLD CAPTION", "-EXIF:XPTitle=OLD TITLE", "-EXIF:XPSubject=OLD CAPTION",
                "-EXIF:XPComment=OLD CAPTION", "-EXIF:UserComment=OLD CAPTION", "-XMP-dc:Title=OLD TITLE",
                "-XMP-dc:Description=OLD CAPTION", "-XMP-dc:Title-fr=OLD TITLE", "-XMP-photoshop:Headline=OLD TITLE",
                "-XMP-xmp:Rating=4", "-EXIF:Model=Caption Camera", "-GPSLatitude=51.5", "-GPSLatitudeRef=N",
                photo,
            ])
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
        return photo
    }

    /// What must survive: camera model, GPS, the ICC profile's name and the rating.
    static func kept(_ path: String) throws -> [String] {
        try Tool.run("exiftool", ["-s3", "-Model", "-GPSLatitude", "-ProfileDescription", "-XMP-xmp:Rating", path])
            .stdout.split(separator: "\n").map(String.init)
    }
}

@Suite("Captions into the photos themselves, and beside them")
struct WriteBackTests {
    /// Chinese and emoji, 120 characters: past IIM's 64 bytes, past UCS-2.
    static let title = String(repeating: "港口", count: 28) + "🌅 " + String(repeating: "x", count: 62)
    static let subtitle = "渔船在黄昏 boats at dusk"

    static func add(_ photo: String, library: String, _ extra: [String]) throws -> Outcome {
        try Caption.run(["--library", library, "--add", photo, "--title", title, "--subtitle", subtitle] + extra)
    }

    /// Every tag both readers find, the old words nowhere, the new ones where each looks.
    static func expectCaptioned(_ path: String, format: PhotoFormat, inside: Bool) throws {
        #expect(title.count == 120)
        let everything = try Tool.run("exiftool", ["-a", "-G1", "-j", path])
        #expect(everything.status == 0)
        let object = try #require(try Readers.firstObject(everything.stdout))
        // The file's name and folder are not its metadata; a scratch folder's random
        // suffix can spell "OLD" (it did once, in CI).
        let oldTags = object.filter { key, value in
            key != "SourceFile" && !key.hasPrefix("System:") && "\(value)".contains("OLD")
        }
        #expect(oldTags.isEmpty, "exiftool finds old words in \(path): \(oldTags)")
        let exiv2 = try Tool.run("exiv2", ["-pa", path])
        #expect(!exiv2.stdout.contains("OLD"), "exiv2 finds old words: \(exiv2.stdout)")
        // Not even as bytes no field points at any more (exempi leaves replaced values behind).
        let bytes = Photos.bytes(path)
        for old in [Array("OLD".utf8), Array("OLD".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }] {
            let found = bytes.indices.dropLast(old.count - 1).contains {
                bytes[$0..<($0 + old.count)].elementsEqual(old)
            }
            #expect(!found, "the file's bytes still hold old words: \(path)")
        }
        #expect(object["XMP-dc:Title"] as? String == title)
        #expect(object["XMP-dc:Description"] as? String == subtitle)
        let seen = try Readers.exiv2(path)
        #expect(seen.title == title && seen.summary == subtitle, "exiv2 reads \(seen)")
        guard inside else { return }
        #expect(object["IFD0:ImageDescription"] as? String == subtitle, "Exif in every format that has it")
        #expect(object["ExifIFD:UserComment"] as? String == subtitle, "Shotwell's comment")
        #expect(object["IFD0:XPSubject"] as? String == subtitle)
        #expect(object["IFD0:XPComment"] as? String == subtitle)
        #expect(object["IFD0:XPTitle"] == nil, "a title past UCS-2 takes XPTitle away rather than garble it")
        #expect(object["XMP-photoshop:Headline"] as? String == title, "the headline held the old title")
        #expect(object["XMP-dc:Title-fr"] == nil)
        if format == .jpeg || format == .tiff {
            let objectName = try #require(object["IPTC:ObjectName"] as? String)
            #expect(title.hasPrefix(objectName) && objectName.utf8.count <= 64, "ObjectName is cut to 64 bytes")
            #expect(object["IPTC:Caption-Abstract"] as? String == subtitle)
            #expect(object["IPTC:CodedCharacterSet"] as? String == "UTF8")
            let digests = try Tool.run("exiftool", ["-s3", "-IPTCDigest", "-CurrentIPTCDigest", path]).stdout
            let lines = digests.split(separator: "\n")
            #expect(lines.count == 2 && lines[0] == lines[1], "the IPTC digest is current: \(digests)")
        } else {
            #expect(object.keys.filter { $0.hasPrefix("IPTC") }.isEmpty, "PNG's stray IPTC chunk goes")
        }
    }

    @Test(
        "--add --in-place: the photo gets the new words everywhere readers look, old ones nowhere; pixels, GPS, model and ICC kept",
        arguments: [PhotoFormat.jpeg, .png, .tiff, .webp])
    func inPlace(format: PhotoFormat) throws {
        let scratch = Scratch()
        let photo = try OldPhoto.make(format, in: scratch)
        let pixels = try PixelReader.pixels(photo)
        let kept = try OldPhoto.kept(photo)
        #expect(kept.count == 4)
        chmod(photo, 0o640)
        // Root can give the photo to someone else, whose it must stay.
        if Caption.isRoot { chown(photo, 65534, 65534) }
        let tag = Array("kept by Caption".utf8)
        // A file system without user attributes (tmpfs before Linux 6.6) cannot show this.
        let attributes = setxattr(photo, "user.caption-test", tag, tag.count, 0) == 0
        let outcome = try Self.add(photo, library: scratch.file("lib"), ["--in-place"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Wrote entry 1 into " + photo))
        try Self.expectCaptioned(photo, format: format, inside: true)
        #expect(try PixelReader.pixels(photo) == pixels)
        #expect(try OldPhoto.kept(photo) == kept)
        var info = stat()
        stat(photo, &info)
        #expect(info.st_mode & 0o777 == 0o640, "permissions kept")
        if Caption.isRoot { #expect(info.st_uid == 65534 && info.st_gid == 65534, "owner and group kept") }
        if attributes {
            var value = [UInt8](repeating: 0, count: 64)
            let size = getxattr(photo, "user.caption-test", &value, value.count)
            #expect(size == tag.count && Array(value.prefix(max(size, 0))) == tag, "extended attributes kept")
        }
        #expect(scratch.names(in: scratch.path).filter { $0.hasPrefix(".caption") }.isEmpty, "no temporary file left")
        let entry = try #require(try Library(directory: scratch.file("lib")).entry(id: 1))
        #expect(entry.source == photo && entry.sourceSHA256 == Photos.sha256(ofFile: photo))
        #expect(CaptionFinder.find(photo).origin == .xmp)
    }

    /// Dolphin shows a file's `user.xdg.comment` (set there, or by Baloo's tools): after an
    /// in-place write it says the new words, not the old caption; a photo without one gets
    /// none, and the other attributes (Dolphin's tags) stay.
    @Test("an in-place write gives KDE's user.xdg.comment the new words where the photo has one")
    func kdeCommentFollowsTheCaption() throws {
        let scratch = Scratch()
        let commented = try OldPhoto.make(.jpeg, in: scratch)
        let plain = try OldPhoto.make(.jpeg, in: scratch, name: "plain.jpg")
        func set(_ path: String, _ name: String, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return setxattr(path, name, bytes, bytes.count, 0) == 0
        }
        func value(_ path: String, _ name: String) -> String? {
            var buffer = [UInt8](repeating: 0, count: 256)
            let size = getxattr(path, name, &buffer, buffer.count)
            return size < 0 ? nil : String(decoding: buffer.prefix(size), as: UTF8.self)
        }
        try #require(
            set(commented, "user.xdg.comment", "OLD CAPTION") && set(commented, "user.xdg.tags", "harbour,boats"),
            "the scratch folder's file system takes user attributes")
        for (index, photo) in [commented, plain].enumerated() {
            let outcome = try Self.add(photo, library: scratch.file("lib\(index)"), ["--in-place"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        #expect(value(commented, "user.xdg.comment") == Self.subtitle)
        #expect(value(commented, "user.xdg.tags") == "harbour,boats", "Dolphin's tags stay")
        #expect(value(plain, "user.xdg.comment") == nil, "no comment is made")
    }

    @Test(
        "--add --sidecar: PHOTO.EXT.xmp holds the words for both readers; the photo is not touched",
        arguments: [PhotoFormat.jpeg, .png, .tiff, .webp])
    func sidecar(format: PhotoFormat) throws {
        let scratch = Scratch()
        let photo = try OldPhoto.make(format, in: scratch)
        let before = Photos.sha256(ofFile: photo)
        let outcome = try Self.add(photo, library: scratch.file("lib"), ["--sidecar"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Photos.sha256(ofFile: photo) == before)
        try Self.expectCaptioned(photo + ".xmp", format: format, inside: false)
        let found = CaptionFinder.find(photo)
        #expect(found.origin == .sidecar(photo + ".xmp"), "a sidecar is read before the photo's own old words")
        #expect(found.caption == PhotoCaption(CaptionWords(title: Self.title, subtitle: Self.subtitle)))
    }

    @Test(
        "--export: the copy gets the same cleanup as a photo captioned in place",
        arguments: [PhotoFormat.jpeg, .png, .tiff, .webp])
    func export(format: PhotoFormat) throws {
        let scratch = Scratch()
        let photo = try OldPhoto.make(format, in: scratch)
        let pixels = try PixelReader.pixels(photo)
        let kept = try OldPhoto.kept(photo)
        #expect(try Self.add(photo, library: scratch.file("lib"), []).status == 0)
        let out = scratch.file("out")
        let outcome = try Caption.run(["--library", scratch.file("lib"), "--export", out])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let exported = try #require(scratch.names(in: out).first)
        try Self.expectCaptioned(out + "/" + exported, format: format, inside: true)
        #expect(try PixelReader.pixels(out + "/" + exported) == pixels)
        #expect(try OldPhoto.kept(out + "/" + exported) == kept)
    }

    @Test("an existing sidecar keeps what else it holds, and an Adobe PHOTO.xmp beside it is updated too")
    func sidecarMerged() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch, name: "IMG_1.jpg")
        let darktable = scratch.write(
            "IMG_1.jpg.xmp",
            Array(
                """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
                 xmp:Rating="3"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">OLD TITLE</rdf:li></rdf:Alt></dc:title>
                </rdf:Description></rdf:RDF></x:xmpmeta>
                """.utf8))
        let adobe = scratch.write("IMG_1.xmp", Array(try String(contentsOfFile: darktable, encoding: .utf8).utf8))
        let outcome = try Caption.run([
            "--library", scratch.file("lib"), "--add", photo, "--title", "New", "--subtitle", "Words", "--sidecar",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for path in [darktable, adobe] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains("OLD"))
            #expect(text.contains("Rating=\"3\"") || text.contains("<xmp:Rating>3</xmp:Rating>"), "\(text)")
            #expect(CaptionFinder.sidecarWords(path) == PhotoCaption(CaptionWords(title: "New", subtitle: "Words")))
        }
    }

    @Test("a HEIC photo cannot hold the caption inside: --in-place writes the sidecar and says so")
    func unsupportedGetsSidecar() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.heif, in: scratch, name: "p.heic")
        let before = Photos.sha256(ofFile: photo)
        let outcome = try Caption.run([
            "--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S", "--in-place",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(photo + ".xmp (this photo cannot hold the caption inside)"))
        #expect(Photos.sha256(ofFile: photo) == before)
        #expect(CaptionFinder.sidecarWords(photo + ".xmp") == PhotoCaption(CaptionWords(title: "T", subtitle: "S")))
    }

    /// The failure cases share their checks: exit 1, the message, the photo as it was,
    /// the entry saved, and the sidecar suggested where it can help.
    static func expectRefused(
        _ outcome: Outcome, photo: String, before: String, library: String, saying message: String,
        sidecarOffered: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(outcome.status == 1, sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(
            outcome.stderr.contains("The caption of entry 1 is saved in the library."), sourceLocation: sourceLocation)
        #expect(
            outcome.stderr.contains("caption --write-back --sidecar --id 1") == sidecarOffered, "\(outcome.stderr)",
            sourceLocation: sourceLocation)
        #expect(Photos.sha256(ofFile: photo) == before, "the photo is untouched", sourceLocation: sourceLocation)
        #expect(try Library(directory: library).entry(id: 1)?.title == "T", sourceLocation: sourceLocation)
        let folder = URL(fileURLWithPath: photo).deletingLastPathComponent().path
        let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix(".caption")
        }
        #expect(leftovers.isEmpty, "no temporary file left: \(leftovers)", sourceLocation: sourceLocation)
    }

    static func addInPlace(_ photo: String, _ library: String, shellPrefix: String? = nil) throws -> Outcome {
        try Caption.run(
            ["--library", library, "--add", photo, "--title", "T", "--subtitle", "S", "--in-place"],
            shellPrefix: shellPrefix)
    }

    @Test("a read-only photo is left alone (even for root), with the sidecar offered")
    func readOnlyFile() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        chmod(photo, 0o444)
        let before = Photos.sha256(ofFile: photo)
        let library = scratch.file("lib")
        try Self.expectRefused(
            try Self.addInPlace(photo, library), photo: photo, before: before, library: library,
            saying: "The photo is read-only: " + photo)
    }

    @Test("a photo in a read-only folder is left alone; no sidecar is offered, the folder takes none")
    func readOnlyFolder() throws {
        let scratch = Scratch()
        let folder = scratch.folder("shelf")
        let photo = try Photos.file(.jpeg, in: scratch, name: "shelf/p.jpg")
        chmod(folder, 0o555)
        let before = Photos.sha256(ofFile: photo)
        let library = scratch.file("lib")
        try Self.expectRefused(
            try Self.addInPlace(photo, library), photo: photo, before: before, library: library,
            saying: "The photo's folder is read-only: " + photo, sidecarOffered: false)
    }

    @Test("a symbolic link is not written through, nor replaced")
    func symbolicLink() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        let link = scratch.file("link.jpg")
        #expect(Glibc.symlink(photo, link) == 0)
        let before = Photos.sha256(ofFile: photo)
        let library = scratch.file("lib")
        try Self.expectRefused(
            try Self.addInPlace(link, library), photo: photo, before: before, library: library,
            saying: "The photo is a symbolic link; Caption does not write through links: " + link)
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link is still a link")
    }

    @Test("a full disk leaves the photo whole: a small tmpfs as root, else a file size limit")
    func fullDisk() throws {
        let scratch = Scratch()
        let folder = scratch.folder("disk")
        // Noise does not compress: about 110 kB of JPEG, which fits once on 192 kB, not twice.
        let bytes = Photos.make(width: 300, height: 200, seed: 7, type: "jpeg", options: [("quality", "100")])
        var shellPrefix: String?
        let mounted =
            try Caption.isRoot
            && Tool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=192k", "tmpfs", folder]).status == 0
        defer { if mounted { _ = try? Tool.run("/bin/umount", [folder]) } }
        if !mounted {
            // Past the limit a write fails with EFBIG, as on a full disk.
            // The library's copy and the temporary copy are the photo's size and fit; the
            // captioned copy, a few hundred bytes longer, does not.
            shellPrefix = "ulimit -f \((bytes.count + 511) / 512);"
        }
        let photo = scratch.write("disk/p.jpg", bytes)
        let before = Photos.sha256(ofFile: photo)
        let library = scratch.file("lib")
        let outcome = try Self.addInPlace(photo, library, shellPrefix: shellPrefix)
        try Self.expectRefused(
            outcome, photo: photo, before: before, library: library, saying: "Not enough disk space beside the photo")
    }

    @Test(
        "--write-back skips, one line each, a photo changed since it was read and one that is gone; the rest are written"
    )
    func writeBackSkips() throws {
        let scratch = Scratch()
        let library = scratch.file("lib")
        var photos: [String] = []
        for index in 1...3 {
            let photo = try Photos.file(.jpeg, in: scratch, name: "p\(index).jpg", seed: UInt32(index))
            photos.append(photo)
            let outcome = try Caption.run([
                "--library", library, "--add", photo, "--title", "T\(index)", "--subtitle", "S\(index)",
            ])
            #expect(outcome.status == 0)
        }
        _ = try Tool.run("exiftool", ["-q", "-overwrite_original", "-XMP-dc:Title=Someone else", photos[0]])
        let changed = Photos.sha256(ofFile: photos[0])
        try FileManager.default.removeItem(atPath: photos[1])
        let json = try Caption.run(["--library", library, "--list", "--json"]).stdout
        #expect(json.contains("\"source\": \"" + photos[2] + "\""))

        let outcome = try Caption.run(["--library", library, "--write-back"])
        #expect(outcome.status == 0, "skipping is not a failure: \(outcome.stderr)")
        #expect(
            outcome.stderr.hasSuffix("\n") && outcome.stderr.split(separator: "\n").count == 2, "\(outcome.stderr)")
        #expect(
            outcome.stderr.split(separator: "\n").map { String($0) }.sorted()
                == [
                    "caption: Skipped entry 1: the photo was changed since Caption read it: " + photos[0],
                    "caption: Skipped entry 2: the photo is no longer there: " + photos[1],
                ].sorted())
        #expect(outcome.stdout == "Wrote entry 3 into " + photos[2] + "\n")
        #expect(Photos.sha256(ofFile: photos[0]) == changed, "someone else's change stays")
        #expect(PhotoMetadata.read(photos[2]) == PhotoCaption(CaptionWords(title: "T3", subtitle: "S3")))

        // Written once, the file's new content is the one remembered: a second run writes again.
        let again = try Caption.run(["--library", library, "--write-back", "--id", "3"])
        #expect(again.status == 0 && again.stdout == "Wrote entry 3 into " + photos[2] + "\n", "\(again.stderr)")
        let sidecar = try Caption.run(["--library", library, "--write-back", "--sidecar", "--id", "3"])
        #expect(sidecar.status == 0, "\(sidecar.stderr)")
        #expect(
            CaptionFinder.sidecarWords(photos[2] + ".xmp") == PhotoCaption(CaptionWords(title: "T3", subtitle: "S3")))
        let unknown = try Caption.run(["--library", library, "--write-back", "--id", "9"])
        #expect(unknown.status == 1 && unknown.stderr.contains("There is no entry 9 in the library"))
    }

    @Test(
        "what a killed write left goes with the next write there; while another write holds the folder, only a day-old one"
    )
    func leftoversRemoved() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        func leftover(_ name: String, daysOld: Int = 0) -> String {
            let path = scratch.write(name, [1, 2, 3])
            var times = [
                timespec(tv_sec: time(nil) - daysOld * 86_400, tv_nsec: 0),
                timespec(tv_sec: time(nil) - daysOld * 86_400, tv_nsec: 0),
            ]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            return path
        }
        // Another write in the folder (its shared lock): its fresh file may be its own.
        let other = leftover(".other-old.jpg", daysOld: 2)
        var old = leftover(".caption-write-old.jpg", daysOld: 2)
        var fresh = leftover(".caption-write-fresh.jpg")
        // Close-on-exec: a program another test starts meanwhile must not inherit the
        // descriptor, and with it the lock, past the close below.
        let running = open(scratch.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(flock(running, LOCK_SH) == 0)
        _ = try InPlaceWriter.write(CaptionWords(title: "T", subtitle: "S"), into: photo)
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: fresh), "a write running now may own it")
        close(running)
        // No other write: whatever is there was left by one that was killed (it was kept for
        // a day before), and goes, with a sidecar write's too.
        _ = try InPlaceWriter.write(CaptionWords(title: "T2", subtitle: "S2"), into: photo)
        #expect(!FileManager.default.fileExists(atPath: fresh), "a killed write's, removed at once")
        old = leftover(".caption-write-killed.jpg")
        fresh = leftover(".caption-write-killed.xmp")
        _ = try SidecarWriter.write(CaptionWords(title: "T3", subtitle: "S3"), besides: photo)
        #expect(!FileManager.default.fileExists(atPath: old) && !FileManager.default.fileExists(atPath: fresh))
        #expect(FileManager.default.fileExists(atPath: other), "not ours")
    }

    @Test("a photo changed by another program between the read and the rename is not overwritten")
    func changedWhileWriting() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        let expected = Photos.sha256(ofFile: photo)
        _ = try Tool.run("exiftool", ["-q", "-overwrite_original", "-XMP-dc:Title=Meanwhile", photo])
        let before = Photos.sha256(ofFile: photo)
        #expect(throws: WriteBackError.self) {
            try InPlaceWriter.write(CaptionWords(title: "T", subtitle: "S"), into: photo, expectedSHA256: expected)
        }
        do {
            _ = try InPlaceWriter.write(
                CaptionWords(title: "T", subtitle: "S"), into: photo, expectedSHA256: expected)
        } catch {
            #expect(error.kind == .changed)
        }
        #expect(Photos.sha256(ofFile: photo) == before)
    }

    @Test(
        "a copy that does not read back as the photo is refused: a caption exempi did not write, another picture",
        arguments: [
            (PhotoFormat.jpeg, "its image data or colour profile differ"),
            (.png, "its image data or colour profile differ"),
            (.webp, "its image data or colour profile differ"), (.tiff, "its pixels differ"),
        ])
    func readBackRefuses(format: PhotoFormat, differs: String) throws {
        let scratch = Scratch()
        let photo = try Photos.file(format, in: scratch, seed: 1)
        let other = try Photos.file(format, in: scratch, name: "other." + format.fileExtension, seed: 2)
        let bytes = Photos.bytes(photo)
        #expect(
            ReadBack.problem(
                original: bytes, written: bytes, at: photo, path: photo, format: format,
                caption: CaptionWords(title: "T", subtitle: "S")) == "the caption is not in it")
        try PhotoMetadata.embed(CaptionWords(title: "T", subtitle: "S"), inCopyAt: other)
        #expect(
            ReadBack.problem(
                original: bytes, written: Photos.bytes(other), at: other, path: photo, format: format,
                caption: CaptionWords(title: "T", subtitle: "S")) == differs)
    }

    @Test("a photo whose Exif cannot be read is not written in place, where its Exif would be lost; its export is")
    func unreadableExifIsNotWrittenOver() throws {
        let scratch = Scratch()
        let photo = try DamagedPhotos.make(.jpegExifBadOffset, in: scratch)
        let before = Photos.sha256(ofFile: photo)
        let library = scratch.file("lib")
        try Self.expectRefused(
            try Self.addInPlace(photo, library), photo: photo, before: before, library: library,
            saying: "The captioned copy did not read back correctly (its Exif data differ); the photo is untouched: "
                + photo)
        let exported = try Caption.run(["--library", library, "--export", scratch.file("out")])
        #expect(exported.status == 0, "\(exported.stderr)")
        try Readers.expect(scratch.file("out/T.jpg"), title: "T", description: "S")
    }

    @Test("the library's own copy of a photo is never written into, in place or by write-back, nor given a sidecar")
    func libraryCopyIsNotWritten() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        let library = scratch.file("lib")
        #expect(try Caption.run(["--library", library, "--add", photo, "--title", "A", "--subtitle", "B"]).status == 0)
        let stored = try #require(try Library(directory: library).entry(id: 1)).photo
        let copy = library + "/" + stored
        let before = Photos.sha256(ofFile: copy)
        #expect(copy.hasSuffix(before + ".jpg"), "a stored photo is named after its content")
        for extra in [["--in-place"], ["--sidecar"]] {
            let outcome = try Caption.run(
                ["--library", library, "--add", copy, "--title", "T", "--subtitle", "S"] + extra)
            #expect(outcome.status == 1)
            #expect(
                outcome.stderr.contains(
                    "This is the library's own copy of a photo; Caption writes captions into the photo it came from: "
                        + copy), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("--sidecar --id"), "no sidecar is offered for it")
        }
        let writeBack = try Caption.run(["--library", library, "--write-back"])
        #expect(writeBack.status == 1)
        #expect(Photos.sha256(ofFile: copy) == before, "the copy still holds what its name says")
        #expect(scratch.names(in: library + "/photos").filter { $0.hasSuffix(".xmp") }.isEmpty)
    }

    @Test(
        "XMP too large to parse (12,000 keywords) is neither read nor rewritten: one line each, the photo untouched",
        arguments: [PhotoFormat.png, .jpeg])
    func oversizedXMPIsBounded(format: PhotoFormat) throws {
        let scratch = Scratch()
        let photo = try Photos.file(format, in: scratch)
        // 12,000 keywords, written by exiftool (into a JPEG as standard and extended XMP).
        let keywords = (0..<12_000).map { "-XMP-dc:Subject=keyword \($0)" }.joined(separator: "\n")
        let arguments = scratch.write("keywords.args", Array(keywords.utf8))
        let written = try Tool.run(
            "exiftool", ["-q", "-q", "-overwrite_original", "-XMP-dc:Title=Old", "-@", arguments, photo])
        try #require(written.status == 0, "exiftool: \(written.stderr)")
        try #require(
            try Tool.run("exiftool", ["-m", "-s3", "-XMP-dc:Title", photo]).stdout == "Old\n", "the XMP is there")
        let before = Photos.sha256(ofFile: photo)
        let library = scratch.file("lib")
        let read = try Caption.run(["--library", library, "--add", photo])
        #expect(read.status == 1)
        #expect(
            read.stderr.contains(
                "The photo's XMP holds more than 10000 properties; Caption does not read it: " + photo),
            "\(read.stderr)")
        try Self.expectRefused(
            try Self.addInPlace(photo, library), photo: photo, before: before, library: library,
            saying: "The caption cannot be written into this photo (its XMP holds more than 10000 properties, "
                + "more than Caption rewrites); use a sidecar: " + photo)
        let exported = try Caption.run(["--library", library, "--export", scratch.file("out")])
        #expect(exported.status == 0)
        #expect(exported.stderr.contains("could not be written into the photo; it is in"), "\(exported.stderr)")
    }

    /// Cameras pad their stock text to the field's length with spaces (Olympus to 32
    /// bytes); exempi's reconciling keeps the padding, and padded or not it is no caption.
    @Test(arguments: ["OLYMPUS DIGITAL CAMERA         ", "SONY DSC               ", "  MINOLTA DIGITAL CAMERA"])
    func stockCameraTextIsNoCaptionHoweverPadded(stock: String) throws {
        let scratch = Scratch()
        let camera = try Photos.file(.jpeg, in: scratch, name: "camera.jpg")
        let tagging = try Tool.run(
            "exiftool", ["-q", "-overwrite_original", "-EXIF:ImageDescription=" + stock, camera])
        try #require(tagging.status == 0, "exiftool: \(tagging.stderr)")
        #expect(
            CaptionFinder.find(camera) == FoundCaption(caption: .none, origin: nil), "\(CaptionFinder.find(camera))")
    }

    @Test("reading follows the MWG order and says where the words came from")
    func readingOrder() throws {
        let scratch = Scratch()
        let iptc = try Photos.file(.jpeg, in: scratch, name: "iptc.jpg")
        _ = try Tool.run(
            "exiftool",
            ["-q", "-overwrite_original", "-IPTC:ObjectName=From IIM", "-IPTC:Caption-Abstract=IIM words", iptc])
        #expect(
            CaptionFinder.find(iptc)
                == FoundCaption(
                    caption: PhotoCaption(CaptionWords(title: "From IIM", subtitle: "IIM words")), origin: .iptc))
        let exif = try Photos.file(.jpeg, in: scratch, name: "exif.jpg")
        _ = try Tool.run("exiftool", ["-q", "-overwrite_original", "-EXIF:ImageDescription=Typed once", exif])
        #expect(
            CaptionFinder.find(exif)
                == FoundCaption(caption: PhotoCaption(CaptionWords(title: "", subtitle: "Typed once")), origin: .exif))
        let camera = try Photos.file(.jpeg, in: scratch, name: "camera.jpg")
        _ = try Tool.run(
            "exiftool", ["-q", "-overwrite_original", "-EXIF:ImageDescription=OLYMPUS DIGITAL CAMERA", camera])
        #expect(CaptionFinder.find(camera).origin == nil, "a camera's stock text is no caption")
        func sidecarOf(_ title: String, _ description: String) throws -> String {
            scratch.write(
                "made.xmp", Array(PhotoMetadata.sidecar(CaptionWords(title: title, subtitle: description)).utf8))
        }
        let both = try Photos.file(.jpeg, in: scratch, name: "both.jpg")
        _ = try Tool.run(
            "exiftool",
            ["-q", "-overwrite_original", "-XMP-dc:Title=From XMP", "-XMP-dc:Description=XMP words", both])
        #expect(CaptionFinder.find(both).origin == .xmp)
        _ = try Tool.run("exiftool", ["-q", "-overwrite_original", "-EXIF:ImageDescription=Other words", both])
        #expect(
            CaptionFinder.find(both)
                == FoundCaption(
                    caption: PhotoCaption(CaptionWords(title: "From XMP", subtitle: "XMP words")), origin: .xmp),
            "Exif never overrides the XMP's words")
        // IIM changed after the XMP by a program that knows no XMP (exiv2 leaves the
        // Photoshop digest stale): the IIM is newer, and wins.
        let stale = try Photos.file(.jpeg, in: scratch, name: "stale.jpg")
        try PhotoMetadata.embed(CaptionWords(title: "XMP title", subtitle: "XMP words"), inCopyAt: stale)
        _ = try Tool.run(
            "exiftool", ["-q", "-overwrite_original", "-IPTC:ObjectName=First", "-IPTC:Caption-Abstract=Words", stale])
        try PhotoMetadata.embed(CaptionWords(title: "XMP title", subtitle: "XMP words"), inCopyAt: stale)
        #expect(CaptionFinder.find(stale).origin == .xmp, "IIM and its digest current: XMP")
        _ = try Tool.run(
            "exiv2",
            [
                "-M", "set Iptc.Application2.ObjectName Changed later", "-M", "set Iptc.Application2.Caption IIM words",
                stale,
            ])
        #expect(
            CaptionFinder.find(stale)
                == FoundCaption(
                    caption: PhotoCaption(CaptionWords(title: "Changed later", subtitle: "IIM words")), origin: .iptc))
        scratch.write("both.xmp", Array(try String(contentsOfFile: try sidecarOf("Adobe", "A"), encoding: .utf8).utf8))
        #expect(
            CaptionFinder.find(both)
                == FoundCaption(
                    caption: PhotoCaption(CaptionWords(title: "Adobe", subtitle: "A")),
                    origin: .sidecar(scratch.file("both.xmp")))
        )
        #expect(CaptionFinder.find(scratch.file("missing.jpg")).origin == nil)
    }

    @Test("kill -9 at random moments of an in-place write leaves the photo as it was or fully captioned (60 kills)")
    func killedWhileWriting() throws {
        let scratch = Scratch()
        // A large photo, so that a kill often lands inside the write itself.
        let original = Photos.make(width: 1600, height: 1200, seed: 3, type: "jpeg")
        let photo = scratch.write("p.jpg", original)
        let originalSHA = Photos.sha256(ofFile: photo)
        let pixels = try PixelReader.pixels(photo)
        let library = scratch.file("lib")
        let saved = try Caption.run(["--library", library, "--add", photo, "--title", "Killed", "--subtitle", "Or not"])
        #expect(saved.status == 0)
        let arguments = ["--library", library, "--write-back", "--id", "1"]
        // Each round starts from the original, which the library remembers as read.
        func reset() throws {
            _ = scratch.write("p.jpg", original)
            try Library(directory: library).setSource(id: 1, path: photo, sha256: originalSHA)
        }
        // How long a whole write-back takes, warm: the kills are spread over it.
        var whole = 0
        for _ in 0..<3 {
            try reset()
            var start = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            #expect(Caption.wait(Caption.spawn(arguments)) == 0)
            var end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &end)
            whole = max(whole, Int(end.tv_sec - start.tv_sec) * 1_000_000 + Int(end.tv_nsec - start.tv_nsec) / 1000)
        }
        #expect(PhotoMetadata.read(photo) == PhotoCaption(CaptionWords(title: "Killed", subtitle: "Or not")))
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        var captioned = 0
        var untouched = 0
        for _ in 0..<400 where kills < 60 {
            try reset()
            let pid = Caption.spawn(arguments)
            usleep(UInt32(Int.random(in: 0...whole, using: &generator)))
            kill(pid, SIGKILL)
            guard Caption.wait(pid) == 128 + SIGKILL else { continue }
            kills += 1
            if Photos.sha256(ofFile: photo) == originalSHA {
                untouched += 1
                continue
            }
            #expect(
                PhotoMetadata.read(photo) == PhotoCaption(CaptionWords(title: "Killed", subtitle: "Or not")),
                "half written")
            #expect(try PixelReader.pixels(photo) == pixels)
            captioned += 1
        }
        #expect(kills >= 60, "only \(kills) runs were killed before they ended (a run takes \(whole) µs)")
        #expect(untouched + captioned == kills)
        // A kill leaves at most hidden temporary files beside the photo, never another photo.
        let names = scratch.names(in: scratch.path).filter { $0 != "lib" && $0 != "p.jpg" }
        #expect(names.allSatisfy { $0.hasPrefix(".caption-write-") }, "\(names)")
        print(
            "kill -9 during --write-back: \(kills) kills, \(untouched) left the photo as it was, "
                + "\(captioned) fully captioned (a run takes \(whole) µs)")
    }
}
