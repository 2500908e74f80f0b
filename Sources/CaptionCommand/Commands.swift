// The commands that need no window: --add, --list, --remove (--export has its own file).

import CaptionLibrary
import CaptionMetadata
import FocusEngine
import Localization

public enum Commands {
    /// Runs a windowless request; returns the exit status: 0 done, 1 the input or the
    /// library is at fault (one line each on standard error), 2 not a windowless request.
    public static func run(_ request: Request) -> Int32 {
        switch request {
        case .add(let library, let photo, let title, let subtitle):
            // What is not given comes from the photo's XMP, as the window fills its form;
            // an option given, even empty, wins.
            let carried = title == nil || subtitle == nil ? PhotoMetadata.read(photo) : .none
            return add(library: library, photo: photo, title: title ?? carried.title ?? "",
                       subtitle: subtitle ?? carried.description ?? "")
        case .list(let library, let json):
            return list(library: library, json: json)
        case .remove(let library, let id):
            return remove(library: library, id: id)
        case .export(let library, let folder, let ids, let sidecar):
            return export(library: library, folder: folder, ids: ids, sidecar: sidecar)
        case .window, .help, .version:
            Console.error(tr("this request needs the window, not a command"))
            return 2
        }
    }

    /// The form's own rules decide, as in the window: the photo's state comes from loading
    /// it (read once, fully checked), and a rejected form prints the summary the window
    /// would show, one line each.
    static func add(library: String?, photo: String, title: String, subtitle: String) -> Int32 {
        var engine = CaptionForm.engine(Wording(translate: { tr($0) }))
        _ = engine.handle(.edit(item: CaptionForm.title, text: title))
        _ = engine.handle(.edit(item: CaptionForm.subtitle, text: subtitle))
        var loaded: LoadedPhoto?
        let state: PhotoState
        if photo.isEmpty {
            state = .empty
        } else {
            do {
                loaded = try PhotoInspector.load(photo)
                state = .loaded
            } catch {
                state = .failed(message: error.message)
            }
        }
        _ = engine.handle(.photo(item: CaptionForm.photo, state))

        switch engine.handle(.submit) {
        case .save(let submission):
            guard let loaded else { break }  // the engine saves only with a loaded photo
            do {
                let entry = try open(library).add(loaded, title: submission.values[CaptionForm.title],
                                                  subtitle: submission.values[CaptionForm.subtitle])
                Console.out(tr("Saved entry {id}").replacing("{id}", with: String(entry.id)) + "\n")
                return 0
            } catch {
                Console.error(error.message)
                return 1
            }
        default:
            break
        }
        let summary = engine.summary ?? tr("The entry is not complete")
        for line in summary.split(separator: "\n") { Console.error(String(line)) }
        return 1
    }

    /// Streams the entries as they are read from the library (newest first): memory stays
    /// flat however many there are, and the first line comes at once.
    static func list(library: String?, json: Bool) -> Int32 {
        do {
            let opened = try open(library)
            var output = Console.Buffer()
            if json {
                try JSON.write(opened, to: &output)
            } else {
                try table(opened, to: &output)
            }
            output.flush()
            return 0
        } catch {
            Console.error(error.message)
            return 1
        }
    }

    static func remove(library: String?, id: Int64) -> Int32 {
        do {
            let entry = try open(library).remove(id: id)
            Console.out(tr("Removed entry {id}").replacing("{id}", with: String(entry.id)) + "\n")
            return 0
        } catch {
            Console.error(error.message)
            return 1
        }
    }

    static func open(_ library: String?) throws(LibraryError) -> Library {
        try Library(directory: library ?? Library.defaultDirectory())
    }

    /// Number, title and subtitle in columns, newest first. Widths count characters as
    /// people do (grapheme clusters); East Asian wide characters may still misalign, which
    /// a terminal table cannot know without a width table. Two passes over the library: the
    /// widths first (titles only), then the rows as they are read.
    static func table(_ library: Library, to output: inout Console.Buffer) throws(LibraryError) {
        let idHeader = tr("ID"), titleHeader = tr("Title"), subtitleHeader = tr("Subtitle")
        guard try library.newestCursor() != nil else {
            output.append(tr("The library is empty.") + "\n")
            return
        }
        let largest = try library.largestID()
        var widest = titleHeader.count
        try library.forEachTitle { title in
            widest = max(widest, title.count)
            return widest < 60
        }
        let idWidth = max(idHeader.count, String(largest).count)
        let titleWidth = min(60, widest)
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        output.append(pad(idHeader, idWidth, right: true) + "  " + pad(titleHeader, titleWidth) + "  " + subtitleHeader + "\n")
        try library.forEachEntry { entry in
            output.append(pad(String(entry.id), idWidth, right: true) + "  " + pad(entry.title, titleWidth) + "  " + entry.subtitle + "\n")
            return true
        }
    }
}

/// JSON without Foundation: the entries as an array of objects, strings escaped per RFC 8259.
/// An entry whose photo path is not one of the library's own files has "photo": null.
enum JSON {
    /// The whole library as one JSON array, written an element at a time as the rows are
    /// read: `[]` when empty, else one object per line.
    static func write(_ library: Library, to output: inout Console.Buffer) throws(LibraryError) {
        var first = true
        try library.forEachEntry { entry in
            output.append(first ? "[\n" : ",\n")
            first = false
            output.append(object(entry, library: library))
            return true
        }
        output.append(first ? "[]\n" : "\n]\n")
    }

    static func object(_ entry: Entry, library: Library) -> String {
        "  {\"id\": \(entry.id), \"title\": \(string(entry.title)), \"subtitle\": \(string(entry.subtitle)), "
            + "\"photo\": \(library.photoPath(of: entry).map(string) ?? "null"), \"width\": \(entry.width), "
            + "\"height\": \(entry.height), \"originalName\": \(string(entry.originalName)), "
            + "\"created\": \(string(entry.created.iso8601)), \"updated\": \(string(entry.updated.iso8601))}"
    }

    /// A quoted JSON string. Non-ASCII text stays UTF-8; control characters, quotes and
    /// backslashes are escaped, and so are U+2028 and U+2029, which JavaScript once
    /// treated as line ends.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{2028}", "\u{2029}":
                result += "\\u" + String(scalar.value, radix: 16)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
