// The library's figures: one save of a 12 MB JPEG, into an empty library and into one of
// 10,000 entries, beside the floor of copying the same file with cp and syncing; and the
// load (read, check, decode, hash) that happens when a photo is opened, before the save.

import CPixbuf
@_spi(Benchmarks) import CaptionLibrary
import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

// MARK: Measuring

/// Milliseconds that `body` took.
func measure(_ body: () throws -> Void) rethrows -> Double {
    let start = nowNanoseconds()
    try body()
    return Double(nowNanoseconds() - start) / 1_000_000
}

struct Summary {
    var median: Double
    var p25: Double
    var p75: Double
    var min: Double
    var max: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func quantile(_ q: Double) -> Double {
            let position = q * Double(sorted.count - 1)
            let low = Int(position)
            let high = Swift.min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        median = quantile(0.5)
        p25 = quantile(0.25)
        p75 = quantile(0.75)
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }

    var json: String {
        "{\"median_ms\": \(fixed(median, 3)), \"p25_ms\": \(fixed(p25, 3)), \"p75_ms\": \(fixed(p75, 3)), "
            + "\"min_ms\": \(fixed(min, 3)), \"max_ms\": \(fixed(max, 3))}"
    }
}

/// `value` with `digits` decimals, without Foundation's formatter.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    var fraction = String(scaled % Int64(scale))
    while fraction.count < digits { fraction = "0" + fraction }
    return (value < 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + fraction : "")
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

func fail(_ message: String) -> Never {
    var line = Array(("caption-bench: " + message + "\n").utf8)
    _ = line.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func makeTemporaryFolder() -> String {
    var template = Array("/var/tmp/caption-bench-XXXXXX".utf8CString)
    // The template array is never empty, so its base address exists.
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        fail("cannot create a temporary folder")
    }
    return String(cString: made)
}

func removeTree(_ path: String) {
    _ = run(["/bin/rm", "-rf", path])
}

/// Runs a program and waits for it; its exit status.
@discardableResult
func run(_ arguments: [String]) -> Int32 {
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    guard posix_spawn(&pid, arguments[0], nil, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
}

func writeFile(_ path: String, _ bytes: UnsafeRawBufferPointer) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { fail("cannot write \(path)") }
    var offset = 0
    while offset < bytes.count {
        // baseAddress is non-nil: the loop runs only for a non-empty buffer.
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { fail("cannot write \(path)") }
        offset += written
    }
    close(descriptor)
}

func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
}

// MARK: Saving a photo

/// A 4000×3000 JPEG at quality 95 of at least 12 MB: noise is added until it is that
/// large, because a camera photo of that size is mostly fine detail.
func makeLargeJPEG(at path: String) {
    let width = 4000
    let height = 3000
    // gdk_pixbuf_new returns NULL only when the pixels cannot be allocated.
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else {
        fail("cannot allocate a \(width)×\(height) image")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    // The pixels of a pixbuf just made are never NULL.
    let pixels = gdk_pixbuf_get_pixels(pixbuf)!
    let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
    var amplitude: UInt32 = 64
    while true {
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<(width * 3) {
                state = state &* 1_664_525 &+ 1_013_904_223
                let base = UInt32(((x / 3) / 8 + y / 6) % 160)
                pixels[y * stride + x] = UInt8(truncatingIfNeeded: min(255, base + (state >> 16) % amplitude))
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
        var values: [UnsafeMutablePointer<CChar>?] = [strdup("95"), nil]
        defer { (keys + values).forEach { free($0) } }
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "jpeg", &keys, &values, nil) != 0 else {
            fail("cannot encode the JPEG")
        }
        writeFile(path, UnsafeRawBufferPointer(start: buffer, count: Int(size)))
        g_free(buffer)
        if size >= 12_000_000 || amplitude >= 256 { return }
        amplitude += 32
    }
}

func makeSmallPNG(at path: String) {
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 32, 24) else { fail("cannot allocate") }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    gdk_pixbuf_fill(pixbuf, 0x3366_99FF)
    guard gdk_pixbuf_savev(pixbuf, path, "png", nil, nil, nil) != 0 else { fail("cannot write \(path)") }
}

/// One save of a 12 MB JPEG into an empty library and into one of 10,000 entries, beside
/// the floor (`cp` of the same file, then `sync`), in interleaved rounds so that drift in
/// the machine's speed touches all alike. "Save" is what Enter costs: the photo was loaded
/// (read, checked, decoded, hashed) when it was opened, while the user typed. "Add from a
/// path" is the whole of `caption --add`'s work, load included.
func benchSave(rounds: Int = 20, warmUp: Int = 2) {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let photo = folder + "/large.jpg"
    makeLargeJPEG(at: photo)
    let photoBytes = fileSize(photo)

    let empty: Library
    let large: Library
    let loaded: LoadedPhoto
    do {
        empty = try Library(directory: folder + "/empty")
        large = try Library(directory: folder + "/large")
        let seed = folder + "/seed.png"
        makeSmallPNG(at: seed)
        let first = try large.add(
            photoAt: seed, words: CaptionWords(title: "Seed", subtitle: "a row of the large library"))
        try large.insertCopies(of: first, count: 9_999)
        loaded = try PhotoInspector.load(photo)
    } catch {
        fail(error.message)
    }
    guard (try? large.entries().count) == 10_000 else { fail("the large library did not fill") }

    /// Times `body`, then removes the entry it made (untimed), so that every save copies
    /// the photo anew instead of finding it stored.
    func timed(_ library: Library, _ body: () throws(LibraryError) -> Entry) -> Double {
        sync()
        var result: Result<Entry, LibraryError> = .failure(LibraryError(.io, "not run"))
        let time = measure { result = Result { () throws(LibraryError) -> Entry in try body() } }
        switch result {
        case .success(let entry):
            do { _ = try library.remove(id: entry.id) } catch { fail(error.message) }
        case .failure(let error):
            fail(error.message)
        }
        return time
    }

    func floor() -> Double {
        sync()
        let target = folder + "/copy.jpg"
        let time = measure {
            if run(["/bin/cp", photo, target]) != 0 { fail("cp failed") }
            sync()
        }
        unlink(target)
        return time
    }

    let kinds = ["floor", "empty", "large", "path"]
    var samples: [String: [Double]] = [:]
    for round in 0..<(warmUp + rounds) {
        // Rotating the order spreads any after-effect of one run over the others.
        for step in kinds.indices {
            let kind = kinds[(round + step) % kinds.count]
            let time: Double
            switch kind {
            case "floor": time = floor()
            case "empty":
                time = timed(empty) { () throws(LibraryError) in
                    try empty.add(loaded, words: CaptionWords(title: "Harbour", subtitle: "Boats"))
                }
            case "large":
                time = timed(large) { () throws(LibraryError) in
                    try large.add(loaded, words: CaptionWords(title: "Harbour", subtitle: "Boats"))
                }
            default:
                time = timed(large) { () throws(LibraryError) in
                    try large.add(photoAt: photo, words: CaptionWords(title: "Harbour", subtitle: "Boats"))
                }
            }
            if round >= warmUp { samples[kind, default: []].append(time) }
        }
    }

    var loads: [Double] = []
    var opens: [Double] = []
    for _ in 0..<5 {
        loads.append(measure { _ = try? PhotoInspector.load(photo) })
        opens.append(measure { _ = try? Library(directory: folder + "/large") })
    }

    let floorSummary = Summary(samples["floor"] ?? [])
    let emptySummary = Summary(samples["empty"] ?? [])
    let largeSummary = Summary(samples["large"] ?? [])
    let pathSummary = Summary(samples["path"] ?? [])
    let loadSummary = Summary(loads)
    let openSummary = Summary(opens)
    let overFloor = largeSummary.median / floorSummary.median
    let emptyOverFloor = emptySummary.median / floorSummary.median
    let largeOverEmpty = largeSummary.median / emptySummary.median
    let pathOverFloor = pathSummary.median / floorSummary.median

    print(
        "Saving one \(fixed(Double(photoBytes) / 1_000_000, 1)) MB JPEG (4000×3000), \(rounds) interleaved rounds after \(warmUp) warm-up"
    )
    print(
        pad("", 36) + pad("median", 10, right: true) + pad("p25–p75", 18, right: true)
            + pad("min", 9, right: true) + pad("max", 9, right: true))
    for (label, summary) in [
        ("cp + sync (floor)", floorSummary),
        ("save, empty library", emptySummary),
        ("save, 10,000 entries", largeSummary),
        ("add from a path, 10,000 entries", pathSummary),
        ("load alone (read, check, hash)", loadSummary),
        ("open a library of 10,000", openSummary),
    ] {
        print(
            pad(label, 36) + pad(fixed(summary.median, 1) + " ms", 10, right: true)
                + pad(fixed(summary.p25, 1) + "–" + fixed(summary.p75, 1) + " ms", 18, right: true)
                + pad(fixed(summary.min, 1), 9, right: true) + pad(fixed(summary.max, 1), 9, right: true))
    }
    print(
        "save (10,000) / floor                \(fixed(overFloor, 2))   target ≤ 2.0  \(overFloor <= 2.0 ? "met" : "NOT MET")"
    )
    print(
        "save (10,000) / save (empty)         \(fixed(largeOverEmpty, 2))   target ≤ 1.1  \(largeOverEmpty <= 1.1 ? "met" : "NOT MET")"
    )
    print("save (empty) / floor                 \(fixed(emptyOverFloor, 2))")
    print("add from a path (10,000) / floor     \(fixed(pathOverFloor, 2))   (decoding the photo dominates)")

    let json = """
        {
          "photo_bytes": \(photoBytes),
          "rounds": \(rounds),
          "floor_cp_sync": \(floorSummary.json),
          "save_empty": \(emptySummary.json),
          "save_10000": \(largeSummary.json),
          "add_from_path_10000": \(pathSummary.json),
          "load": \(loadSummary.json),
          "open_10000": \(openSummary.json),
          "ratio_save_10000_over_floor": \(fixed(overFloor, 3)),
          "ratio_save_10000_over_empty": \(fixed(largeOverEmpty, 3)),
          "ratio_save_empty_over_floor": \(fixed(emptyOverFloor, 3)),
          "ratio_add_from_path_10000_over_floor": \(fixed(pathOverFloor, 3))
        }

        """
    _ = run(["/bin/mkdir", "-p", ".build/bench"])
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/save.json", $0) }
    print("written to .build/bench/save.json")
}
