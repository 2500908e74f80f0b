// Photos named by file:// URIs, as a desktop entry's %U passes them or a file manager drops
// them, become local paths; only this machine's.

import CaptionLibrary
import POSIXFiles
import Testing

@Suite("File URIs on the command line")
struct FileURITests {
    @Test(
        "file URIs become percent-decoded paths",
        arguments: [
            ("file:///home/ana/harbour.jpg", "/home/ana/harbour.jpg"),
            ("file:///home/ana/My%20Photos/%E6%B8%AF%E5%8F%A3.jpg", "/home/ana/My Photos/港口.jpg"),
            ("file://localhost/tmp/a%25b.png", "/tmp/a%b.png"),
            ("FILE:///tmp/x.png", "/tmp/x.png"),
        ])
    func decoded(uri: String, path: String) {
        #expect(FileURI.path(fromArgument: uri) == path)
    }

    @Test(
        "anything else is left as given",
        arguments: [
            "harbour.jpg", "/tmp/file:///x.png", "file://otherhost/x.png", "https://example.org/x.png",
            "file:///tmp/bad%zz.png", "file:///tmp/nul%00.png", "file:///tmp/x.png#frag", "-",
            "file:///tmp/x.png?query", "file://OTHERHOST/tmp/x.png",
        ])
    func unchanged(argument: String) {
        #expect(FileURI.path(fromArgument: argument) == argument)
    }

    @Test func anotherMachinesFileIsNoLocalPath() {
        // GLib alone would answer "/photos/x.jpg", a different file on this machine.
        #expect(FileURI.localPath("file://camera-server/photos/x.jpg") == nil)
        #expect(FileURI.localPath("file://LocalHost/photos/x.jpg") == "/photos/x.jpg")
        #expect(FileURI.localPath("https://example.org/x.jpg") == nil)
        #expect(FileURI.localPath("/photos/x.jpg") == nil, "a path is not a URI")
    }

    @Test func aNameThatIsNotUTF8KeepsItsBytesThereAndBack() throws {
        let name = FilePath.string(fromBytes: Array("/tmp/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let uri = try #require(FileURI.uri(of: name))
        #expect(uri == "file:///tmp/caf%E9.jpg")
        let back = try #require(FileURI.localPath(uri))
        #expect(back.pathBytes.dropLast() == name.pathBytes.dropLast())
        #expect(back.pathBytes.contains(CChar(bitPattern: 0xE9)))
    }
}
