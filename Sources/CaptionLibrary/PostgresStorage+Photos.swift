// A server library's photos: the bytes kept on the server, fetched once into this machine's cache.

import CaptionText
import POSIXFiles
import PhotoFormats
import Threads

#if canImport(Glibc)
    import Glibc
#endif

extension PostgresStorage {
    /// From the cache, or else fetched from the server, checked against its hash and
    /// cached: a photo changed on the server is not handed on as the one captioned.
    func photoPathIfHere(of entry: Entry) -> String? {
        guard PhotoFolder.isStoredPhoto(entry.photo) else { return nil }
        let path = directory + "/" + entry.photo
        return access(path, F_OK) == 0 ? path : nil
    }

    func photoPathsIfHere() -> (Entry) -> String? {
        let here = Set((Files.list(directory + "/photos") ?? []).map { "photos/" + $0 })
        let directory = directory
        return { entry in
            guard here.contains(entry.photo), PhotoFolder.isStoredPhoto(entry.photo) else { return nil }
            return directory + "/" + entry.photo
        }
    }

    func photoPath(of entry: Entry) -> String? {
        (try? fetchedPhotoPath(of: entry)) ?? nil
    }

    func fetchedPhotoPath(of entry: Entry) throws(LibraryError) -> String? {
        guard PhotoFolder.isStoredPhoto(entry.photo) else { return nil }
        let path = directory + "/" + entry.photo
        if access(path, F_OK) == 0 { return path }
        let sha256 = String(entry.photo.dropFirst("photos/".count).prefix(64))
        guard let bytes = try photoBytes(sha256: sha256),
            bytes.withUnsafeBytes({ Hash.sha256($0) }) == sha256,
            (try? bytes.withBytes({ (data) throws(LibraryError) in _ = try photos.place(data, at: path) })) != nil
        else { return nil }
        return path
    }

    /// The bytes of a photo as saved; nil when the server has none under that hash.
    func photoBytes(sha256: String) throws(LibraryError) -> [UInt8]? {
        let rows = try read { (db) throws(LibraryError) -> PostgresResult in
            try db.execute(
                "SELECT bytes FROM caption.photos WHERE sha256 = $1", values: [.text(sha256)], binaryResult: true)
        }
        return rows.rowCount == 1 ? rows.bytes(0, 0) : nil
    }

    func holdsPhoto(at path: String) -> Bool {
        guard let file = realpath(path), let store = realpath(photos.path) else { return false }
        return file.hasPrefix(store + "/")
    }

    func holdsPhoto(sha256: String, format: PhotoFormat) -> Bool {
        let rows = try? read { (db) throws(LibraryError) -> PostgresResult in
            try db.execute("SELECT 1 FROM caption.photos WHERE sha256 = $1", [sha256])
        }
        return rows?.rowCount == 1
    }
}
