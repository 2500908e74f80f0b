// A stand-in for a person typing as fast as a machine can: writes draft after draft into a
// library folder and acknowledges each on stdout, until it is killed.
// Usage: caption-draft-typist LIBRARY_DIR           (until killed)
//        caption-draft-typist LIBRARY_DIR --once N  (one draft with an N-character title;
//                                                     prints "ok" or the error's message)

import CaptionLibrary
import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

/// Draft number `n`: every field carries n, so a test can tell a whole draft from a mix of
/// two. Text with what a key file must escape, and the item count varies.
func draft(_ n: Int) -> Draft {
    let items = (0...(n % 3)).map { index in
        DraftItem(
            path: index == 2 ? nil : "/photos/\(n)/photo \(index).jpg",
            words: CaptionWords(
                title: "typed \(n) — 港口\n[group] key=\\\(n)",
                subtitle: "\t\(n) 🙂 " + String(repeating: "x", count: n % 50)))
    }
    return Draft(items: items, current: n % items.count)
}

/// One line straight to the pipe: stdio would buffer it, and a kill would lose the line.
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--once") else {
    say("usage: caption-draft-typist LIBRARY_DIR [--once LENGTH]")
    exit(2)
}
let store = DraftStore(directory: arguments[1])
if arguments.count == 4 {
    // A write past `ulimit -f` must come back as an error, not kill the process.
    signal(SIGXFSZ, SIG_IGN)
    let title = String(repeating: "x", count: Int(arguments[3]) ?? 0)
    do {
        try store.save(
            Draft(items: [DraftItem(path: nil, words: CaptionWords(title: title, subtitle: ""))], current: 0))
        say("ok")
    } catch {
        say(error.message)
        exit(1)
    }
    exit(0)
}
for n in 1...1_000_000 {
    do {
        try store.save(draft(n))
    } catch {
        say("error \(error.message)")
        exit(1)
    }
    say(String(n))
}
