// make bench, a photo desk's library: the same 100,000 entries in a folder (SQLite) and on a
// PostgreSQL server (a throwaway one on this machine, build-aux/with-postgres), side by side
// in interleaved rounds: `caption --list --json`, a search as the library view makes it
// (the matches and their first page of rows), the search index read from the library, and
// the offers read for completion.

@_spi(Benchmarks) import CaptionLibrary
import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

func benchServer(fixtures: String, photo: String, rounds: Int = 9, warmUp: Int = 2) {
    guard let server = getenv("CAPTION_TEST_POSTGRES").map({ String(cString: $0) }) else {
        fail("no PostgreSQL server: run under build-aux/with-postgres, as make bench does")
    }
    let dataHome = fixtures + "/data-100000"
    makeLargeLibrary(dataHome: dataHome, count: largeCount, photo: photo)
    let folder = dataHome + "/caption"
    let cache = fixtures + "/server-cache"
    removeTree(cache)
    let address: PostgresAddress
    let onServer: Library
    let onFolder: Library
    do {
        address = try PostgresAddress(server)
        onServer = try Library(server: address, cache: cache)
        let began = nowNanoseconds()
        if try onServer.count() != largeCount {
            let first = try onServer.add(
                photoAt: photo, words: CaptionWords(title: "Harbour at dusk 港口", subtitle: "The last ferry"))
            try onServer.insertCopies(of: first, count: largeCount - 1, caption: largeCaption)
        }
        guard try onServer.count() == largeCount else { fail("the server library did not fill") }
        print(
            "\nA photo desk's library: \(largeCount) entries on PostgreSQL, made in "
                + "\(fixed(Double(nowNanoseconds() - began) / 1e9, 1)) s; the same in a folder")
        onFolder = try Library(directory: folder)
    } catch {
        fail(error.message)
    }

    // --list --json, each a process of its own, the two storages alternating.
    let executable = executablePath()
    let caption = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)]) + "/caption"
    // psql's COPY of the same rows, every column, in the list's order: the server's pace.
    let lists: [[String]] = [
        [caption, "--library", folder, "--list", "--json"], [caption, "--library", server, "--list", "--json"],
        [
            "/usr/bin/psql", server, "-X", "-q", "-c",
            "COPY (SELECT * FROM caption.entries ORDER BY created DESC, id DESC) TO STDOUT",
        ],
    ]
    var listTimes: [[Double]] = [[], [], []]
    var listPeaks: [[Double]] = [[], [], []]
    for round in 0..<(warmUp + rounds) {
        for step in 0..<3 {
            let which = (round + step) % 3
            let figures = timed(lists[which], environment: ["XDG_CACHE_HOME=" + cache])
            if round >= warmUp {
                listTimes[which].append(figures.milliseconds)
                listPeaks[which].append(Double(figures.peakKiB) / 1024)
            }
        }
    }
    let listRatio = median(zip(listTimes[1], listTimes[0]).map { $0 / $1 })
    let overPsql = median(zip(listTimes[1], listTimes[2]).map { $0 / $1 })

    // The search index, read whole from each (what the library view's first search after
    // a change costs), and the offers' values.
    func measure(_ body: () throws(LibraryError) -> Void) -> Double {
        let began = nowNanoseconds()
        do { try body() } catch { fail(error.message) }
        return Double(nowNanoseconds() - began) / 1e6
    }
    var indexTimes: [[Double]] = [[], []]
    var usageTimes: [[Double]] = [[], []]
    let libraries = [onFolder, onServer]
    for round in 0..<5 {
        for step in 0..<2 {
            let which = (round + step) % 2
            // A fresh connection each time, so that nothing is cached.
            let library: Library
            do {
                library =
                    which == 0 ? try Library(directory: folder) : try Library(server: address, cache: cache)
            } catch {
                fail(error.message)
            }
            indexTimes[which].append(measure { () throws(LibraryError) in _ = try library.searchIndex() })
            usageTimes[which].append(measure { () throws(LibraryError) in _ = try library.usage(of: .title) })
        }
    }

    // A search as the library view makes it, key by key: the matches, then the first
    // page of their rows, with the index already read.
    let queries = ["m", "st", "riv", "festival", "港", "黄昏", "寺庙的", "车站的人像 99", "harbour 1", "zzz"]
    for library in libraries { _ = try? library.searchIndex() }
    var searchTimes: [[Double]] = [[], []]
    for round in 0..<(warmUp + rounds) {
        for query in queries {
            for step in 0..<2 {
                let which = (round + step) % 2
                let library = libraries[which]
                let time = measure { () throws(LibraryError) in
                    var listing = try library.listing(matching: query)
                    _ = try listing.nextPage(from: library, limit: 100)
                }
                if round >= warmUp { searchTimes[which].append(time) }
            }
        }
    }
    func p99(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    }
    let searchRatio = median(zip(searchTimes[1], searchTimes[0]).map { $0 / $1 })

    print("  (medians of interleaved rounds: \(rounds) for the lists and searches, 5 for the reads)")
    print("                                  folder (SQLite)     PostgreSQL     PostgreSQL / folder")
    func row(_ label: String, _ values: [[Double]], _ ratio: Double, unit: String = "ms") {
        print(
            "  \(pad(label, 30))\(pad(fixed(median(values[0]), 1), 10, right: true)) \(unit)"
                + "\(pad(fixed(median(values[1]), 1), 12, right: true)) \(unit)"
                + "\(pad(fixed(ratio, 2), 14, right: true))×")
    }
    row("caption --list --json", listTimes, listRatio)
    row("  its peak RSS", listPeaks, median(listPeaks[1]) / median(listPeaks[0]), unit: "MiB")
    print(
        "  --list --json on PostgreSQL / psql's COPY of the same rows (\(fixed(median(listTimes[2]), 1)) ms, peak RSS \(fixed(median(listPeaks[2]), 1)) MiB): \(fixed(overPsql, 2))× (target ≤ 1.5)"
    )
    row("search, matches + first page", searchTimes, searchRatio)
    print(
        "  \(pad("  p99", 30))\(pad(fixed(p99(searchTimes[0]), 1), 10, right: true)) ms"
            + "\(pad(fixed(p99(searchTimes[1]), 1), 12, right: true)) ms")
    row("search index read whole", indexTimes, median(indexTimes[1]) / median(indexTimes[0]))
    row("offers' titles read", usageTimes, median(usageTimes[1]) / median(usageTimes[0]))
    let json =
        "{\"entries\": \(largeCount), \"rounds\": \(rounds), "
        + "\"list_json_ms\": {\"folder\": \(median(listTimes[0])), \"server\": \(median(listTimes[1]))}, "
        + "\"list_json_peak_mib\": {\"folder\": \(median(listPeaks[0])), \"server\": \(median(listPeaks[1]))}, "
        + "\"psql_copy_ms\": \(median(listTimes[2])), \"list_json_over_psql\": \(overPsql), "
        + "\"search_ms\": {\"folder\": \(median(searchTimes[0])), \"server\": \(median(searchTimes[1])), "
        + "\"folder_p99\": \(p99(searchTimes[0])), \"server_p99\": \(p99(searchTimes[1]))}, "
        + "\"search_index_ms\": {\"folder\": \(median(indexTimes[0])), \"server\": \(median(indexTimes[1]))}, "
        + "\"usage_ms\": {\"folder\": \(median(usageTimes[0])), \"server\": \(median(usageTimes[1]))}}\n"
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/server.json", $0) }
}
