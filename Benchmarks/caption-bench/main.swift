// make bench: every benchmark, printed as a table and written as JSON under .build/bench/.

let engine = benchEngine()
print("engine: Enter decision median \(Int(engine.enterMedianNanoseconds)) ns (p10 \(Int(engine.enterP10)), p90 \(Int(engine.enterP90))); \(Int(engine.eventsPerSecond)) events/s")
benchSave()
benchExport()
