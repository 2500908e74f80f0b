// make bench: every benchmark, printed as a table and written as JSON under .build/bench/.
// `caption-bench fixtures FOLDER SAMPLE` makes what the window benchmarks need first.

#if canImport(Glibc)
    import Glibc
#endif

if CommandLine.arguments.dropFirst().first == "make-large" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard arguments.count == 3, let count = Int(arguments[1]) else {
        fail("usage: caption-bench make-large DATA-HOME COUNT SAMPLE-PHOTO")
    }
    makeLargeLibraryHere(dataHome: arguments[0], count: count, photo: arguments[2])
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "fixtures" {
    makeFixtures(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
// `caption-bench large FIXTURES SAMPLE`: the 100,000- and 1,000,000-entry figures alone
// (`--million` alone: only the 1,000,000).
if CommandLine.arguments.dropFirst().first == "large" {
    var arguments = Array(CommandLine.arguments.dropFirst(2))
    let millionOnly = arguments.first == "--million"
    if millionOnly { arguments.removeFirst() }
    guard arguments.count == 2 else { fail("usage: caption-bench large [--million] FIXTURES SAMPLE-PHOTO") }
    if !millionOnly {
        benchLargeList(fixtures: arguments[0], photo: arguments[1])
        benchLargeCompletion(fixtures: arguments[0])
    }
    benchLargeList(fixtures: arguments[0], photo: arguments[1], count: millionCount, rounds: 5, warmUp: 1)
    benchLargeSearch(fixtures: arguments[0], photo: arguments[1], count: millionCount)
    exit(0)
}

// `caption-bench server FIXTURES SAMPLE`: the 100,000 entries in a folder and on
// PostgreSQL, side by side (under build-aux/with-postgres).
if CommandLine.arguments.dropFirst().first == "server" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard arguments.count == 2 else { fail("usage: caption-bench server FIXTURES SAMPLE-PHOTO") }
    benchServer(fixtures: arguments[0], photo: arguments[1])
    exit(0)
}

// `caption-bench editors FIXTURES SAMPLE [COUNT]`: ten editors at one desk of COUNT
// entries (1,000,000 unless given), under build-aux/with-postgres.
if CommandLine.arguments.dropFirst().first == "editors" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard arguments.count == 2 || arguments.count == 3 else {
        fail("usage: caption-bench editors FIXTURES SAMPLE-PHOTO [ENTRIES]")
    }
    benchEditors(
        fixtures: arguments[0], photo: arguments[1],
        count: arguments.count == 3 ? Int(arguments[2]) ?? millionCount : millionCount)
    exit(0)
}

// `caption-bench server-list FIXTURES SAMPLE [COUNT]`: the desk's listing at COUNT entries
// (1,000,000 unless given) against psql's COPY, warm and cold, under build-aux/with-postgres.
if CommandLine.arguments.dropFirst().first == "server-list" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard arguments.count == 2 || arguments.count == 3 else {
        fail("usage: caption-bench server-list FIXTURES SAMPLE-PHOTO [ENTRIES]")
    }
    benchServerList(
        fixtures: arguments[0], photo: arguments[1],
        count: arguments.count == 3 ? Int(arguments[2]) ?? millionCount : millionCount)
    exit(0)
}

// `caption-bench places`: GeoNames' index and a place's lookup.
if CommandLine.arguments.dropFirst().first == "places" {
    benchPlaces()
    exit(0)
}

// `caption-bench completion FIXTURES`: completion at 100,000 entries alone.
if CommandLine.arguments.dropFirst().first == "completion" {
    guard let fixtures = CommandLine.arguments.dropFirst(2).first else {
        fail("usage: caption-bench completion FIXTURES")
    }
    benchLargeCompletion(fixtures: fixtures)
    exit(0)
}

// `caption-bench keystrokes`: the scripted captioning session's keystroke count alone.
if CommandLine.arguments.dropFirst().first == "keystrokes" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    if arguments.first == "--plan" {
        printKeystrokePlan(photos: arguments.dropFirst().first.flatMap { Int($0) } ?? 50)
    } else {
        reportKeystrokes()
    }
    exit(0)
}

let engine = benchEngine()
print(
    "engine: Enter decision median \(Int(engine.enterMedianNanoseconds)) ns (p10 \(Int(engine.enterP10)), p90 \(Int(engine.enterP90))); \(Int(engine.eventsPerSecond)) events/s"
)
writeEngineJSON(engine)
reportKeystrokes()
benchSave()
benchExport()
