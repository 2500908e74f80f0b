// The fields a desk turns on, in camera photos: each where the IPTC Photo Metadata Standard
// puts it in XMP and IIM, as exiftool, exiv2 and GExiv2 read it, and nothing else changed.

import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionMetadata

@Suite("Optional caption fields: where the IPTC standard puts them, read by exiftool, exiv2 and GExiv2")
struct OptionalFieldMetadataTests {
    /// Every optional field's words, as given on the command line.
    static let given: [CaptionField: String] = [
        .headline: "Gale closes the harbour", .keywords: "harbour, storm; 港口", .altText: "Waves over a pier",
        .extendedDescription: "Grey waves break over the pier while a ferry waits.", .event: "Winter storm Ana",
        .instructions: "Embargo until 18:00", .jobID: "LIS-2026-0042", .sublocation: "Cais do Sodré",
        .state: "Lisboa",
    ]

    static var options: [String] { given.flatMap { ["--" + $0.key.optionName, $0.value] } }

    /// exiftool's name for each place (`-G1`), with exiv2's and GExiv2's.
    static let xmpNames: [String: String] = [
        "XMP-photoshop:Headline": "Xmp.photoshop.Headline", "XMP-dc:Subject": "Xmp.dc.subject",
        "XMP-iptcCore:AltTextAccessibility": "Xmp.iptc.AltTextAccessibility",
        "XMP-iptcCore:ExtDescrAccessibility": "Xmp.iptc.ExtDescrAccessibility",
        "XMP-iptcExt:Event": "Xmp.iptcExt.Event", "XMP-photoshop:Instructions": "Xmp.photoshop.Instructions",
        "XMP-photoshop:TransmissionReference": "Xmp.photoshop.TransmissionReference",
        "XMP-iptcCore:Location": "Xmp.iptc.Location", "XMP-photoshop:State": "Xmp.photoshop.State",
    ]
    static let iimNames: [String: String] = [
        "IPTC:Headline": "Iptc.Application2.Headline", "IPTC:Keywords": "Iptc.Application2.Keywords",
        "IPTC:SpecialInstructions": "Iptc.Application2.SpecialInstructions",
        "IPTC:OriginalTransmissionReference": "Iptc.Application2.TransmissionReference",
        "IPTC:Sub-location": "Iptc.Application2.SubLocation", "IPTC:Province-State": "Iptc.Application2.ProvinceState",
    ]

    /// What each reader should see, by exiv2's names: keywords as a list joined by ", ".
    static func expected(iim: Bool) -> [String: String] {
        var found: [String: String] = [
            "Xmp.photoshop.Headline": given[.headline]!, "Xmp.dc.subject": "harbour, storm, 港口",
            "Xmp.iptc.AltTextAccessibility": given[.altText]!,
            "Xmp.iptc.ExtDescrAccessibility": given[.extendedDescription]!, "Xmp.iptcExt.Event": given[.event]!,
            "Xmp.photoshop.Instructions": given[.instructions]!,
            "Xmp.photoshop.TransmissionReference": given[.jobID]!, "Xmp.iptc.Location": given[.sublocation]!,
            "Xmp.photoshop.State": given[.state]!,
        ]
        if iim {
            found["Iptc.Application2.Headline"] = given[.headline]!
            found["Iptc.Application2.Keywords"] = "harbour, storm, 港口"
            found["Iptc.Application2.SpecialInstructions"] = given[.instructions]!
            found["Iptc.Application2.TransmissionReference"] = given[.jobID]!
            found["Iptc.Application2.SubLocation"] = given[.sublocation]!
            found["Iptc.Application2.ProvinceState"] = given[.state]!
        }
        return found
    }

    static func exiftool(_ path: String) throws -> [String: String] {
        let names = xmpNames.merging(iimNames) { first, _ in first }
        let outcome = try Tool.run("exiftool", ["-j", "-G1", "-a"] + names.keys.map { "-" + $0 } + [path])
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
        let object = try #require(try Readers.firstObject(outcome.stdout))
        var found: [String: String] = [:]
        for (key, value) in object {
            guard let name = names[key] else { continue }
            found[name] = (value as? [Any]).map { $0.map { "\($0)" }.joined(separator: ", ") } ?? "\(value)"
        }
        return found
    }

    static func exiv2(_ path: String) throws -> [String: String] {
        try Readers.exiv2Tags(path, Set(xmpNames.values).union(iimNames.values))
    }

    static func gexiv2(_ path: String) throws -> [String: String] {
        try Readers.gexiv2Tags(path, Array(Set(xmpNames.values).union(iimNames.values)))
    }

    @Test(
        "every optional field is where the standard puts it for each reader; every other tag, the pixels and Exif's place stay",
        arguments: CameraPhotos.jpegs, [CameraPhotoTests.Mode.inPlace, .export, .sidecar])
    func everyFieldWhereTheStandardPutsIt(name: String, mode: CameraPhotoTests.Mode) throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/" + name
        let tags = try CameraPhotos.otherTags(photo)
        let pixels = try PixelReader.pixels(photo)
        let structure = try CameraPhotos.structure(photo)
        let captioned = try CameraPhotoTests.caption(photo, mode, scratch: scratch, fields: Self.options)

        let expected = Self.expected(iim: mode != .sidecar)
        for (reader, seen) in [
            ("exiftool", try Self.exiftool(captioned)), ("exiv2", try Self.exiv2(captioned)),
            ("GExiv2", try Self.gexiv2(captioned)),
        ] {
            // exiv2 shows a sidecar's XMP also as the IIM it would convert it to.
            let compared = mode == .sidecar ? seen.filter { $0.key.hasPrefix("Xmp.") } : seen
            #expect(compared == expected, "\(reader) reads \(name) (\(mode))")
        }
        guard mode != .sidecar else { return }
        let fieldTags = Set(Self.xmpNames.keys).union(Self.iimNames.keys)
        let after = try CameraPhotos.otherTags(captioned).filter { !fieldTags.contains($0.key) }
        let before = tags.filter { !fieldTags.contains($0.key) }
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        #expect(changed.isEmpty, "\(name): changed \(changed)")
        #expect(try PixelReader.pixels(captioned) == pixels, "\(name): pixels")
        // Exif stays the first APP1 where it was; the XMP goes after it.
        let firstAPP1 = { (kinds: [String]) in kinds.first { ["Exif", "XMP", "ExtendedXMP"].contains($0) } }
        if structure.contains("Exif") {
            #expect(firstAPP1(try CameraPhotos.structure(captioned)) == "Exif", "\(name): Exif first")
        }
    }

    @Test("a field the caption leaves empty keeps the photo's own words, in XMP and IIM")
    func anEmptyFieldKeepsThePhotosOwn() throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/camera.jpg"
        let own = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-photoshop:Instructions=Hold for desk",
                "-IPTC:SpecialInstructions=Hold for desk",
                "-XMP-dc:Subject=own", "-IPTC:Keywords=own", "-XMP-iptcExt:Event=Their event", photo,
            ])
        try #require(own.status == 0, "exiftool: \(own.stderr)")
        _ = try CameraPhotoTests.caption(photo, .inPlace, scratch: scratch, fields: ["--headline", "New headline"])
        let seen = try Self.exiftool(photo)
        #expect(seen["Xmp.photoshop.Instructions"] == "Hold for desk")
        #expect(seen["Iptc.Application2.SpecialInstructions"] == "Hold for desk")
        #expect(seen["Xmp.dc.subject"] == "own" && seen["Iptc.Application2.Keywords"] == "own")
        #expect(seen["Xmp.iptcExt.Event"] == "Their event")
        #expect(
            seen["Xmp.photoshop.Headline"] == "New headline" && seen["Iptc.Application2.Headline"] == "New headline")
    }

    @Test("a caption's own headline wins over the title's copy in a photo whose headline repeats its old title")
    func aHeadlineOfItsOwnWinsOverTheTitlesCopy() throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/camera.jpg"
        let old = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Title=Old", "-XMP-photoshop:Headline=Old", "-IPTC:ObjectName=Old",
                "-IPTC:Headline=Old", photo,
            ])
        try #require(old.status == 0, "exiftool: \(old.stderr)")
        let copy = scratch.file("copy.jpg")
        try FileManager.default.copyItem(atPath: photo, toPath: copy)
        _ = try CameraPhotoTests.caption(photo, .inPlace, scratch: scratch, fields: ["--headline", "Storm"])
        #expect(try Self.exiftool(photo)["Xmp.photoshop.Headline"] == "Storm")
        #expect(try Self.exiftool(photo)["Iptc.Application2.Headline"] == "Storm")
        // Without a headline of its own, the old title's copy follows the new title.
        let other = Scratch()
        _ = try CameraPhotoTests.caption(copy, .inPlace, scratch: other)
        #expect(try Self.exiftool(copy)["Xmp.photoshop.Headline"] == CameraPhotoTests.title)
    }

    @Test("a Job ID longer than IIM's 32 bytes is whole in XMP and cut at a character in IIM")
    func aLongJobIDIsCutInIIMOnly() throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/camera.jpg"
        let job = String(repeating: "É", count: 20)  // 40 bytes of UTF-8
        _ = try CameraPhotoTests.caption(photo, .inPlace, scratch: scratch, fields: ["--job-id", job])
        let seen = try Self.exiftool(photo)
        #expect(seen["Xmp.photoshop.TransmissionReference"] == job)
        #expect(seen["Iptc.Application2.TransmissionReference"] == String(repeating: "É", count: 16))
    }
}
