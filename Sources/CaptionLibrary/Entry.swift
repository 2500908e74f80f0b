// A saved entry, and the UTC time stamps it carries.

import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

/// One captioned photo in the library. Its words read as its own (`entry.title`).
@dynamicMemberLookup
public struct Entry: Sendable, Equatable, Hashable {
    public var id: Int64
    public var words: CaptionWords
    /// Relative to the library folder, e.g. "photos/<sha256>.jpg"; `Library.photoPath(of:)`
    /// gives the absolute path.
    public var photo: String
    public var width: Int
    public var height: Int
    /// The photo's file name when it was added (the copy is named by its content).
    public var originalName: String
    public var created: Timestamp
    public var updated: Timestamp
    /// The photo file it was captioned from, as an absolute path, when Caption knows it
    /// (`Library.setSource`); its caption can be written back there.
    public var source: String?
    /// That file's SHA-256 when Caption last read or wrote it: another content means
    /// someone else changed it since.
    public var sourceSHA256: String?
    /// The standing credits saved with the caption, as they go into the photo.
    public var credits: Credits

    public init(
        id: Int64, words: CaptionWords, photo: String, width: Int, height: Int,
        originalName: String, created: Timestamp, updated: Timestamp, source: String? = nil,
        sourceSHA256: String? = nil, credits: Credits = .none
    ) {
        self.id = id
        self.words = words
        self.photo = photo
        self.width = width
        self.height = height
        self.originalName = originalName
        self.created = created
        self.updated = updated
        self.source = source
        self.sourceSHA256 = sourceSHA256
        self.credits = credits
    }

    public subscript(dynamicMember field: KeyPath<CaptionWords, String>) -> String { words[keyPath: field] }
}

/// A moment in UTC, to the millisecond: milliseconds keep quick saves in order, and UTC
/// keeps a library that moves between time zones consistent.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(millisecondsSince1970: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        a.millisecondsSince1970 < b.millisecondsSince1970
    }

    /// ISO 8601 in UTC to the second, e.g. "2026-11-30T04:21:41Z".
    public var iso8601: String {
        var seconds = time_t(
            millisecondsSince1970 >= 0
                ? millisecondsSince1970 / 1000
                : (millisecondsSince1970 - 999) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = Int(parts.tm_year) + 1900
        var yearText = String(year)
        while yearText.count < 4 { yearText = "0" + yearText }
        return "\(yearText)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    public var description: String { iso8601 }
}
