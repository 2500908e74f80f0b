// make bench, the library view at 100,000 entries (caption-bench makes the library once):
// Ctrl+L to the window painted against an empty library in the same rounds; a search key to painted
// for queries of 1, 2, 3 and 8 characters, Latin and Chinese; End to the last entry painted
// and Home back; the longest main-loop stall meanwhile and while scrolling everything;
// RSS after scrolling everything.

import CGtk
@_spi(Benchmarks) import CaptionGtk
@_spi(Benchmarks) import CaptionLibrary

#if canImport(Glibc)
    import Glibc
#endif

/// A key press and release through GTK, as the X server would deliver them.
@MainActor
func press(_ window: CaptionWindow, _ keyval: Int32) {
    for type in [GDK_KEY_PRESS, GDK_KEY_RELEASE] {
        let event = gdk_event_new(type)!
        let gdkWindow = gtk_widget_get_window(window.widget)
        event.pointee.key.window = gdkWindow
        if let gdkWindow { g_object_ref(UnsafeMutableRawPointer(gdkWindow)) }
        event.pointee.key.keyval = UInt32(keyval)
        event.pointee.key.send_event = 1
        event.pointee.key.time = UInt32(GDK_CURRENT_TIME)
        let display = gdk_display_get_default()
        gdk_event_set_device(event, gdk_seat_get_keyboard(gdk_display_get_default_seat(display)))
        var keys: UnsafeMutablePointer<GdkKeymapKey>?
        var count: Int32 = 0
        if gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(display), UInt32(keyval), &keys, &count) != 0,
            let keys, count > 0
        {
            event.pointee.key.hardware_keycode = UInt16(keys[0].keycode)
            g_free(keys)
        }
        gtk_main_do_event(event)
        gdk_event_free(event)
    }
}

/// Turns the main loop until `condition`, noting the longest gap between iterations.
@MainActor
func spinWatching(seconds: Double = 30, until condition: () -> Bool) -> (held: Bool, longestGap: Double) {
    let end = now() + seconds
    var last = now()
    var longest = 0.0
    while !condition() {
        if now() > end { return (false, longest * 1000) }
        let cpuBefore = threadCPU()
        g_main_context_iteration(nil, 0)
        let time = now()
        longest = max(longest, time - last)
        longestCPU = max(longestCPU, threadCPU() - cpuBefore)
        last = time
    }
    return (true, longest * 1000)
}

func entriesCount(_ library: String) -> Int { (try? Library(directory: library).count()) ?? 0 }

/// The library's size as the report writes it ("1,000,000").
func entriesLabel(_ library: String) -> String {
    var digits = Array(String(entriesCount(library)))
    var index = digits.count - 3
    while index > 0 {
        digits.insert(",", at: index)
        index -= 3
    }
    return String(digits)
}

@MainActor
func benchLarge(library: String, searchOnly: Bool = false) -> Never {
    let empty = Bench(library: makeLibrary(count: 0))
    let large = Bench(library: library)
    if getenv("CAPTION_BENCH_TRACE") != nil {
        gtk_widget_hide(empty.window.widget)
        _ = large.timeToPaint { large.window.activateAction("library") }
        print("stall scrolling: \(scroll(large)) ms")
        exit(0)
    }
    let size = entriesLabel(library)
    print("view, \(size) entries: \(library)")

    // A window just opened (its first frame drawn and 0.3 s): Ctrl+L, then a search at once.
    let fresh = Bench(library: library)
    let freshOpen = fresh.timeToPaint { fresh.window.activateAction("library") }
    let freshSearch = fresh.timeToPaint { fresh.window.searchLibrary("m") }
    gtk_widget_destroy(fresh.window.widget)

    // Ctrl+L, the large library, an empty one and one of the large one's newest 100
    // entries (a first page's worth: the same rows on screen) in the same rounds, the order rotating; the window's paint is timed, since
    // the empty library shows a label rather than the list.
    let small = Bench(library: makeLibrary(newest: 100, of: library))
    var openEmpty: [Double] = []
    var openLarge: [Double] = []
    var openSmall: [Double] = []
    var openRatio: [Double] = []
    var openSmallRatio: [Double] = []
    let benches = [large, empty, small]
    for round in 0..<23 {
        var times = [0.0, 0.0, 0.0]
        for step in 0..<3 {
            let which = (round + step) % 3
            let bench = benches[which]
            times[which] = bench.timeToWindowPaint { bench.window.activateAction("library") }
            bench.window.activateAction("library")  // back to the form
            bench.spin(seconds: 0.05)
        }
        if round >= 3 {
            openLarge.append(times[0])
            openEmpty.append(times[1])
            openSmall.append(times[2])
            openRatio.append(times[0] / times[1])
            openSmallRatio.append(times[0] / times[2])
        }
    }
    gtk_widget_hide(empty.window.widget)
    gtk_widget_hide(small.window.widget)
    _ = large.timeToPaint { large.window.activateAction("library") }
    print("rows in the first page: \(large.window.libraryRowCount)")

    // The first search of this window.
    let cold = large.timeToPaint { large.window.searchLibrary("m") }
    _ = large.timeToPaint { large.window.searchLibrary("") }
    // Each matches something (many or few): the list's own repaint is what is timed, and
    // a search that matches nothing shows a label instead of the list.
    let queries: [(String, [String])] = [
        ("Latin, 1 character", ["m", "s", "g", "h"]),
        ("Latin, 2 characters", ["st", "ri", "99", "ha"]),
        ("Latin, 3 characters", ["riv", "tem", "999", "har"]),
        ("Latin, 8 characters", ["festival", "mountain", "portrait", "market 1"]),
        ("Chinese, 1 character", ["港", "雪", "庙", "的"]),
        ("Chinese, 2 characters", ["黄昏", "灯笼", "寺庙", "石桥"]),
        ("Chinese, 3 characters", ["黄昏的", "的市场", "寺庙的", "车站的"]),
        ("Chinese, 8 characters", ["黄昏的市场 11", "雪景的灯笼 12", "花园的寺庙 13", "车站的人像 99"]),
    ]
    var searchRows: [(String, [Double])] = []
    var allSearch: [Double] = []
    for (label, words) in queries {
        var samples: [Double] = []
        for round in 0..<8 {
            for word in words {
                let milliseconds = large.timeToPaint { large.window.searchLibrary(word) }
                if round > 0 { samples.append(milliseconds) }
                // Back to the whole list in between, so every sample is a real change.
                _ = large.timeToPaint { large.window.searchLibrary("") }
            }
        }
        searchRows.append((label, samples))
        allSearch += samples
    }

    let motion = searchOnly ? nil : measureMotion(large, count: entriesCount(library))
    let rss = Double(residentKiB()) / 1024

    print(
        "view, \(size) entries: Ctrl+L to painted median \(rounded(median(openLarge))) ms against \(rounded(median(openEmpty))) ms for an empty library (ratio median \(rounded(median(openRatio), places: 3)), p90 \(rounded(percentile(openRatio, 0.9), places: 2))) and \(rounded(median(openSmall))) ms for its newest 100 entries (ratio median \(rounded(median(openSmallRatio), places: 3)), p90 \(rounded(percentile(openSmallRatio, 0.9), places: 2))) over \(openRatio.count) rounds"
    )
    print(
        "view: a window just opened: Ctrl+L to painted \(rounded(freshOpen)) ms, then its first search \(rounded(freshSearch)) ms"
    )
    print("view: first search in the first window, after its Ctrl+L rounds: \(rounded(cold)) ms")
    for (label, samples) in searchRows {
        print(
            "view: search key to painted, \(label): p50 \(rounded(median(samples))) ms, p99 \(rounded(percentile(samples, 0.99))) ms, max \(rounded(samples.max() ?? .nan)) ms over \(samples.count)"
        )
    }
    print(
        "view: search, every query: p50 \(rounded(median(allSearch))) ms, p99 \(rounded(percentile(allSearch, 0.99))) ms over \(allSearch.count)"
    )
    if let motion {
        print(
            "view: End to the last of \(size) painted: median \(rounded(median(motion.endTimes))) ms; Home back \(rounded(median(motion.homeTimes))) ms; longest stall meanwhile \(rounded(motion.endStalls.max() ?? .nan)) ms, the longest main-loop iteration's own CPU time \(rounded(motion.endCPU)) ms"
        )
        print(
            "view: longest stall scrolling all \(size) rows: \(rounded(median(motion.stalls))) ms (the longest iteration's own CPU time \(rounded(motion.scrollCPU)) ms); 200 Page Downs: \(rounded(motion.pageStall)) ms"
        )
        print("view: RSS after scrolling everything \(rounded(rss)) MiB (both windows in one process)")
    }
    var json =
        "{\"open_large_ms\": \(median(openLarge)), \"open_empty_ms\": \(median(openEmpty)), \"open_ratio\": \(median(openRatio)), \"open_small_ms\": \(median(openSmall)), \"open_over_small\": \(median(openSmallRatio)), "
    json += "\"fresh_open_ms\": \(freshOpen), \"fresh_first_search_ms\": \(freshSearch), "
    json += "\"first_search_ms\": \(cold), \"search\": {"
    json += searchRows.map { "\"\($0.0)\": {\"p50\": \(median($0.1)), \"p99\": \(percentile($0.1, 0.99))}" }.joined(
        separator: ", ")
    json += "}, \"search_p50\": \(median(allSearch)), \"search_p99\": \(percentile(allSearch, 0.99)), "
    if let motion {
        json +=
            "\"end_ms\": \(median(motion.endTimes)), \"home_ms\": \(median(motion.homeTimes)), \"end_stall_ms\": \(motion.endStalls.max() ?? 0), \"end_iteration_cpu_ms\": \(motion.endCPU), \"scroll_iteration_cpu_ms\": \(motion.scrollCPU), "
        json +=
            "\"scroll_stall_ms\": \(median(motion.stalls)), \"scroll_stall_worst_ms\": \(motion.stalls.max() ?? 0), \"page_down_stall_ms\": \(motion.pageStall), "
    }
    json += "\"entries\": \(entriesCount(library)), \"rss_mib\": \(rss)}\n"
    if let file = fopen(".build/bench/view-\(size.filter(\.isNumber)).json", "w") {
        fputs(json, file)
        fclose(file)
    }
    exit(0)
}

/// What End, Home, scrolling every row and Page Down cost in the view.
struct ListMotion {
    var endTimes: [Double] = []
    var homeTimes: [Double] = []
    var endStalls: [Double] = []
    var endCPU = 0.0
    var stalls: [Double] = []
    var scrollCPU = 0.0
    var pageStall = 0.0
}

/// End: every page loads and the last of `count` entries is painted; Home goes back.
/// Then scrolling from top to bottom of every row, a screenful at a time; then Page Down.
@MainActor
func measureMotion(_ large: Bench, count: Int) -> ListMotion {
    var motion = ListMotion()
    large.window.showLibraryView()
    large.spin(seconds: 0.2)
    longestCPU = 0
    for _ in 0..<3 {
        _ = large.timeToPaint { large.window.reloadLibrary() }
        large.window.showLibraryView()
        large.spin(seconds: 0.1)
        large.painted = 0
        var start = now()
        press(large.window, GDK_KEY_End)
        let end = spinWatching {
            large.window.libraryListComplete && large.window.librarySelectedRow == count - 1 && large.painted > start
        }
        motion.endTimes.append((large.painted - start) * 1000)
        motion.endStalls.append(end.longestGap)
        large.spin(seconds: 0.1)
        large.painted = 0
        start = now()
        press(large.window, GDK_KEY_Home)
        let home = spinWatching { large.window.librarySelectedRow == 0 && large.painted > start }
        motion.homeTimes.append((large.painted - start) * 1000)
        motion.endStalls.append(home.longestGap)
    }
    motion.endCPU = longestCPU * 1000
    motion.stalls.append(scroll(large))
    motion.scrollCPU = longestCPU * 1000
    _ = large.timeToPaint { large.window.reloadLibrary() }
    large.window.showLibraryView()
    for _ in 0..<200 {
        press(large.window, GDK_KEY_Page_Down)
        motion.pageStall = max(motion.pageStall, spinWatching(seconds: 0.02) { false }.longestGap)
    }
    large.spin(seconds: 1)
    return motion
}
