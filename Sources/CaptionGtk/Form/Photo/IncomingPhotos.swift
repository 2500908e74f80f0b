// Paths handed to the form — dropped, pasted, sent by Open With or `caption PHOTO…` to
// the running window — sorted out before they join the queue: a folder gives its photos,
// files that are not photos are refused, a photo already queued is not queued again; what
// was left out is named in one message. The rules are PhotoQueue.sortIncoming's.

import CaptionLibrary
import CaptionQueue
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The file system as the sorting sees it.
enum IncomingFiles {
    static func kind(_ path: String) -> IncomingKind {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            return .folder(entries(of: path))
        }
        // A cheap look at the first bytes; what cannot be told counts as a photo, whose
        // full check names the problem.
        return PhotoInspector.startsLikePhoto(path) == false ? .notPhoto : .photo
    }

    /// The photo a folder's queue starts with (the first photo by name), found without
    /// looking into the others: nil when `path` is not a folder or holds no photo.
    static func firstPhoto(inFolder path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) else {
            return nil
        }
        defer { closedir(directory) }
        // Names alone (hidden ones left out, as the queue leaves them): a path each, for
        // 10,000 names, cost more than finding the first.
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = entryName(entry)
            if !name.hasPrefix(".") { names.append(name) }
        }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        while let index = names.indices.min(by: { PhotoQueue.nameOrder(names[$0], names[$1]) }) {
            let candidate = prefix + names[index]
            if kind(candidate) == .photo { return candidate }
            names.swapAt(index, names.count - 1)
            names.removeLast()
        }
        return nil
    }

    /// The paths of what a folder holds, unsorted; none when it cannot be read.
    static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var paths: [String] = []
        while let entry = readdir(directory) {
            let name = entryName(entry)
            if name != "." && name != ".." { paths.append(prefix + name) }
        }
        return paths
    }

    /// Whether this user may list `folder` and reach what it holds (read and search
    /// permission). A lookup of a name that is not there fails as "permission denied" only
    /// when searching the folder is not allowed.
    static func canList(_ folder: String) -> Bool {
        guard let directory = opendir(folder) else { return false }
        defer { closedir(directory) }
        var info = stat()
        return fstatat(dirfd(directory), ".caption-no-such-name", &info, AT_SYMLINK_NOFOLLOW) == 0 || errno != EACCES
    }

    /// The real path (links and `..` resolved), or the path itself when there is none.
    static func identity(_ path: String) -> String {
        realpath(path) ?? path
    }
}

extension IncomingPhotos {
    /// One message naming what was left out and why, a line for each reason; nil when
    /// nothing was.
    var message: String? {
        func names(_ paths: [String]) -> String { paths.map(PhotoQueue.name(of:)).joined(separator: ", ") }
        var lines: [String] = []
        if notPhotos.count == 1 {
            lines.append(tr("Not a photo, not added: {name}").replacing("{name}", with: names(notPhotos)))
        } else if !notPhotos.isEmpty {
            lines.append(tr("Not photos, not added: {names}").replacing("{names}", with: names(notPhotos)))
        }
        if !alreadyQueued.isEmpty {
            lines.append(
                tr("Already in the queue, not added again: {names}")
                    .replacing("{names}", with: names(alreadyQueued)))
        }
        for folder in foldersWithoutPhotos {
            lines.append(tr("No photos in “{folder}”").replacing("{folder}", with: PhotoQueue.name(of: folder)))
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
