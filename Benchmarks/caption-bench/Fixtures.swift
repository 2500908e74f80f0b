// What the window benchmarks need made first: 24-megapixel JPEGs (one, and a queue of 50), a HEIC, a 45 MP DNG
// and large libraries.

import CPixbuf
@_spi(Benchmarks) import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A 6000×4000 JPEG at quality 90, magenta under fine noise: the noise gives it a camera
/// photo's size (about 9 MB) and decoding cost, where entropy decoding, which no scaling
/// in the decoder can skip, takes most of the time; `smooth`, the same without the noise
/// (0.4 MB), shows the other end. The magenta lets the preview benchmark tell from
/// outside, by one pixel, that the photo is on screen. `green` makes it green instead, and
/// `seed` another noise, so that a queue of them differs from photo to photo; `noise` is
/// the grain's height (48: 9.3 MB; 32: about 7.5 MB, a 24 MP camera JPEG's usual size).
func makePreviewJPEG(
    at path: String, smooth: Bool = false, width: Int = 6000, height: Int = 4000, green: Bool = false,
    seed: UInt32 = 2024, noise grain: UInt32 = 48
) {
    // gdk_pixbuf_new returns NULL only when the pixels cannot be allocated.
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else {
        fail("cannot allocate a \(width)×\(height) image")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    // The pixels of a pixbuf just made are never NULL.
    let pixels = gdk_pixbuf_get_pixels(pixbuf)!
    let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
    var state = seed
    let base: [UInt32] = green ? [24, 208, 24] : [208, 24, 208]
    for y in 0..<height {
        let row = pixels + y * stride
        for x in 0..<width {
            state = state &* 1_664_525 &+ 1_013_904_223
            let shade = smooth ? UInt32(x * 16 / width + y * 16 / height) : UInt32((x / 40 + y / 40) % 16)
            for channel in 0..<3 {
                let noise = smooth ? 24 : (state >> (8 * UInt32(channel) + 4)) % grain
                row[x * 3 + channel] = UInt8(truncatingIfNeeded: min(255, base[channel] + shade + noise))
            }
        }
    }
    var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
    var values: [UnsafeMutablePointer<CChar>?] = [strdup("90"), nil]
    defer { (keys + values).forEach { free($0) } }
    guard gdk_pixbuf_savev(pixbuf, path, "jpeg", &keys, &values, nil) != 0 else {
        fail("cannot write \(path)")
    }
}

/// A library of `count` entries in `dataHome`/caption, where `caption` finds its default
/// library when XDG_DATA_HOME is `dataHome`: one real entry of `photo` and copies of it.
func makeLibrary(dataHome: String, count: Int, photo: String) {
    do {
        let library = try Library(directory: dataHome + "/caption")
        let first = try library.add(photoAt: photo, words: CaptionWords(title: "Harbour", subtitle: "The last ferry"))
        try library.insertCopies(of: first, count: count - 1)
        guard try library.entries().count == count else { fail("the library did not fill") }
    } catch {
        fail(error.message)
    }
}

/// `caption-bench fixtures FOLDER SAMPLE`: makes FOLDER/preview-24mp.jpg, its smooth twin
/// preview-24mp-smooth.jpg, FOLDER/data-10000 and FOLDER/data-100000 (data homes holding
/// libraries of 10,000 and 100,000 entries) and the queue of FOLDER/queue (below), unless
/// already there.
func makeFixtures(_ arguments: [String]) {
    guard arguments.count == 2 else { fail("usage: caption-bench fixtures FOLDER SAMPLE-PHOTO") }
    let folder = arguments[0]
    let sample = arguments[1]
    _ = run(["/bin/mkdir", "-p", folder])
    for (name, smooth) in [("preview-24mp.jpg", false), ("preview-24mp-smooth.jpg", true)] {
        let photo = folder + "/" + name
        if fileSize(photo) == 0 {
            makePreviewJPEG(at: photo + ".part", smooth: smooth)
            rename(photo + ".part", photo)
        }
    }
    // The formats that are not JPEG, previewed as they come from phones and cameras: a
    // 24 MP HEIC (heif-enc, Debian's libheif-examples, from the noisy JPEG) and a 45 MP
    // DNG around a full-size JPEG preview (Debian has no DNG writer; ExternalPhotos builds
    // one), as a 45 MP camera's RAW carries it.
    let heic = folder + "/preview-24mp.heic"
    if fileSize(heic) == 0 {
        guard run(["/usr/bin/heif-enc", "-q", "80", "-o", heic + ".part.heic", folder + "/preview-24mp.jpg"]) == 0
        else { fail("heif-enc could not make \(heic)") }
        rename(heic + ".part.heic", heic)
    }
    // The DNG's JPEG preview stays beside it: the C floor, which has no RAW decoder, shows
    // that in the start-up benchmark.
    let dng = folder + "/preview-45mp.dng"
    let preview = folder + "/preview-45mp.jpg"
    if fileSize(preview) == 0 || fileSize(dng) == 0 {
        makePreviewJPEG(at: preview + ".part", width: 8256, height: 5504)
        rename(preview + ".part", preview)
    }
    if fileSize(dng) == 0 {
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: preview)) else { fail("cannot read \(preview)") }
        let raw = ExternalPhotos.dng(preview: [UInt8](bytes), previewWidth: 8256, previewHeight: 5504)
        guard (try? Data(raw).write(to: URL(fileURLWithPath: dng + ".part"))) != nil else {
            fail("cannot write \(dng)")
        }
        rename(dng + ".part", dng)
    }
    makeCameraFixtures(folder)
    makeQueue(in: folder + "/queue")
    makeLargeLibrary(dataHome: folder + "/data-100000", count: largeCount, photo: sample)
    let dataHome = folder + "/data-10000"
    // The mark is written last, so a run cut short is made again rather than half used.
    let complete = dataHome + ".complete"
    if fileSize(complete) == 0 {
        removeTree(dataHome)
        makeLibrary(dataHome: dataHome, count: 10_000, photo: sample)
        Array("10000\n".utf8).withUnsafeBytes { writeFile(complete, $0) }
    }
}

/// The photos of the start-up benchmark as cameras and phones write them, each carrying a
/// small picture of itself: preview-24mp-camera.jpg (the 24 MP JPEG with a 160 × 120 Exif
/// thumbnail padded with black bars, as cameras write a 3:2 photo's; ImageMagick makes it,
/// exiftool puts it in), preview-24mp-phone.heic (heif-enc with a 320-pixel thumbnail, as
/// phones store one) and preview-45mp-camera.dng (a 256 × 171 RGB thumbnail in IFD0, the
/// JPEG preview and the raw picture in SubIFDs, as cameras and Adobe's converter lay a DNG
/// out).
func makeCameraFixtures(_ folder: String) {
    let jpeg = folder + "/preview-24mp-camera.jpg"
    if fileSize(jpeg) == 0 {
        let thumbnail = folder + "/thumbnail-160.jpg"
        guard
            run([
                "/usr/bin/convert", "-define", "jpeg:size=320x214", folder + "/preview-24mp.jpg", "-resize", "160x107",
                "-background", "black", "-gravity", "center", "-extent", "160x120", thumbnail,
            ]) == 0,
            run(["/bin/cp", folder + "/preview-24mp.jpg", jpeg + ".part"]) == 0,
            run([
                "/usr/bin/exiftool", "-q", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS 6D Mark II",
                "-ThumbnailImage<=" + thumbnail, jpeg + ".part",
            ]) == 0
        else { fail("could not make \(jpeg)") }
        rename(jpeg + ".part", jpeg)
    }
    let heic = folder + "/preview-24mp-phone.heic"
    if fileSize(heic) == 0 {
        guard
            run(["/usr/bin/heif-enc", "-q", "80", "-t", "320", "-o", heic + ".part.heic", folder + "/preview-24mp.jpg"])
                == 0
        else { fail("heif-enc could not make \(heic)") }
        rename(heic + ".part.heic", heic)
    }
    let dng = folder + "/preview-45mp-camera.dng"
    if fileSize(dng) == 0 {
        let rgb = folder + "/thumbnail-256.rgb"
        guard
            run([
                "/usr/bin/convert", "-define", "jpeg:size=512x342", folder + "/preview-45mp.jpg", "-resize", "256x171!",
                "-depth", "8", "rgb:" + rgb,
            ]) == 0,
            let thumbnail = try? Data(contentsOf: URL(fileURLWithPath: rgb)),
            let preview = try? Data(contentsOf: URL(fileURLWithPath: folder + "/preview-45mp.jpg"))
        else { fail("could not make \(dng)") }
        let raw = ExternalPhotos.dng(
            preview: [UInt8](preview), previewWidth: 8256, previewHeight: 5504, thumbnail: [UInt8](thumbnail),
            thumbnailSize: (256, 171), rawSize: (192, 128))
        guard (try? Data(raw).write(to: URL(fileURLWithPath: dng + ".part"))) != nil else {
            fail("cannot write \(dng)")
        }
        rename(dng + ".part", dng)
    }
}

/// How many photos the photo-to-photo benchmark captions in a row.
let queueLength = 50

/// FOLDER/queue-01.jpg … queue-50.jpg: 24 MP camera-like JPEGs of about 7.5 MB, magenta
/// and green in turn (so that the benchmark sees from one pixel that the next photo is on
/// the screen), each with its own noise, so that no two files are alike.
func makeQueue(in folder: String) {
    let complete = folder + ".complete"
    guard fileSize(complete) == 0 else { return }
    removeTree(folder)
    _ = run(["/bin/mkdir", "-p", folder])
    for index in 1...queueLength {
        let photo = folder + "/" + queuePhotoName(index)
        makePreviewJPEG(at: photo + ".part", green: index % 2 == 0, seed: UInt32(index) * 7919, noise: 32)
        rename(photo + ".part", photo)
    }
    Array("\(queueLength)\n".utf8).withUnsafeBytes { writeFile(complete, $0) }
}

func queuePhotoName(_ index: Int) -> String {
    index < 10 ? "queue-0\(index).jpg" : "queue-\(index).jpg"
}
