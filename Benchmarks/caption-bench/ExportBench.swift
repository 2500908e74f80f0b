// The export's figures: 1,000 entries written into a folder with their captions embedded
// (and with sidecars), per photo, beside plain `cp` of the same library files in the same
// run, batch by batch in rotating order.

import CPixbuf
@_spi(Benchmarks) import CaptionLibrary
import CaptionMetadata
import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

/// A JPEG like a phone's, scaled down so that 1,000 of them stay quick to write: noise on a
/// gradient, different for every `seed` (the library keeps one copy of equal photos, and
/// `cp` must copy 1,000 files, not one file 1,000 times).
func makeBenchJPEG(at path: String, seed: UInt32, width: Int = 800, height: Int = 600) {
    // gdk_pixbuf_new returns NULL only when the pixels cannot be allocated.
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else {
        fail("cannot allocate a \(width)×\(height) image")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    // The pixels of a pixbuf just made are never NULL.
    let pixels = gdk_pixbuf_get_pixels(pixbuf)!
    let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
    var state = seed &* 2_654_435_761 | 1
    for y in 0..<height {
        for x in 0..<(width * 3) {
            state = state &* 1_664_525 &+ 1_013_904_223
            pixels[y * stride + x] = UInt8(
                truncatingIfNeeded: UInt32((x / 3 + y + Int(seed)) % 192) + (state >> 24) % 64)
        }
    }
    var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
    var values: [UnsafeMutablePointer<CChar>?] = [strdup("90"), nil]
    defer { (keys + values).forEach { free($0) } }
    guard gdk_pixbuf_savev(pixbuf, path, "jpeg", &keys, &values, nil) != 0 else { fail("cannot write \(path)") }
}

/// `entries` entries, each its own photo, exported in batches of `batch`: embedded, as
/// sidecars, and copied by one `cp` (then also followed by `sync -f`, the floor for a copy
/// that is on the disk, as every export is). The kinds take turns going first, and each
/// batch goes into a fresh folder, removed untimed afterwards.
func benchExport(entries count: Int = 1_000, batch: Int = 100) {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let library: Library
    var entries: [Entry]
    do {
        library = try Library(directory: folder + "/library")
        for index in 0..<count {
            let photo = folder + "/source.jpg"
            makeBenchJPEG(at: photo, seed: UInt32(index + 1))
            let title = ["Harbour at dusk", "港口的黄昏", "Boats 🌅", "<b>Ferry</b> & pier"][index % 4] + " \(index + 1)"
            _ = try library.add(
                photoAt: photo,
                words: CaptionWords(title: title, subtitle: "The last ferry leaves at nine, #\(index + 1)"))
        }
        entries = try library.entries().reversed()
    } catch {
        fail(error.message)
    }
    let paths = entries.compactMap { library.photoPath(of: $0) }
    guard entries.count == count, paths.count == count else { fail("the library did not fill") }
    let sizes = paths.map(fileSize).sorted()

    let kinds = ["export", "sidecar", "cp", "cp+sync"]
    var perPhoto: [String: [Double]] = [:]
    for (number, start) in stride(from: 0, to: count, by: batch).enumerated() {
        let slice = Array(entries[start..<min(start + batch, count)])
        let sources = Array(paths[start..<min(start + batch, count)])
        for step in kinds.indices {
            let kind = kinds[(number + step) % kinds.count]
            let out = folder + "/out-\(number)-\(kind)"
            sync()
            var failure: LibraryError?
            let time = measure {
                switch kind {
                case "export", "sidecar":
                    do throws(LibraryError) {
                        try Exporter.export(slice, from: library, to: out, into: kind == "sidecar" ? .sidecar : .photo)
                    } catch {
                        failure = error
                    }
                default:
                    _ = run(["/bin/mkdir", out])
                    if run(["/bin/cp", "--"] + sources + [out + "/"]) != 0 { fail("cp failed") }
                    if kind == "cp+sync" && run(["/bin/sync", "-f", out]) != 0 { fail("sync failed") }
                }
            }
            if let failure { fail(failure.message) }
            perPhoto[kind, default: []].append(time / Double(slice.count))
            removeTree(out)
        }
    }

    let summaries = kinds.map { Summary(perPhoto[$0] ?? []) }
    let labels = ["export, caption embedded", "export --sidecar", "cp (plain)", "cp + sync -f"]
    let batches = (count + batch - 1) / batch
    print(
        "Exporting \(count) entries (800×600 JPEGs, median \(sizes[sizes.count / 2] / 1024) KiB), \(batches) batches of \(batch), rotating order"
    )
    print(
        pad("per photo", 36) + pad("median", 10, right: true) + pad("p25–p75", 18, right: true)
            + pad("min", 9, right: true) + pad("max", 9, right: true))
    for (label, summary) in zip(labels, summaries) {
        print(
            pad(label, 36) + pad(fixed(summary.median, 2) + " ms", 10, right: true)
                + pad(fixed(summary.p25, 2) + "–" + fixed(summary.p75, 2) + " ms", 18, right: true)
                + pad(fixed(summary.min, 2), 9, right: true) + pad(fixed(summary.max, 2), 9, right: true))
    }
    let embedded = summaries[0].median
    let sidecar = summaries[1].median
    let copy = summaries[2].median
    let durable = summaries[3].median
    print(
        "1,000 entries exported (embedded)    \(fixed(embedded * Double(count) / 1000, 2)) s; cp \(fixed(copy * Double(count) / 1000, 2)) s"
    )
    print("export / cp                          \(fixed(embedded / copy, 1))")
    print("export / (cp + sync -f)              \(fixed(embedded / durable, 1))")
    print("export --sidecar / cp                \(fixed(sidecar / copy, 1))")

    let json = """
        {
          "entries": \(count),
          "batch": \(batch),
          "photo_bytes_median": \(sizes[sizes.count / 2]),
          "export_embedded_per_photo": \(summaries[0].json),
          "export_sidecar_per_photo": \(summaries[1].json),
          "cp_per_photo": \(summaries[2].json),
          "cp_sync_per_photo": \(summaries[3].json),
          "ratio_export_over_cp": \(fixed(embedded / copy, 3)),
          "ratio_export_over_cp_sync": \(fixed(embedded / durable, 3)),
          "ratio_sidecar_over_cp": \(fixed(sidecar / copy, 3))
        }

        """
    _ = run(["/bin/mkdir", "-p", ".build/bench"])
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/export.json", $0) }
    print("written to .build/bench/export.json")
}
