// make bench, completion at scale: the offers under a field for a library of 100,000
// entries (every title distinct): reading the library's values and building the index,
// once per start, off the main thread; asking whether another process changed the library
// (while typing, at most once a second) and reading both fields again when it did; then
// one keystroke's offers, on the main thread.

import CaptionLibrary

#if canImport(Glibc)
    import Glibc
#endif

func benchLargeCompletion(fixtures: String, rounds: Int = 5) {
    let directory = fixtures + "/data-100000/caption"
    // What the index costs in memory: resident size before reading the library's titles,
    // and after the index is built from them, once the library is closed, the titles read
    // are let go and malloc has given back what it could (malloc_trim).
    _ = mallocTrim(0)
    let before = residentKiB()
    let measured: CompletionIndex
    do { measured = CompletionIndex(try Library(directory: directory).usage(of: .title)) } catch { fail(error.message) }
    _ = mallocTrim(0)
    let indexKiB = residentKiB() - before
    var loads: [Double] = []
    var index = CompletionIndex()
    for _ in 0..<rounds {
        let began = nowNanoseconds()
        do {
            let library = try Library(directory: directory)
            index = CompletionIndex(try library.usage(of: .title))
        } catch {
            fail(error.message)
        }
        loads.append(Double(nowNanoseconds() - began) / 1e6)
    }
    // What following other processes costs, on the library's queue: the question asked while
    // typing (PRAGMA data_version), and the read of titles and subtitles when the answer changed.
    var checks: [Double] = []
    var reloads: [Double] = []
    do {
        let library = try Library(directory: directory)
        for _ in 0..<1_000 {
            let began = nowNanoseconds()
            _ = try library.changeCounter()
            checks.append(Double(nowNanoseconds() - began) / 1e3)
        }
        for _ in 0..<rounds {
            let began = nowNanoseconds()
            _ = (CompletionIndex(try library.usage(of: .title)), CompletionIndex(try library.usage(of: .subtitle)))
            reloads.append(Double(nowNanoseconds() - began) / 1e6)
        }
    } catch {
        fail(error.message)
    }
    let now = Timestamp.now()
    // Many matches, few, one, none; Latin by prefix, Chinese by substring too.
    let queries = ["h", "harbour", "harbour dusk 4", "harbour dusk 40000", "zz", "港", "黄昏", "的黄昏 9"]
    print("\nCompletion offers over \(index.count) distinct titles (medians of \(rounds) loads, 200 queries each)")
    print("  read the library's titles and build the index: \(fixed(median(loads), 1)) ms (off the main thread)")
    print("  resident memory of the index: \(fixed(Double(indexKiB) / 1024, 1)) MiB (\(measured.count) titles)")
    print("  has another process changed the library: \(fixed(median(checks), 1)) µs (library queue)")
    print("  read titles and subtitles again after it did: \(fixed(median(reloads), 1)) ms (library queue)")
    var json =
        "{\"titles\": \(index.count), \"load_ms\": \(median(loads)), \"index_kib\": \(indexKiB), "
        + "\"check_us\": \(median(checks)), \"reload_both_ms\": \(median(reloads)), \"queries\": {"
    for (number, query) in queries.enumerated() {
        var times: [Double] = []
        var offers = 0
        for _ in 0..<200 {
            let began = nowNanoseconds()
            offers = index.offers(for: query, now: now).count
            times.append(Double(nowNanoseconds() - began) / 1e3)
        }
        let sorted = times.sorted()
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print(
            "  \(pad("“" + query + "”", 22))\(pad(fixed(median(times), 1), 9, right: true)) µs   p99 \(fixed(p99, 1)) µs   \(offers) offers"
        )
        json += (number == 0 ? "" : ", ") + "\"\(query)\": {\"median_us\": \(median(times)), \"p99_us\": \(p99)}"
    }
    json += "}}\n"
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/completion.json", $0) }
}

@_silgen_name("malloc_trim") func mallocTrim(_ pad: Int) -> Int32

/// The process's resident memory now, from /proc/self/statm (its second number, in pages).
func residentKiB() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, Int32(line.count), file) != nil else { return 0 }
    let fields = String(cString: line).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}
