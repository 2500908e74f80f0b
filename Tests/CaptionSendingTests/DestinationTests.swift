// Destinations as the user writes them: addresses read, refused with a reason, written
// back; the certificate's key pinned as openssl computes it; the command line's options.

import CaptionCommand
import CaptionTestSupport
import Foundation
import Testing

@testable import CaptionSending

@Suite struct DestinationTests {
    @Test func addressesAreReadAsUsersWriteThem() throws {
        let sftp = try Destination(name: " Agency ", address: "sftp://ana@photos.example.org:2222/incoming/wire")
        #expect(sftp.name == "Agency")
        #expect(sftp.kind == .sftp)
        #expect(sftp.host == "photos.example.org")
        #expect(sftp.port == 2222)
        #expect(sftp.user == "ana")
        #expect(sftp.folder == "/incoming/wire/")
        #expect(sftp.address == "sftp://ana@photos.example.org:2222/incoming/wire/")
        #expect(sftp.url(of: "A photo.jpg") == "sftp://photos.example.org:2222/incoming/wire/A%20photo.jpg")

        let home = try Destination(name: "Home", address: "sftp://ana@host")
        #expect(home.folder == "~/")
        #expect(home.url(of: "x.jpg") == "sftp://host/~/x.jpg")

        let ftp = try Destination(name: "Wire", address: "ftp://desk%40paper@ftp.example.org/in")
        #expect(ftp.kind == .ftp)
        #expect(ftp.user == "desk@paper")
        #expect(ftp.port == nil)
        #expect(ftp.folder == "in/")
        #expect(ftp.address == "ftp://desk%40paper@ftp.example.org/in/")
        #expect(ftp.url(of: "Été.jpg") == "ftp://ftp.example.org/in/%C3%89t%C3%A9.jpg")

        let ftps = try Destination(name: "Secure", address: "FTPS://u@[::1]:2121/")
        #expect(ftps.kind == .ftps)
        #expect(ftps.host == "::1")
        #expect(ftps.url(of: "a.jpg") == "ftp://[::1]:2121/a.jpg")

        let folder = try Destination(name: "Outbox", address: "file:///srv/out%20box")
        #expect(folder.kind == .folder)
        #expect(folder.folder == "/srv/out box/")
        #expect(try Destination(name: "Outbox", address: "/srv/out").folder == "/srv/out/")
    }

    @Test(arguments: [
        ("http://u@host/", "not by http://"),
        ("ftp://u:secret@host/", "put no password in the address"),
        ("sftp://host/in/", "names no user"),
        ("ftp:///in/", "names no server"),
        ("photos.example.org", "is no address"),
        ("", "is no address"),
    ])
    func anAddressThatNamesNoDestinationIsRefusedWithTheReason(address: String, reason: String) {
        #expect {
            try Destination(name: "Agency", address: address)
        } throws: { error in
            (error as? DestinationError)?.message.contains(reason) == true
        }
    }

    @Test(arguments: ["", "  ", "[Agency]", "two\nlines", "tab\there"])
    func aNameAKeyFileCannotHoldIsRefused(name: String) {
        #expect(throws: DestinationError.self) { try Destination(name: name, address: "ftp://u@host/") }
    }

    @Test func destinationsAreKeptInTheirFileAndReadBack() throws {
        let scratch = Scratch()
        let path = scratch.file("caption/destinations.ini")
        let sftp = try Destination(name: "Agency", address: "sftp://ana@host:22/in/", fingerprint: "SHA256:abc")
        let folder = try Destination(name: "Outbox", address: "/srv/out/")
        #expect(DestinationFile.save(sftp, to: path) == nil)
        #expect(DestinationFile.save(folder, to: path) == nil)
        #expect(DestinationFile.read(path) == DestinationFile.Reading(destinations: [sftp, folder], problems: []))
        var moved = sftp
        moved.folder = "/out/"
        #expect(DestinationFile.save(moved, to: path) == nil)
        #expect(DestinationFile.read(path).destinations == [folder, moved])
        #expect(DestinationFile.remove("Outbox", from: path) == nil)
        #expect(DestinationFile.read(path).destinations == [moved])
    }

    @Test func aDestinationEditedIntoNonsenseIsNamedAndTheOthersStay() throws {
        let scratch = Scratch()
        let path = scratch.write(
            "destinations.ini", Array("[Broken]\naddress=gopher://x/\n\n[Fine]\naddress=ftp://u@host/\n".utf8))
        let reading = DestinationFile.read(path)
        #expect(reading.destinations.map(\.name) == ["Fine"])
        #expect(reading.problems.count == 1)
        #expect(reading.problems.first?.contains("destination “Broken”: Caption sends by ftp://") == true)
    }

    @Test func theCertificatesKeyIsPinnedAsOpenSSLComputesIt() throws {
        let scratch = Scratch()
        for key in ["rsa:2048", "ec"] {
            let pem = scratch.file("cert-\(key).pem")
            let arguments =
                key == "ec"
                ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"] : ["-newkey", key]
            let made = try Tool.run(
                "openssl",
                ["req", "-x509", "-nodes", "-days", "1", "-subj", "/CN=test"] + arguments
                    + ["-keyout", scratch.file("key.pem"), "-out", pem])
            try #require(made.status == 0, "\(made.stderr)")
            let pin = try Tool.run(
                "/bin/sh",
                [
                    "-c",
                    "openssl x509 -in \"$1\" -pubkey -noout | openssl pkey -pubin -outform der"
                        + " | openssl dgst -sha256 -binary | base64",
                    "sh", pem,
                ])
            let text = try String(contentsOfFile: pem, encoding: .utf8)
            #expect(
                Certificate.publicKeyPin(pem: text)
                    == "sha256//" + pin.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(Certificate.publicKeyPin(pem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----") == nil)
        #expect(Certificate.subjectPublicKeyInfo([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]) == nil)
    }

    @Test func theCommandLineAsksForDestinationsAsTheHelpSays() throws {
        #expect(try Arguments.parse(["--destinations"]) == .destinations(.list))
        #expect(
            try Arguments.parse(["--add-destination", "Agency", "sftp://u@h/", "--fingerprint", "SHA256:x"])
                == .destinations(.add(name: "Agency", address: "sftp://u@h/", fingerprint: "SHA256:x")))
        #expect(try Arguments.parse(["--remove-destination", "Agency"]) == .destinations(.remove("Agency")))
        #expect(
            try Arguments.parse(["--send", "Agency", "--id", "3", "--library", "/l", "--id", "3", "--id", "1"])
                == .send(library: "/l", destination: "Agency", ids: [3, 1]))
        #expect(
            try Arguments.parse(["--import", "s.csv", "--send", "Agency", "--in-place"])
                == .importSheet(library: nil, sheet: "s.csv", into: .photo, send: "Agency"))
    }

    @Test(arguments: [
        (["--send", "Agency"], "--send needs the entries to send"),
        (["--send", "Agency", "--id", "x"], "--id needs an entry number"),
        (["--send", "Agency", "--id", "1", "--list"], "go alone"),
        (["--add-destination", "Agency"], "needs a name and an address"),
        (["--add-destination", "A", "ftp://u@h/", "extra"], "go alone"),
        (["--destinations", "--send", "A"], "go alone"),
        (["--fingerprint", "SHA256:x"], "--fingerprint goes with --add-destination"),
        (["--destinations=yes"], "takes no value"),
    ])
    func aCommandLineThatMixesThemIsRefused(arguments: [String], message: String) {
        #expect {
            try Arguments.parse(arguments)
        } throws: { error in
            (error as? UsageError)?.message.contains(message) == true
        }
    }
}
