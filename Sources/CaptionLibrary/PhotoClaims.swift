// Who is captioning which photo, for a library several editors share: an editor claims the
// photo on their form, and the others' queues pass over it.

#if canImport(Glibc)
    import Glibc
#endif

/// One editor at work on a library: one window of one Caption. Two windows of one person
/// are two editors, so each gets an identity of its own for as long as it runs.
public struct Editor: Equatable, Sendable {
    /// Unique to this window's run.
    public let id: String
    /// Who it is, as the other editors are told: the person's name and their machine.
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The person logged in here, on this machine, with a new identity.
    public static func here() -> Editor {
        Editor(id: String(UInt64.random(in: 0...UInt64.max), radix: 16), name: personAndMachine())
    }

    /// "Ana Lima on desk-2": the full name from the account when it has one, else the
    /// login name.
    static func personAndMachine() -> String {
        var person = getenv("USER").map { String(cString: $0) } ?? ""
        if let account = getpwuid(getuid()) {
            let login = account.pointee.pw_name.map { String(cString: $0) } ?? ""
            // The account's comment field begins with the full name, before any comma.
            let full =
                account.pointee.pw_gecos.map { String(cString: $0) }?.split(separator: ",").first
                .map { $0.trimmingPrefix(while: \.isWhitespace) }.map(String.init) ?? ""
            person = !full.isEmpty ? full : (!login.isEmpty ? login : person)
        }
        var host = [CChar](repeating: 0, count: 256)
        let machine =
            gethostname(&host, host.count - 1) == 0
            ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(separator: ".").first.map(String.init) ?? "" : ""
        let who = person.isEmpty ? "another editor" : person
        return machine.isEmpty ? who : "\(who) on \(machine)"
    }
}

/// What a claim on a photo found.
public enum PhotoClaim: Equatable, Sendable {
    /// The photo is this editor's until they move on.
    case yours
    /// Another editor has it on their form.
    case taken(by: String)
    /// The library already holds an entry for the photo: someone captioned it.
    case captioned
}

/// How long a claim lasts without word from its editor, and how often a window renews it:
/// an editor whose machine or network is gone frees their photo within a minute.
public enum ClaimTerms {
    public static let seconds = 60
    public static let renewalSeconds = 20
}

extension Library {
    /// Claims the photo with this content for `editor`, letting go of `releasing` (the
    /// photo they moved on from) in the same step.
    public func claim(sha256: String, for editor: Editor, releasing: [String] = []) throws(LibraryError) -> PhotoClaim {
        try storage.claim(sha256: sha256, for: editor, releasing: releasing)
    }

    /// Keeps `editor`'s claims alive for another `ClaimTerms.seconds`.
    public func renewClaims(of editor: Editor) throws(LibraryError) { try storage.renewClaims(of: editor) }

    /// Ends `editor`'s claims on `photos` (by content), or all of them: the window closes.
    public func releaseClaims(of editor: Editor, photos: [String]? = nil) throws(LibraryError) {
        try storage.releaseClaims(of: editor, photos: photos)
    }

    static func takenElsewhere(by name: String) -> LibraryError {
        .make(
            .takenElsewhere, "{editor} is captioning this photo, so it was not saved; your words are kept",
            ["editor": name])
    }
}
