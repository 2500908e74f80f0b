// caption --export: the library's photos written into a folder with their captions.

import CaptionLibrary
import CaptionMetadata
import Localization

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    /// Exit status of an export stopped by Ctrl+C (SIGINT): 128 + 2, as a shell reports a
    /// program killed by it, though this one stopped cleanly.
    public static let interruptedStatus: Int32 = 130

    /// One line on standard output per photo written; a missing entry number stops the
    /// export before anything is written, a folder that cannot take the photos at the
    /// first one that fails (exit 1, one line on standard error). A photo the library
    /// cannot give is named on standard error and passed over; the rest are exported, and
    /// the exit status is 1. The whole library is
    /// read a page at a time (memory stays flat). When standard error is a terminal it
    /// shows "Exporting 1,234 of 100,001" as the export goes; otherwise nothing extra.
    /// Ctrl+C stops before the next photo: every photo is then whole or not written, and
    /// the exit status is 130.
    static func export(library: String?, folder: String, ids: [Int64], into destination: CaptionDestination) -> Int32 {
        let progress = WorkProgress()
        let terminal = TerminalProgress(enabled: isatty(2) == 1, progress: progress, label: tr("Exporting {progress}"))
        let interruption = Interruption.catch()
        defer { interruption.restore() }
        do {
            let opened = try openForReading(library)
            let report = { (photo: ExportedPhoto) in
                terminal.clear()
                var values = ["id": String(photo.entryID), "photo": photo.photoPath]
                if let sidecarPath = photo.sidecarPath {
                    values["sidecar"] = sidecarPath
                    Console.out(fill(tr("Exported entry {id}: {photo} and {sidecar}"), values) + "\n")
                } else {
                    Console.out(fill(tr("Exported entry {id}: {photo}"), values) + "\n")
                }
                if photo.couldNotEmbed {
                    Console.error(
                        fill(
                            tr("the caption of entry {id} could not be written into the photo; it is in {sidecar}"),
                            values))
                }
                // Checked after each photo is placed, so the next one is never started.
                if interruption.isRequested { progress.cancel() }
                terminal.update()
            }
            let missing = { (_: Int64, problem: LibraryError) in
                terminal.clear()
                Console.error(problem.message)
                terminal.update()
            }
            let summary: Exporter.Summary
            if ids.isEmpty {
                summary = try Exporter.exportAll(
                    from: opened, to: folder, into: destination, progress: progress,
                    exported: report,
                    missing: missing)
                if summary.total == 0 {
                    Console.out(tr("The library is empty; there is nothing to export.") + "\n")
                    return 0
                }
            } else {
                guard let entries = try entries(ids, in: opened) else { return 1 }
                var skipped: [(id: Int64, problem: LibraryError)] = []
                let placed = try Exporter.export(
                    entries, from: opened, to: folder, into: destination,
                    progress: progress, exported: report,
                    missing: { id, problem in
                        skipped.append((id, problem))
                        missing(id, problem)
                    })
                summary = Exporter.Summary(
                    exported: placed.count, total: entries.count,
                    cancelled: progress.isCancelled && placed.count + skipped.count < entries.count, missing: skipped)
            }
            terminal.clear()
            if summary.cancelled {
                Console.error(
                    tr("export stopped: {progress} photos exported; the others were not written")
                        .replacing(
                            "{progress}", with: WorkProgress.text(completed: summary.exported, total: summary.total)))
                return interruptedStatus
            }
            if !summary.missing.isEmpty {
                Console.error(
                    fill(
                        tr("{count} of {total} photos could not be exported; the others are in {folder}"),
                        [
                            "count": String(summary.missing.count), "total": String(summary.total),
                            "folder": folder,
                        ]))
                return 1
            }
            return 0
        } catch {
            terminal.clear()
            Console.error(error.message)
            return 1
        }
    }
}

extension Commands {
    /// The entries numbered `ids`, in that order; nil, with the first number missing said
    /// on standard error, when the library has not every one.
    static func entries(_ ids: [Int64], in library: Library) throws(LibraryError) -> [Entry]? {
        var entries: [Entry] = []
        for id in ids {
            guard let entry = try library.entry(id: id) else {
                Console.error(tr("There is no entry {id} in the library").replacing("{id}", with: String(id)))
                return nil
            }
            entries.append(entry)
        }
        return entries
    }
}

/// "Exporting 1,234 of 100,001" (or another label's words) on standard error, rewritten in
/// place at most ten times a second, only when standard error is a terminal (so logs and pipes get nothing extra),
/// and erased before anything else is printed and at the end.
final class TerminalProgress {
    private let enabled: Bool
    private let progress: WorkProgress
    /// What is being done, with `{progress}` where "1,234 of 100,001" goes.
    private let label: String
    private var shown = false
    private var last = 0.0

    init(enabled: Bool, progress: WorkProgress, label: String) {
        self.enabled = enabled
        self.progress = progress
        self.label = label
    }

    func update() {
        guard enabled else { return }
        let now = TerminalProgress.seconds()
        guard now - last >= 0.1 else { return }
        last = now
        shown = true
        Console.errorText("\r" + label.replacing("{progress}", with: progress.text) + "\u{1B}[K")
    }

    func clear() {
        guard enabled, shown else { return }
        shown = false
        Console.errorText("\r\u{1B}[K")
    }

    private static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
