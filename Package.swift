// swift-tools-version:6.0
// Caption: give photos a title and a subtitle from the keyboard. Only the toolchain and
// system C libraries (GTK 3, GLib, GdkPixbuf, SQLite, zlib, exempi, LibRaw, libheif, libtiff, gspell,
// libpq, libcurl, libsecret)
// are used, so every dependency is one a distribution already ships.
import PackageDescription

let package = Package(
    name: "Caption",
    products: [
        .executable(name: "caption", targets: ["caption"])
    ],
    targets: [
        .systemLibrary(
            name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk+-3.0",
            providers: [.apt(["libgtk-3-dev"])]),
        .systemLibrary(
            name: "CPixbuf", path: "Sources/CPixbuf", pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .systemLibrary(name: "CIntl", path: "Sources/CIntl"),
        // SQLite, exempi, LibRaw, libheif, libtiff and gspell are opened when first needed (dlopen),
        // not linked, so that they cost start-up nothing: their modules name no library to
        // link (and no pkg-config package, whose flags would link it), and gspell's types
        // are declared in its shim. SQLite's, exempi's, LibRaw's, libheif's and libtiff's headers are
        // read for their types and constants.
        // SQLite's and exempi's openers are compiled C, so that the program has one table of
        // each one's functions, filled by the one opener (CLibraryOpener).
        .target(name: "CLibraryOpener"),
        .target(name: "CSQLite", dependencies: ["CLibraryOpener"]),
        .target(name: "CExempi", dependencies: ["CLibraryOpener"]),
        .systemLibrary(name: "CLibRaw", path: "Sources/CLibRaw", providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CHeif", path: "Sources/CHeif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CTiff", path: "Sources/CTiff", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto"),
        .systemLibrary(name: "CGspell", path: "Sources/CGspell", pkgConfig: "gtk+-3.0"),
        .target(name: "CMetadataSupport", linkerSettings: [.linkedLibrary("z")]),
        // Formats in one place: sniffing, a bounds-checked byte reader and the JPEG, PNG,
        // RIFF, TIFF and ISO-BMFF walkers. Pure Swift, for intake, metadata and the previews.
        .target(name: "PhotoFormats"),
        // The POSIX file helpers the library and the exporter share.
        .target(name: "POSIXFiles"),
        .target(name: "CaptionText"),
        .target(name: "FocusEngine", dependencies: ["CaptionText", "Localization"]),
        .target(name: "Threads"),
        // Start-up's phases marked on standard error, when asked for (docs/performance.md).
        .target(name: "CStartupTrace"),
        .target(name: "StartupTrace", dependencies: ["CStartupTrace", "Threads"]),
        .target(name: "JPEGPreview", dependencies: ["Threads", "PhotoFormats", "POSIXFiles"]),
        .target(name: "Localization", dependencies: ["CIntl"]),
        // Pictures in memory: an owning GdkPixbuf, shared by the library and the window.
        .target(name: "Pixbufs", dependencies: ["CPixbuf", "CTiff", "POSIXFiles"]),
        .target(
            name: "CaptionLibrary",
            dependencies: [
                "CSQLite", "CPostgres", "CCrypto", "CPixbuf", "CLibRaw", "CHeif", "CaptionChecks", "CaptionText",
                "Localization", "Threads", "PhotoFormats", "Pixbufs", "POSIXFiles", "StartupTrace",
            ]),
        .target(
            name: "CaptionMetadata",
            dependencies: [
                "CExempi", "CMetadataSupport", "CPixbuf", "CaptionChecks", "CaptionLibrary", "CaptionText",
                "Localization",
                "PhotoFormats", "Pixbufs", "POSIXFiles", "Threads",
            ]),
        .target(
            name: "CaptionCommand",
            dependencies: [
                "CaptionChecks", "FocusEngine", "CaptionLibrary", "CaptionMetadata", "CaptionSending", "CaptionText",
                "Localization", "POSIXFiles", "PhotoFormats", "PlaceNames", "Shorthand", "Threads",
            ]),
        // libcurl and libsecret, opened when something is first sent (dlopen), for sending
        // photos to an agency's FTP, FTPS or SFTP server with the password in the keyring.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSecret", path: "Sources/CSecret", pkgConfig: "glib-2.0"),
        .target(
            name: "CaptionSending",
            dependencies: [
                "CCurl", "CSecret", "CPixbuf", "CaptionLibrary", "CaptionMetadata", "Localization", "POSIXFiles",
                "Threads",
            ]),
        .target(name: "CaptionQueue", dependencies: ["CaptionText"]),
        // Less to type: code replacements and caption variables. Pure Swift.
        .target(name: "Shorthand", dependencies: ["CaptionText"]),
        // GeoNames' cities (libgeonames0, opened when first needed) and the place nearest a
        // photo's GPS position, for {city}, {state}, {country} and {countrycode}.
        .systemLibrary(name: "CGeonames", path: "Sources/CGeonames"),
        .target(name: "PlaceNames", dependencies: ["CGeonames", "PhotoFormats", "Shorthand", "Threads"]),
        // What an editor would send back: placeholders, codes and variables left in, a word
        // twice, a bracket not closed. Pure Swift.
        .target(name: "CaptionChecks", dependencies: ["CaptionText", "Localization"]),
        .target(
            name: "CaptionGtk",
            dependencies: [
                "CGtk", "CaptionChecks", "CaptionText", "FocusEngine", "JPEGPreview", "CaptionLibrary",
                "CaptionMetadata", "CaptionQueue", "CaptionSending", "PlaceNames",
                "Localization", "PhotoFormats", "Pixbufs", "Shorthand", "CGspell", "POSIXFiles",
                "StartupTrace",
                "Threads",
            ],
            plugins: ["EmbedResources"]),
        // Resources/ (the window's layout, the shortcuts window, the CSS) as Swift constants.
        .executableTarget(name: "embed-resources", path: "build-aux/embed-resources"),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),
        .executableTarget(
            name: "caption",
            dependencies: ["CaptionCommand", "CaptionGtk", "CaptionLibrary", "POSIXFiles", "StartupTrace"]),
        .executableTarget(
            name: "caption-bench",
            dependencies: [
                "FocusEngine", "CaptionLibrary", "CaptionMetadata", "CaptionText", "CPixbuf", "CaptionTestSupport",
                "PlaceNames", "Shorthand", "Threads",
            ],
            path: "Benchmarks/caption-bench"),
        .executableTarget(
            name: "caption-view-bench", dependencies: ["CaptionGtk", "CaptionLibrary", "CaptionText", "CGtk"],
            path: "Benchmarks/caption-view-bench"),
        // Writes drafts as fast as it can until killed: the crash tests kill it mid-write.
        .executableTarget(
            name: "caption-draft-typist", dependencies: ["CaptionLibrary", "CaptionText"],
            path: "Tests/Tools/draft-typist"),
        // Prints a photo's capture facts: the time-zone tests run it under several TZs.
        .executableTarget(
            name: "caption-capture-facts", dependencies: ["CaptionLibrary", "PhotoFormats"],
            path: "Tests/Tools/capture-facts"),
        .testTarget(
            name: "FocusEngineTests",
            dependencies: ["CaptionText", "FocusEngine", "Localization", "CaptionTestSupport"]),
        .testTarget(name: "CaptionQueueTests", dependencies: ["CaptionQueue", "CaptionText"]),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"]),
        .testTarget(name: "PhotoFormatsTests", dependencies: ["PhotoFormats", "CaptionTestSupport"]),
        .testTarget(name: "ShorthandTests", dependencies: ["CaptionText", "Shorthand"]),
        .testTarget(name: "CaptionChecksTests", dependencies: ["CaptionChecks", "CaptionText"]),
        .testTarget(
            name: "PlaceNamesTests", dependencies: ["PlaceNames", "PhotoFormats", "Shorthand", "CaptionTestSupport"]),
        // libjpeg for the tests alone: it encodes every kind of JPEG and is the reference.
        .target(
            name: "JPEGTestSupport", path: "Tests/Support/JPEGTestSupport", linkerSettings: [.linkedLibrary("jpeg")]),
        .testTarget(name: "JPEGPreviewTests", dependencies: ["JPEGPreview", "JPEGTestSupport"]),
        // What every test target shares: scratch folders, photos made here and by other
        // encoders (heif-enc, avifenc, cwebp, cjpeg, ImageMagick), a DNG, the built binary run.
        .target(
            name: "CaptionTestSupport",
            dependencies: ["CaptionLibrary", "CaptionText", "CPixbuf", "CSQLite", "POSIXFiles", "Pixbufs"],
            path: "Tests/CaptionTestSupport"),
        .testTarget(name: "PixbufsTests", dependencies: ["CaptionTestSupport", "CPixbuf", "Pixbufs"]),
        .testTarget(
            name: "CaptionLibraryTests",
            dependencies: [
                "CaptionLibrary", "CaptionTestSupport", "CaptionText", "CCrypto", "CPixbuf", "CSQLite", "POSIXFiles",
                "Pixbufs",
                "Threads",
            ]),
        .testTarget(
            name: "CaptionCommandTests",
            dependencies: [
                "CaptionChecks", "CaptionCommand", "CaptionLibrary", "CaptionMetadata", "CaptionTestSupport",
                "CaptionText", "CSQLite",
            ]),
        .testTarget(
            name: "CaptionSendingTests",
            dependencies: [
                "CaptionCommand", "CaptionLibrary", "CaptionMetadata", "CaptionSending", "CaptionTestSupport",
                "CaptionText", "POSIXFiles", "Threads",
            ],
            exclude: ["faulty-relay.py"]),
        .testTarget(
            name: "CaptionGtkTests",
            dependencies: [
                "CaptionGtk", "CGtk", "CaptionChecks", "CaptionLibrary", "CaptionMetadata", "CaptionQueue",
                "CaptionSending",
                "CaptionTestSupport",
                "CaptionText", "FocusEngine", "JPEGPreview", "POSIXFiles", "Pixbufs",
            ]),
        .testTarget(
            name: "CaptionMetadataTests",
            dependencies: [
                "CaptionChecks", "CaptionMetadata", "CaptionCommand", "CaptionLibrary", "CaptionTestSupport",
                "CaptionText", "CPixbuf",
                "CSQLite",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
