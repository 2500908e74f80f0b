// The one place that knows formats: signatures, the bounds-checked reader and the walkers,
// on bytes built here (files from other encoders are tested in CaptionLibraryTests).

import Foundation
import Testing

@testable import PhotoFormats

private func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
private func be32(_ v: Int) -> [UInt8] {
    [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
}
private func le16(_ v: Int) -> [UInt8] { be16(v).reversed() }
private func le32(_ v: Int) -> [UInt8] { be32(v).reversed() }

/// A little-endian classic TIFF whose IFD0 holds `entries` (tag, type, count, inline value).
private func tiff(_ entries: [(Int, Int, Int, [UInt8])], tail: [UInt8] = []) -> [UInt8] {
    var bytes = Array("II".utf8) + le16(42) + le32(8) + le16(entries.count)
    for (tag, type, count, value) in entries {
        bytes += le16(tag) + le16(type) + le32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
    }
    return bytes + le32(0) + tail
}

private func box(_ type: String, _ contents: [UInt8]) -> [UInt8] {
    be32(8 + contents.count) + Array(type.utf8) + contents
}

/// A HEIF-style file: ftyp, then meta with the primary item's ispe and irot.
private func heif(brand: String, width: Int, height: Int, rotation: UInt8? = nil) -> [UInt8] {
    let ftyp = box("ftyp", Array(brand.utf8) + be32(0) + Array("mif1".utf8) + Array(brand.utf8))
    let pitm = box("pitm", [0, 0, 0, 0] + be16(1))
    var properties = box("ispe", [0, 0, 0, 0] + be32(width) + be32(height))
    var associations: [UInt8] = [0x81]
    if let rotation {
        properties += box("irot", [rotation])
        associations.append(0x02)
    }
    let ipco = box("ipco", properties)
    let ipma = box("ipma", [0, 0, 0, 0] + be32(1) + be16(1) + [UInt8(associations.count)] + associations)
    let meta = box(
        "meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 24)) + pitm + box("iprp", ipco + ipma))
    return ftyp + meta + box("mdat", [1, 2, 3, 4])
}

@Suite struct PhotoFormatsTests {
    @Test func theReaderNeverReadsPastTheEnd() {
        [UInt8]([1, 2, 3]).withReader { reader in
            #expect(reader.u16(1) == 0x0203)
            #expect(reader.u16(2) == nil)
            #expect(reader.u32(0) == nil)
            #expect(reader.u8(-1) == nil)
            #expect(reader.u64(Int.max - 2) == nil)
            #expect(!reader.contains(1, Int.max))
        }
        [UInt8]([1, 2]).withReader(littleEndian: true) { #expect($0.u16(0) == 0x0201) }
    }

    @Test func recognisesEachSignature() {
        #expect(PhotoFormat.of([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(PhotoFormat.of([0x89] + Array("PNG\r\n\u{1A}\n".utf8)) == .png)
        #expect(PhotoFormat.of(Array("GIF89a".utf8)) == .gif)
        #expect(PhotoFormat.of(Array("RIFF".utf8) + le32(4) + Array("WEBP".utf8)) == .webp)
        #expect(PhotoFormat.of(tiff([(256, 3, 1, le16(10))])) == .tiff)
        #expect(
            PhotoFormat.of(
                Array("II".utf8) + le16(43) + le16(8) + le16(0) + le32(16) + le32(0) + [UInt8](repeating: 0, count: 8))
                == .tiff,
            "BigTIFF")
        #expect(PhotoFormat.of(Array("BM".utf8) + [UInt8](repeating: 0, count: 30)) == .bmp)
        #expect(PhotoFormat.of(heif(brand: "heic", width: 4, height: 3)) == .heif)
        #expect(PhotoFormat.of(heif(brand: "avif", width: 4, height: 3)) == .avif)
        #expect(PhotoFormat.of(heif(brand: "crx ", width: 4, height: 3)) == .cr3)
        #expect(PhotoFormat.of(tiff([(256, 3, 1, le16(10)), (50706, 1, 4, [1, 4, 0, 0])])) == .dng)
        #expect(
            PhotoFormat.of(
                Array("II".utf8) + le16(42) + le32(16) + [0x43, 0x52, 0x02, 0] + le32(0) + le16(0) + le32(0)) == .cr2)
        #expect(PhotoFormat.of(Array("FUJIFILMCCD-RAW 0201".utf8)) == .raf)
        #expect(PhotoFormat.of(Array("IIRO".utf8) + le32(8)) == .orf)
        #expect(PhotoFormat.of([0x49, 0x49, 0x55, 0x00] + le32(8)) == .rw2)
        #expect(PhotoFormat.of(Array("hello".utf8)) == nil)
    }

    @Test func namesFormatsItKnowsButCannotDecode() {
        #expect(PhotoFormat.sniff([0xFF, 0x0A, 0xFA, 0x7F]) == .unsupported(name: "JPEG XL"))
        #expect(
            PhotoFormat.sniff([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
                == .unsupported(name: "JPEG XL"))
        #expect(PhotoFormat.sniff(Array("8BPS".utf8) + [0, 1]) == .unsupported(name: "Photoshop (PSD)"))
    }

    @Test func anEditedCameraTIFFWithAThumbnailIsNoRAW() {
        // IFD0: NewSubfileType, Make (6 bytes, after the directory: 8 + 2 + 3 × 12 + 4 = 50),
        // SubIFDs. GIMP keeps a Nikon's Make and writes a thumbnail SubIFD; a NEF's IFD0 is
        // the camera's reduced-resolution preview.
        func file(make: String, subfileType: Int) -> [UInt8] {
            tiff(
                [(254, 4, 1, le32(subfileType)), (271, 2, make.utf8.count + 1, le32(50)), (330, 4, 1, le32(8))],
                tail: Array(make.utf8) + [0])
        }
        #expect(PhotoFormat.of(file(make: "NIKON", subfileType: 0)) == .tiff, "an edited Nikon photo")
        #expect(PhotoFormat.of(file(make: "NIKON", subfileType: 1)) == .nef)
        #expect(PhotoFormat.of(file(make: "SONY", subfileType: 0)) == .tiff, "an edited Sony photo")
        #expect(PhotoFormat.of(file(make: "SONY", subfileType: 1)) == .arw)
        #expect(PhotoFormat.of(file(make: "Canon", subfileType: 1)) == .tiff)
    }

    @Test func tellsAFloatingPointTIFFByItsSampleFormat() throws {
        let bytes = tiff([(258, 3, 1, le16(32)), (339, 3, 1, le16(3))])
        let directory = try #require(bytes.withUnsafeBytes { TIFFDirectory.first($0) })
        #expect(directory.sampleLayout.bits == 32 && directory.sampleLayout.format == 3)
        let truncated = Array(bytes.prefix(12))
        #expect(truncated.withUnsafeBytes { TIFFDirectory.first($0) } == nil)
    }

    @Test func findsARAWCutShortByItsStripsNotByAStrayNextPointer() {
        // IFD0 at 8 with one entry pair: a strip of 16 bytes at 38, just after the directory.
        func file(next: Int, tail: Int) -> [UInt8] {
            Array("II".utf8) + le16(42) + le32(8) + le16(2) + le16(273) + le16(4) + le32(1) + le32(38)
                + le16(279) + le16(4) + le32(1) + le32(16) + le32(next) + [UInt8](repeating: 7, count: tail)
        }
        #expect(file(next: 0, tail: 16).withUnsafeBytes { TIFFDirectory.picturesAreWithin($0) })
        #expect(!file(next: 0, tail: 15).withUnsafeBytes { TIFFDirectory.picturesAreWithin($0) }, "strip cut short")
        #expect(
            file(next: 0x7FFF_FFF0, tail: 16).withUnsafeBytes { TIFFDirectory.picturesAreWithin($0) },
            "a next pointer to nowhere is passed over")
        #expect(file(next: 8, tail: 16).withUnsafeBytes { TIFFDirectory.picturesAreWithin($0) }, "a loop ends")
    }

    @Test func readsTheSizeOfAHEIFPrimaryPictureTurnedAsShown() {
        #expect(
            heif(brand: "heic", width: 6000, height: 4000).withUnsafeBytes { ISOBMFF.primarySize($0) }! == (6000, 4000))
        #expect(
            heif(brand: "heic", width: 6000, height: 4000, rotation: 1).withUnsafeBytes { ISOBMFF.primarySize($0) }!
                == (4000, 6000))
        let file = heif(brand: "avif", width: 10, height: 20)
        #expect(file.withUnsafeBytes { PhotoStructure.isComplete($0, format: .avif) })
        #expect(
            !Array(file.dropLast(2)).withUnsafeBytes { PhotoStructure.isComplete($0, format: .avif) }, "mdat cut short")
    }

    /// SOI, APP0, DQT-like segment, SOS with data, EOI.
    static let jpeg: [UInt8] =
        [0xFF, 0xD8] + [0xFF, 0xE0] + be16(6) + Array("JFIF".utf8)
        + [0xFF, 0xDB] + be16(4) + [0, 1] + [0xFF, 0xDA] + be16(3) + [1] + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]
        + [0xFF, 0xD9]

    @Test func walksJPEGSegmentsSkippingStrayBytesAsDecodersDo() throws {
        #expect(Self.jpeg.withUnsafeBytes { JPEGSegments.isComplete($0) })
        // Three stray bytes after APP0, as some editors write.
        var stray = Self.jpeg
        stray.insert(contentsOf: [0x00, 0x12, 0x34], at: 10)
        #expect(stray.withUnsafeBytes { JPEGSegments.isComplete($0) })
        let headers = try #require(stray.withReader { JPEGSegments.headers($0) })
        #expect(headers.segments.map(\.marker) == [0xE0, 0xDB])
        #expect(stray[headers.tail] == 0xFF && stray[headers.tail + 1] == 0xDA)
        // A gain map or a second picture after the first EOI (Ultra HDR, MPF) is allowed.
        #expect((Self.jpeg + Self.jpeg).withUnsafeBytes { JPEGSegments.isComplete($0) })
        // Cut before EOI: incomplete.
        for cut in 1..<8 {
            #expect(!Array(Self.jpeg.dropLast(cut)).withUnsafeBytes { JPEGSegments.isComplete($0) }, "cut \(cut)")
        }
        #expect(!Array(Self.jpeg.prefix(6)).withUnsafeBytes { JPEGSegments.isComplete($0) })
    }

    @Test func walksPNGAndRIFFChunksToTheirEnd() {
        let png: [UInt8] =
            [0x89] + Array("PNG\r\n\u{1A}\n".utf8) + be32(0) + Array("IHDR".utf8) + be32(0)
            + be32(1) + Array("IDAT".utf8) + [7] + be32(0) + be32(0) + Array("IEND".utf8) + be32(0)
        #expect(png.withReader { PNGChunks.chunks($0) }?.map(\.type) == ["IHDR", "IDAT", "IEND"])
        #expect(png.withUnsafeBytes { PNGChunks.isComplete($0) })
        #expect(!Array(png.dropLast(1)).withUnsafeBytes { PNGChunks.isComplete($0) })
        let webp = Array("RIFF".utf8) + le32(4 + 9 + 1) + Array("WEBP".utf8) + Array("VP8L".utf8) + le32(1) + [5, 0]
        #expect(webp.withReader { RIFFChunks.chunks($0) }?.map(\.fourCC) == ["VP8L"])
        #expect(webp.withUnsafeBytes { RIFFChunks.isComplete($0) })
        #expect(!Array(webp.dropLast(2)).withUnsafeBytes { RIFFChunks.isComplete($0) })
    }

    /// The desktop entry offers Caption for exactly the formats it takes: a type missing
    /// there hides Caption from "Open With" for those photos, and one too many offers it for
    /// files it refuses.
    @Test func theDesktopEntryListsEveryFormatAndNoOther() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let entry = try String(
            contentsOf: root.appendingPathComponent("data/io.github.caption_app.Caption.desktop.in"), encoding: .utf8)
        let line = try #require(entry.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
        let listed = line.dropFirst("MimeType=".count).split(separator: ";").map(String.init)
        #expect(listed.count == Set(listed).count, "a type is listed twice: \(listed)")
        #expect(Set(listed) == Set(PhotoFormat.allCases.map(\.mimeType)))
    }
}
