// make bench, a desk at full stretch: ten editors on one PostgreSQL library of 1,000,000
// entries, a load script standing in for ten windows. Each has its own connection and
// captions photos as a window does (its photo claimed, saved at Done, the next photo
// claimed) with a search of the library every fourth photo, no pause between; each
// editor's Done → next photo and search latencies, at the median and the 99th percentile.

@_spi(Benchmarks) import CaptionLibrary
import CaptionText
import Foundation
import Threads

/// The 99th percentile (nearest rank).
func percentile99(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, (sorted.count * 99 + 99) / 100 - 1)]
}

/// The desk's library of `count` entries, in a database of its own on the server (`database`)
/// beside the 100,000-entry library of `server`: made once, then kept; and the seconds that
/// took.
func editorsDesk(
    server: String, fixtures: String, photo: String, count: Int, database: String = "caption_editors"
) -> (address: PostgresAddress, desk: Library, seconds: Double) {
    let made = "psql \"$1\" -XtAc \"SELECT 1 FROM pg_database WHERE datname = '\(database)'\" | grep -q 1"
    _ = timed(["/bin/sh", "-c", made + " || psql \"$1\" -Xqc 'CREATE DATABASE \(database)'", "sh", server])
    do {
        let address = try PostgresAddress(try PostgresAddress(server).connectionString + " dbname=\(database)")
        let desk = try Library(server: address, cache: fixtures + "/editors-cache/fill")
        let began = nowNanoseconds()
        if try desk.count() != count {
            let first = try desk.add(
                photoAt: photo, words: CaptionWords(title: "Harbour at dusk 港口", subtitle: "The last ferry"))
            try desk.insertCopies(of: first, count: count - 1, caption: largeCaption)
        }
        guard try desk.count() == count else { fail("the desk's library did not fill") }
        // The server's statistics, as autovacuum gathers them within a minute of a bulk
        // load: without them the planner reads every row to find the few changed.
        _ = timed(["/usr/bin/psql", address.connectionString, "-X", "-q", "-c", "ANALYZE caption.entries"])
        return (address, desk, Double(nowNanoseconds() - began) / 1e9)
    } catch {
        fail(error.message)
    }
}

/// What one editor measured.
struct EditorFigures: Sendable {
    var firstSearch = 0.0
    var doneToNext: [Double] = []
    var searches: [Double] = []
}

func benchEditors(fixtures: String, photo: String, count: Int = millionCount, editors: Int = 10, rounds: Int = 40) {
    guard let server = getenv("CAPTION_TEST_POSTGRES").map({ String(cString: $0) }) else {
        fail("no PostgreSQL server: run under build-aux/with-postgres, as make bench does")
    }
    let (address, desk, made) = editorsDesk(server: server, fixtures: fixtures, photo: photo, count: count)
    print("\nTen editors at one desk: \(count) entries on PostgreSQL (made or checked in \(fixed(made, 1)) s)")

    // Every photo an editor saves is a file of its own (a small JPEG with its own trailer
    // after the end of the image), read and hashed before the clock runs, as a window
    // reads the next photo while the current one is captioned.
    let folder = fixtures + "/editors-photos"
    removeTree(folder)
    mkdir(folder, 0o755)
    guard let base = try? Data(contentsOf: URL(fileURLWithPath: photo)) else { fail("cannot read \(photo)") }
    var photos: [[LoadedPhoto]] = []
    for editor in 0..<editors {
        var own: [LoadedPhoto] = []
        for round in 0..<rounds {
            let path = folder + "/e\(editor)-\(round)-\(nowNanoseconds()).jpg"
            var bytes = base
            bytes.append(contentsOf: Array("caption-bench \(editor) \(round) \(path)".utf8))
            FileManager.default.createFile(atPath: path, contents: bytes)
            do { own.append(try PhotoInspector.load(path)) } catch { fail(error.message) }
        }
        photos.append(own)
    }

    let queries = ["m", "st", "har", "festival", "港", "黄昏", "黄昏的市场 11", "nothing like it"]
    let results = Locked([EditorFigures](repeating: EditorFigures(), count: editors))
    let done = DispatchGroup()
    let cache = fixtures + "/editors-cache"
    for index in 0..<editors {
        done.enter()
        let own = photos[index]
        let thread = Thread {
            defer { done.leave() }
            var figures = EditorFigures()
            do throws(LibraryError) {
                let library = try Library(server: address, cache: cache + "/\(index)")
                let editor = Editor(id: "bench-\(index)-\(nowNanoseconds())", name: "Editor \(index)")
                func search(_ query: String) throws(LibraryError) -> Double {
                    let start = nowNanoseconds()
                    var listing = try library.listing(matching: query)
                    _ = try listing.nextPage(from: library, limit: 100)
                    return Double(nowNanoseconds() - start) / 1e6
                }
                // The window's first search reads the index whole; the others follow it.
                figures.firstSearch = try search("harbour")
                _ = try library.claim(sha256: own[0].sha256, for: editor)
                for round in 0..<own.count {
                    let start = nowNanoseconds()
                    _ = try library.add(own[round], words: largeCaption(index * 10_000 + round), editor: editor)
                    if round + 1 < own.count {
                        _ = try library.claim(
                            sha256: own[round + 1].sha256, for: editor, releasing: [own[round].sha256])
                    }
                    figures.doneToNext.append(Double(nowNanoseconds() - start) / 1e6)
                    if round % 4 == 3 { figures.searches.append(try search(queries[(index + round) % queries.count])) }
                }
            } catch {
                fail("editor \(index): \(error.message)")
            }
            results.withLock { $0[index] = figures }
        }
        thread.start()
    }
    done.wait()

    let figures = results.withLock { $0 }
    print("  \(editors) editors × \(rounds) photos, a search every fourth photo, no pause between (ms)")
    print("  editor   first search   Done → next p50    p99   search p50    p99")
    for (index, own) in figures.enumerated() {
        print(
            "  \(pad(String(index + 1), 6))\(pad(fixed(own.firstSearch, 0), 15, right: true))"
                + "\(pad(fixed(median(own.doneToNext), 1), 17, right: true))\(pad(fixed(percentile99(own.doneToNext), 1), 7, right: true))"
                + "\(pad(fixed(median(own.searches), 1), 13, right: true))\(pad(fixed(percentile99(own.searches), 1), 7, right: true))"
        )
    }
    let allDone = figures.flatMap(\.doneToNext)
    let allSearches = figures.flatMap(\.searches)
    print(
        "  all      \(pad(fixed(median(figures.map(\.firstSearch)), 0), 12, right: true))"
            + "\(pad(fixed(median(allDone), 1), 17, right: true))\(pad(fixed(percentile99(allDone), 1), 7, right: true))"
            + "\(pad(fixed(median(allSearches), 1), 13, right: true))\(pad(fixed(percentile99(allSearches), 1), 7, right: true))"
    )
    let worstDone = figures.map { percentile99($0.doneToNext) }.max() ?? .nan
    let worstSearch = figures.map { percentile99($0.searches) }.max() ?? .nan
    let json =
        "{\"entries\": \(count), \"editors\": \(editors), \"rounds\": \(rounds), "
        + "\"done_to_next_p50_ms\": \(median(allDone)), \"done_to_next_p99_ms\": \(percentile99(allDone)), "
        + "\"done_to_next_worst_editor_p99_ms\": \(worstDone), \"search_p50_ms\": \(median(allSearches)), "
        + "\"search_p99_ms\": \(percentile99(allSearches)), \"search_worst_editor_p99_ms\": \(worstSearch), "
        + "\"first_search_median_ms\": \(median(figures.map(\.firstSearch)))}\n"
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/editors.json", $0) }
    removeTree(folder)
}
