@_spi(Benchmarks) import CaptionLibrary
import CaptionText

// make bench, a photographer's library: 100,000 entries made once through the library's
// bulk path (one transaction), then `caption --list --json` and `caption --list` against
// `sqlite3 -json` printing the same rows: wall time and peak RSS, interleaved rounds.

#if canImport(Glibc)
    import Glibc
#endif

let largeCount = 100_000
/// An agency's archive, a season of a sports desk: the next order of magnitude.
let millionCount = 1_000_000

/// Titles and subtitles that look like a real library's, half in Chinese: the search
/// benchmark asks for words of each script that match many, few or no entries.
func largeCaption(_ index: Int) -> CaptionWords {
    let latin = [
        "Harbour", "dusk", "ferry", "market", "mountain", "snow", "river", "bridge", "lantern", "festival",
        "morning", "garden", "temple", "street", "portrait", "station",
    ]
    let chinese = [
        "港口", "黄昏", "渡轮", "市场", "山口", "雪景", "河流", "石桥", "灯笼", "节日", "清晨", "花园", "寺庙",
        "街道", "人像", "车站",
    ]
    let a = index % 16
    let b = (index / 16) % 16
    let c = (index / 256) % 16
    if index % 2 == 0 {
        return CaptionWords(title: "\(latin[a]) \(latin[b]) \(index)", subtitle: "\(latin[c]) and \(chinese[a])")
    }
    return CaptionWords(title: "\(chinese[a])的\(chinese[b]) \(index)", subtitle: "\(chinese[c])，\(latin[b])")
}

/// `dataHome`/caption with `count` entries: one real photo and copies of it in one
/// transaction. Made once: a mark written last says it is complete. Made by a child
/// process: a process's peak RSS passes to the programs it then starts (Linux keeps it
/// across exec), so the benchmark itself must stay small for theirs to be measured.
func makeLargeLibrary(dataHome: String, count: Int, photo: String) {
    guard fileSize(dataHome + ".complete") == 0 else { return }
    _ = timed([executablePath(), "make-large", dataHome, String(count), photo], quiet: false)
}

/// The path of the running benchmark.
func executablePath() -> String {
    guard let path = realpath("/proc/self/exe", nil) else { fail("cannot find the benchmark's own path") }
    defer { free(path) }
    return String(cString: path)
}

/// `caption-bench make-large DATA-HOME COUNT PHOTO`: `makeLargeLibrary`'s child.
func makeLargeLibraryHere(dataHome: String, count: Int, photo: String) {
    let complete = dataHome + ".complete"
    removeTree(dataHome)
    let began = nowNanoseconds()
    do {
        let library = try Library(directory: dataHome + "/caption")
        let first = try library.add(
            photoAt: photo, words: CaptionWords(title: "Harbour at dusk 港口", subtitle: "The last ferry"))
        try library.insertCopies(of: first, count: count - 1, caption: largeCaption)
        guard try library.count() == count else { fail("the library did not fill") }
    } catch {
        fail(error.message)
    }
    print("large library: \(count) entries made in \(fixed(Double(nowNanoseconds() - began) / 1e9, 1)) s")
    Array("\(count)\n".utf8).withUnsafeBytes { writeFile(complete, $0) }
}

/// Runs `arguments` with standard output to /dev/null (unless not `quiet`); wall
/// milliseconds and peak RSS (KiB). The peak is GNU time's: Linux hands a process's peak
/// RSS on to what it executes, and a program spawned from here would report at least this
/// benchmark's own, where GNU time forks it afresh from a small process.
func timed(
    _ arguments: [String], environment: [String] = [], quiet: Bool = true
) -> (milliseconds: Double, peakKiB: Int) {
    let peakFile = "/tmp/caption-bench-peak-\(getpid())"
    defer { unlink(peakFile) }
    let command = ["/usr/bin/time", "-f", "%M", "-o", peakFile] + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if quiet { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
    var pid: pid_t = 0
    let argv = command.map { strdup($0) } + [nil]
    var env: [UnsafeMutablePointer<CChar>?] = []
    var index = 0
    while let variable = environ[index] {
        env.append(strdup(variable))
        index += 1
    }
    env += environment.map { strdup($0) } + [nil]
    defer { (argv + env).forEach { free($0) } }
    let began = nowNanoseconds()
    guard posix_spawn(&pid, command[0], &actions, nil, argv, env) == 0 else {
        fail("cannot run \(command[0]) (GNU time: make bench installs it)")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let elapsed = Double(nowNanoseconds() - began) / 1e6
    guard status == 0 else { fail("\(arguments.joined(separator: " ")) failed (\(status))") }
    guard let file = fopen(peakFile, "r") else { fail("GNU time wrote no figure") }
    defer { fclose(file) }
    guard let peak = firstNumber(in: file) else { fail("GNU time's figure could not be read") }
    return (elapsed, peak)
}

/// The digits of the first line of `file`, as a number.
func firstNumber(in file: UnsafeMutablePointer<FILE>) -> Int? {
    var line = [CChar](repeating: 0, count: 64)
    guard fgets(&line, 64, file) != nil else { return nil }
    return Int(
        String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).filter(\.isNumber))
}

func benchLargeList(fixtures: String, photo: String, count: Int = largeCount, rounds: Int = 9, warmUp: Int = 2) {
    let dataHome = fixtures + "/data-\(count)"
    makeLargeLibrary(dataHome: dataHome, count: count, photo: photo)
    let library = dataHome + "/caption"
    let executable = executablePath()
    let caption = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)]) + "/caption"
    let query =
        "SELECT id, title, subtitle, photo, width, height, original_name, created, updated FROM entries ORDER BY created DESC, id DESC"
    let programs: [(String, [String])] = [
        ("caption --list --json", [caption, "--library", library, "--list", "--json"]),
        ("sqlite3 -json", ["/usr/bin/sqlite3", "-readonly", "-json", library + "/library.sqlite3", query]),
        ("caption --list", [caption, "--library", library, "--list"]),
    ]
    var times = Array(repeating: [Double](), count: programs.count)
    var peaks = Array(repeating: [Double](), count: programs.count)
    for round in 0..<(warmUp + rounds) {
        for step in 0..<programs.count {
            let which = (round + step) % programs.count
            let figures = timed(programs[which].1)
            if round >= warmUp {
                times[which].append(figures.milliseconds)
                peaks[which].append(Double(figures.peakKiB) / 1024)
            }
        }
    }
    let jsonRatio = median(zip(times[0], times[1]).map { $0 / $1 })
    let listRatio = median(zip(times[2], times[1]).map { $0 / $1 })
    print("\nA library of \(count) entries, \(rounds) interleaved rounds after \(warmUp) warm-up (medians)")
    for (index, program) in programs.enumerated() {
        print(
            "  \(pad(program.0, 24))\(pad(fixed(median(times[index]), 1), 8, right: true)) ms"
                + "   peak RSS \(pad(fixed(median(peaks[index]), 1), 6, right: true)) MiB")
    }
    print(
        "  --list --json / sqlite3 -json: \(fixed(jsonRatio, 2))× the time (target ≤ 2.5), peak RSS \(fixed(median(peaks[0]), 1)) MiB (target ≤ 30)"
    )
    print("  --list / sqlite3 -json: \(fixed(listRatio, 2))× the time")
    let json =
        "{\"entries\": \(count), \"rounds\": \(rounds), "
        + "\"list_json_ms\": \(median(times[0])), \"sqlite3_json_ms\": \(median(times[1])), \"list_ms\": \(median(times[2])), "
        + "\"list_json_over_sqlite3\": \(jsonRatio), \"list_over_sqlite3\": \(listRatio), "
        + "\"list_json_peak_mib\": \(median(peaks[0])), \"sqlite3_json_peak_mib\": \(median(peaks[1])), \"list_peak_mib\": \(median(peaks[2]))}\n"
    Array(json.utf8).withUnsafeBytes {
        writeFile(count == largeCount ? ".build/bench/list.json" : ".build/bench/list-\(count).json", $0)
    }
}

/// The library view's search at `count` entries, in the library alone: the search index made
/// from nothing (a window's first, or after another process's commit), and a search's first
/// page of 100 found as the view finds it against every match found first (as it was
/// found before the first page was looked for alone), side by side in interleaved rounds.
func benchLargeSearch(fixtures: String, photo: String, count: Int, rounds: Int = 5) {
    let dataHome = fixtures + "/data-\(count)"
    makeLargeLibrary(dataHome: dataHome, count: count, photo: photo)
    var made: [Double] = []
    var library: Library?
    for _ in 0..<3 {
        do {
            let opened = try Library(directory: dataHome + "/caption")
            let start = nowNanoseconds()
            _ = try opened.searchIndex()
            made.append(Double(nowNanoseconds() - start) / 1e6)
            library = opened
        } catch {
            fail(error.message)
        }
    }
    guard let library, let index = try? library.searchIndex() else { fail("no search index") }
    let queries = ["m", "st", "har", "festival", "港", "黄昏", "黄昏的市场 11", "nothing like it"]
    var firstPage: [Double] = []
    var everyMatch: [Double] = []
    for _ in 0..<rounds {
        for query in queries {
            var start = nowNanoseconds()
            if var listing = try? library.listing(matching: query) {
                _ = try? listing.nextPage(from: library, limit: 100)
            }
            firstPage.append(Double(nowNanoseconds() - start) / 1e6)
            start = nowNanoseconds()
            let all = index.matches(query)
            _ = try? library.entries(ids: all.prefix(100))
            everyMatch.append(Double(nowNanoseconds() - start) / 1e6)
        }
    }
    let ratio = median(zip(firstPage, everyMatch).map { $0 / $1 })
    print("\nSearch at \(count) entries (the library alone, \(rounds) rounds of \(queries.count) queries, medians)")
    print(
        "  search index made from nothing: \(fixed(median(made), 1)) ms (\(made.map { fixed($0, 0) }.joined(separator: ", ")))"
    )
    print(
        "  first page of 100: \(fixed(median(firstPage), 2)) ms (max \(fixed(firstPage.max() ?? 0, 2))); every match first: \(fixed(median(everyMatch), 2)) ms (max \(fixed(everyMatch.max() ?? 0, 2))); ratio \(fixed(ratio, 3))"
    )
    let json =
        "{\"entries\": \(count), \"index_made_ms\": \(median(made)), \"first_page_ms\": \(median(firstPage)), \"first_page_max_ms\": \(firstPage.max() ?? 0), "
        + "\"every_match_ms\": \(median(everyMatch)), \"every_match_max_ms\": \(everyMatch.max() ?? 0), \"first_page_over_every_match\": \(ratio)}\n"
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/search-\(count).json", $0) }
}
