// The command line's watched folder, parsed: what it makes, and the mistakes that exit 2.

import Testing

@testable import CaptionCommand

@Suite("Arguments: --watch, --subfolders")
struct WatchArgumentsTests {
    @Test(
        "watch requests",
        arguments: [
            (["--watch", "in"], Request.window(library: nil, photos: [], watch: "in", subfolders: false)),
            (
                ["--library", "lib", "--watch=in", "--subfolders", "a.jpg"],
                .window(library: "lib", photos: ["a.jpg"], watch: "in", subfolders: true)
            ),
            (["a.jpg"], .window(library: nil, photos: ["a.jpg"])),
        ])
    func parses(arguments: [String], expected: Request) throws {
        #expect(try Arguments.parse(arguments) == expected)
    }

    @Test(
        "watch mistakes",
        arguments: [
            (["--subfolders"], "--subfolders goes with --watch"),
            (["--watch"], "option --watch needs a value"),
            (["--watch", ""], "--watch needs a folder"),
            (["--watch", "in", "--list"], "--watch opens the window"),
            (["--subfolders=yes", "--watch", "in"], "option --subfolders takes no value"),
        ])
    func refuses(arguments: [String], message: String) {
        expectRefused(arguments, message)
    }

    @Test func theHelpNamesBothOptions() {
        #expect(Arguments.helpText.contains("--watch DIR"))
        #expect(Arguments.helpText.contains("--subfolders"))
    }
}
