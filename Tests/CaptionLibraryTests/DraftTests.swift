// The draft store: what it keeps, and that a kill at any instant leaves a whole draft.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Drafts")
struct DraftTests {
    @Test("a draft round-trips exactly, whatever was typed")
    func roundTrip() throws {
        let scratch = Scratch()
        let store = DraftStore(directory: scratch.file("lib"))
        let draft = Draft(
            items: [
                DraftItem(
                    path: "/photos/a b/港口.jpg",
                    words: CaptionWords(
                        title: "line\nbreak\ttab \\ back [x] = y; # not a comment",
                        subtitle: "%s%n <b>&amp; \u{202E}rtl 👩‍👩‍👧")),
                DraftItem(path: nil, words: CaptionWords(title: "   spaces kept   ", subtitle: "")),
            ], current: 1)
        try store.save(draft)
        #expect(store.load() == draft)
        #expect(mode(store.path) & 0o777 == 0o600)
    }

    @Test("optional fields round-trip in a draft; a draft written before them, with no key for them, still loads")
    func optionalFieldsInADraft() throws {
        let scratch = Scratch()
        let store = DraftStore(directory: scratch.file("lib"))
        var words = CaptionWords(title: "Ferry", subtitle: "")
        words[.headline] = "Gale\nwarning"
        words[.keywords] = "harbour, 港口"
        let draft = Draft(items: [DraftItem(path: "/p.jpg", words: words)], current: 0)
        try store.save(draft)
        #expect(store.load() == draft)
        // As Caption wrote drafts before the optional fields: Title and Subtitle only.
        try Data("[draft]\ncount=1\ncurrent=0\n\n[item 0]\npath=/p.jpg\ntitle=Old\nsubtitle=words\n".utf8)
            .write(to: URL(fileURLWithPath: store.path))
        #expect(
            store.load()
                == Draft(
                    items: [DraftItem(path: "/p.jpg", words: CaptionWords(title: "Old", subtitle: "words"))], current: 0
                ))
        // Without Title's key it is not a draft Caption wrote.
        try Data("[draft]\ncount=1\ncurrent=0\n\n[item 0]\nsubtitle=words\n".utf8)
            .write(to: URL(fileURLWithPath: store.path))
        #expect(store.load() == nil)
    }

    @Test("an empty draft removes the file; removing none is fine")
    func emptyRemoves() throws {
        let scratch = Scratch()
        let store = DraftStore(directory: scratch.file("lib"))
        try store.save(Draft(items: [DraftItem(path: nil, words: CaptionWords(title: "x", subtitle: ""))], current: 0))
        #expect(FileManager.default.fileExists(atPath: store.path))
        try store.save(Draft(items: [DraftItem(path: nil, words: CaptionWords(title: "", subtitle: ""))], current: 0))
        #expect(!FileManager.default.fileExists(atPath: store.path))
        try store.remove()
        #expect(store.load() == nil)
    }

    @Test(
        "a damaged draft file reads as no draft and is left alone",
        arguments: [
            "", "garbage \u{0} bytes", "[draft]\ncount=2\ncurrent=5\n", "[draft]\ncount=-1\ncurrent=0\n",
            "[draft]\ncount=1\ncurrent=0\n[item 0]\ntitle=\"unterminated\n", "[draft]\ncount=banana\n",
        ])
    func damaged(contents: String) throws {
        let scratch = Scratch()
        let store = DraftStore(directory: scratch.path)
        try contents.write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(store.load() == nil)
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == contents)
    }

    @Test("a full disk while keeping a draft gives a message, and the previous draft stays")
    func fullDisk() throws {
        let scratch = Scratch()
        let store = DraftStore(directory: scratch.path)
        let small = Draft(items: [DraftItem(path: nil, words: CaptionWords(title: "kept", subtitle: ""))], current: 0)
        try store.save(small)
        // `ulimit -f 1` (512-byte blocks) stands in for a full disk, in a child process.
        let outcome = try Caption.run([scratch.path, "--once", "10000"], shellPrefix: "ulimit -f 1;", binary: typist)
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "Not enough disk space to keep the draft: \(scratch.path)\n")
        #expect(store.load() == small)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
            $0.hasPrefix(".draft-")
        }
        #expect(leftovers.isEmpty)
    }

    var typist: String {
        URL(fileURLWithPath: Caption.binary).deletingLastPathComponent().appendingPathComponent("caption-draft-typist")
            .path
    }

    /// The typist writes draft after draft and says which it finished; killed at a random
    /// instant, the folder holds exactly the last one it finished or the one after it,
    /// whole, never a mix or a torn file.
    @Test("a draft survives 100 kill -9s of a process writing it, always whole")
    func survivesKills() throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("draft kill test seed \(seed)")
        var random = SplitMix(seed: seed)
        let scratch = Scratch()
        let store = DraftStore(directory: scratch.file("lib"))
        var restored = 0
        for round in 0..<100 {
            // posix_spawn and a pipe of the test's own, read and closed once: Foundation's
            // Process and Pipe close their descriptors twice under load (Tool.run).
            let (pid, output) = try Tool.start(typist, [store.directory])
            defer { close(output) }
            // Most rounds kill mid-stream, after the first finished write (however slowly the
            // process started, under a sanitizer say); every fifth kills at once, before any.
            var said: [UInt8] = []
            if round % 5 != 0 {
                while !said.contains(UInt8(ascii: "\n")) {
                    let chunk = Tool.readSome(output)
                    if chunk.isEmpty { break }
                    said += chunk
                }
            }
            usleep(UInt32.random(in: 0...20_000, using: &random))
            kill(pid, SIGKILL)
            _ = Caption.wait(pid)
            while case let chunk = Tool.readSome(output), !chunk.isEmpty { said += chunk }
            let acknowledged =
                String(decoding: said, as: UTF8.self).split(separator: "\n").last.flatMap { Int($0) } ?? 0
            guard let draft = store.load() else {
                #expect(acknowledged == 0, "round \(round): no draft after \(acknowledged) finished writes")
                continue
            }
            let number = draft.items.first.flatMap { Int($0.title.dropFirst(6).prefix { $0.isNumber }) } ?? -1
            #expect(
                number == acknowledged || number == acknowledged + 1,
                "round \(round): draft \(number), last finished \(acknowledged)")
            #expect(draft.items.count == 1 + number % 3, "round \(round)")
            #expect(draft.current == number % draft.items.count, "round \(round)")
            for item in draft.items {
                #expect(item.title == "typed \(number) — 港口\n[group] key=\\\(number)", "round \(round): a torn draft")
                #expect(item.subtitle == "\t\(number) 🙂 " + String(repeating: "x", count: number % 50))
            }
            restored += 1
            try store.remove()
        }
        // Loading cleared what the killed writers left half-written.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory).filter {
            $0.hasPrefix(".draft-")
        }
        #expect(leftovers.isEmpty)
        print("draft kill test: 100 kills, \(restored) drafts restored whole")
        #expect(restored >= 80, "four kills in five land after a finished write")
    }
}
