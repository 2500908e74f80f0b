// Claims on a desk's library: the photo on an editor's form is theirs until they move on,
// kept in the server's table of leases, so that the other editors' queues pass over it.

import Threads

extension PostgresStorage {
    /// A transaction of claims, tried once more on a new connection when the server ended
    /// the old one, as a read is: taking a claim again that is already one's own changes
    /// nothing.
    private func claims<T>(_ body: (PostgresConnection) throws(LibraryError) -> T) throws(LibraryError) -> T {
        try read { (db) throws(LibraryError) -> T in try db.write { () throws(LibraryError) -> T in try body(db) } }
    }

    /// A claim is a row of `caption.leases`, its end in the server's time, so that the
    /// clocks of the editors' machines do not matter. Claims are not changes to the library:
    /// they neither count nor notify.
    func claim(sha256: String, for editor: Editor, releasing: [String]) throws(LibraryError) -> PhotoClaim {
        let outliving = book.withLock { $0.isWaiting(sha256, editor) }
        let claim = try claims { (db) throws(LibraryError) -> PhotoClaim in
            try Self.release(db, releasing, of: editor)
            if let holder = try Self.take(db, sha256: sha256, for: editor, outliving: outliving) {
                return .taken(by: holder)
            }
            // Asked after the claim, which waits for a save of the photo in progress: that
            // save's entry is then seen here.
            let captioned = try db.execute(
                "SELECT EXISTS (SELECT 1 FROM caption.entries WHERE photo_sha256 = $1)", [sha256])
            guard captioned.text(0, 0) == "t" else { return .yours }
            try db.execute("DELETE FROM caption.leases WHERE photo_sha256 = $1 AND holder = $2", [sha256, editor.id])
            return .captioned
        }
        book.withLock { book in
            book.release(releasing, editor)
            book.answered(claim, sha256, editor)
        }
        return claim
    }

    /// Claims that did not renew (another editor took the photo once the claim ran out) are
    /// no longer held, unless a save of the photo waits: that claim outlives the wait.
    func renewClaims(of editor: Editor) throws(LibraryError) {
        let renewed = try claims { (db) throws(LibraryError) -> [String] in
            let rows = try db.execute(
                "UPDATE caption.leases SET until = now() + make_interval(secs => $2) WHERE holder = $1 RETURNING photo_sha256",
                [editor.id, String(ClaimTerms.seconds)])
            return (0..<rows.rowCount).compactMap { rows.text($0, 0) }
        }
        book.withLock { $0.renewed(Set(renewed), editor) }
    }

    /// Ending all of them also clears the claims that ran out long ago, of editors who
    /// never came back.
    func releaseClaims(of editor: Editor, photos: [String]?) throws(LibraryError) {
        try claims { (db) throws(LibraryError) in
            if let photos {
                try Self.release(db, photos, of: editor)
            } else {
                try db.execute(
                    "DELETE FROM caption.leases WHERE holder = $1 OR until < now() - interval '1 hour'", [editor.id])
            }
        }
        book.withLock { book in
            if let photos { book.release(photos, editor) } else { book.releaseAll(editor) }
        }
    }

    private static func release(_ db: PostgresConnection, _ photos: [String], of editor: Editor) throws(LibraryError) {
        guard !photos.isEmpty else { return }
        try db.execute(
            "DELETE FROM caption.leases WHERE holder = $1 AND photo_sha256 = ANY ($2::text[])",
            [editor.id, "{" + photos.joined(separator: ",") + "}"])
    }

    /// Takes or renews `editor`'s claim on a photo unless another editor's is alive; returns
    /// that editor's name when it is. A claim `outliving` its term (its editor pressed Enter
    /// while holding it, and the save waits for the server) is taken back from whoever took
    /// the photo meanwhile, as long as no one has captioned it: the save came first.
    static func take(
        _ db: PostgresConnection, sha256: String, for editor: Editor, outliving: Bool = false
    ) throws(LibraryError) -> String? {
        let taken = try db.execute(
            """
            INSERT INTO caption.leases AS lease (photo_sha256, holder, holder_name, until)
            VALUES ($1, $2, $3, now() + make_interval(secs => $4))
            ON CONFLICT (photo_sha256) DO UPDATE
                SET holder = excluded.holder, holder_name = excluded.holder_name, until = excluded.until
                WHERE lease.holder = excluded.holder OR lease.until < now()
                    OR ($5::boolean AND NOT EXISTS (SELECT 1 FROM caption.entries WHERE photo_sha256 = $1))
            RETURNING holder
            """, [sha256, editor.id, editor.name, String(ClaimTerms.seconds), outliving ? "true" : "false"])
        guard taken.rowCount == 0 else { return nil }
        let holder = try db.execute("SELECT holder_name FROM caption.leases WHERE photo_sha256 = $1", [sha256])
        return holder.text(0, 0) ?? ""
    }
}

/// What this process knows of its editors' claims: which it holds, and which of those a
/// save is waiting on because the server could not be reached at Enter. Only the second
/// outlive their term; a claim lost while nothing waited on it stays lost.
struct ClaimBook {
    private var held: Set<String> = []
    private var waiting: Set<String> = []

    private static func key(_ sha256: String, _ editor: Editor) -> String { editor.id + "/" + sha256 }

    func isWaiting(_ sha256: String, _ editor: Editor) -> Bool { waiting.contains(Self.key(sha256, editor)) }

    mutating func answered(_ claim: PhotoClaim, _ sha256: String, _ editor: Editor) {
        let key = Self.key(sha256, editor)
        if claim == .yours {
            held.insert(key)
        } else {
            held.remove(key)
            waiting.remove(key)
        }
    }

    mutating func release(_ photos: [String], _ editor: Editor) {
        for sha256 in photos {
            held.remove(Self.key(sha256, editor))
            waiting.remove(Self.key(sha256, editor))
        }
    }

    mutating func releaseAll(_ editor: Editor) {
        held = held.filter { !$0.hasPrefix(editor.id + "/") }
        waiting = waiting.filter { !$0.hasPrefix(editor.id + "/") }
    }

    mutating func renewed(_ photos: Set<String>, _ editor: Editor) {
        held = held.filter { key in
            guard key.hasPrefix(editor.id + "/") else { return true }
            return photos.contains(String(key.dropFirst(editor.id.utf8.count + 1))) || waiting.contains(key)
        }
    }

    mutating func saved(_ sha256: String, _ editor: Editor) {
        held.remove(Self.key(sha256, editor))
        waiting.remove(Self.key(sha256, editor))
    }

    /// A save the server never answered keeps its claim's right, if the claim was held; one
    /// refused because another editor has the photo ends it.
    mutating func saveFailed(_ sha256: String, _ editor: Editor, _ kind: LibraryErrorKind) {
        let key = Self.key(sha256, editor)
        if kind == .unreachable && held.contains(key) {
            waiting.insert(key)
        } else if kind == .takenElsewhere {
            held.remove(key)
            waiting.remove(key)
        }
    }
}
