// make bench, a desk's listing at a million: `caption --list --json` on the PostgreSQL
// library of 1,000,000 entries against psql's COPY of the same rows, side by side, warm and
// cold (the page cache dropped before each command, where the bench may: as root).

@_spi(Benchmarks) import CaptionLibrary
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Empties the kernel's page cache, so that the next command reads the server's files
/// from the disk; false where that is not allowed (not root, or a container that refuses).
func dropPageCache() -> Bool {
    sync()
    guard let file = fopen("/proc/sys/vm/drop_caches", "w") else { return false }
    defer { fclose(file) }
    return fputs("3\n", file) >= 0 && fflush(file) == 0
}

func benchServerList(fixtures: String, photo: String, count: Int = millionCount, rounds: Int = 5) {
    guard let server = getenv("CAPTION_TEST_POSTGRES").map({ String(cString: $0) }) else {
        fail("no PostgreSQL server: run under build-aux/with-postgres, as make bench does")
    }
    // The million shares the ten editors' database; another size has one of its own.
    let (address, _, made) = editorsDesk(
        server: server, fixtures: fixtures, photo: photo, count: count,
        database: count == millionCount ? "caption_editors" : "caption_list_\(count)")
    print("\nA desk's listing: \(count) entries on PostgreSQL (made or checked in \(fixed(made, 1)) s)")
    let executable = executablePath()
    let caption = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)]) + "/caption"
    let cache = fixtures + "/server-list-cache"
    removeTree(cache)
    let commands = [
        [caption, "--library", address.connectionString, "--list", "--json"],
        [
            "/usr/bin/psql", address.connectionString, "-X", "-q", "-c",
            "COPY (SELECT * FROM caption.entries ORDER BY created DESC, id DESC) TO STDOUT",
        ],
    ]
    var warm: [[(milliseconds: Double, peakKiB: Int)]] = [[], []]
    var cold: [[Double]] = [[], []]
    var canDrop = true
    for round in 0..<(rounds + 1) {
        for step in 0..<2 {
            let which = (round + step) % 2
            let figures = timed(commands[which], environment: ["XDG_CACHE_HOME=" + cache])
            // The first round warms the server's buffers and the page cache.
            if round > 0 { warm[which].append(figures) }
        }
    }
    for round in 0..<3 where canDrop {
        for step in 0..<2 {
            let which = (round + step) % 2
            guard dropPageCache() else {
                canDrop = false
                break
            }
            cold[which].append(timed(commands[which], environment: ["XDG_CACHE_HOME=" + cache]).milliseconds)
        }
    }
    let warmRatio = median(zip(warm[0], warm[1]).map { $0.milliseconds / $1.milliseconds })
    let peak = Double(warm[0].map(\.peakKiB).max() ?? 0) / 1024
    print(
        "  --list --json warm \(fixed(median(warm[0].map(\.milliseconds)), 1)) ms, peak RSS \(fixed(peak, 1)) MiB; "
            + "psql's COPY \(fixed(median(warm[1].map(\.milliseconds)), 1)) ms: \(fixed(warmRatio, 2))× "
            + "(target ≤ 1.5), \(rounds) interleaved rounds")
    var json =
        "{\"entries\": \(count), \"warm_ms\": \(median(warm[0].map(\.milliseconds))), "
        + "\"psql_warm_ms\": \(median(warm[1].map(\.milliseconds))), \"warm_over_psql\": \(warmRatio), "
        + "\"peak_mib\": \(peak)"
    if canDrop, cold[0].count == cold[1].count, !cold[0].isEmpty {
        let coldRatio = median(zip(cold[0], cold[1]).map { $0 / $1 })
        print(
            "  --list --json cold \(fixed(median(cold[0]), 1)) ms; psql's COPY \(fixed(median(cold[1]), 1)) ms: "
                + "\(fixed(coldRatio, 2))× (target ≤ 1.5), the page cache dropped before each of 3 rounds")
        json +=
            ", \"cold_ms\": \(median(cold[0])), \"psql_cold_ms\": \(median(cold[1])), \"cold_over_psql\": \(coldRatio)"
    } else {
        print("  cold: not measured (the page cache cannot be dropped here: run as root)")
    }
    json += "}\n"
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/server-list-\(count).json", $0) }
}
