// Photos named by file:// URIs, as a desktop entry's %U passes them, become local paths.

import Testing

@testable import CaptionCommand

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
        ])
    func unchanged(argument: String) {
        #expect(FileURI.path(fromArgument: argument) == argument)
    }
}
