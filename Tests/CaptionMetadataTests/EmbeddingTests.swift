// The caption written into photos and read back by the readers other applications use
// (Debian's exiftool and exiv2), and read from photos other programs captioned.

import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionMetadata

@Suite("Captions in photo files")
struct EmbeddingTests {
    static let texts: [(String, String)] = [
        ("港口的黄昏", "最后一班渡轮九点开出"),
        ("🌅 Harbour 👩‍👩‍👧", "Boats ⛵️ at dusk 🇳🇴"),
        ("<b>&amp; \"quoted\" 'single'", "<script>alert(1)</script> & &lt; ]]>"),
    ]

    static let formats: [PhotoFormat] = [.jpeg, .png, .webp, .tiff]

    @Test(
        "a caption written into a JPEG, PNG, WebP or TIFF shows the same title and description in exiftool and exiv2",
        arguments: formats, 0..<texts.count)
    func roundTripThroughThirdPartyReaders(format: PhotoFormat, text: Int) throws {
        let scratch = Scratch()
        let (title, description) = Self.texts[text]
        let photo = try Photos.file(format, in: scratch)
        try PhotoMetadata.embed(CaptionWords(title: title, subtitle: description), inCopyAt: photo)
        try Readers.expect(photo, title: title, description: description)
        #expect(PhotoMetadata.read(photo) == PhotoCaption(CaptionWords(title: title, subtitle: description)))
        let exif = try Readers.exiftool(photo)
        // A JPEG or TIFF without IIM gets a block for older systems (CameraPhotoTests reads
        // what it holds); PNG and WebP have no place for IIM that readers agree on.
        let iim = [
            "IPTC:ApplicationRecordVersion", "IPTC:Caption-Abstract", "IPTC:CodedCharacterSet",
            "IPTC:EnvelopeRecordVersion", "IPTC:ObjectName",
        ]
        #expect(exif.iptc.sorted() == ([.jpeg, .tiff].contains(format) ? iim : []), "\(exif.iptc)")
        // A TIFF is its own Exif: ImageDescription gets the description. The other formats
        // had no Exif, and none is made (it would have to claim a resolution and a colour
        // space); where they have Exif, ImageDescription gets it too (CameraPhotoTests).
        #expect(exif.exifDescription == (format == .tiff ? description : nil))
        if format == .jpeg { #expect(try Readers.exiv2(photo).exifDescription == nil) }
    }

    /// The CRC every PNG reader checks: IEND's, as the PNG specification gives it.
    @Test("a PNG chunk carries PNG's CRC-32 of its type and data")
    func pngChunkCarriesItsCRC() {
        #expect(PNG.chunk("IEND", []) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        let text = PNG.chunk("tEXt", Array("Title\0Harbour".utf8))
        // The CRC-32 of "tEXtTitle\0Harbour", as Python's zlib.crc32 gives it.
        #expect(Array(text.suffix(4)) == [0xDE, 0x02, 0x57, 0x64])
    }

    @Test("an embedded photo still decodes to the same pixels", arguments: formats)
    func pixelsAreUntouched(format: PhotoFormat) throws {
        let scratch = Scratch()
        let photo = try Photos.file(format, in: scratch)
        let before = try decoded(photo, format: format, in: scratch)
        try PhotoMetadata.embed(CaptionWords(title: "T", subtitle: "D"), inCopyAt: photo)
        #expect(try decoded(photo, format: format, in: scratch) == before)
    }

    /// The pixels as a PNG written by the format's own reference decoder (libwebp's dwebp
    /// for WebP, ImageMagick-free GdkPixbuf for the others).
    func decoded(_ path: String, format: PhotoFormat, in scratch: Scratch) throws -> [UInt8] {
        if format == .webp {
            let info = try Tool.run("webpinfo", [path])
            #expect(info.stdout.contains("No error detected"), "webpinfo: \(info.stdout)")
            let out = scratch.file("decoded-\(UUID().uuidString).pam")
            let outcome = try Tool.run("dwebp", ["-quiet", "-pam", path, "-o", out])
            try #require(outcome.status == 0, "dwebp cannot decode it: \(outcome.stderr)")
            return Photos.bytes(out)
        }
        return try PixelReader.pixels(path)
    }

    @Test(
        "a simple WebP, lossy or lossless, becomes an extended one that libwebp still reads", arguments: [false, true])
    func simpleWebPBecomesExtended(lossless: Bool) throws {
        let scratch = Scratch()
        let photo = try Photos.file(.webp, in: scratch, lossless: lossless)
        #expect(
            Photos.bytes(photo)[12..<16].elementsEqual("VP8 ".utf8)
                || Photos.bytes(photo)[12..<16].elementsEqual("VP8L".utf8))
        try PhotoMetadata.embed(CaptionWords(title: "Extended", subtitle: "now"), inCopyAt: photo)
        let info = try Tool.run("webpinfo", [photo])
        #expect(info.stdout.contains("Chunk VP8X"))
        #expect(info.stdout.contains("XMP: 1"), "the XMP flag announces the chunk")
        #expect(info.stdout.contains("No error detected"), "\(info.stdout)")
        try Readers.expect(photo, title: "Extended", description: "now")
    }

    @Test("a photo captioned by exiftool -XMP-dc:Title/-XMP-dc:Description reads with those words", arguments: formats)
    func readsWhatExiftoolWrote(format: PhotoFormat) throws {
        let scratch = Scratch()
        let photo = try Photos.file(format, in: scratch)
        let outcome = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Title=港口 🌅 <b>&amp;",
                "-XMP-dc:Description=Boats at dusk", photo,
            ])
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
        #expect(
            PhotoMetadata.read(photo) == PhotoCaption(CaptionWords(title: "港口 🌅 <b>&amp;", subtitle: "Boats at dusk")))
    }

    @Test("only XMP counts when reading: a camera's Exif ImageDescription and IPTC give no words")
    func legacyMetadataIsNotRead() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        _ = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-EXIF:ImageDescription=OLYMPUS DIGITAL CAMERA",
                "-IPTC:ObjectName=Old title", "-IPTC:Headline=Old headline", photo,
            ])
        #expect(PhotoMetadata.read(photo) == .none)
    }

    @Test("a photo without XMP, or not a photo at all, or missing, reads as no words")
    func nothingToRead() throws {
        let scratch = Scratch()
        #expect(PhotoMetadata.read(try Photos.file(.png, in: scratch)) == .none)
        #expect(PhotoMetadata.read(scratch.write("notes.txt", Array("hello".utf8))) == .none)
        #expect(PhotoMetadata.read(scratch.file("missing.jpg")) == .none)
        #expect(PhotoMetadata.read(scratch.path) == .none)
        let fifo = scratch.file("pipe.jpg")
        mkfifo(fifo, 0o600)
        #expect(PhotoMetadata.read(fifo) == .none, "a FIFO is never opened, so nothing blocks")
    }

    @Test("blank words in a photo are no words")
    func blankWordsAreNone() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        _ = try Tool.run(
            "exiftool", ["-q", "-overwrite_original", "-XMP-dc:Title= \u{3000} ", "-XMP-dc:Description=Kept", photo])
        #expect(PhotoMetadata.read(photo) == PhotoCaption(CaptionWords(title: "", subtitle: "Kept")))
    }

    @Test(
        "an empty field removes its tag (XMP and Exif) instead of writing an empty string",
        arguments: formats)
    func emptyFieldRemovesItsTag(format: PhotoFormat) throws {
        let scratch = Scratch()
        let photo = try Photos.file(format, in: scratch)
        let exif = try Tool.run("exiftool", ["-q", "-overwrite_original", "-EXIF:Model=Caption Camera", photo])
        try #require(exif.status == 0, "exiftool: \(exif.stderr)")
        try PhotoMetadata.embed(CaptionWords(title: "Harbour", subtitle: "Boats"), inCopyAt: photo)
        #expect(try Readers.exiftool(photo).exifDescription == "Boats")
        try PhotoMetadata.embed(CaptionWords(title: "Harbour", subtitle: ""), inCopyAt: photo)
        try Readers.expect(photo, title: "Harbour", description: nil)
        #expect(try Readers.exiftool(photo).exifDescription == nil)
        #expect(try Tool.run("exiftool", ["-s3", "-UserComment", photo]).stdout.isEmpty)
        try PhotoMetadata.embed(CaptionWords(title: "", subtitle: ""), inCopyAt: photo)
        try Readers.expect(photo, title: nil, description: nil)
    }

    @Test("the photo's other XMP stays, and other languages of the title go")
    func otherMetadataStays() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        _ = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Creator=Ada", "-XMP-xmp:Rating=4",
                "-XMP-dc:Title-de=Hafen", "-XMP-dc:Title=Harbour", "-EXIF:Make=Caption Camera", photo,
            ])
        try PhotoMetadata.embed(CaptionWords(title: "Port", subtitle: "D"), inCopyAt: photo)
        let outcome = try Tool.run(
            "exiftool",
            [
                "-j", "-G1", "-XMP-dc:Creator", "-XMP-xmp:Rating", "-XMP-dc:Title-de",
                "-IFD0:Make", photo,
            ])
        let object = try #require(
            (try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(object["XMP-dc:Creator"] as? String == "Ada")
        #expect(object["XMP-xmp:Rating"] as? Int == 4)
        #expect(object["IFD0:Make"] as? String == "Caption Camera")
        #expect(object["XMP-dc:Title-de"] == nil, "a German title that says something else would outlive the change")
        try Readers.expect(photo, title: "Port", description: "D")
    }

    @Test(
        "IPTC a photo already has gets the new words, in UTF-8 with its digest current; its other datasets stay",
        arguments: [PhotoFormat.jpeg, .tiff])
    func existingIPTCIsUpdated(format: PhotoFormat) throws {
        let scratch = Scratch()
        let photo = try Photos.file(format, in: scratch)
        _ = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-IPTC:ObjectName=Old", "-IPTC:Caption-Abstract=Old caption",
                "-IPTC:Headline=Old", "-IPTC:Keywords=boats", photo,
            ])
        try PhotoMetadata.embed(CaptionWords(title: "New 港", subtitle: "New words 🌅"), inCopyAt: photo)
        let read = try Tool.run(
            "exiftool", ["-j", "-G1", "-IPTC:all", "-IPTCDigest", "-CurrentIPTCDigest", photo]
        ).stdout
        let object = try #require(try Readers.firstObject(read))
        #expect(object["IPTC:ObjectName"] as? String == "New 港")
        #expect(object["IPTC:Caption-Abstract"] as? String == "New words 🌅")
        #expect(object["IPTC:Headline"] as? String == "New 港", "the headline held the old title")
        #expect(object["IPTC:CodedCharacterSet"] as? String == "UTF8")
        #expect(object["IPTC:Keywords"] as? String == "boats")
        let digest = try #require(object["Photoshop:IPTCDigest"] as? String)
        #expect(digest == object["File:CurrentIPTCDigest"] as? String, "a stale digest makes readers distrust the IIM")
        #expect(!read.contains("Old"))
        try Readers.expect(photo, title: "New 港", description: "New words 🌅")
    }

    @Test(
        "a photo whose metadata is damaged reads as no words, and gets its caption written fresh",
        arguments: DamagedPhotos.Kind.allCases)
    func damagedMetadata(kind: DamagedPhotos.Kind) throws {
        let scratch = Scratch()
        let photo = try DamagedPhotos.make(kind, in: scratch)
        #expect(PhotoMetadata.read(photo) == .none)
        try PhotoMetadata.embed(CaptionWords(title: "Fresh 新", subtitle: "Written again"), inCopyAt: photo)
        try Readers.expect(photo, title: "Fresh 新", description: "Written again")
    }

    @Test("a GIF gets the caption too (exiftool reads it; exiv2 reads no metadata from GIF at all)")
    func gif() throws {
        let scratch = Scratch()
        let png = try Photos.file(.png, in: scratch)
        let photo = scratch.file("photo.gif")
        let outcome = try Tool.run("convert", [png, photo])
        try #require(outcome.status == 0, "ImageMagick: \(outcome.stderr)")
        try PhotoMetadata.embed(CaptionWords(title: "港口 🌅", subtitle: "<b>&amp;"), inCopyAt: photo)
        let seen = try Readers.exiftool(photo)
        #expect(seen.title == "港口 🌅")
        #expect(seen.summary == "<b>&amp;")
        #expect(seen.complaints.isEmpty)
        #expect(PhotoMetadata.read(photo) == PhotoCaption(CaptionWords(title: "港口 🌅", subtitle: "<b>&amp;")))
        _ = try PixelReader.pixels(photo)
    }

    @Test("a BMP cannot hold a caption, and says so")
    func bmpIsUnsupported() throws {
        let scratch = Scratch()
        let photo = scratch.write("p.bmp", Photos.make("bmp"))
        #expect(throws: EmbeddingError.unsupported) {
            try PhotoMetadata.embed(CaptionWords(title: "T", subtitle: "D"), inCopyAt: photo)
        }
    }

    @Test("a sidecar holds only the caption, readable by both tools")
    func sidecar() throws {
        let scratch = Scratch()
        let text = PhotoMetadata.sidecar(CaptionWords(title: "港口 <b>&amp;", subtitle: "🌅"))
        #expect(text.hasPrefix("<x:xmpmeta"))
        let path = scratch.write("p.xmp", Array(text.utf8))
        try Readers.expect(path, title: "港口 <b>&amp;", description: "🌅")
        let empty = scratch.write("e.xmp", Array(PhotoMetadata.sidecar(CaptionWords(title: "T", subtitle: "")).utf8))
        try Readers.expect(empty, title: "T", description: nil)
    }

    @Test("characters XML cannot carry are left out rather than making the XMP unreadable")
    func controlCharactersAreDropped() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.png, in: scratch)
        try PhotoMetadata.embed(CaptionWords(title: "bell\u{07}tab\tend\u{FFFE}", subtitle: "ok"), inCopyAt: photo)
        #expect(PhotoMetadata.read(photo)[.title] == "belltab\tend")
    }
}

/// Photos whose metadata exempi cannot read, made by hand.
enum DamagedPhotos {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case jpegXMPNotXML, jpegExifBadOffset, pngXMPNotXML, webpXMPNotXML, tiffXMPNotXML

        var testDescription: String { rawValue }
    }

    static func make(_ kind: Kind, in scratch: Scratch) throws -> String {
        let garbage =
            Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF garbage <<<&&& not xml".utf8) + [0xFF, 0xFE]
        switch kind {
        case .jpegXMPNotXML, .jpegExifBadOffset:
            let jpeg = Photos.make("jpeg")
            let payload =
                kind == .jpegXMPNotXML
                ? Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8) + garbage
                : Array("Exif\u{0}\u{0}".utf8) + [0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F]
                    + [UInt8](repeating: 0, count: 10)
            let segment: [UInt8] =
                [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
            return scratch.write("damaged.jpg", Array(jpeg[0..<2]) + segment + Array(jpeg[2...]))
        case .pngXMPNotXML:
            let png = Photos.make("png")
            let data = Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + garbage
            let body = Array("iTXt".utf8) + data
            let length = UInt32(data.count)
            let crc = crc32(body)
            let chunk =
                [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
            return scratch.write("damaged.png", Array(png[0..<33]) + chunk + Array(png[33...]))
        case .webpXMPNotXML:
            let webp = try Photos.file(.webp, in: scratch, name: "source.webp")
            let xmp = scratch.write("garbage.xmp", garbage)
            let target = scratch.file("damaged.webp")
            let outcome = try Tool.run("webpmux", ["-set", "xmp", xmp, webp, "-o", target])
            try #require(outcome.status == 0, "webpmux: \(outcome.stderr)")
            return target
        case .tiffXMPNotXML:
            // exiftool will not write XMP it cannot parse: the tag goes in by hand.
            return try damagedTIFFByHand(scratch)
        }
    }

    /// A TIFF with an XMP tag (700) whose bytes are not XML, appended by hand.
    static func damagedTIFFByHand(_ scratch: Scratch) throws -> String {
        let bytes = Photos.make("tiff")
        let tiff = try #require(TIFF(bytes))
        let garbage = Array("<x:xmpmeta garbage <<<".utf8)
        let entry = TIFF.Entry(tag: TIFF.xmpTag, type: 7, count: UInt32(garbage.count), field: [0, 0, 0, 0])
        let rebuilt = try #require(
            tiff.rebuilt(entries: tiff.entries.map { TIFF.NewEntry($0) } + [TIFF.NewEntry(entry, data: garbage)]))
        return scratch.write("damaged-by-hand.tif", rebuilt)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
