// make bench, the library view at 100,000 entries (caption-bench makes the library once):
// Ctrl+L to the window painted against an empty library in the same rounds; a search key to painted
// for queries of 1, 2, 3 and 8 characters, Latin and Chinese; End to the last entry painted
// and Home back; the longest main-loop stall meanwhile and while scrolling everything;
// RSS after scrolling everything.

import CGtk
@_spi(Benchmarks) import CaptionGtk

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

@MainActor
func benchLarge(library: String) -> Never {
    let empty = Bench(library: makeLibrary(count: 0))
    let large = Bench(library: library)
    if getenv("CAPTION_BENCH_TRACE") != nil {
        gtk_widget_hide(empty.window.widget)
        _ = large.timeToPaint { large.window.activateAction("library") }
        print("stall scrolling: \(scroll(large)) ms")
        exit(0)
    }
    print("view, 100,000 entries: \(library)")

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

    // The first search builds the index (once per change to the library).
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

    // End: every page loads and the last entry is painted; Home goes back.
    large.window.showLibraryView()
    large.spin(seconds: 0.2)
    var endTimes: [Double] = []
    var homeTimes: [Double] = []
    var endStalls: [Double] = []
    longestCPU = 0
    for _ in 0..<3 {
        _ = large.timeToPaint { large.window.reloadLibrary() }
        large.window.showLibraryView()
        large.spin(seconds: 0.1)
        let count = 100_000
        large.painted = 0
        var start = now()
        press(large.window, GDK_KEY_End)
        let end = spinWatching {
            large.window.libraryListComplete && large.window.librarySelectedRow == count - 1 && large.painted > start
        }
        endTimes.append((large.painted - start) * 1000)
        endStalls.append(end.longestGap)
        large.spin(seconds: 0.1)
        large.painted = 0
        start = now()
        press(large.window, GDK_KEY_Home)
        let home = spinWatching { large.window.librarySelectedRow == 0 && large.painted > start }
        homeTimes.append((large.painted - start) * 1000)
        endStalls.append(home.longestGap)
    }

    let endCPU = longestCPU * 1000
    // Scrolling from top to bottom of every row, a screenful at a time; then Page Down.
    var stalls: [Double] = []
    stalls.append(scroll(large))
    let scrollCPU = longestCPU * 1000
    var pageStall = 0.0
    _ = large.timeToPaint { large.window.reloadLibrary() }
    large.window.showLibraryView()
    for _ in 0..<200 {
        press(large.window, GDK_KEY_Page_Down)
        pageStall = max(pageStall, spinWatching(seconds: 0.02) { false }.longestGap)
    }
    large.spin(seconds: 1)
    let rss = Double(residentKiB()) / 1024

    print(
        "view, 100,000 entries: Ctrl+L to painted median \(rounded(median(openLarge))) ms against \(rounded(median(openEmpty))) ms for an empty library (ratio median \(rounded(median(openRatio), places: 3)), p90 \(rounded(percentile(openRatio, 0.9), places: 2))) and \(rounded(median(openSmall))) ms for its newest 100 entries (ratio median \(rounded(median(openSmallRatio), places: 3)), p90 \(rounded(percentile(openSmallRatio, 0.9), places: 2))) over \(openRatio.count) rounds"
    )
    print("view: first search after opening (builds the search index): \(rounded(cold)) ms")
    for (label, samples) in searchRows {
        print(
            "view: search key to painted, \(label): p50 \(rounded(median(samples))) ms, p99 \(rounded(percentile(samples, 0.99))) ms, max \(rounded(samples.max() ?? .nan)) ms over \(samples.count)"
        )
    }
    print(
        "view: search, every query: p50 \(rounded(median(allSearch))) ms, p99 \(rounded(percentile(allSearch, 0.99))) ms over \(allSearch.count)"
    )
    print(
        "view: End to the last of 100,000 painted: median \(rounded(median(endTimes))) ms; Home back \(rounded(median(homeTimes))) ms; longest stall meanwhile \(rounded(endStalls.max() ?? .nan)) ms, the longest main-loop iteration's own CPU time \(rounded(endCPU)) ms"
    )
    print(
        "view: longest stall scrolling all 100,000 rows: \(rounded(median(stalls))) ms (the longest iteration's own CPU time \(rounded(scrollCPU)) ms); 200 Page Downs: \(rounded(pageStall)) ms"
    )
    print("view: RSS after scrolling everything \(rounded(rss)) MiB (both windows in one process)")
    var json =
        "{\"open_large_ms\": \(median(openLarge)), \"open_empty_ms\": \(median(openEmpty)), \"open_ratio\": \(median(openRatio)), \"open_small_ms\": \(median(openSmall)), \"open_over_small\": \(median(openSmallRatio)), "
    json += "\"first_search_ms\": \(cold), \"search\": {"
    json += searchRows.map { "\"\($0.0)\": {\"p50\": \(median($0.1)), \"p99\": \(percentile($0.1, 0.99))}" }.joined(
        separator: ", ")
    json += "}, \"search_p50\": \(median(allSearch)), \"search_p99\": \(percentile(allSearch, 0.99)), "
    json +=
        "\"end_ms\": \(median(endTimes)), \"home_ms\": \(median(homeTimes)), \"end_stall_ms\": \(endStalls.max() ?? 0), \"end_iteration_cpu_ms\": \(endCPU), \"scroll_iteration_cpu_ms\": \(scrollCPU), "
    json +=
        "\"scroll_stall_ms\": \(median(stalls)), \"scroll_stall_worst_ms\": \(stalls.max() ?? 0), \"page_down_stall_ms\": \(pageStall), \"rss_mib\": \(rss)}\n"
    if let file = fopen(".build/bench/view-100000.json", "w") {
        fputs(json, file)
        fclose(file)
    }
    exit(0)
}
