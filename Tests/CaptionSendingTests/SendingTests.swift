// Sending to real servers: vsftpd (FTP, FTPS) and OpenSSH (SFTP) on local ports, the
// passwords in gnome-keyring's Secret Service (make test starts them: with-file-servers,
// with-keyring). What arrives is read back from the server's folder and by exiftool.

import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionSending

/// The test servers, from with-file-servers; a test that needs them fails without them.
struct Servers {
    let ftp: String
    let ftps: String
    let sftp: String
    let password: String
    let home: String
    let sftpKey: String
    let sftpPort: Int

    init() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let ftp = environment["CAPTION_TEST_FTP"], let ftps = environment["CAPTION_TEST_FTPS"],
            let sftp = environment["CAPTION_TEST_SFTP"], let password = environment["CAPTION_TEST_SEND_PASSWORD"],
            let home = environment["CAPTION_TEST_SEND_HOME"], let key = environment["CAPTION_TEST_SFTP_KEY"]
        else {
            throw ToolFailure(
                description: "no test servers: run the tests under build-aux/with-file-servers, as make test does")
        }
        self.ftp = ftp
        self.ftps = ftps
        self.sftp = sftp
        self.password = password
        self.home = home
        sftpKey = key
        // sftp://USER@127.0.0.1:PORT/…
        let afterHost = sftp.split(separator: "@")[1].split(separator: "/")[0]
        sftpPort = Int(afterHost.split(separator: ":")[1]) ?? 0
    }

    /// The SFTP server reached through a relay on `port`, its folder `folder`.
    func sftpDestination(through port: Int, folder: String) throws -> Destination {
        let user = sftp.split(separator: "@")[0].dropFirst("sftp://".count)
        return try Destination(
            name: "Relayed", address: "sftp://\(user)@127.0.0.1:\(port)" + home + "/" + folder + "/",
            fingerprint: sftpKey)
    }

    /// A folder of the test's own on the servers (the same home behind all three).
    func folder() -> (name: String, path: String) {
        let name = "t-" + UUID().uuidString.prefix(8).lowercased()
        return (name, home + "/" + name)
    }
}

/// A library with the sample photo saved under each title given, and the command line's
/// settings kept in folders of the test's own.
final class Desk: @unchecked Sendable {
    let scratch = Scratch("caption-send")
    let library: String
    var environment: [String: String]

    init(titles: [String] = ["Harbour at dawn"]) throws {
        library = scratch.file("library")
        environment = [
            "XDG_CONFIG_HOME": scratch.folder("config"), "XDG_CACHE_HOME": scratch.folder("cache"),
        ]
        let opened = try Library(directory: library)
        for (index, title) in titles.enumerated() {
            _ = try opened.add(
                photoAt: Desk.sample, words: CaptionWords(title: title, subtitle: "Boats come in, \(index + 1)"))
        }
    }

    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/samples/harbour.jpg").path

    func caption(_ arguments: [String], input: String? = nil) throws -> Outcome {
        try Caption.run(arguments, environment: environment, input: input)
    }

    var destinationsFile: String { environment["XDG_CONFIG_HOME"]! + "/caption/destinations.ini" }
}

/// A name no other test's destination has: the keyring is shared by the whole run.
func uniqueName(_ prefix: String) -> String { prefix + " " + UUID().uuidString.prefix(8) }

func exiftool(_ arguments: [String]) throws -> String {
    let outcome = try Tool.run("exiftool", arguments)
    try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
    return outcome.stdout
}

@Suite struct SendingToServersTests {
    @Test func aPhotoSentOverSFTPArrivesWholeWithItsCaption() throws {
        let servers = try Servers()
        let desk = try Desk()
        let (folderName, folder) = servers.folder()
        let name = uniqueName("Agency")
        let added = try desk.caption(
            ["--add-destination", name, servers.sftp + folderName + "/", "--fingerprint", servers.sftpKey],
            input: servers.password + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        let sent = try desk.caption(["--library", desk.library, "--send", name, "--id", "1"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout == "Sent entry 1 to \(name): Harbour at dawn.jpg\n")
        #expect(desk.scratch.names(in: folder) == ["Harbour at dawn.jpg"])
        let read = try exiftool(["-s3", "-Title", "-Description", folder + "/Harbour at dawn.jpg"])
        #expect(read == "Harbour at dawn\nBoats come in, 1\n")
    }

    @Test func aPhotoSentOverFTPAndFTPSArrivesWholeWithItsCaption() throws {
        let servers = try Servers()
        let desk = try Desk(titles: ["Quay", "Lighthouse"])
        let (folderName, folder) = servers.folder()
        let plain = uniqueName("Wire")
        #expect(
            try desk.caption(["--add-destination", plain, servers.ftp + folderName + "/"], input: servers.password)
                .status == 0)
        let pin = try publicKeyPin(of: servers.ftps)
        let secure = uniqueName("Secure wire")
        let added = try desk.caption(
            ["--add-destination", secure, servers.ftps + folderName + "/tls/", "--fingerprint", pin],
            input: servers.password)
        #expect(added.status == 0, "\(added.stderr)")
        let sent = try desk.caption(["--library", desk.library, "--send", plain, "--id", "2", "--id", "1"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout == "Sent entry 2 to \(plain): Lighthouse.jpg\nSent entry 1 to \(plain): Quay.jpg\n")
        let sentSecurely = try desk.caption(["--library", desk.library, "--send", secure, "--id", "2"])
        #expect(sentSecurely.status == 0, "\(sentSecurely.stderr)")
        #expect(desk.scratch.names(in: folder) == ["Lighthouse.jpg", "Quay.jpg", "tls"])
        #expect(desk.scratch.names(in: folder + "/tls") == ["Lighthouse.jpg"])
        #expect(try exiftool(["-s3", "-Title", folder + "/Quay.jpg"]) == "Quay\n")
        #expect(try exiftool(["-s3", "-Title", folder + "/tls/Lighthouse.jpg"]) == "Lighthouse\n")
    }

    @Test func sendingAgainReplacesTheFileTheServerHas() throws {
        let servers = try Servers()
        let desk = try Desk()
        let (folderName, folder) = servers.folder()
        let name = uniqueName("Agency")
        _ = try desk.caption(
            ["--add-destination", name, servers.sftp + folderName + "/", "--fingerprint", servers.sftpKey],
            input: servers.password)
        #expect(try desk.caption(["--library", desk.library, "--send", name, "--id", "1"]).status == 0)
        let opened = try Library(directory: desk.library)
        _ = try opened.update(id: 1, words: CaptionWords(title: "Harbour at dawn", subtitle: "Corrected"))
        let again = try desk.caption(["--library", desk.library, "--send", name, "--id", "1"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(desk.scratch.names(in: folder) == ["Harbour at dawn.jpg"])
        #expect(try exiftool(["-s3", "-Description", folder + "/Harbour at dawn.jpg"]) == "Corrected\n")
    }

    @Test func anUnknownServerKeyIsRefusedAndShownAndNothingIsKept() throws {
        let servers = try Servers()
        let desk = try Desk()
        let name = uniqueName("Agency")
        let refused = try desk.caption(["--add-destination", name, servers.sftp], input: servers.password)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("key is \(servers.sftpKey), which is not trusted yet"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--fingerprint \(servers.sftpKey)"))
        #expect(!FileManager.default.fileExists(atPath: desk.destinationsFile))
        #expect(try Passwords.password(for: name) == nil)
    }

    @Test func aChangedServerKeyIsRefusedBeforeTheLogin() throws {
        let servers = try Servers()
        let desk = try Desk()
        let name = uniqueName("Agency")
        let other = "SHA256:" + String(repeating: "A", count: 43)
        let refused = try desk.caption(
            ["--add-destination", name, servers.sftp, "--fingerprint", other], input: servers.password)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("key is \(servers.sftpKey), not the \(other) trusted"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: desk.destinationsFile))
    }

    @Test func aCertificateNoAuthoritySignedIsShownByItsKeyAndAWrongPinRefused() throws {
        let servers = try Servers()
        let desk = try Desk()
        let pin = try publicKeyPin(of: servers.ftps)
        let unknown = try desk.caption(
            ["--add-destination", uniqueName("Secure"), servers.ftps], input: servers.password)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("signed by no authority"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("--fingerprint \(pin)"), "\(unknown.stderr)")
        let wrong = try desk.caption(
            [
                "--add-destination", uniqueName("Secure"), servers.ftps, "--fingerprint",
                "sha256//" + String(repeating: "A", count: 43) + "=",
            ],
            input: servers.password)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("key is \(pin), not the"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: desk.destinationsFile))
    }

    @Test func aWrongPasswordIsSaidAndNothingIsKept() throws {
        let servers = try Servers()
        let desk = try Desk()
        for address in [servers.ftp, servers.sftp] {
            let name = uniqueName("Agency")
            let refused = try desk.caption(
                ["--add-destination", name, address, "--fingerprint", servers.sftpKey], input: "not the password\n")
            #expect(refused.status == 1)
            #expect(refused.stderr == "caption: 127.0.0.1 refused the user name or the password\n")
            #expect(try Passwords.password(for: name) == nil)
        }
        #expect(!FileManager.default.fileExists(atPath: desk.destinationsFile))
    }

    @Test func thePasswordIsInTheKeyringAndNeverInTheFile() throws {
        let servers = try Servers()
        let desk = try Desk()
        let name = uniqueName("Agency")
        let added = try desk.caption(["--add-destination", name, servers.ftp], input: servers.password)
        #expect(added.status == 0, "\(added.stderr)")
        let file = try String(contentsOfFile: desk.destinationsFile, encoding: .utf8)
        #expect(file.contains("[\(name)]"))
        #expect(!file.contains(servers.password))
        #expect(try Passwords.password(for: name) == servers.password)
        // secret-tool, as Seahorse would find it.
        let looked = try Tool.run("secret-tool", ["lookup", "destination", name])
        #expect(looked.stdout == servers.password)
        let removed = try desk.caption(["--remove-destination", name])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try Passwords.password(for: name) == nil)
        #expect(try desk.caption(["--destinations"]).stdout.contains(name) == false)
    }

    @Test func aSheetIsSavedAndSentInOneProcess() throws {
        let servers = try Servers()
        let desk = try Desk(titles: [])
        let (folderName, folder) = servers.folder()
        let name = uniqueName("Agency")
        _ = try desk.caption(
            ["--add-destination", name, servers.sftp + folderName + "/", "--fingerprint", servers.sftpKey],
            input: servers.password)
        var lines = ["SourceFile,Title,Description"]
        for (index, title) in ["Quay", "Nets"].enumerated() {
            let photo = desk.scratch.file("\(index).jpg")
            try FileManager.default.copyItem(atPath: Desk.sample, toPath: photo)
            lines.append("\(photo),\(title),Row \(index + 1)")
        }
        // A row that cannot be saved is said, and the others are sent.
        lines.append(desk.scratch.file("missing.jpg") + ",Gone,Row 3")
        let sheet = desk.scratch.write("sheet.csv", Array((lines.joined(separator: "\n") + "\n").utf8))
        let outcome = try desk.caption(["--library", desk.library, "--import", sheet, "--send", name])
        #expect(outcome.status == 1, "a row was not saved")
        #expect(outcome.stderr.contains("sheet.csv:4: "), "\(outcome.stderr)")
        #expect(
            outcome.stdout
                == "Saved entry 1\nSaved entry 2\nSent entry 1 to \(name): Quay.jpg\nSent entry 2 to \(name): Nets.jpg\n"
        )
        #expect(desk.scratch.names(in: folder) == ["Nets.jpg", "Quay.jpg"])
        #expect(try exiftool(["-s3", "-Description", folder + "/Nets.jpg"]) == "Row 2\n")
        // A destination that does not exist saves nothing.
        let unknown = try desk.caption(["--library", desk.library, "--import", sheet, "--send", "Nowhere at all"])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.isEmpty)
        #expect(try Library(directory: desk.library).entries().count == 2)
    }

    @Test func aServerThatIsDownIsTriedAgainThenSaid() throws {
        let desk = try Desk()
        // A port nothing listens on: taken from the kernel and let go.
        let port = try freePort()
        let destination = try Destination(name: "Down", address: "sftp://someone@127.0.0.1:\(port)/in/")
        let library = try Library(directory: desk.library)
        var waits: [Double] = []
        #expect {
            try Sender.send(
                try library.entries(), from: library, to: destination, password: "x", backOff: [0.05, 0.1],
                retrying: { error, wait in
                    #expect(error.kind == .unreachable)
                    waits.append(wait)
                })
        } throws: { error in
            (error as? SendError)?.kind == .unreachable
                && (error as? SendError)?.message.hasPrefix("127.0.0.1 could not be reached") == true
        }
        #expect(waits == [0.05, 0.1])
    }

    @Test func aConnectionCutInTheMiddleLeavesNothingUnderTheNameAndTheRetryCompletes() throws {
        let servers = try Servers()
        let desk = try Desk()
        let (folderName, folder) = servers.folder()
        // A photo of a few megabytes, so the cut falls well inside it.
        let big = desk.scratch.file("big.jpg")
        let made = try Tool.run("convert", ["-size", "3000x2000", "plasma:", "-quality", "95", big])
        try #require(made.status == 0, "\(made.stderr)")
        let library = try Library(directory: desk.library)
        let entry = try library.add(photoAt: big, words: CaptionWords(title: "Cut", subtitle: "In the middle"))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        let relay = try FaultyRelay(serverPort: servers.sftpPort, after: size / 2, .cut)
        defer { relay.stop() }
        let destination = try servers.sftpDestination(through: relay.port, folder: folderName)
        // Without a second try: the cut is said, and the folder has no "Cut.jpg".
        #expect {
            try Sender.send([entry], from: library, to: destination, password: servers.password, backOff: [])
        } throws: { error in
            (error as? SendError)?.kind == .interrupted
                && (error as? SendError)?.message.contains("the connection was cut") == true
        }
        #expect(!desk.scratch.names(in: folder).contains("Cut.jpg"))
        // The relay passes the next connection whole: sent, complete, once.
        var sent: [SentFile] = []
        try Sender.send(
            [entry], from: library, to: destination, password: servers.password, backOff: [],
            sent: { sent.append($0) })
        #expect(sent == [SentFile(entryID: entry.id, name: "Cut.jpg")])
        #expect(desk.scratch.names(in: folder).filter { !$0.hasPrefix(".") } == ["Cut.jpg"])
        #expect(try exiftool(["-s3", "-Title", "-ImageSize", folder + "/Cut.jpg"]) == "Cut\n3000x2000\n")
    }

    @Test func aServerThatStopsAnsweringIsGivenUpOnAndTheRetryCompletes() throws {
        let servers = try Servers()
        let desk = try Desk()
        let (folderName, folder) = servers.folder()
        let library = try Library(directory: desk.library)
        let entry = try #require(try library.entry(id: 1))
        // Silent from the middle of the upload on.
        let relay = try FaultyRelay(serverPort: servers.sftpPort, after: 30_000, .stall)
        defer { relay.stop() }
        let destination = try servers.sftpDestination(through: relay.port, folder: folderName)
        var retried: [SendError.Kind] = []
        try Sender.send(
            [entry], from: library, to: destination, password: servers.password,
            patience: Patience(stalled: 2), backOff: [0.1],
            retrying: { error, _ in retried.append(error.kind) })
        #expect(retried == [.connectionLost])
        #expect(desk.scratch.names(in: folder).filter { !$0.hasPrefix(".") } == ["Harbour at dawn.jpg"])
        #expect(try exiftool(["-s3", "-Title", folder + "/Harbour at dawn.jpg"]) == "Harbour at dawn\n")
    }

    @Test(arguments: ["ftp", "sftp"])
    func aServerWithItsDiskFullIsSaidAndLeavesNothingBehind(scheme: String) throws {
        let servers = try Servers()
        let desk = try Desk()
        // Larger than the 1 MB the server's "full" folder holds.
        let big = desk.scratch.file("big.jpg")
        let made = try Tool.run("convert", ["-size", "1500x1000", "plasma:", "-quality", "98", big])
        try #require(made.status == 0, "\(made.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        try #require(size > 1 << 20)
        let library = try Library(directory: desk.library)
        let entry = try library.add(photoAt: big, words: CaptionWords(title: "Too big", subtitle: "For the disk"))
        let address = scheme == "ftp" ? servers.ftp + "full/" : servers.sftp + "full/"
        let destination = try Destination(name: "Full", address: address, fingerprint: servers.sftpKey)
        var retried = 0
        #expect {
            try Sender.send(
                [entry], from: library, to: destination, password: servers.password, backOff: [0.05],
                retrying: { _, _ in retried += 1 })
        } throws: { error in
            guard let error = error as? SendError else { return false }
            // vsftpd's 451 says the disk; SFTP as libcurl reports it says a cut and a full disk
            // alike, and so does FTP when the upload meets the closed data connection (a
            // broken pipe) before the 451: both are said as both.
            let said =
                error.kind == .serverFull
                && error.message.hasPrefix("127.0.0.1 could not store the file; its disk may be full")
            let either = error.kind == .interrupted && error.message.contains("its disk may be full")
            return scheme == "ftp" ? said || either : either
        }
        #expect(retried == 1)
        #expect(desk.scratch.names(in: servers.home + "/full") == [])
    }

    @Test func aFolderDestinationGetsTheExportedPhoto() throws {
        let desk = try Desk()
        // Not there yet: the first photo makes it.
        let target = desk.scratch.file("outbox/today")
        let blocked = desk.scratch.write("file", [1])
        let refused = try desk.caption(["--add-destination", uniqueName("Blocked"), blocked + "/outbox"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot be written: Not a directory"), "\(refused.stderr)")
        let name = uniqueName("Outbox")
        let added = try desk.caption(["--add-destination", name, target])
        #expect(added.status == 0, "\(added.stderr)")
        let sent = try desk.caption(["--library", desk.library, "--send", name, "--id", "1"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(desk.scratch.names(in: target) == ["Harbour at dawn.jpg"])
    }
}

/// The FTPS server's public key, pinned as libcurl pins one, computed by openssl.
func publicKeyPin(of address: String) throws -> String {
    let hostPort = String(address.split(separator: "@")[1].split(separator: "/")[0])
    let outcome = try Tool.run(
        "/bin/sh",
        [
            "-c",
            "openssl s_client -connect \"$1\" -starttls ftp </dev/null 2>/dev/null | openssl x509 -pubkey -noout"
                + " | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
            "sh", hostPort,
        ])
    let pin = outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(outcome.status == 0 && pin.count == 44, "openssl: \(outcome.stderr)")
    return "sha256//" + pin
}

func freePort() throws -> Int {
    let outcome = try Tool.run(
        "python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
    return try #require(Int(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
}

/// faulty-relay.py, running: its port, and stopped when done.
final class FaultyRelay {
    enum Fault: String {
        case cut
        case stall
    }

    let pid: pid_t
    let port: Int

    init(serverPort: Int, after count: Int, _ fault: Fault) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "faulty-relay.py"
        )
        .path
        let started = try Tool.start("/usr/bin/python3", [script, String(serverPort), String(count), fault.rawValue])
        pid = started.pid
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")) {
            let some = Tool.readSome(started.output)
            if some.isEmpty { break }
            line += some
        }
        close(started.output)
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            kill(pid, SIGKILL)
            _ = Caption.wait(pid)
            throw ToolFailure(description: "faulty-relay.py did not start")
        }
        self.port = port
    }

    func stop() {
        kill(pid, SIGKILL)
        _ = Caption.wait(pid)
    }
}
