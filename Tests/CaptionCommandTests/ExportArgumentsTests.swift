// The command line's export options, parsed: what they make, and the mistakes that exit 2.

import Testing

@testable import CaptionCommand

@Suite("Arguments: --export, --id, --sidecar")
struct ExportArgumentsTests {
    @Test(
        "export requests",
        arguments: [
            (["--export", "out"], Request.export(library: nil, folder: "out", ids: [], into: .photo)),
            (
                ["--library", "lib", "--export=out", "--sidecar"],
                .export(library: "lib", folder: "out", ids: [], into: .sidecar)
            ),
            (
                ["--export", "out", "--id", "3", "--id=1", "--id", "3"],
                .export(library: nil, folder: "out", ids: [3, 1], into: .photo)
            ),
            (
                ["--sidecar", "--id", "2", "--export", "-"],
                .export(library: nil, folder: "-", ids: [2], into: .sidecar)
            ),
            (["--add", "p.jpg"], .add(library: nil, photo: "p.jpg", words: [:])),
            (["--add", "p.jpg", "--title", ""], .add(library: nil, photo: "p.jpg", words: [.title: ""])),
            (
                ["--add", "p.jpg", "--in-place"],
                .add(library: nil, photo: "p.jpg", words: [:], into: .photo)
            ),
            (
                ["--add", "p.jpg", "--sidecar"],
                .add(library: nil, photo: "p.jpg", words: [:], into: .sidecar)
            ),
            (["--write-back"], .writeBack(library: nil, ids: [], into: .photo)),
            (
                ["--write-back", "--sidecar", "--id", "3", "--id", "3"],
                .writeBack(library: nil, ids: [3], into: .sidecar)
            ),
        ])
    func parses(arguments: [String], request: Request) throws {
        #expect(try Arguments.parse(arguments) == request)
    }

    @Test(
        "mistakes with the export options are usage errors that say what is wrong",
        arguments: [
            (["--export"], "option --export needs a value"),
            (["--export", ""], "--export needs a folder"),
            (["--export", "out", "photo.jpg"], "--export takes no photo; unexpected photo.jpg"),
            (
                ["--export", "out", "--list"],
                "use only one of --add, --import, --list, --remove, --export, --write-back and --check"
            ),
            (
                ["--export", "out", "--add", "p.jpg"],
                "use only one of --add, --import, --list, --remove, --export, --write-back and --check"
            ),
            (["--id", "3"], "--id goes with --export or --write-back"),
            (["--sidecar"], "--sidecar goes with --add, --import, --export or --write-back"),
            (["--in-place"], "--in-place goes with --add or --import"),
            (["--add", "p.jpg", "--in-place", "--sidecar"], "use either --in-place or --sidecar"),
            (["--write-back", "p.jpg"], "--write-back takes no photo; unexpected p.jpg"),
            (
                ["--write-back", "--list"],
                "use only one of --add, --import, --list, --remove, --export, --write-back and --check"
            ),
            (["--write-back", "--id", "x"], "--id needs an entry number, not “x”"),
            (["--export", "out", "--id", "x"], "--id needs an entry number, not “x”"),
            (["--export", "out", "--id", "0"], "--id needs an entry number, not “0”"),
            (["--export", "out", "--sidecar=yes"], "option --sidecar takes no value"),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try Arguments.parse(arguments) }
    }

    @Test("--help names the export options and says --add takes missing words from the photo")
    func help() {
        let help = Arguments.helpText
        for text in [
            "--export DIR [--id ID]... [--sidecar]", "  --export DIR ", "  --id ID ", "  --sidecar ",
            "either left out is taken from its sidecar or its metadata",
            "--write-back [--sidecar] [--id ID]...", "  --write-back ", "  --in-place ",
        ] {
            #expect(help.contains(text), "\(text)")
        }
    }
}
