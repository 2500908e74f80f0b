// The GTK application: the window, the photos handed to it, and application-wide shortcuts.

import CGtk
import CaptionLibrary
import Localization
import POSIXFiles
import StartupTrace

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
public enum CaptionApplication {
    public static let id = "io.github.caption_app.Caption"
    /// Shown in About; given by the entry point, which owns the version.
    public static var version = ""

    /// Opens the window and runs until it closes; returns the exit status, or nil when there
    /// is no display to open a window on.
    /// `watch`: a folder (absolute) whose new photos join the queue, and whether its
    /// subfolders' do too.
    public static func run(
        library: String?, photos: [String], watch: (folder: String, subfolders: Bool)? = nil
    )
        -> Int32?
    {
        // Pango reads the fontconfig configuration on a thread of its own, which it starts
        // with the first font map; the first text measured waits for it. Started now, the
        // reading overlaps opening the display and registering instead of holding up the form
        // (docs/performance.md).
        GtkApp.startReadingFonts()
        // The GTK modules of fcitx5 and ibus hand each key to their daemon and return at
        // once; a key the daemon does not take comes back later, behind keys typed after
        // it, and what it commits goes to the field focused when the key was pressed: a
        // typist ahead of a busy machine gets letters in the wrong field or order. Their
        // synchronous modes, read as a module loads, wait for the daemon's answer to each
        // key. A user's own setting stays.
        setenv("FCITX_ENABLE_SYNC_MODE", "1", 0)
        setenv("IBUS_ENABLE_SYNC_MODE", "1", 0)
        let activationToken = setIdentity()
        guard GtkApp.openDisplay() else { return nil }
        StartupTrace.mark("gtk-init")
        if let first = photos.first { LaunchPreview.start(first, holdingDecode: true) }
        // WM_CLASS's class half (X11); its name half and the Wayland app id are the program name.
        GtkApp.setProgramClass(id)
        // Another library is another session: keep it out of a running instance.
        guard let application = GtkApp(id: id, separate: library != nil) else { return 1 }
        if let activationToken { application.useStartupToken(activationToken) }
        // Its handlers hold it weakly: it is let go (and leaves D-Bus) when run() returns.
        weak var running = application
        var captionWindow: CaptionWindow?
        // `--watch DIR` for this instance's window, once it exists.
        var pendingWatch: WatchSetting?

        func present(opening paths: [String]) {
            let window: CaptionWindow
            if let captionWindow {
                window = captionWindow
                window.form.enqueue(paths)
            } else {
                window = CaptionWindow(application: running, libraryLocation: library)
                captionWindow = window
                window.present(restoringDraft: true)
                StartupTrace.mark("window-shown")
                if let watch = pendingWatch {
                    pendingWatch = nil
                    // As a resumed watch: start-up opens no folder before the first frame.
                    window.window.afterFirstDraw { [weak window] in window?.startWatching(watch) }
                }
                window.form.enqueueAtLaunch(paths)
            }
            // GtkApplication has taken the launcher's startup id or activation token from
            // the call's platform data: presenting now brings the window forward with it.
            window.window.present()
        }

        // The photos of this command line, once: a later activation (`caption` run again
        // with no photos) only brings the window forward.
        var launchPhotos = photos
        application.onActivate {
            present(opening: launchPhotos)
            launchPhotos = []
        }
        application.onOpen { paths in present(opening: paths) }
        // `caption --watch DIR` beside a running window: the window watches DIR. The word is
        // the subfolders flag and the folder's URI (a GVariant string is UTF-8; a path need not be).
        let watchAction = SimpleAction("watch", takingWord: ())
        watchAction.onActivate { word in
            guard let word, let setting = WatchRequest.setting(from: word) else { return }
            present(opening: [])
            captionWindow?.startWatching(setting)
        }
        application.actions.add(watchAction)
        // app.quit, and every action's keys, from the window's table of actions.
        let quit = SimpleAction(WindowAction.quit.rawValue)
        quit.onActivate { _ in running?.quit() }
        application.actions.add(quit)
        for action in WindowAction.allCases where !action.accelerators.isEmpty {
            application.setAccelerators(action.accelerators, for: action.detailedName)
        }
        for (action, keys) in PadChoice.accelerators { application.setAccelerators(keys, for: action) }

        if let failure = application.register() {
            printError(failure)
            return 1
        }
        StartupTrace.mark("registered")
        // A second `caption PHOTO` hands its photo to the window already open.
        LaunchPreview.decodeOnceRegistered(wanted: !application.isRemote)
        if library == nil, !application.hasSessionBus {
            printError(
                tr(
                    "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS), so this opens a new window instead of using one already open"
                ))
        }
        // Another instance runs: running hands it this command line's photos (through
        // `open`, with the startup id) or an activation, then unregisters from D-Bus, which
        // a bare unref would not (GLib warns of that).
        if let watch {
            let setting = WatchSetting(folder: watch.folder, subfolders: watch.subfolders)
            if application.isRemote {
                application.actions.activate("watch", word: WatchRequest.word(for: setting))
            } else {
                pendingWatch = setting
            }
        }
        let arguments =
            application.isRemote && !photos.isEmpty ? [CommandLine.arguments.first ?? "caption", "--"] + photos : []
        let status = application.run(arguments: arguments)
        // A save still in flight finishes before the process ends.
        captionWindow?.close()
        return status
    }

    /// The program's name and class are the application id, before GTK opens the display:
    /// the X11 WM_CLASS and the Wayland app id then name the desktop entry, so that docks
    /// and window switchers show its icon and name. Returns a Wayland launcher's activation
    /// token when there is no X11 startup id, which GTK 3 would have taken itself; neither
    /// is handed on to programs started from here.
    static func setIdentity() -> String? {
        GtkApp.setIdentity(programName: id, applicationName: "Caption")
        guard let token = getenv("XDG_ACTIVATION_TOKEN").map({ String(cString: $0) }) else { return nil }
        unsetenv("XDG_ACTIVATION_TOKEN")
        return getenv("DESKTOP_STARTUP_ID") == nil && !token.isEmpty ? token : nil
    }

    /// One line on standard error, as the command line's messages are.
    private static func printError(_ line: String) {
        let text = "caption: " + line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}

/// The watch request one instance hands another: "1 file:///…" (subfolders, the folder's URI).
enum WatchRequest {
    static func word(for setting: WatchSetting) -> String {
        (setting.subfolders ? "1 " : "0 ") + (FileURI.uri(of: setting.folder) ?? "")
    }

    static func setting(from word: String) -> WatchSetting? {
        let parts = word.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let folder = FileURI.localPath(parts[1]) else { return nil }
        return WatchSetting(folder: folder, subfolders: parts[0] == "1")
    }
}
