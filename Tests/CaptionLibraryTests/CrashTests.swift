// Durability under fire: saving processes killed at random instants, and two processes
// saving into one library at once.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionLibrary

@Suite("Crash safety and concurrent processes")
struct CrashTests {
    @Test(
        "killing `caption --add` with SIGKILL at random instants, until 250 were killed mid-run, leaves a consistent library"
    )
    func killedSaves() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        // A photo of about a megabyte, so that copying and syncing it takes long enough to
        // be hit. Each round saves a variant never stored before (bytes after the JPEG's
        // end marker change its hash, not its pixels), so every save writes a copy; every
        // fifth round repeats an earlier variant, so the already-stored path is hit too.
        let base = Photos.jpeg(seed: 7, width: 1200, height: 900)
        func variant(_ number: Int) -> String {
            scratch.write("v\(number).jpg", base + Array("variant \(number)".utf8))
        }
        let photos = (0..<5).map(variant)
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64(UInt32.max), using: &generator)
        print("crash test seed: \(seed) (set CAPTION_CRASH_SEED to replay)")
        var random = SplitMix(
            seed: ProcessInfo.processInfo.environment["CAPTION_CRASH_SEED"].flatMap(UInt64.init) ?? seed)

        // How long one whole run takes here, so kills spread over start-up, the checks,
        // the copy, the sync and the commit.
        var durations: [UInt64] = []
        for index in 0..<5 {
            let started = DispatchTime.now().uptimeNanoseconds
            let pid = Caption.spawn([
                "--library", directory, "--add", photos[index % photos.count], "--title", "warm-up", "--subtitle", "s",
            ])
            #expect(Caption.wait(pid) == 0)
            durations.append(DispatchTime.now().uptimeNanoseconds - started)
        }
        let typical = durations.sorted()[durations.count / 2] / 1000  // microseconds

        var killed = 0
        var finished = 0
        var leftTemporary = 0
        var leftUnreferenced = 0
        var round = 0
        while killed < 250 && round < 1200 {
            defer { round += 1 }
            let photo = round % 5 == 4 ? photos[Int(random.next() % UInt64(photos.count))] : variant(100 + round)
            // Half the kills anywhere in a run; half in its last 40 %, where the photo is
            // copied and the row committed (start-up and the checks come first).
            let delay =
                round % 2 == 0
                ? UInt32(random.next() % (typical * 6 / 5 + 1))
                : UInt32(typical * 3 / 5 + random.next() % (typical * 2 / 5 + 1))
            let pid = Caption.spawn([
                "--library", directory, "--add", photo, "--title", "round \(round)", "--subtitle", "s",
            ])
            usleep(delay)
            kill(pid, SIGKILL)
            let status = Caption.wait(pid)
            if round % 5 != 4 { unlink(photo) }
            if status == 128 + SIGKILL {
                killed += 1
            } else {
                finished += 1
                #expect(status == 0)
            }
            // What this kill left for the next open to clean (only observed: whether a
            // kill lands between the copy and the commit is chance).
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/photos")) ?? []
            if files.contains(where: { $0.hasPrefix(".tmp-") }) { leftTemporary += 1 }
            let referenced = Set(
                RawDatabase(directory + "/library.sqlite3").strings("SELECT DISTINCT photo FROM entries"))
            if files.contains(where: { !$0.hasPrefix(".tmp-") && !referenced.contains("photos/" + $0) }) {
                leftUnreferenced += 1
            }
        }
        print(
            "crash test: \(killed) killed, \(finished) finished; a run takes about \(typical / 1000) ms; "
                + "\(leftTemporary) kills left a temporary file and \(leftUnreferenced) a photo without its row")
        #expect(killed >= 250, "runs killed before they finished")
        #expect(leftTemporary + leftUnreferenced > 0, "no kill landed inside a save, so the clean-up went untested")
        #expect(try consistencyProblems(directory) == [])
        // And the library still works.
        let library = try Library(directory: directory)
        let entry = try library.add(photoAt: photos[0], words: CaptionWords(title: "after", subtitle: "s"))
        #expect(try library.entries().first == entry)
        #expect(try consistencyProblems(directory) == [])
    }

    @Test("two processes each adding 100 entries to one library at the same time end with 200 entries")
    func twoProcesses() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        for process in ["a", "b"] {
            for index in 0..<100 {
                // Every tenth photo is shared by both, so they also race on the same copy.
                let seed = index % 10 == 0 ? UInt32(index + 1) : UInt32(index + (process == "a" ? 1000 : 2000))
                scratch.write("\(process)\(index).png", Photos.png(seed: seed, width: 8, height: 8))
            }
        }
        let loop = """
            i=0
            while [ $i -lt 100 ]; do
                "$0" --library "$1" --add "$2$i.png" --title "$3 $i" --subtitle s >/dev/null || exit 1
                i=$((i + 1))
            done
            """
        let children = ["a", "b"].map { name -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", loop, Caption.binary, directory, scratch.file(name), name]
            return process
        }
        for child in children { try child.run() }
        for child in children { child.waitUntilExit() }
        #expect(children.map(\.terminationStatus) == [0, 0])
        let entries = try Library(directory: directory).entries()
        #expect(entries.count == 200)
        #expect(Set(entries.map(\.title)).count == 200)
        #expect(try consistencyProblems(directory) == [])
    }
}
