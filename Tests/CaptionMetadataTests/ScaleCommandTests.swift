// The command line at a photographer's scale: --list --json streamed as one valid document
// in flat memory, and --export and --write-back showing progress on a terminal (only
// there) and stopping cleanly at Ctrl+C or a cancel, every file whole or not written.

@_spi(Benchmarks) import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionMetadata

@Suite("Command line at scale", .serialized)
struct ScaleCommandTests {
    /// A library of `count` entries sharing one JPEG, made through the bulk path.
    func library(
        _ scratch: Scratch, count: Int, captions: (@Sendable (Int) -> CaptionWords)? = nil
    ) throws -> String {
        let directory = scratch.file("library-\(count)")
        let library = try Library(directory: directory)
        let photo = try Photos.file(.jpeg, in: scratch)
        let first = try library.add(photoAt: photo, words: CaptionWords(title: "Harbour", subtitle: "Boats"))
        try library.insertCopies(of: first, count: count - 1, caption: captions)
        return directory
    }

    @Test("--list --json over thousands of entries with hostile text is one valid JSON document, newest first")
    func listJSONIsOneValidDocument() throws {
        let scratch = Scratch()
        let hostile = [
            "\"quoted\" \\ back", "tab\there", "ctl\u{01}\u{1F}\u{7F}", "line\u{2028}sep\u{2029}", "港口 🌊", "</script>",
            "{\"a\": [1,",
        ]
        let directory = try library(scratch, count: 3_000) { index in
            CaptionWords(
                title: hostile[index % hostile.count] + " \(index)", subtitle: hostile[(index + 3) % hostile.count])
        }
        let outcome = try Caption.run(["--library", directory, "--list", "--json"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let parsed = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
        let objects = try #require(parsed as? [[String: Any]])
        #expect(objects.count == 3_000)
        let stored = try Library(directory: directory).entries()
        #expect(objects.compactMap { $0["id"] as? Int }.map(Int64.init) == stored.map(\.id))
        #expect(objects.compactMap { $0["title"] as? String } == stored.map(\.title), "every string survives escaping")
    }

    /// Peak RSS in KiB of `caption ARGUMENTS` with its output thrown away, from wait4.
    func peakKiB(_ arguments: [String]) throws -> Int {
        let script =
            "import os, subprocess, sys\n"
            + "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
            + "_, status, usage = os.wait4(p.pid, 0)\n"
            + "print(usage.ru_maxrss if status == 0 else -1)\n"
        let outcome = try Tool.run("/usr/bin/python3", ["-c", script, Caption.binary] + arguments)
        return Int(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("--list --json and --list take the same memory for 20,000 entries as for 2,000 (within 3 MiB)")
    func listMemoryIsFlat() throws {
        let scratch = Scratch()
        let small = try library(scratch, count: 2_000)
        let large = try library(scratch, count: 20_000)
        for arguments in [["--list", "--json"], ["--list"]] {
            let smallKiB = try peakKiB(["--library", small] + arguments)
            let largeKiB = try peakKiB(["--library", large] + arguments)
            #expect(smallKiB > 0 && largeKiB > 0)
            #expect(
                largeKiB - smallKiB < 3 * 1024, "\(arguments): \(smallKiB) KiB for 2,000, \(largeKiB) KiB for 20,000")
        }
    }

    /// Runs caption with standard error on a pseudo-terminal (Python's pty module);
    /// returns the status and what the terminal received.
    func runOnTerminal(_ arguments: [String]) throws -> (status: Int32, terminal: String) {
        let script =
            "import os, pty, subprocess, sys\n"
            + "master, slave = pty.openpty()\n"
            + "p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)\n"
            + "os.close(slave)\n"
            + "data = b''\n"
            + "while True:\n"
            + "    try:\n"
            + "        chunk = os.read(master, 65536)\n"
            + "    except OSError:\n"
            + "        break\n"
            + "    if not chunk:\n"
            + "        break\n"
            + "    data += chunk\n"
            + "sys.stdout.buffer.write(data)\n"
            + "sys.exit(p.wait())\n"
        let outcome = try Tool.run("/usr/bin/python3", ["-c", script, Caption.binary] + arguments)
        return (outcome.status, outcome.stdout)
    }

    @Test("--export shows “Exporting N of TOTAL” on stderr when it is a terminal, and erases it at the end")
    func exportShowsProgressOnATerminal() throws {
        let scratch = Scratch()
        let directory = try library(scratch, count: 300)
        let (status, terminal) = try runOnTerminal(["--library", directory, "--export", scratch.file("out")])
        #expect(status == 0)
        #expect(terminal.contains("Exporting 1 of 300"), "the first photo shows at once: \(terminal.debugDescription)")
        #expect(terminal.hasSuffix("\r\u{1B}[K"), "the line is erased at the end")
        #expect(scratch.names(in: scratch.file("out")).count == 300)
    }

    @Test("--export prints nothing extra when stderr is not a terminal")
    func exportIsQuietOffATerminal() throws {
        let scratch = Scratch()
        let directory = try library(scratch, count: 50)
        let outcome = try Caption.run(["--library", directory, "--export", scratch.file("out")])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(outcome.stdout.split(separator: "\n").count == 50)
    }

    /// Runs caption with ARGUMENTS and gives it SIGINT once it has printed its first line
    /// on standard output; returns the finished process, all it printed, and its stderr.
    /// Through Python, which gives caption SIGINT as a terminal's shell would (default
    /// action, unblocked; the test runner may have changed both) and then becomes it.
    func interruptAfterFirstLine(_ arguments: [String]) throws -> (Process, Data, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [
                "-c",
                "import os, signal, sys\n"
                    + "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
                    + "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])\n"
                    + "os.execv(sys.argv[1], sys.argv[1:])\n",
                Caption.binary,
            ] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANGUAGE"] = "C"
        environment["LC_ALL"] = "C.UTF-8"
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += chunk
        }
        process.interrupt()
        printed += stdout.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process, printed, complaint)
    }

    @Test(
        "Ctrl+C (SIGINT) stops --export before the next photo: exit 130, every photo written whole, the rest not at all"
    )
    func interruptStopsTheExportCleanly() throws {
        let scratch = Scratch()
        let count = 2_000
        let directory = try library(scratch, count: count)
        let out = scratch.file("out")
        let (process, printed, complaint) = try interruptAfterFirstLine(["--library", directory, "--export", out])
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
        #expect(lines.count >= 1 && lines.count < count, "stopped part-way: \(lines.count) of \(count)")
        #expect(complaint.hasPrefix("caption: export stopped: \(lines.count) of 2,000 photos exported"), "\(complaint)")
        let names = scratch.names(in: out)
        #expect(names.count == lines.count, "exactly the photos reported, and no temporary file")
        #expect(!names.contains { $0.hasPrefix(".") })
        let original = Photos.bytes(
            try Library(directory: directory).photoPath(of: try Library(directory: directory).entries().first!)!)
        for name in names {
            let size = (try? FileManager.default.attributesOfItem(atPath: out + "/" + name)[.size] as? Int) ?? 0
            #expect(size > original.count / 2, "\(name) is whole")
            #expect(PhotoMetadata.read(out + "/" + name)[.title] != nil, "\(name) carries its caption")
        }
    }

    /// A library of `count` entries, each from a JPEG of its own in `scratch` that it
    /// knows as its source (as `--add` records it).
    func libraryWithSources(_ scratch: Scratch, count: Int) throws -> (directory: String, photos: [String]) {
        let directory = scratch.file("sourced-\(count)")
        let library = try Library(directory: directory)
        var photos: [String] = []
        for index in 0..<count {
            let photo = try Photos.file(.jpeg, in: scratch, name: "source-\(index).jpg", seed: UInt32(index + 1))
            let entry = try library.add(
                photoAt: photo, words: CaptionWords(title: "Title \(index)", subtitle: "Subtitle \(index)"))
            try library.setSource(id: entry.id, path: photo, sha256: Photos.sha256(ofFile: photo))
            photos.append(photo)
        }
        return (directory, photos)
    }

    @Test("--write-back shows “Writing captions N of TOTAL” on stderr when it is a terminal, and erases it")
    func writeBackShowsProgressOnATerminal() throws {
        let scratch = Scratch()
        let (directory, photos) = try libraryWithSources(scratch, count: 30)
        let (status, terminal) = try runOnTerminal(["--library", directory, "--write-back", "--sidecar"])
        #expect(status == 0)
        #expect(terminal.contains("Writing captions 1 of 30"), "\(terminal.debugDescription)")
        #expect(terminal.hasSuffix("\r\u{1B}[K"), "the line is erased at the end")
        #expect(photos.allSatisfy { FileManager.default.fileExists(atPath: $0 + ".xmp") })
        let quiet = try Caption.run(["--library", directory, "--write-back", "--sidecar"])
        #expect(quiet.status == 0 && quiet.stderr == "", "nothing extra off a terminal: \(quiet.stderr)")
    }

    @Test("Ctrl+C (SIGINT) stops --write-back before the next photo: exit 130, every photo captioned or untouched")
    func interruptStopsTheWriteBackCleanly() throws {
        let scratch = Scratch()
        let count = 300
        let (directory, photos) = try libraryWithSources(scratch, count: count)
        let before = photos.map { Photos.sha256(ofFile: $0) }
        let (process, printed, complaint) = try interruptAfterFirstLine(["--library", directory, "--write-back"])
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
        #expect(lines.count >= 1 && lines.count < count, "stopped part-way: \(lines.count) of \(count)")
        #expect(
            complaint.hasPrefix("caption: write-back stopped: \(lines.count) of \(count) captions written"),
            "\(complaint)")
        // Oldest first: the photos reported carry their words, every other one is as it was.
        for (index, photo) in photos.enumerated() {
            if index < lines.count {
                #expect(lines[index] == "Wrote entry \(index + 1) into \(photo)")
                #expect(
                    PhotoMetadata.read(photo)
                        == PhotoCaption(CaptionWords(title: "Title \(index)", subtitle: "Subtitle \(index)"))
                )
            } else {
                #expect(Photos.sha256(ofFile: photo) == before[index], "\(photo) untouched")
            }
        }
        #expect(!scratch.names(in: scratch.path).contains { $0.hasPrefix(".") }, "no temporary file left")
    }

    @Test("a cancelled export stops before the next photo and reports how far it came")
    func cancelledExportLeavesEveryFileDoneOrUntouched() throws {
        let scratch = Scratch()
        let directory = try library(scratch, count: 40)
        let library = try Library(directory: directory)
        let progress = WorkProgress()
        let out = scratch.file("out")
        let summary = try Exporter.exportAll(from: library, to: out, into: .photo, progress: progress) { _ in
            if progress.completed == 7 { progress.cancel() }
        }
        #expect(summary == Exporter.Summary(exported: 7, total: 40, cancelled: true))
        #expect(scratch.names(in: out).count == 7)
        #expect(!scratch.names(in: out).contains { $0.hasPrefix(".") })
        #expect(progress.text == "7 of 40")

        let again = WorkProgress()
        let whole = try Exporter.exportAll(from: library, to: scratch.file("all"), into: .sidecar, progress: again)
        #expect(whole == Exporter.Summary(exported: 40, total: 40, cancelled: false))
        #expect(scratch.names(in: scratch.file("all")).count == 80, "40 photos and 40 sidecars")
    }
}
