// The eighth-size decoder against libjpeg's own 1/8 scale, on every layout it takes; what it
// refuses; damaged files; and the second thread's guess never changing a pixel.

import Foundation
import JPEGTestSupport
import Testing

@testable import JPEGPreview

/// Test pictures and their JPEGs, made with libjpeg.
enum Pictures {
    /// Smooth colour gradients with noise of `noise` levels on top, so files of any entropy
    /// can be made; the same seed gives the same picture.
    static func pixels(width: Int, height: Int, components: Int, seed: UInt64 = 1, noise: Int = 40) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var pixels = [UInt8](repeating: 0, count: width * height * components)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<components {
                    state ^= state << 13
                    state ^= state >> 7
                    state ^= state << 17
                    let base =
                        (x * (channel + 1) * 255 / max(width, 1) + y * (3 - channel % 3) * 255 / max(height, 1)) / 3
                    let value = base + Int(state % UInt64(noise + 1)) - noise / 2
                    pixels[(y * width + x) * components + channel] = UInt8(min(max(value, 0), 255))
                }
            }
        }
        return pixels
    }

    static func jpeg(
        width: Int, height: Int, components: Int = 3, quality: Int = 90,
        sampling: (Int, Int) = (2, 2), seed: UInt64 = 1, noise: Int = 40,
        progressive: Bool = false, restartRows: Int = 0, arithmetic: Bool = false,
        rgb: Bool = false
    ) -> [UInt8] {
        let pixels = pixels(width: width, height: height, components: components, seed: seed, noise: noise)
        let options = jpeg_test_options(
            components: Int32(components), quality: Int32(quality),
            luma_h: Int32(sampling.0), luma_v: Int32(sampling.1),
            progressive: progressive ? 1 : 0, restart_rows: Int32(restartRows),
            arithmetic: arithmetic ? 1 : 0, rgb: rgb ? 1 : 0)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = jpeg_test_encode(pixels, Int32(width), Int32(height), options, &out, &size)
        precondition(status == 0 && out != nil, "libjpeg could not encode the test picture")
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// libjpeg's picture at scale 1/8, as RGB (grey repeated three times).
    static func libjpegEighth(_ jpeg: [UInt8]) -> (width: Int, height: Int, rgb: [UInt8])? {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var components: Int32 = 0
        guard jpeg_test_decode_eighth(jpeg, jpeg.count, &pixels, &width, &height, &components) == 0,
            let pixels
        else { return nil }
        defer { free(pixels) }
        let count = Int(width) * Int(height)
        var rgb = [UInt8](repeating: 0, count: count * 3)
        for index in 0..<count {
            for channel in 0..<3 {
                rgb[index * 3 + channel] = pixels[index * Int(components) + (components == 1 ? 0 : channel)]
            }
        }
        return (Int(width), Int(height), rgb)
    }

    /// `jpeg` with an EXIF block holding `orientation` just after its start marker.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt16, bigEndian: Bool = true) -> [UInt8] {
        func short(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func long(_ value: UInt32) -> [UInt8] {
            let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }
        let tiff =
            (bigEndian ? Array("MM".utf8) + [0, 42] : Array("II".utf8) + [42, 0]) + long(8)
            + short(1) + short(0x0112) + short(3) + long(1) + short(orientation) + [0, 0] + long(0)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = UInt16(payload.count + 2)
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
    }
}

/// How far two pictures are apart, channel by channel.
struct Difference {
    var mean: Double
    var largest: Int

    init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count)
        var total = 0
        var largest = 0
        for index in a.indices {
            let step = abs(Int(a[index]) - Int(b[index]))
            total += step
            largest = max(largest, step)
        }
        mean = Double(total) / Double(max(a.count, 1))
        self.largest = largest
    }
}

struct Layout: CustomTestStringConvertible, Sendable {
    var width: Int
    var height: Int
    var components: Int
    var sampling: (Int, Int)
    var quality: Int
    var testDescription: String {
        "\(width)×\(height), \(components == 1 ? "grey" : "\(sampling.0)×\(sampling.1) luma"), q\(quality)"
    }
}

@Suite struct EighthDecodeTests {
    /// Every how many damaged files a test decodes. ThreadSanitizer slows the decoder some
    /// twentyfold, and what it looks for (the two threads' hand-over) happens in every
    /// decode, not in one damaged file more than another; make test and AddressSanitizer
    /// decode every file.
    static let damagedFileStep = ProcessInfo.processInfo.environment["CAPTION_SANITIZER"] == "thread" ? 5 : 1

    /// Sizes that are and are not whole MCUs, each layout, three qualities.
    static let exactLayouts: [Layout] = [
        Layout(width: 640, height: 480, components: 1, sampling: (1, 1), quality: 90),
        Layout(width: 333, height: 97, components: 1, sampling: (1, 1), quality: 50),
        Layout(width: 9, height: 1, components: 1, sampling: (1, 1), quality: 100),
        Layout(width: 640, height: 480, components: 3, sampling: (1, 1), quality: 90),
        Layout(width: 201, height: 333, components: 3, sampling: (1, 1), quality: 100),
        Layout(width: 17, height: 15, components: 3, sampling: (1, 1), quality: 50),
    ]

    /// Grey and 4:4:4 files have no chroma to upsample: every pixel must be libjpeg's.
    @Test(arguments: exactLayouts)
    func matchesLibjpegExactlyWithoutSubsampling(_ layout: Layout) throws {
        let jpeg = Pictures.jpeg(
            width: layout.width, height: layout.height, components: layout.components,
            quality: layout.quality, sampling: layout.sampling)
        let reference = try #require(Pictures.libjpegEighth(jpeg))
        let ours = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: 1) })
        #expect(ours.width == reference.width && ours.height == reference.height)
        #expect(ours.width == (layout.width + 7) / 8 && ours.height == (layout.height + 7) / 8)
        let difference = Difference(ours.pixels, reference.rgb)
        #expect(difference.largest == 0, "mean \(difference.mean), largest \(difference.largest)")
    }

    static let subsampledLayouts: [Layout] = [
        Layout(width: 640, height: 480, components: 3, sampling: (2, 2), quality: 90),
        Layout(width: 1001, height: 67, components: 3, sampling: (2, 2), quality: 75),
        Layout(width: 640, height: 480, components: 3, sampling: (2, 1), quality: 90),
        Layout(width: 250, height: 377, components: 3, sampling: (1, 2), quality: 60),
        Layout(width: 130, height: 250, components: 3, sampling: (4, 1), quality: 95),
    ]

    /// With subsampled colour, libjpeg rebuilds chroma from more than the DC term, so the
    /// colours may differ a little (on these steep synthetic gradients a mean of 1 to 2.6 levels);
    /// the brightness comes from the same numbers.
    @Test(arguments: subsampledLayouts)
    func staysCloseToLibjpegWithSubsampledColour(_ layout: Layout) throws {
        let jpeg = Pictures.jpeg(
            width: layout.width, height: layout.height, quality: layout.quality,
            sampling: layout.sampling, noise: 10)
        let reference = try #require(Pictures.libjpegEighth(jpeg))
        let ours = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: 1) })
        #expect(ours.width == reference.width && ours.height == reference.height)
        let difference = Difference(ours.pixels, reference.rgb)
        print(
            "staysCloseToLibjpegWithSubsampledColour \(layout.testDescription): mean \(difference.mean), largest \(difference.largest)"
        )
        #expect(
            difference.mean < 3.0 && difference.largest <= 40, "mean \(difference.mean), largest \(difference.largest)")
    }

    /// The same with the grain of a real photo (noise 40 instead of 10) on pictures of at
    /// most 320 × 240, where chroma detail between DC terms matters most. Measured here: a
    /// mean of 0.75 to 2.7 levels, the largest 16 (4×1 sampling the worst); the bound sits
    /// just above, so a change that makes the colour worse fails.
    @Test(arguments: subsampledLayouts)
    func grainySmallPicturesStayWithinTheMeasuredColourError(_ layout: Layout) throws {
        let jpeg = Pictures.jpeg(
            width: min(layout.width, 320), height: min(layout.height, 240), quality: layout.quality,
            sampling: layout.sampling, noise: 40)
        let reference = try #require(Pictures.libjpegEighth(jpeg))
        let ours = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: 1) })
        let difference = Difference(ours.pixels, reference.rgb)
        print("grainySmallPictures \(layout.testDescription): mean \(difference.mean), largest \(difference.largest)")
        #expect(
            difference.mean < 3.5 && difference.largest <= 24, "mean \(difference.mean), largest \(difference.largest)")
    }

    /// A wrong DC term moves a whole block by many levels, and a lost step in the predictors
    /// shifts every block after it: both are far beyond what the tolerance above allows.
    @Test func aWrongDCTermIsCaught() throws {
        let jpeg = Pictures.jpeg(width: 320, height: 240, sampling: (2, 2), noise: 10)
        let reference = try #require(Pictures.libjpegEighth(jpeg))
        var ours = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: 1) })
        for index in stride(from: 0, to: 3 * 8, by: 1) { ours.pixels[index] = ours.pixels[index] &+ 30 }
        #expect(Difference(ours.pixels, reference.rgb).largest > 25)
    }

    static let largeLayouts: [Layout] = [
        Layout(width: 2000, height: 1400, components: 3, sampling: (2, 2), quality: 95),
        Layout(width: 1600, height: 1200, components: 3, sampling: (1, 1), quality: 92),
        Layout(width: 2001, height: 1399, components: 1, sampling: (1, 1), quality: 98),
        Layout(width: 1800, height: 1300, components: 3, sampling: (2, 1), quality: 97),
    ]

    /// The second thread starts in the middle at a guess; the picture must be the one a
    /// single thread makes, and the guess must have been used (not thrown away).
    @Test(arguments: largeLayouts)
    func twoThreadsGiveWhatOneGives(_ layout: Layout) throws {
        let jpeg = Pictures.jpeg(
            width: layout.width, height: layout.height, components: layout.components,
            quality: layout.quality, sampling: layout.sampling, noise: 120)
        #expect(jpeg.count > SpeculativeScan.smallestSplit)
        let alone = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: 1) })
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: jpeg.count + EntropyData.padding)
        defer { copy.deallocate() }
        _ = copy.initialize(from: jpeg)
        let decoded = try #require(JPEGPreview.decodeEighth(copy, length: jpeg.count, fitting: nil, threads: 2))
        let together = decoded.picture
        #expect(alone.pixels == together.pixels)
        #expect(decoded.outcome == .joined, "the second thread's half was not used")
        if layout.components == 1 || layout.sampling == (1, 1) {
            let reference = try #require(Pictures.libjpegEighth(jpeg))
            #expect(together.pixels == reference.rgb)
        }
    }

    /// Fitted to an area, the picture is shrunk from the DC terms: the same picture as
    /// libjpeg's eighth averaged down, and never enlarged.
    @Test func shrinksToFitAnArea() throws {
        let jpeg = Pictures.jpeg(width: 1600, height: 1200, sampling: (1, 1), noise: 10)
        let reference = try #require(Pictures.libjpegEighth(jpeg))
        #expect(reference.width == 200 && reference.height == 150)
        let half = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, fitting: (100, 100)) })
        #expect(half.width == 100 && half.height == 75)
        // libjpeg's eighth, each 2 × 2 averaged.
        var averaged = [UInt8](repeating: 0, count: 100 * 75 * 3)
        for y in 0..<75 {
            for x in 0..<100 {
                for channel in 0..<3 {
                    let sum = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(0) {
                        $0 + Int(reference.rgb[((2 * y + $1.1) * 200 + 2 * x + $1.0) * 3 + channel])
                    }
                    averaged[(y * 100 + x) * 3 + channel] = UInt8((sum + 2) / 4)
                }
            }
        }
        let difference = Difference(half.pixels, averaged)
        #expect(
            difference.mean < 2 && difference.largest <= 24, "mean \(difference.mean), largest \(difference.largest)")
        let larger = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, fitting: (900, 900)) })
        #expect(larger.width == 200 && larger.pixels == reference.rgb, "an area larger than the eighth changes nothing")
    }

    /// A picture its camera turned a quarter must fit the area once turned back.
    @Test func fitsTheAreaAsShownUpright() throws {
        let jpeg = Pictures.withOrientation(Pictures.jpeg(width: 1600, height: 1200), 6)
        let picture = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, fitting: (60, 100)) })
        #expect(
            picture.width == 80 && picture.height == 60,
            "stored landscape, shown 60 × 80: \(picture.width) × \(picture.height)")
    }

    /// Restart markers (phones write them): every interval starts afresh, and with two
    /// threads each takes half of the intervals. The picture is libjpeg's.
    @Test(arguments: [(1, 1, 1), (3, 2, 2), (1, 1, 2)])
    func decodesFilesWithRestartMarkers(components: Int, luma: Int, threads: Int) throws {
        let large = threads == 2
        let jpeg = Pictures.jpeg(
            width: large ? 2400 : 333, height: large ? 1800 : 201, components: components,
            quality: 95, sampling: (luma, luma), noise: large ? 120 : 40, restartRows: 1)
        let reference = try #require(Pictures.libjpegEighth(jpeg))
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: jpeg.count + EntropyData.padding)
        defer { copy.deallocate() }
        _ = copy.initialize(from: jpeg)
        let decoded = try #require(JPEGPreview.decodeEighth(copy, length: jpeg.count, fitting: nil, threads: threads))
        #expect(decoded.outcome == (large ? .split : .alone))
        let difference = Difference(decoded.picture.pixels, reference.rgb)
        if luma == 1 {
            #expect(difference.largest == 0, "mean \(difference.mean), largest \(difference.largest)")
        } else {
            #expect(
                difference.mean < 3 && difference.largest <= 40,
                "mean \(difference.mean), largest \(difference.largest)")
        }
        if large {
            let alone = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: 1) })
            #expect(alone.pixels == decoded.picture.pixels)
        }
    }

    /// A restart interval whose markers are missing from the data, or out of order, is damage.
    @Test func refusesRestartMarkersThatDoNotAddUp() throws {
        let jpeg = Pictures.jpeg(width: 256, height: 256, components: 1, restartRows: 1)
        func decode(_ bytes: [UInt8]) -> EighthImage? { bytes.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0) } }
        #expect(decode(jpeg) != nil)
        // The markers FF D0 … FF D7 after the scan header, found and changed.
        let scan = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let markers = ((scan + 2)..<(jpeg.count - 1)).filter {
            jpeg[$0] == 0xFF && (0xD0...0xD7).contains(jpeg[$0 + 1])
        }
        #expect(markers.count == 31, "one marker between each of the 32 rows of MCUs")
        var swapped = jpeg
        swapped[markers[3] + 1] = 0xD6
        #expect(decode(swapped) == nil, "a marker out of its order")
        var missing = jpeg
        missing.removeSubrange(markers[5]..<(markers[5] + 2))
        #expect(decode(missing) == nil, "an interval too few")
    }

    /// What the decoder does not take, it says so with nil, and the caller uses GdkPixbuf.
    @Test func refusesWhatItDoesNotDecode() {
        func decode(_ bytes: [UInt8]) -> EighthImage? { bytes.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0) } }
        #expect(decode(Pictures.jpeg(width: 64, height: 64, progressive: true)) == nil, "progressive")
        #expect(decode(Pictures.jpeg(width: 64, height: 64, arithmetic: true)) == nil, "arithmetic coding")
        #expect(decode(Pictures.jpeg(width: 64, height: 64, components: 4)) == nil, "CMYK")
        #expect(decode(Pictures.jpeg(width: 64, height: 64, rgb: true)) == nil, "RGB")
        #expect(decode([]) == nil)
        #expect(decode([0xFF, 0xD8, 0xFF, 0xD9]) == nil, "no frame")
        #expect(decode(Array("\u{89}PNG\r\n\u{1A}\n".utf8) + [UInt8](repeating: 0, count: 64)) == nil)
        // And what it takes, it takes: the same picture made plain decodes.
        #expect(decode(Pictures.jpeg(width: 64, height: 64)) != nil)
    }

    @Test func refusesFilesItCannotRead() throws {
        #expect(JPEGPreview.decodeEighth(path: "/nonexistent/photo.jpg") == nil)
        #expect(JPEGPreview.decodeEighth(path: NSTemporaryDirectory()) == nil)
        let empty = NSTemporaryDirectory() + "/caption-eighth-empty-\(getpid()).jpg"
        FileManager.default.createFile(atPath: empty, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(JPEGPreview.decodeEighth(path: empty) == nil)
        let photo = NSTemporaryDirectory() + "/caption-eighth-\(getpid()).jpg"
        let jpeg = Pictures.jpeg(width: 96, height: 64, components: 1)
        FileManager.default.createFile(atPath: photo, contents: Data(jpeg))
        defer { try? FileManager.default.removeItem(atPath: photo) }
        let fromFile = try #require(JPEGPreview.decodeEighth(path: photo))
        #expect(fromFile.pixels == Pictures.libjpegEighth(jpeg)?.rgb)
    }

    /// Cut short anywhere, or with bytes changed anywhere, a file gives nil or a picture of
    /// its size: never a crash or a read outside the buffer (make test-sanitizers runs this
    /// under AddressSanitizer).
    @Test(arguments: [(1, false), (2, false), (2, true)])
    func damagedFilesGiveNilOrAPicture(threads: Int, restartMarkers: Bool) {
        // With two threads, a file large enough to be split.
        let jpeg =
            threads == 1
            ? Pictures.jpeg(width: 200, height: 120, noise: 120)
            : Pictures.jpeg(width: 900, height: 700, quality: 95, noise: 120, restartRows: restartMarkers ? 2 : 0)
        #expect(threads == 1 || jpeg.count > SpeculativeScan.smallestSplit)
        var random = SystemRandomNumberGenerator()
        var outcomes = [0, 0]
        func check(_ bytes: [UInt8]) {
            let picture = bytes.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: threads) }
            if let picture {
                #expect(picture.pixels.count == picture.width * picture.height * 3)
                outcomes[1] += 1
            } else {
                outcomes[0] += 1
            }
        }
        let step = Self.damagedFileStep
        for cut in stride(from: 0, to: jpeg.count, by: max(jpeg.count * step / (threads == 1 ? 150 : 60), 1)) {
            check(Array(jpeg[0..<cut]))
        }
        for _ in 0..<(threads == 1 ? 300 : 100) / step {
            var damaged = jpeg
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            check(damaged)
        }
        // Cuts in the headers must be refused; most damage to the data is seen.
        #expect(outcomes[0] > 50 / step)
    }

    /// One thread or two, a damaged file gives the same answer: nil from both, or the same
    /// picture. Cuts just before the end (where the second thread used to read the padding
    /// after the data as codes), cuts across the data, and single bits flipped in the
    /// entropy-coded data, in large files with and without restart markers.
    @Test(arguments: [false, true])
    func oneThreadAndTwoAgreeOnDamagedFiles(restartMarkers: Bool) throws {
        let jpeg = Pictures.jpeg(width: 900, height: 700, quality: 95, noise: 120, restartRows: restartMarkers ? 2 : 0)
        #expect(jpeg.count > SpeculativeScan.smallestSplit)
        let scan = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let dataStart = scan + 2 + (Int(jpeg[scan + 2]) << 8 | Int(jpeg[scan + 3]))
        let dataEnd = jpeg.count - 2  // the EOI marker
        var variants: [(String, [UInt8])] = []
        for cut in 1...66 { variants.append(("cut \(cut) before EOI", Array(jpeg[0..<(dataEnd - cut)]))) }
        for cut in stride(from: dataStart + 1, to: dataEnd, by: (dataEnd - dataStart) / 12) {
            variants.append(("cut at \(cut)", Array(jpeg[0..<cut])))
        }
        // The same flips every run: a generator with a fixed seed.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<90 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let byte = dataStart + Int(state % UInt64(dataEnd - dataStart))
            let bit = Int(state >> 40 % 8)
            var flipped = jpeg
            flipped[byte] ^= UInt8(1 << bit)
            // A flip that makes a marker or a stuffed byte changes the structure, not the codes.
            if flipped[byte] == 0xFF || jpeg[byte] == 0xFF || (byte > 0 && jpeg[byte - 1] == 0xFF) { continue }
            variants.append(("bit \(bit) of byte \(byte) flipped", flipped))
        }
        let checked = stride(from: 0, to: variants.count, by: Self.damagedFileStep).map { variants[$0] }
        let cutsBeforeEOI = checked.filter { $0.0.hasSuffix("before EOI") }.count
        var pictures = 0
        var refusals = 0
        for (name, bytes) in checked {
            let one = bytes.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: 1) }
            let two = bytes.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0, threads: 2) }
            #expect(
                one?.pixels == two?.pixels,
                "\(name): one thread gave \(one == nil ? "nil" : "a picture"), two \(two == nil ? "nil" : "a picture")")
            if one == nil { refusals += 1 } else { pictures += 1 }
        }
        // Both answers occur, so the comparison tested something on each side.
        #expect(refusals > cutsBeforeEOI && pictures > 0, "\(refusals) refused, \(pictures) decoded")
    }

    @Test(arguments: [(UInt16(6), true), (UInt16(3), false), (UInt16(8), true), (UInt16(1), false)])
    func readsTheExifOrientation(orientation: UInt16, bigEndian: Bool) throws {
        let jpeg = Pictures.withOrientation(Pictures.jpeg(width: 64, height: 32), orientation, bigEndian: bigEndian)
        let picture = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0) })
        #expect(picture.orientation == Int(orientation))
        #expect(picture.width == 8 && picture.height == 4, "the picture is as stored; the caller turns it")
    }

    @Test func ignoresAnOrientationOutOfRange() throws {
        let jpeg = Pictures.withOrientation(Pictures.jpeg(width: 64, height: 32), 9)
        let picture = try #require(jpeg.withUnsafeBufferPointer { JPEGPreview.decodeEighth($0) })
        #expect(picture.orientation == 1)
    }
}
