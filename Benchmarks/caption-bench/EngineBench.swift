// The focus engine's figures: the cost of one Enter decision and events per second.

import FocusEngine

#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic time in nanoseconds.
func nowNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

struct EngineFigures {
    var enterMedianNanoseconds: Double
    var enterP10: Double
    var enterP90: Double
    var eventsPerSecond: Double
}

/// Enter in the title of a form whose photo is set: Next to the subtitle, Enter there goes
/// back to the title (the photo is complete and skipped), so every press is a real decision
/// over normalised, typical-length text.
func benchEngine() -> EngineFigures {
    let layout = CaptionForm.Layout.window
    let title = layout.requiredIndex(.title)
    var form = layout.engine()
    _ = form.handle(.photo(item: layout.photo, .loaded))
    _ = form.handle(.focus(title))
    _ = form.handle(.edit(item: title, text: "  Harbour at dusk, the last ferry  "))
    var sink = 0
    let batch = 1_000
    var perDecision: [Double] = []
    for round in 0..<215 {
        let start = nowNanoseconds()
        for _ in 0..<batch {
            if case .focus(let item?) = form.handle(.enter) { sink &+= item }
        }
        let elapsed = Double(nowNanoseconds() - start) / Double(batch)
        if round >= 15 { perDecision.append(elapsed) }  // the first rounds warm caches up
    }

    // A mixed stream like the random test's: typing, focus moves, Enter, submits, photos.
    var generator = SystemRandomNumberGenerator()
    let texts = ["", "H", "Ha", "Harbour", "  Harbour at dusk ", String(repeating: "x", count: 130)]
    let events: [FormEvent] = (0..<200_000).map { _ in
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<4: return .edit(item: Int.random(in: 1...2, using: &generator), text: texts.randomElement()!)
        case 4: return .focus(Int.random(in: 0...2, using: &generator))
        case 5..<8: return .enter
        case 8: return .submit
        default: return .photo(item: 0, Bool.random(using: &generator) ? .loaded : .empty)
        }
    }
    var mixed = layout.engine()
    var rates: [Double] = []
    for _ in 0..<5 {
        let start = nowNanoseconds()
        for event in events {
            if case .save = mixed.handle(event) { sink &+= 1 }
        }
        rates.append(Double(events.count) / (Double(nowNanoseconds() - start) / 1e9))
    }
    if sink == 42 { print("") }  // keeps the optimiser from removing the work
    let sorted = perDecision.sorted()
    return EngineFigures(
        enterMedianNanoseconds: median(perDecision),
        enterP10: sorted[sorted.count / 10],
        enterP90: sorted[sorted.count * 9 / 10],
        eventsPerSecond: median(rates))
}

/// .build/bench/engine.json, beside the other sections' files.
func writeEngineJSON(_ figures: EngineFigures) {
    let json = """
        {
          "enter_decision_median_ns": \(fixed(figures.enterMedianNanoseconds, 1)),
          "enter_decision_p10_ns": \(fixed(figures.enterP10, 1)),
          "enter_decision_p90_ns": \(fixed(figures.enterP90, 1)),
          "events_per_second": \(Int(figures.eventsPerSecond))
        }

        """
    _ = run(["/bin/mkdir", "-p", ".build/bench"])
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/engine.json", $0) }
}
