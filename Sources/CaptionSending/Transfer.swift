// One file onto a server by libcurl: under a temporary name, then renamed, so the agency
// never sees half a photo under its real name.

import CCurl
import CPixbuf
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// How long a server may take before a transfer counts as cut.
public struct Patience: Sendable, Equatable {
    /// To connect and log in.
    public var connect: Int
    /// With not one byte moving, in seconds.
    public var stalled: Int

    public init(connect: Int = 20, stalled: Int = 60) {
        self.connect = connect
        self.stalled = stalled
    }
}

enum Transfer {
    /// Sends the file at `path` to `destination` as `name`: uploaded as `.NAME.part` in
    /// the destination's folder (made if missing) and renamed to `name` only once
    /// complete, replacing a file of that name. A transfer cut short leaves at most the
    /// hidden `.NAME.part`, which is removed when the server still answers and replaced by
    /// the next try otherwise; `NAME` is never half written.
    static func upload(
        _ path: String, as name: String, to destination: Destination, password: String, patience: Patience
    ) throws(SendError) {
        guard let file = fopen(path, "rb") else {
            throw SendError(
                .photo,
                fill(tr("{file} could not be read: {reason}"), ["file": path, "reason": POSIXFiles.reason(errno)]))
        }
        defer { fclose(file) }
        var status = stat()
        guard fstat(fileno(file), &status) == 0 else {
            throw SendError(
                .photo,
                fill(tr("{file} could not be read: {reason}"), ["file": path, "reason": POSIXFiles.reason(errno)]))
        }
        let partName = "." + name + ".part"
        let renames: [String]
        switch destination.kind {
        case .sftp:
            let part = quoted(remotePath(destination, partName))
            let final = quoted(remotePath(destination, name))
            // SFTP's rename does not replace: the old file goes first ("*": even when there
            // is none). In between, the folder holds neither, never half of one.
            renames = ["*rm " + final, "rename " + part + " " + final]
        case .ftp, .ftps:
            renames = ["RNFR " + partName, "RNTO " + name]
        case .folder:
            preconditionFailure("a folder is written by the exporter, not sent")
        }
        let session = try Session(destination: destination, password: password, patience: patience)
        session.set(CURLOPT_URL, destination.url(of: partName))
        session.set(CURLOPT_UPLOAD, 1)
        session.isUpload = true
        session.set(CURLOPT_READDATA, pointer: UnsafeRawPointer(file))
        session.setSize(CURLOPT_INFILESIZE_LARGE, Int64(status.st_size))
        session.set(CURLOPT_FTP_CREATE_MISSING_DIRS, Int(CURLFTP_CREATE_DIR.rawValue))
        session.setList(CURLOPT_POSTQUOTE, renames)
        do throws(SendError) {
            try session.perform()
        } catch {
            if error.kind == .connectionLost || error.kind == .serverFull || error.kind == .interrupted {
                removeLeftover(partName, from: destination, password: password, patience: patience)
            }
            throw error
        }
    }

    /// Logs in and looks at the folder, sending nothing: the check made when a destination
    /// is added. Throws as a send would; `.unknownServer` carries the key or certificate
    /// the server showed, to be shown to the user.
    static func check(_ destination: Destination, password: String, patience: Patience) throws(SendError) {
        let session = try Session(destination: destination, password: password, patience: patience)
        session.set(CURLOPT_URL, destination.folderURL)
        session.set(CURLOPT_NOBODY, 1)
        // A folder not there yet is made, as the first photo would make it.
        session.set(CURLOPT_FTP_CREATE_MISSING_DIRS, Int(CURLFTP_CREATE_DIR.rawValue))
        try session.perform()
    }

    /// A `.part` left by a cut transfer, removed when the server still answers.
    private static func removeLeftover(
        _ partName: String, from destination: Destination, password: String, patience: Patience
    ) {
        guard let session = try? Session(destination: destination, password: password, patience: patience) else {
            return
        }
        session.set(CURLOPT_URL, destination.folderURL)
        session.set(CURLOPT_NOBODY, 1)
        let command =
            destination.kind == .sftp ? "rm " + quoted(remotePath(destination, partName)) : "DELE " + partName
        session.setList(CURLOPT_POSTQUOTE, [command])
        try? session.perform()
    }

    /// A file's path as SFTP's commands take it: from the root, or from the home.
    private static func remotePath(_ destination: Destination, _ name: String) -> String {
        destination.folder.hasPrefix("~/") ? String(destination.folder.dropFirst(2)) + name : destination.folder + name
    }

    /// libcurl's SFTP commands split their arguments at spaces unless quoted.
    private static func quoted(_ path: String) -> String {
        "\"" + path.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

/// One libcurl easy handle, set up to log in to a destination with the server checked as
/// the destination trusts it.
final class Session {
    private let curl: UnsafePointer<caption_curl>
    private let handle: UnsafeMutableRawPointer
    private let destination: Destination
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    private let hostKey: HostKeyCheck
    /// A file is being sent: a failure the server reports while writing it is its disk's.
    var isUpload = false

    init(destination: Destination, password: String, patience: Patience) throws(SendError) {
        guard let curl = caption_curl() else {
            throw SendError(.other, tr("libcurl is not installed, so nothing can be sent to a server"))
        }
        // Fails only when memory does.
        guard let handle = curl.pointee.easy_init() else { throw SendError(.other, tr("libcurl could not start")) }
        self.curl = curl
        self.handle = handle
        self.destination = destination
        hostKey = HostKeyCheck(trusted: destination.kind == .sftp ? destination.fingerprint : nil)
        errorBuffer.initialize(to: 0)
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
        // No SIGALRM for timeouts: the sending thread is not the only one.
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_USERNAME, destination.user)
        set(CURLOPT_PASSWORD, password)
        set(CURLOPT_CONNECTTIMEOUT, patience.connect)
        set(CURLOPT_LOW_SPEED_LIMIT, 1)
        set(CURLOPT_LOW_SPEED_TIME, patience.stalled)
        switch destination.kind {
        case .sftp:
            set(CURLOPT_SSH_AUTH_TYPES, Int(CURLSSH_AUTH_PASSWORD | CURLSSH_AUTH_KEYBOARD))
            caption_curl_set_host_key_check(
                curl, handle,
                { context, _, key, length in
                    // The context is the session's HostKeyCheck, alive while the handle is.
                    let check = Unmanaged<HostKeyCheck>.fromOpaque(context!).takeUnretainedValue()
                    return check.accepts(UnsafeRawBufferPointer(start: key, count: length))
                        ? Int32(CURLKHMATCH_OK.rawValue) : Int32(CURLKHMATCH_MISMATCH.rawValue)
                }, Unmanaged.passUnretained(hostKey).toOpaque())
        case .ftps:
            set(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))
            if let pin = destination.fingerprint {
                // A certificate no authority signed, accepted by its public key: the key
                // is what is checked, as the user saw it the first time.
                set(CURLOPT_SSL_VERIFYPEER, 0)
                set(CURLOPT_SSL_VERIFYHOST, 0)
                set(CURLOPT_PINNEDPUBLICKEY, pin)
            }
        case .ftp, .folder:
            break
        }
    }

    deinit {
        curl.pointee.easy_cleanup(handle)
        for list in lists { curl.pointee.slist_free_all(list) }
        for string in strings { free(string) }
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) {
        _ = caption_curl_set_long(curl, handle, option, value)
    }

    func setSize(_ option: CURLoption, _ value: Int64) {
        _ = caption_curl_set_size(curl, handle, option, value)
    }

    /// libcurl copies strings set as options (since 7.17); the ones kept here are lists'.
    func set(_ option: CURLoption, _ value: String) {
        _ = caption_curl_set_pointer(curl, handle, option, value)
    }

    func set(_ option: CURLoption, pointer: UnsafeRawPointer) {
        _ = caption_curl_set_pointer(curl, handle, option, pointer)
    }

    /// A list option: libcurl keeps the list's address, not a copy, so it lives as long as
    /// the session.
    func setList(_ option: CURLoption, _ values: [String]) {
        var list: UnsafeMutablePointer<curl_slist>?
        for value in values { list = curl.pointee.slist_append(list, value) }
        guard let list else { return }
        lists.append(list)
        set(option, pointer: UnsafeRawPointer(list))
    }

    func perform() throws(SendError) {
        let code = curl.pointee.easy_perform(handle)
        guard code != CURLE_OK else { return }
        throw error(code)
    }

    /// The server's certificate's public key, pinned as libcurl pins ("sha256//…"), read
    /// by a second connection that trusts it for the look; nil when none could be read.
    private func certificatePin() -> String? {
        // Trusting nothing itself: with the pin that failed it would fail again, and ask again.
        var untrusted = destination
        untrusted.fingerprint = nil
        guard let probe = try? Session(destination: untrusted, password: "", patience: Patience(connect: 10)) else {
            return nil
        }
        probe.set(CURLOPT_URL, destination.folderURL)
        probe.set(CURLOPT_SSL_VERIFYPEER, 0)
        probe.set(CURLOPT_SSL_VERIFYHOST, 0)
        probe.set(CURLOPT_CERTINFO, 1)
        probe.set(CURLOPT_CONNECT_ONLY, 1)
        // What it connected to is all that is wanted, whatever else went wrong.
        _ = probe.curl.pointee.easy_perform(probe.handle)
        guard let pem = caption_curl_server_certificate(probe.curl, probe.handle) else {
            return nil
        }
        return Certificate.publicKeyPin(pem: String(cString: pem))
    }

    private func error(_ code: CURLcode) -> SendError {
        let detail =
            errorBuffer.pointee != 0
            ? String(cString: errorBuffer) : curl.pointee.easy_strerror(code).map { String(cString: $0) } ?? ""
        let values = ["destination": destination.name, "host": destination.host, "reason": detail]
        let response = caption_curl_response_code(curl, handle)
        // vsftpd answers 451 when writing the file fails (its disk full, as its log says,
        // or another write error).
        if isUpload && code == CURLE_PARTIAL_FILE && response == 451 {
            return SendError(
                .serverFull, fill(tr("{host} could not store the file; its disk may be full: {reason}"), values))
        }
        // libcurl reports an SFTP upload that failed in the middle as an SSH error, whether
        // the connection dropped or OpenSSH's server answered "failure" to a write (a full
        // disk); and an FTP server that cannot write closes the data connection, which the
        // upload may meet (a broken pipe) before the 451 that says why: the message says both.
        if isUpload && (code == CURLE_SSH || code == CURLE_SEND_ERROR) {
            return SendError(
                .interrupted,
                fill(
                    tr(
                        "the transfer to {host} stopped in the middle: the connection was cut, or the server could not store the file (its disk may be full): {reason}"
                    ),
                    values))
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT:
            return SendError(.unreachable, fill(tr("{host} could not be reached: {reason}"), values))
        case CURLE_OPERATION_TIMEDOUT:
            return SendError(.connectionLost, fill(tr("{host} stopped answering: {reason}"), values))
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SSH,
            CURLE_WEIRD_SERVER_REPLY, CURLE_FTP_ACCEPT_FAILED, CURLE_FTP_CANT_GET_HOST, CURLE_FTP_WEIRD_PASV_REPLY:
            return SendError(.connectionLost, fill(tr("the connection to {host} was cut: {reason}"), values))
        // libcurl's word for an SSH session that could not be set up: the server hung up
        // or never answered the greeting.
        case CURLE_FAILED_INIT where destination.kind == .sftp:
            return SendError(.connectionLost, fill(tr("the connection to {host} was cut: {reason}"), values))
        case CURLE_LOGIN_DENIED:
            return SendError(.loginRefused, fill(tr("{host} refused the user name or the password"), values))
        case CURLE_PEER_FAILED_VERIFICATION where destination.kind == .sftp,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            let seen = destination.kind == .sftp ? hostKey.seen : certificatePin()
            let trusted = destination.fingerprint
            let known = fill(
                tr(
                    "{host}'s key is {seen}, not the {trusted} trusted for {destination}: refused, in case another server is answering in its place"
                ),
                values.merging(["seen": seen ?? "?", "trusted": trusted ?? ""]) { $1 })
            let unknown = fill(
                tr(
                    "{host}'s key is {seen}, which is not trusted yet: if the agency confirms it, add the destination again with --fingerprint {seen}"
                ),
                values.merging(["seen": seen ?? "?"]) { $1 })
            return SendError(.unknownServer(seen: seen), trusted == nil ? unknown : known)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            let seen = certificatePin()
            return SendError(
                .unknownServer(seen: seen),
                fill(
                    tr(
                        "{host}'s certificate is signed by no authority this computer trusts; its key is {seen}: if the agency confirms it, add the destination again with --fingerprint {seen}"
                    ),
                    values.merging(["seen": seen ?? "?"]) { $1 }))
        case CURLE_USE_SSL_FAILED, CURLE_SSL_CONNECT_ERROR:
            return SendError(.other, fill(tr("{host} offers no encryption that Caption accepts: {reason}"), values))
        case CURLE_REMOTE_DISK_FULL:
            return SendError(.serverFull, fill(tr("{host} has no room left: {reason}"), values))
        case CURLE_UPLOAD_FAILED:
            if response == 452 || response == 552 {
                return SendError(.serverFull, fill(tr("{host} has no room left: {reason}"), values))
            }
            return SendError(.folderRefused, fill(tr("{host} refused the file: {reason}"), values))
        case CURLE_REMOTE_ACCESS_DENIED, CURLE_REMOTE_FILE_NOT_FOUND, CURLE_QUOTE_ERROR:
            return SendError(.folderRefused, fill(tr("{host} refused the folder or the file: {reason}"), values))
        default:
            return SendError(.other, fill(tr("sending to {host} failed: {reason}"), values))
        }
    }
}

/// The SFTP server's host key against the one trusted; what it showed is kept, for the
/// message when it is refused.
final class HostKeyCheck: @unchecked Sendable {
    let trusted: String?
    /// Written on libcurl's call during the connection, read after it on the same thread.
    private(set) var seen: String?

    init(trusted: String?) { self.trusted = trusted }

    func accepts(_ key: UnsafeRawBufferPointer) -> Bool {
        let fingerprint = "SHA256:" + Certificate.base64(Certificate.sha256(key), padded: false)
        seen = fingerprint
        return trusted == fingerprint
    }
}
