// The entry point: locale, command line, then the window or a command without one.

import CaptionCommand
import CaptionGtk
import CaptionLibrary
import Localization
import POSIXFiles
import StartupTrace

#if canImport(Glibc)
    import Glibc
#endif

StartupTrace.mark("main")
Localization.setUp(localeDirectory: Installation.localeDirectory)

// Paths are bytes: each argument is read with every byte kept (CommandLine.arguments would
// turn those that are not UTF-8 into U+FFFD, and a path into another one).
let arguments = (1..<Int(CommandLine.argc)).compactMap { index in
    CommandLine.unsafeArgv[index].map { FilePath.string(fromCString: $0) }
}
let request: Request
do {
    request = try Arguments.parse(arguments)
} catch {
    Console.error(error.message)
    Console.error(tr("Try “caption --help” for more."))
    exit(2)
}

switch request {
case .help:
    Console.out(Arguments.helpText + "\n")
    exit(0)
case .version:
    Console.out("caption \(captionVersion)\n")
    exit(0)
case .window(let library, let photos, let watch, let subfolders):
    // The desktop entry's %U hands over file:// URIs.
    let paths = photos.map(FileURI.path(fromArgument:))
    let status = MainActor.assumeIsolated {
        CaptionApplication.version = captionVersion
        return CaptionApplication.run(
            library: library, photos: paths, watch: watch.map { (absolutePath($0), subfolders) })
    }
    guard let status else {
        Console.error(
            tr(
                "cannot open a window: no display (DISPLAY or WAYLAND_DISPLAY is not set); --add and --list work without one"
            ))
        exit(1)
    }
    exit(status)
case .add, .importSheet, .list, .remove, .export, .writeBack, .check, .setCredits, .showCredits, .pads,
    .destinations, .send:
    exit(Commands.run(request))
}

/// `path` made absolute, links resolved: a folder the running instance watches must not
/// depend on this command's working directory. As given when it does not exist (the window
/// says it cannot be watched).
func absolutePath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return FilePath.string(fromCString: resolved)
}
