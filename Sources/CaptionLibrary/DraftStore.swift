// The draft: what the user typed and the photos chosen but not yet saved, kept in the
// library folder so that a crash, a kill or a power cut costs nothing typed.

import CaptionText
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// One photo of the draft (or, with no path, words typed before any photo was chosen). Its
/// words read as its own (`item.title`).
@dynamicMemberLookup
public struct DraftItem: Sendable, Equatable {
    public var path: String?
    public var words: CaptionWords

    public init(path: String?, words: CaptionWords) {
        self.path = path
        self.words = words
    }

    public subscript(dynamicMember field: KeyPath<CaptionWords, String>) -> String { words[keyPath: field] }
}

/// The unsaved state of the form: its queue of photos with their words, and which one is
/// on the form.
public struct Draft: Sendable, Equatable {
    public var items: [DraftItem]
    public var current: Int

    public init(items: [DraftItem], current: Int) {
        self.items = items
        self.current = current
    }

    /// Nothing worth keeping: no photo and no word.
    public var isEmpty: Bool {
        items.allSatisfy { $0.path == nil && $0.words.isEmpty }
    }
}

/// Reads and writes `draft.ini` in a library folder. A write is atomic and durable
/// (temporary file, fsync, rename, fsync of the folder): after a crash at any instant the
/// file holds the previous draft or the new one, never a mix.
public struct DraftStore: Sendable {
    public let directory: String
    public var path: String { directory + "/draft.ini" }
    static let group = "draft"

    public init(directory: String) {
        self.directory = directory
    }

    /// The saved draft, or nil when there is none or it cannot be read (a draft is a
    /// convenience: an unreadable one is not worth an error, and is left for inspection).
    public func load() -> Draft? {
        removeLeftovers()
        guard let file = KeyFile.load(path) else { return nil }
        var failed = false
        func string(_ group: String, _ key: String) -> String? {
            let value = file.string(group: group, key: key)
            if value == nil { failed = true }
            return value
        }
        func integer(_ group: String, _ key: String) -> Int {
            guard let value = file.integer(group: group, key: key) else {
                failed = true
                return 0
            }
            return value
        }
        let count = integer(Self.group, "count")
        let current = integer(Self.group, "current")
        guard !failed, (1...100_000).contains(count), (0..<count).contains(current) else { return nil }
        var items: [DraftItem] = []
        for index in 0..<count {
            let group = "item \(index)"
            let hasPath = file.hasKey(group: group, key: "path")
            // Title and Subtitle always have their keys: one missing means the file is not a
            // draft Caption wrote. An optional field has one only when it holds words (and
            // none in a draft written before it existed).
            let words = CaptionWords { field in
                field.isOptional
                    ? (file.string(group: group, key: field.rawValue) ?? "") : (string(group, field.rawValue) ?? "")
            }
            items.append(DraftItem(path: hasPath ? string(group, "path") : nil, words: words))
        }
        return failed ? nil : Draft(items: items, current: current)
    }

    /// Replaces the draft; an empty draft removes it.
    public func save(_ draft: Draft) throws(LibraryError) {
        if draft.isEmpty { return try remove() }
        let file = KeyFile()
        file.set(draft.items.count, group: Self.group, key: "count")
        file.set(draft.current, group: Self.group, key: "current")
        for (index, item) in draft.items.enumerated() {
            let group = "item \(index)"
            // Key files escape line breaks, tabs and backslashes, so any typed text survives.
            if let path = item.path { file.set(path, group: group, key: "path") }
            for field in CaptionField.required + item.words.filledOptionalFields {
                file.set(item.words[field], group: group, key: field.rawValue)
            }
        }
        try write(file.bytes)
    }

    public func remove() throws(LibraryError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw LibraryError.make(
                .io, "The draft could not be removed ({reason}): {path}",
                ["reason": POSIXFiles.reason(errno), "path": path])
        }
    }

    private func write(_ bytes: [UInt8]) throws(LibraryError) {
        if let code = POSIXFiles.makeFolders(directory, mode: 0o700) { throw failure(code) }
        // The writer's process id in the name tells a later clean-up whose file it is.
        var template = Array((directory + "/.draft-\(getpid())-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure(errno) }
        let temporary = String(cString: template)
        var code = bytes.withUnsafeBytes { POSIXFiles.writeAll(descriptor, $0) }
        if code == nil && fsync(descriptor) != 0 { code = errno }
        close(descriptor)
        if code == nil && rename(temporary, path) != 0 { code = errno }
        if let code {
            unlink(temporary)
            throw failure(code)
        }
        if let folder = Files.Folder(directory) { _ = folder.sync() }
    }

    /// Temporary files of writers that died mid-write (a kill, a power cut): their process
    /// is gone. A live writer's file, in another running Caption, is left alone.
    func removeLeftovers() {
        for name in Files.list(directory) ?? [] where name.hasPrefix(".draft-") {
            let fields = name.split(separator: "-")
            guard fields.count == 3, let pid = pid_t(fields[1]) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(directory + "/" + name)
            }
        }
    }

    private func failure(_ code: Int32) -> LibraryError {
        if code == ENOSPC || code == EFBIG || code == EDQUOT {
            return .make(.diskFull, "Not enough disk space to keep the draft: {path}", ["path": directory])
        }
        if code == EROFS || code == EACCES || code == EPERM {
            return .make(
                .readOnly, "The draft cannot be kept: the library folder is not writable: {path}", ["path": directory])
        }
        return .make(
            .io, "The draft could not be kept ({reason}): {path}",
            ["reason": POSIXFiles.reason(code), "path": directory])
    }
}
