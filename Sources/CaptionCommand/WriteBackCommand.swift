// --add --in-place / --sidecar and --write-back: saved captions into the photo files they
// came from, or into sidecars beside them, one line each for what was done or skipped.

import CaptionLibrary
import CaptionMetadata
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    enum WriteOutcome: Equatable {
        case written
        /// Gone or changed since: said in one line, not an error of the run.
        case skipped
        case failed
    }

    /// Writes every entry of `ids` (or every entry that has a source) back. Exit status 0
    /// when each was written or skipped (a photo gone, or changed since Caption read it,
    /// is left alone: one line each on stderr); 1 when one could not be written, or an
    /// entry named has no source or does not exist. When standard error is a terminal it
    /// shows "Writing captions 1,234 of 100,001" as it goes; Ctrl+C stops before the next
    /// photo (each is written through a temporary file and a rename: whole or untouched),
    /// with exit status 130.
    static func writeBack(library: String?, ids: [Int64], into: CaptionDestination) -> Int32 {
        do {
            let opened = try open(library)
            var status: Int32 = 0
            var entries: [Entry] = []
            if ids.isEmpty {
                try opened.forEachEntry(.oldestFirst) { entry in
                    if entry.source != nil { entries.append(entry) }
                    return true
                }
                if entries.isEmpty { Console.error(tr("No saved caption knows its photo file; nothing to write")) }
            }
            for id in ids {
                guard let entry = try opened.entry(id: id) else {
                    Console.error(tr("There is no entry {id} in the library").replacing("{id}", with: String(id)))
                    status = 1
                    continue
                }
                guard entry.source != nil else {
                    Console.error(
                        tr("Entry {id} does not know its photo file (saved before Caption remembered it)")
                            .replacing("{id}", with: String(id)))
                    status = 1
                    continue
                }
                entries.append(entry)
            }
            let progress = WorkProgress(total: entries.count)
            let terminal = TerminalProgress(
                enabled: isatty(2) == 1, progress: progress, label: tr("Writing captions {progress}"))
            let interruption = Interruption.catch()
            defer { interruption.restore() }
            for entry in entries {
                if interruption.isRequested {
                    terminal.clear()
                    Console.error(
                        tr(
                            "write-back stopped: {progress} captions written or skipped; the other photos were not touched"
                        )
                        .replacing("{progress}", with: progress.text))
                    return interruptedStatus
                }
                terminal.clear()
                if write(entry, into: into, library: opened, say: { Console.error($0) }) == .failed { status = 1 }
                progress.advance()
                terminal.update()
            }
            terminal.clear()
            return status
        } catch {
            Console.error(error.message)
            return 1
        }
    }

    /// One entry's caption into its source, or beside it. A format that cannot hold the
    /// caption inside gets the sidecar, and the line says so. A failure says what went
    /// wrong, that the library still has the caption, and how to put it in a sidecar.
    static func write(
        _ entry: Entry, into: CaptionDestination, library: Library, say: (String) -> Void
    ) -> WriteOutcome {
        guard let source = entry.source else { return .failed }
        let caption = entry.words
        let id = String(entry.id)
        // A photo gone, or not what Caption read, is skipped: a sidecar beside another
        // photo, or words in it, would be wrong.
        var info = stat()
        if lstat(source, &info) != 0 {
            say(fill(tr("Skipped entry {id}: the photo is no longer there: {path}"), ["id": id, "path": source]))
            return .skipped
        }
        do throws(WriteBackError) {
            let result = try WriteBack.write(
                caption, credits: entry.credits, source: source, expectedSHA256: entry.sourceSHA256, to: into,
                library: library)
            if into == .photo && !result.sidecarInstead {
                _ = try? library.setSource(id: entry.id, path: source, sha256: result.sha256)
            }
            let paths = result.paths.joined(separator: ", ")
            let line =
                result.sidecarInstead
                ? tr("Wrote entry {id} into {path} (this photo cannot hold the caption inside)")
                : tr("Wrote entry {id} into {path}")
            Console.out(fill(line, ["id": id, "path": paths]) + "\n")
            return .written
        } catch {
            if error.kind == .changed {
                say(
                    fill(
                        tr("Skipped entry {id}: the photo was changed since Caption read it: {path}"),
                        ["id": id, "path": source]))
                return .skipped
            }
            say(error.message)
            var advice = tr("The caption of entry {id} is saved in the library.")
            if into == .photo && error.sidecarMayHelp {
                advice +=
                    " "
                    + tr("To put it in a sidecar beside the photo instead: caption --write-back --sidecar --id {id}")
            }
            say(fill(advice, ["id": id]))
            return .failed
        }
    }
}

/// Photo paths as the library keeps them.
enum SourcePath {
    /// `path` made absolute through its folder's real path; the file name itself is kept
    /// as given, so that a symbolic link stays a link (and is refused when written).
    static func absolute(_ path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, let base = realpath(folder) else { return nil }
        return (base == "/" ? "" : base) + "/" + name
    }

}
