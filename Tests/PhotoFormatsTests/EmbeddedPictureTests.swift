// The small pictures photos carry of themselves: Exif thumbnails as exiftool and exiv2
// write them, and a camera RAW's previews beside its sensor data.

import CaptionTestSupport
import Foundation
import Testing

@testable import PhotoFormats

/// Runs a Debian tool in `folder`; throws with its error output when it fails.
private func run(_ program: String, _ arguments: [String], in folder: URL) throws {
    let outcome = try Tool.run(program, arguments, in: folder.path)
    guard outcome.status == 0 else { throw ToolFailure(description: "\(program): " + outcome.stderr) }
}

/// A binary PPM of one colour, with black bars `bars` rows high above and below, as
/// cameras pad a 3:2 photo's 4:3 thumbnail.
private func ppm(width: Int, height: Int, colour: [UInt8], bars: Int = 0) -> Data {
    var data = Data("P6 \(width) \(height) 255\n".utf8)
    for row in 0..<height {
        let pixel = row < bars || row >= height - bars ? [0, 0, 0] : colour
        for _ in 0..<width { data.append(contentsOf: pixel) }
    }
    return data
}

/// A magenta 300 × 200 JPEG (cjpeg) and a green, letterboxed 160 × 120 thumbnail for it.
private func photoAndThumbnail() throws -> (folder: URL, photo: URL, thumbnail: Data) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try ppm(width: 300, height: 200, colour: [224, 48, 224]).write(to: folder.appendingPathComponent("photo.ppm"))
    try ppm(width: 160, height: 120, colour: [40, 200, 40], bars: 13)
        .write(to: folder.appendingPathComponent("thumb.ppm"))
    try run("cjpeg", ["-outfile", "photo.jpg", "photo.ppm"], in: folder)
    try run("cjpeg", ["-outfile", "thumb.jpg", "thumb.ppm"], in: folder)
    return (
        folder, folder.appendingPathComponent("photo.jpg"),
        try Data(contentsOf: folder.appendingPathComponent("thumb.jpg"))
    )
}

private func picture(inJPEG file: URL) throws -> (EmbeddedPicture?, Data) {
    let bytes = try Data(contentsOf: file)
    return (bytes.withUnsafeBytes { EmbeddedPicture.inJPEG($0) }, bytes)
}

@Test func exifThumbnailWrittenByExiftoolIsFound() throws {
    let (folder, photo, thumbnail) = try photoAndThumbnail()
    defer { try? FileManager.default.removeItem(at: folder) }
    try run("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=thumb.jpg", "photo.jpg"], in: folder)
    let (found, bytes) = try picture(inJPEG: photo)
    let picture = try #require(found)
    #expect(picture.coding == .jpeg)
    #expect(bytes[picture.range] == thumbnail)
}

@Test func exifThumbnailWrittenByExiv2IsFound() throws {
    let (folder, photo, thumbnail) = try photoAndThumbnail()
    defer { try? FileManager.default.removeItem(at: folder) }
    // exiv2 takes the thumbnail from NAME-thumb.jpg beside the photo.
    try thumbnail.write(to: folder.appendingPathComponent("photo-thumb.jpg"))
    try run("exiv2", ["-it", "insert", "photo.jpg"], in: folder)
    let (found, bytes) = try picture(inJPEG: photo)
    let picture = try #require(found)
    #expect(bytes[picture.range] == thumbnail)
}

@Test func jpegWithoutExifThumbnailHasNone() throws {
    let (folder, photo, _) = try photoAndThumbnail()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Exif, but no IFD1.
    try run("exiftool", ["-q", "-overwrite_original", "-Make=Caption", "photo.jpg"], in: folder)
    #expect(try picture(inJPEG: photo).0 == nil)
}

@Test func exifThumbnailPointingPastItsBlockIsNotRead() throws {
    let (folder, photo, _) = try photoAndThumbnail()
    defer { try? FileManager.default.removeItem(at: folder) }
    try run("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=thumb.jpg", "photo.jpg"], in: folder)
    var (found, bytes) = try picture(inJPEG: photo)
    let picture = try #require(found)
    // The length grown past the Exif block: the bytes beyond are the photo's, not the thumbnail's.
    let length = UInt32(picture.range.count).littleEndian
    let lengthBytes = withUnsafeBytes(of: length) { Data($0) }
    let bigEndianLength = withUnsafeBytes(of: UInt32(picture.range.count).bigEndian) { Data($0) }
    let at = bytes.range(of: lengthBytes) ?? bytes.range(of: bigEndianLength)
    let field = try #require(at)
    let grown = UInt32(picture.range.count + 70_000)
    bytes.replaceSubrange(
        field,
        with: bytes[field] == lengthBytes
            ? withUnsafeBytes(of: grown.littleEndian) { Data($0) } : withUnsafeBytes(of: grown.bigEndian) { Data($0) })
    #expect(bytes.withUnsafeBytes { EmbeddedPicture.inJPEG($0) } == nil)
}

@Test func exifCutShortHasNoThumbnail() throws {
    let (folder, photo, _) = try photoAndThumbnail()
    defer { try? FileManager.default.removeItem(at: folder) }
    try run("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=thumb.jpg", "photo.jpg"], in: folder)
    let (found, bytes) = try picture(inJPEG: photo)
    let picture = try #require(found)
    // A head that ends inside the thumbnail: never read past what was read.
    let head = bytes.prefix(picture.range.lowerBound + 10)
    #expect(head.withUnsafeBytes { EmbeddedPicture.inJPEG($0) } == nil)
}

// MARK: - Camera RAWs (TIFF-based)

/// A little-endian TIFF laid out as a DNG is: IFD0 a small RGB thumbnail, SubIFDs the
/// sensor's data and a JPEG preview.
private func rawLikeTIFF(thumbnailWidth: Int = 16, thumbnailHeight: Int = 12, previewWidth: Int = 1024) -> [UInt8] {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
    typealias Entry = (tag: Int, type: Int, count: Int, value: [UInt8])
    func directory(_ entries: [Entry], at start: Int) -> [UInt8] {
        var out = le16(entries.count)
        var extra: [UInt8] = []
        let extraAt = start + 2 + 12 * entries.count + 4
        for entry in entries {
            out += le16(entry.tag) + le16(entry.type) + le32(entry.count)
            if entry.value.count <= 4 {
                out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                out += le32(extraAt + extra.count)
                extra += entry.value
            }
        }
        return out + le32(0) + extra
    }
    let rgb = [UInt8](repeating: 90, count: thumbnailWidth * thumbnailHeight * 3)
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9, 0, 0]
    let sensor = [UInt8](repeating: 7, count: 64)
    func ifd0(sub: [Int], thumbAt: Int) -> [Entry] {
        [
            (254, 4, 1, le32(1)), (256, 4, 1, le32(thumbnailWidth)), (257, 4, 1, le32(thumbnailHeight)),
            (258, 3, 3, le16(8) + le16(8) + le16(8)), (259, 3, 1, le16(1)), (262, 3, 1, le16(2)),
            (273, 4, 1, le32(thumbAt)), (277, 3, 1, le16(3)), (279, 4, 1, le32(rgb.count)),
            (330, 4, 2, le32(sub[0]) + le32(sub[1])),
        ]
    }
    func sensorIFD(at data: Int) -> [Entry] {
        [
            (254, 4, 1, le32(0)), (256, 4, 1, le32(8)), (257, 4, 1, le32(4)), (259, 3, 1, le16(1)),
            (262, 3, 1, le16(32803)), (273, 4, 1, le32(data)), (279, 4, 1, le32(sensor.count)),
        ]
    }
    func previewIFD(at data: Int) -> [Entry] {
        [
            (254, 4, 1, le32(1)), (256, 4, 1, le32(previewWidth)), (257, 4, 1, le32(previewWidth * 2 / 3)),
            (259, 3, 1, le16(7)), (262, 3, 1, le16(6)), (273, 4, 1, le32(data)), (279, 4, 1, le32(jpeg.count)),
        ]
    }
    // Sizes do not depend on the offsets: lay out once with zeros, then for real.
    let first = directory(ifd0(sub: [0, 0], thumbAt: 0), at: 8).count
    let second = directory(sensorIFD(at: 0), at: 0).count
    let third = directory(previewIFD(at: 0), at: 0).count
    let sensorAt = 8 + first
    let previewAt = sensorAt + second
    let dataAt = previewAt + third
    return Array("II".utf8) + le16(42) + le32(8)
        + directory(ifd0(sub: [sensorAt, previewAt], thumbAt: dataAt), at: 8)
        + directory(sensorIFD(at: dataAt + rgb.count + jpeg.count), at: sensorAt)
        + directory(previewIFD(at: dataAt + rgb.count), at: previewAt)
        + rgb + jpeg + sensor
}

@Test func rawsSmallestPreviewWideEnoughIsChosen() throws {
    let bytes = rawLikeTIFF(thumbnailWidth: 256, thumbnailHeight: 171)
    let small = try #require(bytes.withUnsafeBytes { EmbeddedPicture.inTIFF($0) })
    #expect(small.coding == .rgb(width: 256, height: 171))
    #expect(small.range.count == 256 * 171 * 3)
    let larger = try #require(bytes.withUnsafeBytes { EmbeddedPicture.inTIFF($0, minimumWidth: 300) })
    #expect(larger.coding == .jpeg)
    #expect(larger.width == 1024)
    #expect(Array(bytes[larger.range.prefix(2)]) == [0xFF, 0xD8])
    // A full-size preview is the photo's own decode, not a picture to show meanwhile.
    #expect(bytes.withUnsafeBytes { EmbeddedPicture.inTIFF($0, minimumWidth: 300, maximumWidth: 1000) } == nil)
}

@Test func rawsSensorDataIsNeverItsPreview() {
    // The thumbnail too narrow, the preview too: only the sensor's data is left.
    let bytes = rawLikeTIFF(thumbnailWidth: 16, thumbnailHeight: 12, previewWidth: 60)
    #expect(bytes.withUnsafeBytes { EmbeddedPicture.inTIFF($0) } == nil)
}

@Test func rawPreviewOutsideTheBytesReadIsNotUsed() {
    let bytes = rawLikeTIFF(thumbnailWidth: 256, thumbnailHeight: 171)
    // Cut inside the thumbnail's strip: the JPEG preview after it is outside too.
    let head = Array(bytes.prefix(bytes.count - 64 - 6 - 100))
    #expect(head.withUnsafeBytes { EmbeddedPicture.inTIFF($0) } == nil)
}
