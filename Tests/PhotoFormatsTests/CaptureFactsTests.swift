// Reading what the camera recorded (Exif) from JPEG and TIFF bytes made here.

import Testing

@testable import PhotoFormats

@Suite struct CaptureFactsTests {
    /// A little-endian TIFF: IFD0 with Make, Model and an Exif pointer; the Exif IFD with
    /// DateTimeOriginal and LensModel.
    static func tiff(make: String = "Canon", model: String = "Canon EOS R5", exif: Bool = true) -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] {
            [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
        }
        let date = Array("2024:05:17 14:03:22".utf8) + [0]
        let lens = Array("RF24-105mm F4".utf8) + [0]
        let makeBytes = Array(make.utf8) + [0]
        let modelBytes = Array(model.utf8) + [0]
        // IFD0 at 8: 3 entries (2 + 36 + 4 = 42 bytes), data after it.
        let ifd0Entries = exif ? 3 : 2
        let ifd0Size = 2 + ifd0Entries * 12 + 4
        var data: [UInt8] = []
        let dataStart = 8 + ifd0Size
        let makeAt = dataStart + data.count
        data += makeBytes
        let modelAt = dataStart + data.count
        data += modelBytes
        let exifAt = dataStart + data.count
        // The Exif IFD: 2 entries, then its values.
        let exifSize = 2 + 2 * 12 + 4
        let dateAt = exifAt + exifSize
        let lensAt = dateAt + date.count
        var exifIFD = u16(2)
        exifIFD += u16(36867) + u16(2) + u32(date.count) + u32(dateAt)
        exifIFD += u16(42036) + u16(2) + u32(lens.count) + u32(lensAt)
        exifIFD += u32(0) + date + lens
        out += u16(ifd0Entries)
        out += u16(271) + u16(2) + u32(makeBytes.count) + u32(makeAt)
        out += u16(272) + u16(2) + u32(modelBytes.count) + u32(modelAt)
        if exif { out += u16(34665) + u16(4) + u32(1) + u32(exifAt) }
        out += u32(0)
        out += data
        if exif { out += exifIFD }
        return out
    }

    static func jpeg(withExif tiff: [UInt8]) -> [UInt8] {
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xD9]
    }

    @Test func aJPEGsExifGivesTimeCameraAndLens() {
        let facts = Self.jpeg(withExif: Self.tiff()).withUnsafeBytes { CaptureFacts.read($0) }
        #expect(facts == CaptureFacts(captured: "2024:05:17 14:03:22", camera: "Canon EOS R5", lens: "RF24-105mm F4"))
    }

    @Test func aTIFFIsReadDirectly() {
        let facts = Self.tiff().withUnsafeBytes { CaptureFacts.read($0) }
        #expect(facts.captured == "2024:05:17 14:03:22")
    }

    @Test func theMakeIsAddedWhenTheModelDoesNotSayIt() {
        let facts = Self.tiff(make: "SONY", model: "ILCE-7M4").withUnsafeBytes { CaptureFacts.read($0) }
        #expect(facts.camera == "SONY ILCE-7M4")
        let nikon = Self.tiff(make: "NIKON CORPORATION", model: "NIKON D850").withUnsafeBytes { CaptureFacts.read($0) }
        #expect(nikon.camera == "NIKON D850")
    }

    @Test func withoutAnExifDirectoryThereIsNoTimeOrLens() {
        let facts = Self.tiff(exif: false).withUnsafeBytes { CaptureFacts.read($0) }
        #expect(facts.captured == nil && facts.lens == nil && facts.camera == "Canon EOS R5")
    }

    @Test func noExifOrDamagedBytesGiveNothing() {
        let plain: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        #expect(plain.withUnsafeBytes { CaptureFacts.read($0) } == .none)
        var cut = Self.jpeg(withExif: Self.tiff())
        cut.removeLast(40)
        #expect(cut.withUnsafeBytes { CaptureFacts.read($0) } == .none)
        #expect([UInt8](repeating: 7, count: 64).withUnsafeBytes { CaptureFacts.read($0) } == .none)
    }

    @Test func anExifChunkIsReadWithOrWithoutJPEGsExifMark() {
        let expected = CaptureFacts(captured: "2024:05:17 14:03:22", camera: "Canon EOS R5", lens: "RF24-105mm F4")
        #expect(Self.tiff().withUnsafeBytes(CaptureFacts.fromExif) == expected)
        let marked = Array("Exif".utf8) + [0, 0] + Self.tiff()
        #expect(marked.withUnsafeBytes(CaptureFacts.fromExif) == expected)
    }

    @Test func aHEIFExifItemSkipsToItsTIFFHeader() {
        let expected = CaptureFacts(captured: "2024:05:17 14:03:22", camera: "Canon EOS R5", lens: "RF24-105mm F4")
        // libheif's and phones' items: an offset of 6 past "Exif\0\0", or of 0.
        let phone: [UInt8] = [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0] + Self.tiff()
        #expect(phone.withUnsafeBytes(CaptureFacts.fromHEIFExif) == expected)
        let bare: [UInt8] = [0, 0, 0, 0] + Self.tiff()
        #expect(bare.withUnsafeBytes(CaptureFacts.fromHEIFExif) == expected)
        // An offset past the end names nothing.
        let wrong: [UInt8] = [0, 0, 1, 0] + Self.tiff()
        #expect(wrong.withUnsafeBytes(CaptureFacts.fromHEIFExif) == .none)
    }
}

@Suite struct SubjectPointTests {
    /// Each Exif orientation takes the stored picture's top-right quarter point where the
    /// turned photo shows it.
    @Test(arguments: [
        (1, 0.75, 0.25), (2, 0.25, 0.25), (3, 0.25, 0.75), (4, 0.75, 0.75),
        (5, 0.25, 0.75), (6, 0.75, 0.75), (7, 0.75, 0.25), (8, 0.25, 0.25),
    ])
    func orientationTurnsThePoint(orientation: Int, x: Double, y: Double) throws {
        let point = SubjectPoint(x: 300, y: 100, orientation: orientation)
        let upright = try #require(point.upright(stored: (400, 400)))
        #expect(upright.x == x && upright.y == y, "orientation \(orientation): \(upright)")
    }

    @Test func exifSizeGoesWithThePointAndOutsideIsNone() {
        let point = SubjectPoint(x: 1000, y: 500, width: 4000, height: 2000)
        // A photo resized after: the point keeps its place in the picture.
        #expect(point.upright(stored: (400, 200)).map { [$0.x, $0.y] } == [0.25, 0.25])
        #expect(SubjectPoint(x: 5000, y: 10).upright(stored: (400, 200)) == nil)
    }
}
