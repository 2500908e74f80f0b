// Whether a library folder is safe to use: its own, not writable by others, and with no
// link where Caption keeps its database and photos.

import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

enum LibraryFolderCheck {
    /// Throws when the library folder belongs to another user (root excepted), can be
    /// written by others (who could plant links and files in it), or holds a link where its
    /// photos folder or its database files belong: Caption writes and removes files there,
    /// and would reach whatever a link names.
    static func check(_ directory: String) throws(LibraryError) {
        var info = stat()
        guard stat(directory, &info) == 0 else { return }  // making it will say what is wrong
        if info.st_uid != geteuid() && geteuid() != 0 {
            throw .make(
                .unsafeFolder, "The library folder belongs to another user; Caption does not use it: {folder}",
                ["folder": directory])
        }
        if info.st_mode & 0o022 != 0 {
            throw .make(
                .unsafeFolder,
                "Other users can write to the library folder, and could put links in it; Caption uses it once it is yours alone (chmod go-w): {folder}",
                ["folder": directory])
        }
        for name in [
            "photos", FolderStorage.databaseName, FolderStorage.databaseName + "-wal",
            FolderStorage.databaseName + "-shm",
        ] {
            var entry = stat()
            guard lstat(directory + "/" + name, &entry) == 0 else { continue }
            if entry.st_mode & S_IFMT == S_IFLNK {
                throw .make(
                    .unsafeFolder,
                    "The library holds a symbolic link where its {name} belongs; Caption does not follow it: {folder}",
                    ["name": name, "folder": directory])
            }
            if name == "photos", entry.st_mode & 0o022 != 0 {
                throw .make(
                    .unsafeFolder,
                    "Other users can write to the library's photos folder; Caption uses it once it is yours alone (chmod go-w): {folder}",
                    ["folder": directory])
            }
        }
    }
}
