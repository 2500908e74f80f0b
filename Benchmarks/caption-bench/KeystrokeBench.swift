// The keystroke figure of make bench: a scripted session of 50 photos whose captions repeat
// names and places, typed once in full and once with completion, code replacements and
// reuse (Ctrl+D), counting keys. The typist is simulated, but over the window's own logic:
// the offers come from CompletionIndex, the codes are replaced by ReplacementTable.match as
// each key is "typed", and every assisted field is checked to end up as the caption.

import CaptionLibrary
import CaptionText
import Shorthand

#if canImport(Glibc)
    import Glibc
#endif

struct KeystrokeFigures {
    var photos: Int
    var full: Int
    var assisted: Int
    var byCompletion: Int
    var byReplacement: Int
    var byReuse: Int
    var ratio: Double { Double(assisted) / Double(full) }
}

/// A day at a bridge and a park, fifty photos: four people, four places, a few repeated
/// subtitles, as a news or event photographer's captions run.
func keystrokeScript() -> [(title: String, subtitle: String)] {
    let people = ["Maria Lopez", "Kenji Watanabe", "Aisha Okafor", "Tom Becker"]
    let places = ["Brooklyn Bridge", "Prospect Park", "Grand Army Plaza", "DUMBO waterfront"]
    let subtitles = [
        "Morning run before the marathon", "Warm-up with the team", "Crossing the finish line",
        "Interview after the race", "Spectators cheering on the course",
    ]
    var script: [(String, String)] = []
    var seed: UInt32 = 17
    func next(_ n: Int) -> Int {
        seed = seed &* 1_103_515_245 &+ 12345
        return Int((seed >> 16) % UInt32(n))
    }
    var title = ""
    var subtitle = ""
    for index in 0..<50 {
        // Runs of photos share their caption (a burst), as real sessions do.
        if index == 0 || next(3) != 0 {
            title = people[next(people.count)] + " at " + places[next(places.count)]
        }
        if index == 0 || next(2) == 0 { subtitle = subtitles[next(subtitles.count)] }
        script.append((title, subtitle))
    }
    return script
}

/// The codes such a photographer sets up for the day: one per name and place.
let keystrokeCodes = ReplacementTable([
    Replacement(code: "=ml", text: "Maria Lopez"), Replacement(code: "=kw", text: "Kenji Watanabe"),
    Replacement(code: "=ao", text: "Aisha Okafor"), Replacement(code: "=tb", text: "Tom Becker"),
    Replacement(code: "=bb", text: "Brooklyn Bridge"), Replacement(code: "=pp", text: "Prospect Park"),
    Replacement(code: "=gap", text: "Grand Army Plaza"), Replacement(code: "=dw", text: "DUMBO waterfront"),
])

enum Way { case full, completion, replacement, reuse }

/// What the typist presses: text typed, or a named key (X keysym names: Down, Return,
/// ctrl+d).
enum Step: Equatable {
    case type(String)
    case key(String)

    var keys: Int {
        switch self {
        case .type(let text): text.unicodeScalars.count
        case .key: 1
        }
    }
}

/// The fewest keys that give `value` in a field, and how: Ctrl+D when the last saved
/// caption's field is the same; else typing a prefix and picking the offer (Down to it,
/// Enter); else typing with codes where a code is shorter than its text. Enter that leaves
/// the field is counted by the caller, the same for both typists.
func cheapest(
    _ value: String, last: String?, index: CompletionIndex, codes: ReplacementTable, now: Timestamp,
    reuse: Bool = true
) -> (keys: Int, way: Way, steps: [Step]) {
    let length = value.unicodeScalars.count
    var best = (keys: length, way: Way.full, steps: [Step.type(value)])
    if reuse && value == last { return (1, .reuse, [.key("ctrl+d")]) }
    // Completion: type k characters, then Down (position + 1) times and Enter to accept.
    let scalars = Array(value.unicodeScalars)
    for k in 1..<max(1, length) {
        let typed = String(String.UnicodeScalarView(scalars[0..<k]))
        if k + 2 >= best.keys { break }
        if let position = index.offers(for: typed, now: now).firstIndex(of: value) {
            let keys = k + position + 2
            let steps = [Step.type(typed)] + Array(repeating: Step.key("Down"), count: position + 1) + [.key("Return")]
            if keys < best.keys { best = (keys, .completion, steps) }
            break
        }
    }
    let coded = typedWithCodes(value, codes: codes)
    if coded.keys.count < best.keys {
        // The codes as the field replaces them must give the value back.
        guard replay(coded.keys, codes: codes) == value else { fail("replacement replay differs for \(value)") }
        best = (coded.keys.count, .replacement, [.type(String(String.UnicodeScalarView(coded.keys)))])
    }
    return best
}

/// The keys that type `value` with a code wherever one gives a stretch of it between word
/// boundaries (dynamic programming over positions: the fewest keys).
func typedWithCodes(_ value: String, codes: ReplacementTable) -> (keys: [Unicode.Scalar], uses: Int) {
    let scalars = Array(value.unicodeScalars)
    let n = scalars.count
    var cost = [Int](repeating: Int.max, count: n + 1)
    var how: [(from: Int, code: String?)] = Array(repeating: (0, nil), count: n + 1)
    cost[0] = 0
    for i in 0..<n where cost[i] != Int.max {
        if cost[i] + 1 < cost[i + 1] {
            cost[i + 1] = cost[i] + 1
            how[i + 1] = (i, nil)
        }
        // A code may start at the start or after a boundary, and must end at the end or
        // before a boundary (which then replaces it).
        guard i == 0 || ReplacementTable.ends(scalars[i - 1]) else { continue }
        for row in codes.rows {
            let text = Array(row.text.unicodeScalars)
            let end = i + text.count
            guard end <= n, Array(scalars[i..<end]) == text, end == n || ReplacementTable.ends(scalars[end]) else {
                continue
            }
            let keys = cost[i] + row.code.unicodeScalars.count
            if keys < cost[end] {
                cost[end] = keys
                how[end] = (i, row.code)
            }
        }
    }
    var keys: [Unicode.Scalar] = []
    var uses = 0
    var at = n
    while at > 0 {
        let step = how[at]
        if let code = step.code {
            keys.insert(contentsOf: code.unicodeScalars, at: 0)
            uses += 1
        } else {
            keys.insert(scalars[at - 1], at: 0)
        }
        at = step.from
    }
    return (keys, uses)
}

/// Types `keys` into an empty field as the window does: after each key that ends a code,
/// the code before it is replaced; Enter at the end replaces a code there too.
func replay(_ keys: [Unicode.Scalar], codes: ReplacementTable) -> String {
    var field = ""
    for key in keys {
        if ReplacementTable.ends(key) {
            let end = field.unicodeScalars.count
            if let match = codes.match(in: field, endingAt: end) { field = match.applied(to: field) }
        }
        field.unicodeScalars.append(key)
    }
    if let match = codes.match(in: field, endingAt: field.unicodeScalars.count) { field = match.applied(to: field) }
    return field
}

/// The session, counted; with `reuse` false, without Ctrl+D (completion and codes alone).
/// `plan` receives each photo's steps, Enter included, for the end-to-end check.
func benchKeystrokes(
    reuse: Bool = true, plan: ((_ caption: (String, String), [Step]) -> Void)? = nil
)
    -> KeystrokeFigures
{
    let script = keystrokeScript()
    var titles = CompletionIndex()
    var subtitles = CompletionIndex()
    var figures = KeystrokeFigures(
        photos: script.count, full: 0, assisted: 0, byCompletion: 0, byReplacement: 0, byReuse: 0)
    var last: (title: String, subtitle: String)?
    var clock: Int64 = 1_700_000_000_000
    for caption in script {
        let now = Timestamp(millisecondsSince1970: clock)
        // Both typists press Enter after the title (Next) and after the subtitle (Done).
        figures.full += caption.title.unicodeScalars.count + caption.subtitle.unicodeScalars.count + 2
        var keys = 2
        var steps: [Step] = []
        for (value, previous, index) in [
            (caption.title, last?.title, titles), (caption.subtitle, last?.subtitle, subtitles),
        ] {
            let way = cheapest(value, last: previous, index: index, codes: keystrokeCodes, now: now, reuse: reuse)
            keys += way.keys
            steps += way.steps + [.key("Return")]
            switch way.way {
            case .completion: figures.byCompletion += 1
            case .replacement: figures.byReplacement += 1
            case .reuse: figures.byReuse += 1
            case .full: break
            }
        }
        figures.assisted += keys
        plan?(caption, steps)
        titles.record(caption.title, at: now)
        subtitles.record(caption.subtitle, at: now)
        last = caption
        clock += 60_000
    }
    return figures
}

func reportKeystrokes() {
    let figures = benchKeystrokes()
    let percent = (figures.ratio * 1000).rounded() / 10
    print(
        "keystrokes: \(figures.photos) photos, \(figures.assisted) keys with completion, codes and Ctrl+D against \(figures.full) typed in full: \(percent) % (target ≤ 60 %); fields by completion \(figures.byCompletion), by codes \(figures.byReplacement), by Ctrl+D \(figures.byReuse)"
    )
    let alone = benchKeystrokes(reuse: false)
    print(
        "keystrokes without Ctrl+D: \(alone.assisted) of \(alone.full), \((alone.ratio * 1000).rounded() / 10) %; fields by completion \(alone.byCompletion), by codes \(alone.byReplacement)"
    )
    let json = """
        {"photos": \(figures.photos), "full": \(figures.full), "assisted": \(figures.assisted), \
        "ratio": \(figures.ratio), "byCompletion": \(figures.byCompletion), \
        "byReplacement": \(figures.byReplacement), "byReuse": \(figures.byReuse), \
        "withoutReuse": {"assisted": \(alone.assisted), "ratio": \(alone.ratio)}}

        """
    if let file = fopen(".build/bench/keystrokes.json", "w") {
        fputs(json, file)
        fclose(file)
    }
}

/// `caption-bench keystrokes --plan COUNT`: the first COUNT photos' captions and the keys
/// the simulated typist presses for them (without Ctrl+D, which this window may lack), one
/// JSON object a line, codes first: what Tests/e2e types into the real window.
func printKeystrokePlan(photos: Int) {
    func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
    let codes = keystrokeCodes.rows.map { "[\(quoted($0.code)), \(quoted($0.text))]" }.joined(separator: ", ")
    print("{\"codes\": [\(codes)]}")
    var printed = 0
    _ = benchKeystrokes(reuse: false) { caption, steps in
        guard printed < photos else { return }
        printed += 1
        let list = steps.map { step -> String in
            switch step {
            case .type(let text): "[\"type\", \(quoted(text))]"
            case .key(let name): "[\"key\", \(quoted(name))]"
            }
        }.joined(separator: ", ")
        let keys = steps.reduce(0) { $0 + $1.keys }
        print(
            "{\"title\": \(quoted(caption.0)), \"subtitle\": \(quoted(caption.1)), \"keys\": \(keys), \"full\": \(caption.0.unicodeScalars.count + caption.1.unicodeScalars.count + 2), \"steps\": [\(list)]}"
        )
    }
}
