// caption --export: the library's photos written into a folder with their captions.

import CaptionLibrary
import CaptionMetadata
import Localization

extension Commands {
    /// One line on standard output per photo written; a missing entry number stops the
    /// export before anything is written, a folder that cannot take the photos at the
    /// first one that fails (exit 1, one line on standard error).
    static func export(library: String?, folder: String, ids: [Int64], sidecar: Bool) -> Int32 {
        do {
            let opened = try open(library)
            var entries: [Entry] = []
            if ids.isEmpty {
                // Oldest first, so that the first photo with a title gets its plain name.
                entries = try opened.entries().reversed()
            } else {
                for id in ids {
                    guard let entry = try opened.entry(id: id) else {
                        Console.error(tr("There is no entry {id} in the library").replacing("{id}", with: String(id)))
                        return 1
                    }
                    entries.append(entry)
                }
            }
            guard !entries.isEmpty else {
                Console.out(tr("The library is empty; there is nothing to export.") + "\n")
                return 0
            }
            try Exporter.export(entries, from: opened, to: folder, sidecars: sidecar) { photo in
                var values = ["id": String(photo.entryID), "photo": photo.photoPath]
                if let sidecarPath = photo.sidecarPath {
                    values["sidecar"] = sidecarPath
                    Console.out(fill(tr("Exported entry {id}: {photo} and {sidecar}"), values) + "\n")
                } else {
                    Console.out(fill(tr("Exported entry {id}: {photo}"), values) + "\n")
                }
                if photo.couldNotEmbed {
                    Console.error(fill(tr("the caption of entry {id} could not be written into the photo; it is in {sidecar}"), values))
                }
            }
            return 0
        } catch {
            Console.error(error.message)
            return 1
        }
    }

    /// `{key}` replaced in one pass, so that a file name holding "{sidecar}" stays as it is.
    private static func fill(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let key = String(rest[rest.index(after: open)..<close])
            result += rest[..<open] + (values[key] ?? String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
