// make bench, Preferences: Ctrl+comma to the window painted with a roster of 100,000 code
// replacements, side by side with a file of 2 codes, and a search in the roster to the list
// painted. Each roster is its own process (the codes are read at start from
// $XDG_CONFIG_HOME/caption/replacements.tsv); rounds alternate between the two.

import CGtk
@_spi(Benchmarks) import CaptionGtk

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a replacements file of `count` codes into a new config folder and returns it.
func makeCodeFolder(count: Int) -> String {
    var template = Array("/tmp/caption-view-bench-codes-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    mkdir(folder + "/caption", 0o700)
    guard let file = fopen(folder + "/caption/replacements.tsv", "w") else { return folder }
    fputs("# a season's roster\n", file)
    for index in 0..<count { fputs("=p\(index)\tPlayer \(index), Harbour City FC\n", file) }
    fclose(file)
    return folder
}

/// One process's figures: the Preferences window opened and closed `rounds` times, and a
/// search. Prints "open MS" lines and "search MS" lines for the parent to collect.
@MainActor
func measurePreferences(rounds: Int) -> Never {
    let bench = Bench(library: makeLibrary(count: 0))
    var painted = 0.0
    for _ in 0..<rounds {
        let start = now()
        bench.window.activateAction("preferences")
        guard let widget = bench.window.preferencesWidget else {
            print("caption-view-bench: Preferences did not open")
            exit(1)
        }
        onListDraw(widget) { painted = now() }
        bench.spin(until: { painted > start })
        print("open \((painted - start) * 1000)")
        if bench.window.preferencesRowCount > 1000 {
            // A query typed, then its matches painted: GtkSearchEntry waits 150 ms for
            // typing to pause, which is in the figure.
            let count = bench.window.preferencesRowCount
            let typed = now()
            bench.window.searchPreferences("=p99999")
            bench.spin(until: { bench.window.preferencesRowCount != count && painted > typed })
            print("search \((painted - typed) * 1000)")
        }
        bench.window.closePreferences()
        bench.spin(seconds: 0.2)
    }
    exit(0)
}

/// Runs the two rosters side by side in child processes and prints the medians.
func benchPreferences() -> Never {
    let small = makeCodeFolder(count: 2)
    let large = makeCodeFolder(count: 100_000)
    var open: [String: [Double]] = ["small": [], "large": []]
    var search: [Double] = []
    for _ in 0..<5 {
        for (name, folder) in [("small", small), ("large", large)] {
            let command = "XDG_CONFIG_HOME=\(folder) \"$(readlink /proc/\(getpid())/exe)\" --preferences-child"
            guard let pipe = popen(command, "r") else { continue }
            var line = [CChar](repeating: 0, count: 128)
            while fgets(&line, 128, pipe) != nil {
                let words = String(cString: line).split(separator: " ")
                guard words.count == 2, let value = Double(words[1].filter { $0 != "\n" }) else { continue }
                if words[0] == "open" { open[name, default: []].append(value) }
                if words[0] == "search" { search.append(value) }
            }
            pclose(pipe)
        }
    }
    let smallOpen = median(open["small"] ?? [])
    let largeOpen = median(open["large"] ?? [])
    print(
        "preferences: Ctrl+comma to painted: 2 codes median \(rounded(smallOpen)) ms, 100,000 codes median \(rounded(largeOpen)) ms (p90 \(rounded(percentile(open["large"] ?? [], 0.9)))) over \(open["large"]?.count ?? 0): \(rounded(largeOpen / smallOpen, places: 2))x"
    )
    print(
        "preferences: a search in 100,000 codes to painted (with GTK's 150 ms typing pause): median \(rounded(median(search))) ms over \(search.count)"
    )
    let json =
        "{\"open_2_ms_median\": \(smallOpen), \"open_100000_ms_median\": \(largeOpen), \"search_100000_ms_median\": \(median(search))}\n"
    if let file = fopen(".build/bench/preferences.json", "w") {
        fputs(json, file)
        fclose(file)
    }
    exit(0)
}
