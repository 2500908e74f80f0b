// Standing credits in photos, as exiftool, exiv2 and GExiv2 read them: in every format and
// mode Caption writes, into XMP, Exif and IIM; a photo's own credits kept unless the user
// chose to replace them, and nothing else in the photo changed.

import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionMetadata

/// The credit tags by their exiv2 (and GExiv2) names, as each of the three readers sees them.
enum CreditReaders {
    /// exiftool's name (`-G1`) of each tag, for the same tag under exiv2's name.
    static let exiftoolNames: [String: String] = [
        "XMP-dc:Creator": "Xmp.dc.creator", "XMP-dc:Rights": "Xmp.dc.rights",
        "XMP-photoshop:Credit": "Xmp.photoshop.Credit", "XMP-photoshop:Source": "Xmp.photoshop.Source",
        "XMP-photoshop:City": "Xmp.photoshop.City", "XMP-photoshop:Country": "Xmp.photoshop.Country",
        "XMP-iptcCore:CountryCode": "Xmp.iptc.CountryCode", "IFD0:Artist": "Exif.Image.Artist",
        "IFD0:Copyright": "Exif.Image.Copyright", "IPTC:By-line": "Iptc.Application2.Byline",
        "IPTC:Credit": "Iptc.Application2.Credit", "IPTC:CopyrightNotice": "Iptc.Application2.Copyright",
        "IPTC:Source": "Iptc.Application2.Source", "IPTC:City": "Iptc.Application2.City",
        "IPTC:Country-PrimaryLocationName": "Iptc.Application2.CountryName",
        "IPTC:Country-PrimaryLocationCode": "Iptc.Application2.CountryCode",
    ]
    static let names = Set(exiftoolNames.values)

    static func exiftool(_ path: String) throws -> [String: String] {
        let outcome = try Tool.run("exiftool", ["-j", "-G1", "-a"] + exiftoolNames.keys.map { "-" + $0 } + [path])
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
        let object = try #require(try Readers.firstObject(outcome.stdout))
        var found: [String: String] = [:]
        for (key, value) in object {
            guard let name = exiftoolNames[key] else { continue }
            found[name] = (value as? [Any]).map { "\($0.first ?? "")" } ?? "\(value)"
        }
        return found
    }

    static func exiv2(_ path: String) throws -> [String: String] { try Readers.exiv2Tags(path, names) }

    /// GExiv2, as Shotwell and gThumb read.
    static func gexiv2(_ path: String) throws -> [String: String] { try Readers.gexiv2Tags(path) }

    /// Each reader sees exactly `expected` among the credit tags (a tag left out must not be
    /// there at all). A sidecar is compared in its XMP alone: exiv2 also shows it as the Exif
    /// and IIM it converts it to.
    static func expect(
        _ path: String, _ expected: [String: String], sidecar: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        // exiv2, and so GExiv2, read no metadata from GIF at all.
        let readers =
            path.hasSuffix(".gif")
            ? [("exiftool", try exiftool(path))]
            : [("exiftool", try exiftool(path)), ("exiv2", try exiv2(path)), ("GExiv2", try gexiv2(path))]
        for (reader, seen) in readers {
            let compared = sidecar ? seen.filter { $0.key.hasPrefix("Xmp.") } : seen
            #expect(compared == expected, "\(reader) reads \(path)", sourceLocation: sourceLocation)
        }
    }
}

@Suite("Standing credits: read back by exiftool, exiv2 and GExiv2 in every format and mode")
struct CreditsTests {
    static let credits = Credits([
        .creator: "Bea Costa", .creditLine: "Agência Lusa", .copyright: "© 2024 Bea Costa", .source: "Lusa/Porto",
        .city: "Zürich", .country: "Schweiz", .countryCode: "CH",
    ])
    static let words = CaptionWords(title: "Harbour 港", subtitle: "Boats at dusk")

    /// What XMP holds of `credits`.
    static func xmp(_ credits: Credits = credits) -> [String: String] {
        let names: [CreditField: String] = [
            .creator: "Xmp.dc.creator", .creditLine: "Xmp.photoshop.Credit", .copyright: "Xmp.dc.rights",
            .source: "Xmp.photoshop.Source", .city: "Xmp.photoshop.City", .country: "Xmp.photoshop.Country",
            .countryCode: "Xmp.iptc.CountryCode",
        ]
        return Dictionary(uniqueKeysWithValues: credits.setFields.map { (names[$0]!, credits[$0]) })
    }

    /// What Exif holds of `credits`: Artist and Copyright.
    static func exif(_ credits: Credits = credits) -> [String: String] {
        var found: [String: String] = [:]
        if credits.setFields.contains(.creator) { found["Exif.Image.Artist"] = credits[.creator] }
        if credits.setFields.contains(.copyright) { found["Exif.Image.Copyright"] = credits[.copyright] }
        return found
    }

    /// What IIM holds of `credits`: not a two-letter country code (IIM's has three).
    static func iim(_ credits: Credits = credits) -> [String: String] {
        let names: [CreditField: String] = [
            .creator: "Iptc.Application2.Byline", .creditLine: "Iptc.Application2.Credit",
            .copyright: "Iptc.Application2.Copyright", .source: "Iptc.Application2.Source",
            .city: "Iptc.Application2.City", .country: "Iptc.Application2.CountryName",
            .countryCode: "Iptc.Application2.CountryCode",
        ]
        return Dictionary(
            uniqueKeysWithValues: credits.setFields.filter { $0 != .countryCode || credits[$0].count == 3 }.map {
                (names[$0]!, credits[$0])
            })
    }

    /// A photo in `format` as other programs leave it: Exif (and, in JPEG and TIFF, IIM)
    /// written by exiftool, with no credits.
    static func photo(_ format: PhotoFormat, in scratch: Scratch, seed: UInt32 = 1) throws -> String {
        var path = try Photos.file(format == .gif ? .png : format, in: scratch, seed: seed)
        if format == .gif {
            // A GIF as ImageMagick writes one.
            let gif = scratch.file("photo-\(seed).gif")
            let converted = try Tool.run("convert", [path, gif])
            try #require(converted.status == 0, "convert: \(converted.stderr)")
            path = gif
        }
        var tags = ["-IFD0:Make=Canon", "-IFD0:Model=Canon EOS R6"]
        if format == .jpeg || format == .tiff { tags.append("-IPTC:Keywords=harbour") }
        if format == .gif { tags = ["-XMP-dc:Subject=harbour"] }
        let outcome = try Tool.run("exiftool", ["-q", "-overwrite_original"] + tags + [path])
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
        return path
    }

    /// Every credit in XMP; in Exif where the format has it; in IIM where the photo has IIM.
    static func expected(_ format: PhotoFormat, _ credits: Credits = credits) -> [String: String] {
        var expected = xmp(credits)
        if format != .gif { expected.merge(exif(credits)) { $1 } }
        if format == .jpeg || format == .tiff { expected.merge(iim(credits)) { $1 } }
        return expected
    }

    static let formats: [PhotoFormat] = [.jpeg, .png, .webp, .tiff, .gif]

    @Test("Written into the photo itself: XMP, Exif Artist and Copyright, IIM", arguments: formats)
    func inPlace(format: PhotoFormat) throws {
        let scratch = Scratch()
        let path = try Self.photo(format, in: scratch)
        let result = try WriteBack.write(
            Self.words, credits: Self.credits, source: path, expectedSHA256: nil, to: .photo)
        #expect(result.paths == [path] && !result.sidecarInstead)
        try CreditReaders.expect(path, Self.expected(format))
        if format != .gif { try Readers.expect(path, title: Self.words.title, description: Self.words.subtitle) }
    }

    @Test("A HEIC, which cannot hold them inside, gets them in the sidecar written instead")
    func heicGetsThemInItsSidecar() throws {
        let scratch = Scratch()
        let path = try Photos.file(.heif, in: scratch)
        let result = try WriteBack.write(
            Self.words, credits: Self.credits, source: path, expectedSHA256: nil, to: .photo)
        #expect(result.sidecarInstead && result.paths == [path + ".xmp"])
        try CreditReaders.expect(path + ".xmp", Self.xmp(), sidecar: true)
    }

    @Test("Written into a sidecar beside the photo, which stays as it was", arguments: formats)
    func sidecar(format: PhotoFormat) throws {
        let scratch = Scratch()
        let path = try Self.photo(format, in: scratch)
        let before = Photos.sha256(ofFile: path)
        let result = try WriteBack.write(
            Self.words, credits: Self.credits, source: path, expectedSHA256: nil, to: .sidecar)
        #expect(result.paths == [path + ".xmp"])
        #expect(Photos.sha256(ofFile: path) == before)
        try CreditReaders.expect(path + ".xmp", Self.xmp(), sidecar: true)
    }

    @Test(
        "An export writes each entry's own credits, embedded or in NAME.EXT.xmp",
        arguments: [CaptionDestination.photo, .sidecar])
    func export(into destination: CaptionDestination) throws {
        let scratch = Scratch()
        let library = try Library(directory: scratch.file("library"))
        var other = Self.credits
        other[.creator] = "Caio Dias"
        other[.city] = ""
        let first = try library.add(
            photoAt: try Self.photo(.jpeg, in: scratch, seed: 1), words: CaptionWords(title: "One", subtitle: "1"),
            credits: Self.credits)
        _ = try library.add(
            photoAt: try Self.photo(.png, in: scratch, seed: 2), words: CaptionWords(title: "Two", subtitle: "2"),
            credits: other)
        _ = try library.add(
            photoAt: try Self.photo(.tiff, in: scratch, seed: 3), words: CaptionWords(title: "Three", subtitle: "3"))
        #expect(try library.entry(id: first.id)?.credits == Self.credits)
        let out = scratch.file("out")
        let summary = try Exporter.exportAll(
            from: library, to: out, into: destination, progress: WorkProgress(total: 3))
        #expect(summary.exported == 3)
        if destination == .photo {
            try CreditReaders.expect(out + "/One.jpg", Self.expected(.jpeg))
            try CreditReaders.expect(out + "/Two.png", Self.xmp(other).merging(Self.exif(other)) { $1 })
            // An entry saved without credits goes out without them.
            try CreditReaders.expect(out + "/Three.tif", [:])
        } else {
            try CreditReaders.expect(out + "/One.jpg.xmp", Self.xmp(), sidecar: true)
            try CreditReaders.expect(out + "/Two.png.xmp", Self.xmp(other), sidecar: true)
            try CreditReaders.expect(out + "/Three.tif.xmp", [:], sidecar: true)
        }
    }

    /// camera.jpg names its creator, Ana Lima, in XMP and IIM (its Artist and Copyright
    /// are blank): taken by this desk's Ana Lima, it gets the desk's copyright notice,
    /// credit and source; taken by someone else, none of them.
    @Test(
        "A camera photo's own Creator and City are kept, blank Artist and Copyright filled by its own creator's desk, nothing else changed"
    )
    func ownCreditsKept() throws {
        let scratch = Scratch()
        let folder = try CameraPhotos.make(in: scratch)
        let path = folder + "/camera.jpg"
        let before = try CameraPhotos.otherTags(path)
        var credits = Self.credits
        credits[.creator] = " ana lima"
        _ = try WriteBack.write(Self.words, credits: credits, source: path, expectedSHA256: nil, to: .photo)
        // The camera's blank Artist is no Creator: the photo's own is in XMP and IIM, and stays.
        var expected = Self.expected(.jpeg, credits)
        expected["Xmp.dc.creator"] = "Ana Lima"
        expected["Iptc.Application2.Byline"] = "Ana Lima"
        expected["Exif.Image.Artist"] = ""
        for key in ["Xmp.photoshop.City", "Iptc.Application2.City"] { expected[key] = nil }
        expected["Iptc.Application2.City"] = "Berlin"
        try CreditReaders.expect(path, expected)
        let after = try CameraPhotos.otherTags(path)
        let credited = Set([
            "IFD0:Copyright", "XMP-dc:Rights", "XMP-photoshop:Credit", "XMP-photoshop:Source", "XMP-photoshop:Country",
            "XMP-iptcCore:CountryCode", "IPTC:Credit", "IPTC:CopyrightNotice", "IPTC:Source",
            "IPTC:Country-PrimaryLocationName", "IPTC:Country-PrimaryLocationCode",
        ])
        #expect(before.filter { !credited.contains($0.key) } == after.filter { !credited.contains($0.key) })
    }

    /// The issue's case: another photographer's picture (dc:creator, By-line and Artist
    /// say Rui Costa) keeps its creator and gets none of this desk's authorship.
    @Test("A photo by another creator gets none of the desk's copyright, credit line or source; the place is filled")
    func anotherCreatorsPhotoKeepsItsAuthorship() throws {
        let scratch = Scratch()
        let path = try Self.photo(.jpeg, in: scratch)
        let tagged = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Creator=Rui Costa", "-IPTC:By-line=Rui Costa",
                "-IFD0:Artist=Rui Costa", path,
            ])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        _ = try WriteBack.write(Self.words, credits: Self.credits, source: path, expectedSHA256: nil, to: .photo)
        var expected = Self.expected(.jpeg, Self.credits.leavingOut([.creditLine, .copyright, .source]))
        expected["Xmp.dc.creator"] = "Rui Costa"
        expected["Iptc.Application2.Byline"] = "Rui Costa"
        expected["Exif.Image.Artist"] = "Rui Costa"
        try CreditReaders.expect(path, expected)
        // Chosen to, the desk's credits go over the photo's, authorship and all.
        var replacing = Self.credits
        replacing.replacesPhotos = true
        _ = try WriteBack.write(Self.words, credits: replacing, source: path, expectedSHA256: nil, to: .photo)
        try CreditReaders.expect(path, Self.expected(.jpeg, replacing))
    }

    @Test(
        "Chosen to, the credits replace the photo's own everywhere it keeps them; a three-letter country code goes into IIM too"
    )
    func ownCreditsReplacedWhenChosen() throws {
        let scratch = Scratch()
        let folder = try CameraPhotos.make(in: scratch)
        let path = folder + "/camera.jpg"
        var replacing = Self.credits
        replacing.replacesPhotos = true
        replacing[.countryCode] = "CHE"
        _ = try WriteBack.write(Self.words, credits: replacing, source: path, expectedSHA256: nil, to: .photo)
        let expected = Self.expected(.jpeg, replacing)
        #expect(expected["Iptc.Application2.CountryCode"] == "CHE")
        try CreditReaders.expect(path, expected)
    }

    @Test("Latin-1 IIM keeps its own By-line and City, converted, beside the new credits")
    func latin1IIM() throws {
        let scratch = Scratch()
        let folder = try CameraPhotos.make(in: scratch)
        let path = folder + "/latin1-iim.jpg"
        var credits = Self.credits
        credits[.creator] = "José Núñez"
        _ = try WriteBack.write(Self.words, credits: credits, source: path, expectedSHA256: nil, to: .photo)
        let seen = try CreditReaders.gexiv2(path)
        #expect(seen["Iptc.Application2.Byline"] == "José Núñez")
        #expect(seen["Iptc.Application2.City"] == "Zürich")
        #expect(seen["Iptc.Application2.Credit"] == "Agência Lusa")
        #expect(seen["Xmp.dc.creator"] == nil, "the photo names its creator in IIM")
        #expect(try CreditReaders.exiftool(path)["Iptc.Application2.Credit"] == "Agência Lusa")
    }

    @Test("A sidecar's own credits are kept, and so are the photo's")
    func sidecarOwnCreditsKept() throws {
        let scratch = Scratch()
        let path = try Self.photo(.jpeg, in: scratch)
        let artist = try Tool.run("exiftool", ["-q", "-overwrite_original", "-IFD0:Artist=Own Name", path])
        try #require(artist.status == 0)
        // exiftool's sidecar: the photo's metadata as XMP (Artist as dc:creator), and a credit.
        let made = try Tool.run("exiftool", ["-q", "-o", path + ".xmp", "-XMP-photoshop:Credit=Own Agency", path])
        try #require(made.status == 0, "\(made.stderr)")
        _ = try WriteBack.write(Self.words, credits: Self.credits, source: path, expectedSHA256: nil, to: .sidecar)
        // Own Name is not this desk's creator: the desk's copyright and source stay out too.
        var expected = Self.xmp(Self.credits.leavingOut([.copyright, .source]))
        expected["Xmp.dc.creator"] = "Own Name"
        expected["Xmp.photoshop.Credit"] = "Own Agency"
        try CreditReaders.expect(path + ".xmp", expected, sidecar: true)
    }

    @Test("A credit too long for IIM is cut there at a character, whole in XMP")
    func longCreditCutForIIM() throws {
        let scratch = Scratch()
        let path = try Self.photo(.jpeg, in: scratch)
        let long = String(repeating: "Agência ", count: 8)
        _ = try WriteBack.write(
            Self.words, credits: Credits([.creditLine: long]), source: path, expectedSHA256: nil, to: .photo)
        let seen = try CreditReaders.gexiv2(path)
        #expect(seen["Xmp.photoshop.Credit"] == long)
        let cut = try #require(seen["Iptc.Application2.Credit"])
        #expect(cut.utf8.count <= 32 && long.hasPrefix(cut))
    }

    /// The tags a standing credit may add or fill.
    static let creditTags: Set<String> = Set(CreditReaders.exiftoolNames.keys)

    /// Every camera and phone photo in place; write-back and export, which write through the
    /// same code, with the two whose structure is hardest to keep (maker notes; a gain map
    /// behind MPF).
    static let commandLineCases: [(String, CameraPhotoTests.Mode)] =
        CameraPhotos.names.map { ($0, .inPlace) }
        + ["camera.jpg", "phone-ultrahdr.jpg"].flatMap { [($0, .writeBack), ($0, .export)] }

    @Test(
        "Set by --set-credits, they go into camera and phone photos by --add --in-place, --write-back and --export with every other tag, pixel and picture as it was",
        arguments: commandLineCases)
    func commandLineCreditsIntoCameraPhotos(name: String, mode: CameraPhotoTests.Mode) throws {
        let scratch = Scratch()
        let photo = try CameraPhotos.make(in: scratch) + "/" + name
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let set = try Caption.run(
            [
                "--set-credits", "--creator", "Bea Costa", "--credit-line", "Agência Lusa", "--copyright",
                "© {year} Bea Costa", "--source", "Lusa/Porto", "--country-code", "CH",
            ], environment: config)
        try #require(set.status == 0, "\(set.stderr)")
        let tags = try CameraPhotos.otherTags(photo).filter { !Self.creditTags.contains($0.key) }
        let pixels = try PixelReader.pixels(photo)
        let pictures = try CameraPhotos.pictures(photo)
        let warnings = try CameraPhotos.warnings(photo)
        let own = try CreditReaders.exiftool(photo)

        let library = scratch.file("lib")
        let words = ["--title", "Harbour", "--subtitle", "Boats"]
        var captioned = photo
        switch mode {
        case .inPlace:
            let outcome = try Caption.run(
                ["--library", library, "--add", photo] + words + ["--in-place"], environment: config)
            try #require(outcome.status == 0, "\(outcome.stderr)")
        case .writeBack, .export:
            let added = try Caption.run(["--library", library, "--add", photo] + words, environment: config)
            try #require(added.status == 0, "\(added.stderr)")
            // The credits go with the entry: changed or gone from the settings, they stay.
            try #require(try Caption.run(["--set-credits", "--creator", ""], environment: config).status == 0)
            let folder = scratch.file("out")
            let outcome = try Caption.run(
                ["--library", library] + (mode == .export ? ["--export", folder] : ["--write-back"]),
                environment: config)
            try #require(outcome.status == 0, "\(outcome.stderr)")
            if mode == .export {
                let names = try FileManager.default.contentsOfDirectory(atPath: folder)
                captioned = folder + "/" + names[0]
            }
        default:
            return
        }
        let after = try CameraPhotos.otherTags(captioned).filter { !Self.creditTags.contains($0.key) }
        let changed = Set(tags.keys).union(after.keys).filter { tags[$0] != after[$0] }.sorted()
        #expect(changed.isEmpty, "\(name): changed \(changed)")
        #expect(try PixelReader.pixels(captioned) == pixels, "\(name): pixels")
        #expect(try CameraPhotos.pictures(captioned) == pictures, "\(name): the pictures after the first")
        let added = try CameraPhotos.warnings(captioned).subtracting(warnings)
        #expect(added.isEmpty, "\(name): new exiftool -validate warnings \(added)")
        // The photo's own creator stands, and a photo by someone other than Bea Costa gets
        // none of her authorship; else the standing credits are in XMP at least.
        let seen = try CreditReaders.exiftool(captioned)
        let ownCreator = own["Xmp.dc.creator"] ?? own["Iptc.Application2.Byline"] ?? own["Exif.Image.Artist"]
        #expect(seen["Xmp.dc.creator"] == (ownCreator == nil ? "Bea Costa" : own["Xmp.dc.creator"]), "\(name)")
        guard ownCreator == nil else {
            #expect(seen["Xmp.photoshop.Credit"] == own["Xmp.photoshop.Credit"], "\(name): \(ownCreator ?? "")'s photo")
            #expect(seen["Xmp.dc.rights"] == own["Xmp.dc.rights"], "\(name): \(ownCreator ?? "")'s photo")
            return
        }
        #expect(seen["Xmp.photoshop.Credit"] == "Agência Lusa", "\(name)")
        let year = try #require(seen["Xmp.dc.rights"], "\(name)")
        #expect(year.hasPrefix("© ") && year.hasSuffix(" Bea Costa") && year.count == "© 2024 Bea Costa".count)
    }

    @Test("Without credits, nothing of them is written")
    func noCreditsNoChange() throws {
        let scratch = Scratch()
        let path = try Self.photo(.jpeg, in: scratch)
        _ = try WriteBack.write(Self.words, source: path, expectedSHA256: nil, to: .photo)
        try CreditReaders.expect(path, [:])
    }
}
