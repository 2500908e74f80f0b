// make bench, a photo desk: a search key to the library view painted, at 100,000 entries on
// a PostgreSQL server and the same entries in a folder, the two windows taking turns in the
// same rounds.

import CGtk
@_spi(Benchmarks) import CaptionGtk

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
func benchServerSearch(server: String, folder: String) -> Never {
    let benches = [Bench(library: folder), Bench(library: server)]
    let names = ["folder", "server"]
    var opened: [Double] = []
    var firstSearch: [Double] = []
    for bench in benches {
        opened.append(bench.timeToPaint { bench.window.activateAction("library") })
        // The first search reads the search index from the library (once per change).
        firstSearch.append(bench.timeToPaint { bench.window.searchLibrary("m") })
        _ = bench.timeToPaint { bench.window.searchLibrary("") }
    }
    let words = ["m", "st", "riv", "festival", "market 1", "港", "黄昏", "黄昏的"]
    var samples: [[Double]] = [[], []]
    for round in 0..<7 {
        for word in words {
            for step in 0..<2 {
                let which = (round + step) % 2
                let bench = benches[which]
                let milliseconds = bench.timeToPaint { bench.window.searchLibrary(word) }
                if round > 0 { samples[which].append(milliseconds) }
                // Back to the whole list in between, so every sample is a real change.
                _ = bench.timeToPaint { bench.window.searchLibrary("") }
            }
        }
    }
    print("\nThe library view at 100,000 entries, on PostgreSQL and in a folder, in the same rounds:")
    for which in 0..<2 {
        print(
            "  \(names[which]): Ctrl+L to painted \(rounded(opened[which])) ms; first search (reads the index) \(rounded(firstSearch[which])) ms; search key to painted p50 \(rounded(median(samples[which]))) ms, p99 \(rounded(percentile(samples[which], 0.99))) ms, max \(rounded(samples[which].max() ?? .nan)) ms over \(samples[which].count)"
        )
    }
    let ratios = zip(samples[1], samples[0]).map { $0 / $1 }
    print("  server / folder, search key to painted: median \(rounded(median(ratios), places: 2))")
    exit(0)
}
