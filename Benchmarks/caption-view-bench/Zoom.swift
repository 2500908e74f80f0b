// make bench, the view at 100 %: from the key to the full-size pixels painted for a large
// photo (45 MP), the longest main-loop stall meanwhile, and memory before, during and after.

import CGtk
@_spi(Benchmarks) import CaptionGtk

#if canImport(Glibc)
    import Glibc
#endif

/// `caption-view-bench --zoom PHOTO`: five rounds of zooming in and out of PHOTO.
@MainActor
func benchZoom(photo: String) -> Never {
    let bench = Bench(library: makeLibrary(count: 0))
    var checked = false
    bench.window.onPhotoChecked = { checked = true }
    bench.window.openPhoto(photo)
    guard bench.spin(until: { checked }, seconds: 60) else {
        print("zoom: \(photo) never loaded")
        exit(1)
    }
    bench.spin(seconds: 1)
    if tracing { print("zoom: RSS with the photo fitted \(residentKiB() / 1024) MiB") }
    var sharpTimes: [Double] = []
    var stalls: [Double] = []
    var rssBefore: [Double] = []
    var rssZoomed: [Double] = []
    var rssAfter: [Double] = []
    for _ in 0..<5 {
        rssBefore.append(Double(residentKiB()))
        var sharp = 0.0
        bench.window.onZoomSharp = { sharp = now() }
        // Every turn of the loop is timed, from the key until a moment after the sharp paint.
        var longest = 0.0
        let start = now()
        bench.window.activateAction("zoom")
        var last = now()
        longest = last - start
        let deadline = start + 60
        while (sharp == 0 || now() < sharp + 0.3) && now() < deadline {
            if g_main_context_iteration(nil, 0) == 0 { usleep(200) }
            let time = now()
            longest = max(longest, time - last)
            last = time
        }
        guard sharp > 0 else {
            print("zoom: the full-size photo never came")
            exit(1)
        }
        sharpTimes.append((sharp - start) * 1000)
        stalls.append(longest * 1000)
        rssZoomed.append(Double(residentKiB()))
        bench.window.activateAction("zoom")
        bench.spin(seconds: 0.5)
        rssAfter.append(Double(residentKiB()))
        if tracing {
            print("zoom: round: RSS \(rssBefore.last ?? 0) → \(rssZoomed.last ?? 0) → \(rssAfter.last ?? 0) KiB")
        }
    }
    let mib = { (kib: Double) in rounded(kib / 1024) }
    print(
        "zoom, 45 MP: key to the 100 % view sharp: median \(rounded(median(sharpTimes))) ms over \(sharpTimes.count)"
    )
    print(
        "zoom, 45 MP: longest main-loop stall from the key to sharp: median \(rounded(median(stalls))) ms (worst \(rounded(stalls.max() ?? .nan)))"
    )
    print(
        "zoom, 45 MP: RSS before \(mib(median(rssBefore))) MiB, zoomed \(mib(median(rssZoomed))) MiB, after leaving \(mib(median(rssAfter))) MiB"
    )
    let json =
        "{\"sharp_ms_median\": \(median(sharpTimes)), \"stall_ms_median\": \(median(stalls)), \"stall_ms_worst\": \(stalls.max() ?? 0), \"rss_before_kib\": \(median(rssBefore)), \"rss_zoomed_kib\": \(median(rssZoomed)), \"rss_after_kib\": \(median(rssAfter))}\n"
    if let file = fopen(".build/bench/zoom.json", "w") {
        fputs(json, file)
        fclose(file)
    }
    exit(0)
}
