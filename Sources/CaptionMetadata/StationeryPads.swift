// Stationery pads: named sets of standing credits, each an XMP file in the settings
// folder's `pads/`, the shape Photo Mechanic saves its metadata templates in, so a pad an
// agency hands out is used as it is and a pad written here opens there.

import CExempi
import CaptionChecks
import CaptionLibrary
import CaptionText
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

public enum StationeryPads {
    /// The pads beside the credits file at `creditsPath`: `…/caption/pads`.
    public static func folder(besides creditsPath: String = CreditsFile.defaultPath) -> String {
        guard let slash = creditsPath.lastIndex(of: "/") else { return "pads" }
        return String(creditsPath[..<slash]) + "/pads"
    }

    /// The pads' names (their files' names less `.xmp`, any case), in the order a person
    /// reads them: letters without regard to case, then as written. None when the folder
    /// is missing.
    public static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FilePath.string(fromBytes: raw.prefix { $0 != 0 })
            }
            guard let name = padName(ofFile: file), isAcceptable(name) == nil else { continue }
            names.append(name)
        }
        return names.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }

    /// "AP Sports" for `AP Sports.xmp` or `AP Sports.XMP`; nil for any other file.
    static func padName(ofFile file: String) -> String? {
        guard file.count > 4, file.suffix(4).lowercased() == ".xmp", !file.hasPrefix(".") else { return nil }
        return String(file.dropLast(4))
    }

    /// Why `name` cannot name a pad, or nil when it can: it is a file's name, so it is not
    /// empty, holds no `/`, does not start with a dot and fits a file system's name.
    public static func isAcceptable(_ name: String) -> String? {
        if name.allSatisfy(\.isWhitespace) { return tr("A stationery pad needs a name") }
        if name.contains("/") { return tr("A stationery pad's name cannot hold “/”") }
        if name.hasPrefix(".") { return tr("A stationery pad's name cannot start with a dot") }
        if name.utf8.count + 4 > 255 { return tr("A stationery pad's name is too long") }
        return nil
    }

    /// The file of the pad `name` in `folder`: the one on disk whatever the case of its
    /// `.xmp`, else `NAME.xmp`.
    public static func path(of name: String, in folder: String) -> String {
        for ending in [".xmp", ".XMP", ".Xmp"] where access(folder + "/" + name + ending, F_OK) == 0 {
            return folder + "/" + name + ending
        }
        return folder + "/" + name + ".xmp"
    }

    /// The credits the pad `name` holds; what is wrong, to be said, when it cannot be read.
    public static func credits(of name: String, in folder: String) -> Result<Credits, PadProblem> {
        if let reason = isAcceptable(name) { return .failure(PadProblem(pad: name, reason: reason)) }
        let file = path(of: name, in: folder)
        switch SettingsFile.read(file) {
        case .missing: return .failure(PadProblem(pad: name, reason: tr("there is no such pad"), isMissing: true))
        case .notRegular: return .failure(PadProblem(pad: name, reason: tr("not a regular file")))
        case .failed(let code): return .failure(PadProblem(pad: name, reason: POSIXFiles.reason(code)))
        case .contents(let bytes):
            guard let credits = credits(inXMP: bytes) else {
                return .failure(PadProblem(pad: name, reason: tr("it is not an XMP file")))
            }
            return .success(credits)
        }
    }

    /// The credits an XMP file holds, where IPTC Core puts them, and its words for the
    /// optional caption fields where the IPTC standard puts them (Photo Mechanic's
    /// template fills the same properties); nil when it is not XMP.
    public static func credits(inXMP bytes: [UInt8]) -> Credits? {
        read(bytes) { packet in
            var words: [CaptionField: String] = [:]
            for field in CaptionField.optional { words[field] = packet.words(field) }
            return Credits(packet.ownCredits, fieldWords: words)
        }
    }

    /// `body` over the packet an XMP file holds, under exempi's lock; nil when it is not
    /// XMP or too large to parse.
    private static func read<T: Sendable>(_ bytes: [UInt8], _ body: (XMPPacket) -> T) -> T? {
        guard !XMPPacket.isOversized([bytes]) else { return nil }
        return Exempi.locked { () -> T? in bytes.withUnsafeBytes { XMPPacket(parsing: $0) }.map(body) }
    }

    /// Writes `credits` as the pad `name` (a new pad, or over the one there, keeping the
    /// fields of its file that Caption does not show, and the caption fields' words where
    /// `credits` has none for them); nil when done, else what went wrong.
    public static func save(_ credits: Credits, as name: String, in folder: String) -> String? {
        edit(name, in: folder) { packet in
            for field in CreditField.allCases where !credits.setFields.contains(field) {
                let (namespace, property, _) = field.xmpProperty
                xmp_delete_property(packet.pointer, namespace, property)
            }
            guard packet.setCredits(credits.compactMap { _, text in PhotoMetadata.xmlSafe(text) }) else {
                return false
            }
            return credits.fieldWords.allSatisfy { field, text in
                packet.setWords(field, PhotoMetadata.xmlSafe(text))
            }
        }
    }

    /// The pad `name`'s file changed by `change` (a new pad when there is none), the rest of
    /// it kept, and written whole or not at all; nil when done, else what went wrong.
    /// `change` runs under exempi's lock; false: the toolkit refused a value.
    private static func edit(_ name: String, in folder: String, _ change: (XMPPacket) -> Bool) -> String? {
        if let reason = isAcceptable(name) { return reason }
        let file = path(of: name, in: folder)
        let old: [UInt8]?
        switch SettingsFile.read(file) {
        case .missing: old = nil
        case .contents(let bytes): old = bytes
        case .notRegular: return failure(name, tr("not a regular file"))
        case .failed(let code): return failure(name, POSIXFiles.reason(code))
        }
        guard
            let text = Exempi.locked({ () -> String? in
                guard let packet = XMPPacket.stored(in: old), change(packet) else { return nil }
                return packet.serializedForSidecar()
            })
        else { return failure(name, tr("it is not an XMP file")) }
        return place(Array(text.utf8), at: file, folder: folder, name: name)
    }

    /// The pad's own checks; none when it has none, or cannot be read (its credits say why).
    public static func checks(of name: String, in folder: String) -> PadChecks {
        guard isAcceptable(name) == nil, case .contents(let bytes) = SettingsFile.read(path(of: name, in: folder))
        else { return .none }
        return read(bytes) { $0.padChecks } ?? .none
    }

    /// Gives the pad `name` the checks `checks` (`.none`: none of its own), keeping the
    /// rest of its file; nil when done, else what went wrong. The pad is made if it is new.
    public static func save(_ checks: PadChecks, as name: String, in folder: String) -> String? {
        edit(name, in: folder) { $0.setPadChecks(checks) }
    }

    /// The checks as they apply now: Preferences' with those of the pad `name` over them, or
    /// of the pad in use when `name` is nil.
    public static func checkChoices(
        pad name: String? = nil, creditsPath: String = CreditsFile.defaultPath
    )
        -> CheckChoices
    {
        checkChoices(with: name ?? CreditsFile.read(creditsPath).pad, creditsPath: creditsPath)
    }

    /// The checks with the pad `pad` in use (nil: none): Preferences' with the pad's over
    /// them.
    public static func checkChoices(with pad: String?, creditsPath: String) -> CheckChoices {
        let choices = CreditsFile.checkChoices(creditsPath)
        guard let pad else { return choices }
        return checks(of: pad, in: folder(besides: creditsPath)).applied(to: choices)
    }

    /// Copies the XMP file at `source` into the pads as `name` (its own file name less
    /// `.xmp` when nil); the pad's name, or what is wrong. A pad of that name is replaced.
    public static func add(_ source: String, as name: String? = nil, in folder: String) -> Result<String, PadProblem> {
        let file = source.split(separator: "/").last.map(String.init) ?? source
        let name = name ?? padName(ofFile: file) ?? file
        if let reason = isAcceptable(name) { return .failure(PadProblem(pad: name, reason: reason)) }
        let bytes: [UInt8]
        switch SettingsFile.read(source) {
        case .missing: return .failure(PadProblem(pad: name, reason: POSIXFiles.reason(ENOENT), file: source))
        case .notRegular: return .failure(PadProblem(pad: name, reason: tr("not a regular file"), file: source))
        case .failed(let code): return .failure(PadProblem(pad: name, reason: POSIXFiles.reason(code), file: source))
        case .contents(let contents): bytes = contents
        }
        guard credits(inXMP: bytes) != nil else {
            return .failure(PadProblem(pad: name, reason: tr("it is not an XMP file"), file: source))
        }
        if let problem = place(bytes, at: path(of: name, in: folder), folder: folder, name: name) {
            return .failure(PadProblem(pad: name, reason: problem, file: source))
        }
        return .success(name)
    }

    /// `bytes` written to `file` whole or not at all: a temporary file renamed over it.
    private static func place(_ bytes: [UInt8], at file: String, folder: String, name: String) -> String? {
        if let code = POSIXFiles.makeFolders(folder, mode: 0o700) { return failure(name, POSIXFiles.reason(code)) }
        switch DiskFile.temporary(in: folder, extension: "part", holding: bytes, prefix: ".") {
        case .failure(let error): return failure(name, POSIXFiles.reason(error.code))
        case .success(let temporary):
            if let code = DiskFile.sync(temporary) ?? (rename(temporary, file) == 0 ? nil : errno) {
                unlink(temporary)
                return failure(name, POSIXFiles.reason(code))
            }
            return nil
        }
    }

    private static func failure(_ name: String, _ reason: String) -> String {
        fill(tr("The stationery pad “{pad}” could not be saved ({reason})"), ["pad": name, "reason": reason])
    }

    /// The standing credits as the credits file at `creditsPath` leaves them: the pad in
    /// use (with the file's choice about a photo's own credits), else the file's own. A pad
    /// in use that cannot be read gives no credits and says why, as a credits file that
    /// cannot be read does.
    public static func standing(_ creditsPath: String = CreditsFile.defaultPath) -> CreditsFile.Reading {
        var reading = CreditsFile.read(creditsPath)
        guard reading.problem == nil, let pad = reading.pad else { return reading }
        switch credits(of: pad, in: folder(besides: creditsPath)) {
        case .success(var credits):
            credits.replacesPhotos = reading.credits.replacesPhotos
            credits.pad = pad
            reading.credits = credits
        case .failure(let problem):
            reading.credits = .none
            reading.problem = fill(
                tr("The stationery pad “{pad}” cannot be read ({reason}), so no credits are written"),
                ["pad": problem.pad, "reason": problem.reason])
        }
        return reading
    }

    /// The credits of the pad `name`, or the standing ones when nil, as a command takes
    /// them; what is wrong when the pad cannot be read.
    public static func reading(
        pad name: String?, creditsPath: String = CreditsFile.defaultPath
    ) -> Result<
        CreditsFile.Reading, PadProblem
    > {
        guard let name else { return .success(standing(creditsPath)) }
        let file = CreditsFile.read(creditsPath)
        return credits(of: name, in: folder(besides: creditsPath)).map { credits in
            var credits = credits
            credits.replacesPhotos = file.credits.replacesPhotos
            credits.pad = name
            return CreditsFile.Reading(credits: credits, pad: name)
        }
    }
}

/// A pad that cannot be read, saved or added, and why.
public struct PadProblem: Error, Equatable, Sendable {
    public var pad: String
    public var reason: String
    /// The file being added, when the problem is with it.
    public var file: String?
    /// There is no such pad (a new name, where one is being made).
    public var isMissing: Bool

    public init(pad: String, reason: String, file: String? = nil, isMissing: Bool = false) {
        self.pad = pad
        self.reason = reason
        self.file = file
        self.isMissing = isMissing
    }

    public var message: String {
        if let file {
            return fill(
                tr("The file cannot be a stationery pad ({reason}): {path}"), ["reason": reason, "path": file])
        }
        return fill(tr("The stationery pad “{pad}” cannot be read ({reason})"), ["pad": pad, "reason": reason])
    }
}
