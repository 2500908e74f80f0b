@_spi(Benchmarks) import CaptionLibrary
import CaptionText

// make bench, a photographer's library: 100,000 entries made once through the library's
// bulk path (one transaction), then `caption --list --json` and `caption --list` against
// `sqlite3 -json` printing the same rows: wall time and peak RSS, interleaved rounds.

#if canImport(Glibc)
    import Glibc
#endif

let largeCount = 100_000

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
/// transaction. Made once: a mark written last says it is complete.
func makeLargeLibrary(dataHome: String, count: Int, photo: String) {
    let complete = dataHome + ".complete"
    guard fileSize(complete) == 0 else { return }
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

/// Runs `arguments` with standard output to /dev/null; wall milliseconds and peak RSS (KiB).
func timed(_ arguments: [String], environment: [String] = []) -> (milliseconds: Double, peakKiB: Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    var env: [UnsafeMutablePointer<CChar>?] = []
    var index = 0
    while let variable = environ[index] {
        env.append(strdup(variable))
        index += 1
    }
    env += environment.map { strdup($0) } + [nil]
    defer { (argv + env).forEach { free($0) } }
    let began = nowNanoseconds()
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, env) == 0 else { fail("cannot run \(arguments[0])") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let elapsed = Double(nowNanoseconds() - began) / 1e6
    guard status == 0 else { fail("\(arguments.joined(separator: " ")) failed (\(status))") }
    return (elapsed, Int(usage.ru_maxrss))
}

func benchLargeList(fixtures: String, photo: String, rounds: Int = 9, warmUp: Int = 2) {
    let dataHome = fixtures + "/data-100000"
    makeLargeLibrary(dataHome: dataHome, count: largeCount, photo: photo)
    let library = dataHome + "/caption"
    let executable = (try? String(cString: realpath("/proc/self/exe", nil))) ?? ""
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
    print("\nA library of \(largeCount) entries, \(rounds) interleaved rounds after \(warmUp) warm-up (medians)")
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
        "{\"entries\": \(largeCount), \"rounds\": \(rounds), "
        + "\"list_json_ms\": \(median(times[0])), \"sqlite3_json_ms\": \(median(times[1])), \"list_ms\": \(median(times[2])), "
        + "\"list_json_over_sqlite3\": \(jsonRatio), \"list_over_sqlite3\": \(listRatio), "
        + "\"list_json_peak_mib\": \(median(peaks[0])), \"sqlite3_json_peak_mib\": \(median(peaks[1])), \"list_peak_mib\": \(median(peaks[2]))}\n"
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/list.json", $0) }
}
