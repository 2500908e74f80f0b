// make bench, library view: Ctrl+L to the list painted, a search key to the filtered list
// painted, the longest main-loop stall while scrolling 10,000 entries, and memory after it.
// Runs under a display (build-aux/with-display). Usage:
//   caption-view-bench               the figures, against a library of 10,000 entries
//   caption-view-bench --large DIR   the same and more against DIR, a library of 100,000
//                                    (Large.swift), side by side with an empty library
//   caption-view-bench --large --search DIR
//                                    opening and searching alone (a library of 1,000,000)
//   caption-view-bench --rss MODE    (internal) one process's RSS: MODE is "empty" or "full"
//   caption-view-bench --preferences the Preferences window with 100,000 codes (Preferences.swift)
//   caption-view-bench --zoom PHOTO  the view at 100 % of a large photo (Zoom.swift)
//   caption-view-bench --server-search ADDRESS DIR
//                                    search in the library view, a server's library of
//                                    100,000 beside DIR's, the same (ServerSearch.swift)

import CGtk
@_spi(Benchmarks) import CaptionGtk
@_spi(Benchmarks) import CaptionLibrary
import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// A figure with `places` decimals, without Foundation's String(format:).
func rounded(_ value: Double, places: Int = 1) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    return String((value * scale).rounded() / scale)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// CPU time of the calling thread: a gap in the main loop with little of it was the
/// scheduler running someone else (the machine is shared), not the app's work.
func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Seconds the calling thread has waited on a run queue (ready but not running), from
/// /proc/thread-self/schedstat: a stall with this much waiting was the scheduler's.
func runQueueWait() -> Double {
    guard let file = fopen("/proc/thread-self/schedstat", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, 128, file) != nil else { return 0 }
    let fields = String(cString: line).split(separator: " ")
    return fields.count > 1 ? (Double(fields[1]) ?? 0) / 1e9 : 0
}

let tracing = getenv("CAPTION_BENCH_TRACE") != nil

/// Seconds the X server (build-aux/with-display exports XVFB_PID) has run on a CPU and
/// waited for one, from its /proc schedstat; 0 without it.
func serverCPU() -> Double { serverSchedule(field: 0) }
func serverWait() -> Double { serverSchedule(field: 1) }
func serverSchedule(field: Int) -> Double {
    guard let pid = getenv("XVFB_PID").map({ String(cString: $0) }),
        let file = fopen("/proc/\(pid)/schedstat", "r")
    else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, 128, file) != nil else { return 0 }
    let fields = String(cString: line).split(separator: " ")
    return fields.count > field ? (Double(fields[field]) ?? 0) / 1e9 : 0
}

/// The longest main-loop iteration's own CPU time in the last `scroll`.
nonisolated(unsafe) var longestCPU = 0.0

func residentKiB() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    withUnsafeMutablePointer(to: &size) { sizePointer in
        withUnsafeMutablePointer(to: &resident) { residentPointer in
            _ = withVaList([sizePointer, residentPointer]) { vfscanf(file, "%d %d", $0) }
        }
    }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// A temporary library: `count` entries sharing one real photo, made in one transaction.
func makeLibrary(count: Int) -> String {
    var template = Array("/tmp/caption-view-bench-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    let directory = folder + "/library"
    guard count > 0 else { return directory }
    let photo = folder + "/photo.jpg"
    let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 640, 427)!
    gdk_pixbuf_fill(pixbuf, 0x3d85_c6ff)
    gdk_pixbuf_savev(pixbuf, photo, "jpeg", nil, nil, nil)
    g_object_unref(UnsafeMutableRawPointer(pixbuf))
    do {
        let library = try Library(directory: directory)
        let first = try library.add(
            photoAt: photo, words: CaptionWords(title: "Harbour at dusk 港口", subtitle: "The last ferry"))
        try library.insertCopies(of: first, count: count - 1)
    } catch {
        print("cannot make the library: \(error.message)")
        exit(1)
    }
    return directory
}

/// A temporary library of `count` entries with the same photos and words as the newest of
/// the library in `directory`: the same rows on screen as that library's first page.
func makeLibrary(newest count: Int, of directory: String) -> String {
    var template = Array("/tmp/caption-view-bench-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    do {
        let source = try Library(directory: directory)
        let copy = try Library(directory: folder + "/library")
        for entry in try source.entries(after: nil, limit: count).reversed() {
            guard let photo = source.photoPath(of: entry) else { continue }
            _ = try copy.add(photoAt: photo, words: CaptionWords(title: entry.title, subtitle: entry.subtitle))
        }
    } catch {
        print("cannot make the library: \(error.message)")
        exit(1)
    }
    return folder + "/library"
}

@MainActor
final class Bench {
    let window: CaptionWindow
    var painted = 0.0
    var windowPainted = 0.0
    /// Main-loop gaps are timed by an idle-priority tick every millisecond.
    var lastTick = 0.0
    var longestGap = 0.0

    init(library: String) {
        window = CaptionWindow(libraryLocation: library, stateFile: "/dev/null")
        gtk_window_set_default_size(caption_window(window.widget), 720, 640)
        gtk_widget_show_all(window.widget)
        gtk_window_present(caption_window(window.widget))
        // The list's first paint after a change: a draw handler that runs after GTK's.
        onListDraw(window.libraryList) { [weak self] in self?.painted = now() }
        // The whole window's paint: an empty library shows a label, not the list.
        onListDraw(window.widget) { [weak self] in self?.windowPainted = now() }
        spin(seconds: 0.3)
    }

    func spin(seconds: Double) {
        let end = now() + seconds
        while now() < end { if g_main_context_iteration(nil, 0) == 0 { usleep(500) } }
    }

    /// Turns the loop until `condition`, for at most `seconds`; returns whether it held.
    @discardableResult
    func spin(until condition: () -> Bool, seconds: Double = 10) -> Bool {
        let end = now() + seconds
        while !condition() {
            if now() > end { return false }
            if g_main_context_iteration(nil, 0) == 0 { usleep(200) }
        }
        return true
    }

    /// From the action to the window painted after the library view loaded (the list or
    /// the empty library's label).
    func timeToWindowPaint(_ action: () -> Void) -> Double {
        var loaded = false
        window.onLibraryShown = { loaded = true }
        windowPainted = 0
        let start = now()
        action()
        spin(until: { loaded })
        spin(until: { self.windowPainted > start && loaded })
        return (windowPainted - start) * 1000
    }

    /// From the action to the list painted with its new contents.
    func timeToPaint(_ action: () -> Void) -> Double {
        var loaded = false
        window.onLibraryShown = { loaded = true }
        painted = 0
        let start = now()
        action()
        spin(until: { loaded })
        spin(until: { self.painted > start && loaded })
        return (painted - start) * 1000
    }
}

@MainActor
func onListDraw(_ widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
    final class Box {
        let body: @MainActor () -> Void
        init(_ body: @escaping @MainActor () -> Void) { self.body = body }
    }
    let callback: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, _, data in
        guard let data else { return 0 }
        let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
        MainActor.assumeIsolated { box.body() }
        return 0
    }
    g_signal_connect_data(
        UnsafeMutableRawPointer(widget), "draw", unsafeBitCast(callback, to: GCallback.self),
        Unmanaged.passRetained(Box(body)).toOpaque(), nil, G_CONNECT_AFTER)
}

@MainActor
func run() {
    guard gtk_init_check(nil, nil) != 0 else {
        print("caption-view-bench: no display")
        exit(1)
    }
    let arguments = CommandLine.arguments
    if arguments.count == 3 && arguments[1] == "--rss" {
        // One process, one state: the library view shown on an empty library, or on
        // 10,000 entries after scrolling from top to bottom.
        let full = arguments[2] == "full"
        let bench = Bench(library: makeLibrary(count: full ? 10_000 : 0))
        _ = bench.timeToPaint { bench.window.activateAction("library") }
        if full { scroll(bench) }
        bench.spin(seconds: 1)
        print(residentKiB())
        exit(0)
    }

    if arguments.count == 2 && arguments[1] == "--preferences" { benchPreferences() }
    if arguments.count == 2 && arguments[1] == "--preferences-child" { measurePreferences(rounds: 3) }

    if arguments.count == 3 && arguments[1] == "--zoom" { benchZoom(photo: arguments[2]) }

    if arguments.count == 4 && arguments[1] == "--server-search" {
        benchServerSearch(server: arguments[2], folder: arguments[3])
    }

    if arguments.count == 3 && arguments[1] == "--large" {
        benchLarge(library: arguments[2])
    }
    // A library too large to scroll through in a benchmark's time: opening and searching.
    if arguments.count == 4 && arguments[1] == "--large" && arguments[2] == "--search" {
        benchLarge(library: arguments[3], searchOnly: true)
    }

    let bench = Bench(library: makeLibrary(count: 10_000))
    // Ctrl+L: each time the view appears it loads the library afresh.
    var open: [Double] = []
    for round in 0..<17 {
        let milliseconds = bench.timeToPaint { bench.window.activateAction("library") }
        if round >= 2 { open.append(milliseconds) }
        bench.window.activateAction("library")  // back to the form
        bench.spin(seconds: 0.05)
    }
    _ = bench.timeToPaint { bench.window.activateAction("library") }
    print("rows shown: \(bench.window.libraryRowCount)")

    // A key typed in the search: alternate queries that match many, few and none.
    let queries = ["h", "ha", "har", "harb", "港", "港口", "dusk", "du", "x", "1", "12", "123", "9999", ""]
    var search: [Double] = []
    for round in 0..<3 {
        for query in queries {
            let milliseconds = bench.timeToPaint { bench.window.searchLibrary(query) }
            if round > 0 { search.append(milliseconds) }
        }
    }

    // The longest stall of a pass is one sample; five passes give its median and worst.
    var stalls: [Double] = []
    for _ in 0..<5 { stalls.append(scroll(bench)) }
    let stall = median(stalls)
    let worstStall = stalls.max() ?? .nan
    // Memory: a process with the view on an empty library, and one that scrolled through
    // 10,000 entries, each measured alone (medians of 3).
    func rss(_ mode: String) -> Double {
        var values: [Double] = []
        for _ in 0..<3 {
            guard let pipe = popen("\"$(readlink /proc/\(getpid())/exe)\" --rss \(mode)", "r") else { continue }
            var line = [CChar](repeating: 0, count: 64)
            if fgets(&line, 64, pipe) != nil, let value = Double(String(cString: line).filter(\.isNumber)) {
                values.append(value)
            }
            pclose(pipe)
        }
        return median(values)
    }
    let emptyRSS = rss("empty")
    let fullRSS = rss("full")
    print(
        "view: Ctrl+L to painted, 10,000 entries: median \(rounded(median(open))) ms (p90 \(rounded(percentile(open, 0.9)))) over \(open.count)"
    )
    print(
        "view: search key to painted: p50 \(rounded(median(search))) ms, p90 \(rounded(percentile(search, 0.9))) ms over \(search.count)"
    )
    print(
        "view: longest main-loop stall scrolling top to bottom: median of 5 passes \(rounded(stall)) ms (worst \(rounded(worstStall)))"
    )
    print(
        "view: RSS with an empty library \(rounded(emptyRSS / 1024)) MiB, after scrolling 10,000 entries \(rounded(fullRSS / 1024)) MiB: \(rounded(fullRSS / emptyRSS, places: 2))x"
    )
    let json =
        "{\"open_ms_median\": \(median(open)), \"search_ms_p50\": \(median(search)), \"search_ms_p90\": \(percentile(search, 0.9)), \"scroll_stall_ms\": \(stall), \"scroll_stall_worst_ms\": \(worstStall), \"rss_empty_kib\": \(emptyRSS), \"rss_scrolled_kib\": \(fullRSS), \"rss_ratio\": \(fullRSS / emptyRSS)}\n"
    if let file = fopen(".build/bench/view.json", "w") {
        fputs(json, file)
        fclose(file)
    }
    exit(0)
}

/// Scrolls from top to bottom a screenful at a time, letting each paint, and returns the
/// longest gap between main-loop iterations meanwhile (thumbnails included).
@MainActor
@discardableResult
func scroll(_ bench: Bench) -> Double {
    let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(bench.window.libraryList))!
    var longest = 0.0
    var last = now()
    // What the main thread and the X server did over a gap, for the trace: the whole gap
    // (the scroll between iterations included), not only the iteration.
    var cpuAtLast = threadCPU()
    var waitAtLast = runQueueWait()
    var serverAtLast = serverCPU()
    var serverWaitAtLast = serverWait()
    func iterate(for seconds: Double) {
        let end = now() + seconds
        while now() < end {
            let cpuBefore = threadCPU()
            g_main_context_iteration(nil, 0)
            let time = now()
            longest = max(longest, time - last)
            longestCPU = max(longestCPU, threadCPU() - cpuBefore)
            if tracing {
                if time - last > 0.02 {
                    print(
                        "stall \(rounded((time - last) * 1000)) ms: main thread on CPU \(rounded((threadCPU() - cpuAtLast) * 1000)) ms, waiting for a CPU \(rounded((runQueueWait() - waitAtLast) * 1000)) ms; X server on CPU \(rounded((serverCPU() - serverAtLast) * 1000)) ms, waiting \(rounded((serverWait() - serverWaitAtLast) * 1000)) ms; at \(bench.window.libraryRowCount) rows"
                    )
                }
                cpuAtLast = threadCPU()
                waitAtLast = runQueueWait()
                serverAtLast = serverCPU()
                serverWaitAtLast = serverWait()
            }
            last = now()
        }
    }
    gtk_adjustment_set_value(adjustment, 0)
    iterate(for: 0.2)
    longest = 0
    longestCPU = 0
    last = now()
    // The list grows a page at a time as the bottom nears: on until every page is in.
    // CAPTION_BENCH_STEP_MS (default 4) sets the time between screenfuls and
    // CAPTION_BENCH_ROWS stops after that many rows, for experiments.
    let step = getenv("CAPTION_BENCH_STEP_MS").flatMap { Double(String(cString: $0)) }.map { $0 / 1000 } ?? 0.004
    let rowLimit = getenv("CAPTION_BENCH_ROWS").flatMap { Int(String(cString: $0)) } ?? Int.max
    let deadline = now() + 300
    while now() < deadline && bench.window.libraryRowCount < rowLimit {
        let atBottom =
            gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment)
            >= gtk_adjustment_get_upper(adjustment)
        if atBottom && bench.window.libraryListComplete { break }
        if !atBottom {
            gtk_adjustment_set_value(
                adjustment, gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment))
        }
        iterate(for: step)
    }
    iterate(for: 0.3)
    return longest * 1000
}

MainActor.assumeIsolated { run() }
