// The Caption window: a shell that builds the header and the two views from window.ui,
// makes the controllers (form, library, export), and routes the window's actions to them.

import CGtk
import CaptionLibrary
import CaptionMetadata
import CaptionQueue
import CaptionSending
import CaptionText
import FocusEngine
import Localization
import StartupTrace

@MainActor
@_spi(Benchmarks) public final class CaptionWindow {
    let window: Window
    let header: HeaderBar
    let views: Stack
    let menuButton: MenuButton
    /// Caption | Library, in the header.
    let switcher: Widget
    let messages: MessageBar
    /// The window's life: what its parts post, time and ask the library ends with it.
    let lifetime = Lifetime()
    let notification: InAppNotification
    let library: LibraryAccess
    let form: FormController
    let libraryController: LibraryController
    let export: ExportController
    /// The watched folder, if any: its new photos join the queue.
    let watch: FolderWatch
    /// The action map holding the window's "win." actions.
    let actions: ActionMap
    /// Where captions go besides the library (the primary menu's choice).
    let destination: DestinationChoice
    /// The stationery pad in use (the primary menu's choice, Ctrl+1…Ctrl+9).
    let pads: PadChoice
    /// Where each saved photo is sent (the primary menu's choice), and the sending.
    let sending: SendChoice
    let sender: PhotoSender
    /// Where the window's size is remembered, and the size to remember.
    let stateFile: String
    /// Where the standing credits are kept (Preferences and `--set-credits` write it).
    let creditsFile: String
    private(set) var geometry = WindowGeometry.standard

    /// The actions that move the view at 100 %.
    var moveActions: [SimpleAction] = []
    var stopWatchingAction: SimpleAction?
    /// The spell-checking switch's action, whose state is the switch.
    var spellCheckAction: SimpleAction?
    /// The Preferences window, one at a time: a second Ctrl+comma brings it forward.
    var preferences: PreferencesWindow?
    /// Set from Ctrl+comma until this window has the keyboard again: the keys typed after
    /// it that the display server still gave this window (Preferences not yet mapped and
    /// focused) are Preferences' keys.
    var keysGoToPreferences = false
    /// Those keys, kept until Preferences has the keyboard: its list and buttons act on keys
    /// only then.
    let keysForPreferences = HeldKeys()
    /// Preferences after Escape, kept on screen until this window has the keyboard back, so
    /// that no key typed after the Escape falls between the two windows.
    var closedPreferences: PreferencesWindow?
    /// The keys it still got, kept until this window has the keyboard.
    let keysForThisWindow = HeldKeys()
    /// A window manager that never gives a window the keyboard must not keep its keys
    /// forever: after this, they are handed over as they are.
    static let keyboardWait: UInt32 = 2000
    /// The main menu's Check Spelling item, whose description says whether it is on.
    var spellCheckMenuItem: Widget?

    /// `stateFile` is where the window size is remembered, `creditsFile` where the standing
    /// credits are, and the destinations beside them; `sendQueueFile` where the photos waiting
    /// to be sent are kept (tests pass their own).
    init(
        application: GtkApp?, libraryLocation: String?, stateFile: String? = nil, creditsFile: String? = nil,
        sendQueueFile: String? = nil
    ) {
        self.stateFile = stateFile ?? WindowStateFile.defaultPath
        self.creditsFile = creditsFile ?? CreditsFile.defaultPath
        library = LibraryAccess(location: libraryLocation, lifetime: lifetime)
        notification = InAppNotification(lifetime: lifetime)
        window = application?.newWindow() ?? Window.toplevel()
        window.title = "Caption"
        window.setIconName(CaptionApplication.id)

        StartupTrace.mark("window-start")
        let builder = Builder(EmbeddedResources.windowUI)
        StartupTrace.mark("window-ui")
        header = builder["header"]
        views = builder["views"]
        menuButton = builder["menu_button"]
        switcher = builder["switcher"]
        Self.letLabelsShorten(in: switcher)
        messages = MessageBar(builder)
        window.setTitlebar(header)
        let overlay: Widget = builder["overlay"]
        overlay.addOverlay(notification.widget)
        let page: Box = builder["page"]
        window.setContent(page)
        window.connect(.draw) { _ in RecentFiles.windowPainted() }
        // The toplevel's draw paints every widget in it: after it, the frame is drawn.
        window.connect(.draw, after: true) { _ in StartupTrace.mark("first-frame") }

        // Read before the first frame, which shows the fields: a small file.
        let fields = CreditsFile.formChoices(self.creditsFile).shown
        let formView = FormView(builder, layout: CaptionForm.Layout(optional: fields))
        // Tab and the form's own focus moves scroll the field they reach into view.
        formView.page.scrollFocusIntoView(of: builder["form_scroller"])
        form = FormController(
            view: formView, library: library, window: window, header: header, messages: messages,
            notification: notification, lifetime: lifetime)
        // Read before the first frame, which shows them under the fields: a small file,
        // and a missing one is not opened.
        form.standingCredits = StandingCredits(StationeryPads.standing(self.creditsFile))
        WritingChoices.current = CreditsFile.writingChoices(self.creditsFile)
        form.settingsFile = self.creditsFile
        libraryController = LibraryController(
            page: builder["library_page"], library: library, notification: notification, messages: messages)
        export = ExportController(
            window: window, library: library, notification: notification, messages: messages, stateFile: self.stateFile)
        watch = FolderWatch(library: library, lifetime: lifetime)
        actions = ActionMap.of(window)
        destination = DestinationChoice(actions: actions, stateFile: self.stateFile)
        form.setDestination(destination.current)
        destination.onChange = { [weak form] in form?.setDestination($0) }
        pads = PadChoice(actions: actions, creditsFile: self.creditsFile, current: form.standingCredits.pad)
        let destinationsFile = SendChoice.destinationsFile(besides: self.creditsFile)
        sending = SendChoice(actions: actions, stateFile: self.stateFile, destinationsFile: destinationsFile)
        sender = PhotoSender(
            library: library, messages: messages, lifetime: lifetime,
            queueFile: sendQueueFile ?? SendQueue.defaultPath, destinationsFile: destinationsFile)
        window.setDefault(formView.activateButton)
        StartupTrace.mark("form-built")
        Style.install()
        ColorScheme.follow()
        StartupTrace.mark("style")

        connectControllers()
        installActions()
        connectWatch()
        connectSending()
        installMenu()
        acceptDrops()
        connectKeys()
        rememberGeometry()
        StartupTrace.mark("window-built")
    }

    private func connectControllers() {
        views.connect(.notify("visible-child"), after: true) { [weak self] _ in
            guard let self else { return }
            self.messages.formIsShowing = !self.isShowingLibrary
            self.libraryController.setShowing(self.isShowingLibrary)
            // By the Caption tab too (a click leaves focus on the tab): typing goes into
            // the form's field, not nowhere.
            if !self.isShowingLibrary { self.form.resumeFocus() }
        }
        libraryController.onEdit = { [weak self] entry, path in self?.openForEditing(entry, photo: path) }
        form.onEditAgain = { [weak self] entry, path, words in self?.openForEditing(entry, photo: path, words: words) }
        libraryController.onLeave = { [weak self] in self?.showForm() }
        // The close button or Alt+F4: words still being composed go into the draft.
        window.connect(.deleteEvent) { [weak self] in
            self?.form.settleInputMethod()
            return false  // go on closing
        }
        // Closed by its button (or destroyed outright, as tests do), before GTK destroys the
        // children: the part of quitting that needs them happens now, and from here on no
        // late answer or timer touches them. close() does the rest once the main loop ends.
        window.connect(.destroy) { [weak self] in self?.finish() }
        // Done goes back to the library at once, the entry selected; the list shows its new
        // words once the update is in (the list's reload waits behind it on the library's
        // queue).
        form.onEditDone = { [weak self] entry in
            self?.libraryController.selectWhenShown(entry)
            self?.showLibrary()
        }
        // The offers follow: a deleted entry's words are offered no more.
        libraryController.onRemoved = { [weak self] entry in self?.form.removedFromLibrary(entry) }
    }

    /// Opens an entry in the form: one deliberate focus move, straight to Title, not through
    /// Choose Photo… (where the stack would send focus from the list), and with the words not
    /// selected, which a screen reader would read as a selection instead of the field. The
    /// photo is in the library, so everything is complete: Enter goes on through the fields
    /// and Done updates.
    private func openForEditing(_ entry: CaptionLibrary.Entry, photo path: String, words: CaptionWords? = nil) {
        form.withoutFocusMoves {
            form.edit(entry, photo: path, words: words)
            window.unsetFocus()
            showForm()
        }
        form.view.titleEntry.grabFocusWithoutSelecting()
    }

    /// The view switcher's labels ellipsize when the header is narrow (caption.css drops
    /// the buttons' minimum width), so that a 360 px header still holds every control.
    private static func letLabelsShorten(in switcher: Widget) {
        for button in switcher.children {
            guard let label = button.binChild.flatMap({ $0.as(Label.self) }) else { continue }
            label.ellipsize(PANGO_ELLIPSIZE_END)
        }
    }

    /// «“a.jpg” is new: 4 photos in the queue», or «3 new photos, the last “c.jpg”: 6 photos
    /// in the queue»: what came and how much waits, as a listener needs it.
    static func arrivals(_ names: [String], queued: Int) -> String {
        let queue = trn("{count} photo in the queue", "{count} photos in the queue", queued)
            .replacing("{count}", with: String(queued))
        guard names.count > 1, let last = names.last else {
            return tr("“{name}” is new: {queue}").replacing("{name}", with: names.first ?? "")
                .replacing("{queue}", with: queue)
        }
        return trn(
            "{count} new photo, the last “{name}”: {queue}", "{count} new photos, the last “{name}”: {queue}",
            names.count
        )
        .replacing("{count}", with: String(names.count)).replacing("{name}", with: last)
        .replacing("{queue}", with: queue)
    }

    /// Activates one of the window's actions by name, as its shortcut would.
    public func activateAction(_ name: String) {
        actions.activate(name)
    }

    // MARK: Views

    var isShowingLibrary: Bool { views.visibleChildName == "library" }

    /// Shows the library with the list focused (or, `searching`, the search).
    func showLibrary(searching: Bool = false) {
        form.settleInputMethod()
        form.zoom.zoomOut()
        views.visibleChildName = "library"
        libraryController.focus(searching: searching)
    }

    func showForm() {
        views.visibleChildName = "form"
        form.focus(form.binding.focusedItem)
    }

    // MARK: The shortcuts window, About

    /// Every shortcut, from the table of actions (HelpWindows).
    @discardableResult
    func showShortcuts() -> Window { HelpWindows.showShortcuts(over: window) }

    func showAbout() { HelpWindows.showAbout(over: window) }

    /// The user's guide; when no help browser starts, the bar says why.
    func showHelp(uri: String = HelpWindows.guideURI) {
        if let reason = window.open(uri: uri) {
            messages.show(problem: fill(tr("The help could not be opened: {reason}"), ["reason": reason]))
        }
    }

    // MARK: Window size

    /// Restores the remembered size, and keeps track of it from then on.
    private func rememberGeometry() {
        geometry = WindowStateFile.load(stateFile) ?? .standard
        window.setDefaultSize(width: geometry.width, height: geometry.height)
        if geometry.maximized { window.maximize() }
        window.connect(.sizeAllocate, after: true) { [weak self] _ in
            guard let self else { return }
            let maximized = self.window.isMaximized
            self.geometry.maximized = maximized
            guard !maximized else { return }  // keep the size to come back to
            (self.geometry.width, self.geometry.height) = self.window.size
        }
    }

    // MARK: Starting and ending

    /// Shows the window as the application opens it: nothing chosen yet, so focus on the
    /// photo button; then a draft of an earlier run, if any, comes back.
    func present(restoringDraft: Bool) {
        window.showAll()
        form.send(.focus(nil))
        form.view.photoButton.grabFocus()
        if restoringDraft { form.drafts.restore() }
    }

    /// The part of the window's end that needs its widgets, once: at its destroy (closed by
    /// its button), or at quit (Ctrl+Q) while it lives. The window's lifetime ends first, so
    /// nothing arriving from now on (a library answer, a timer, a decoded photo, a key the
    /// form would act on) runs; then what was deleted goes and what is typed is written.
    private func finish() {
        guard !lifetime.isOver else { return }
        lifetime.end()
        sender.finish()
        notification.finish()
        form.finish()
        libraryController.setShowing(false)
    }

    /// Quitting: the window's end, the waiting saves into the library, the size remembered.
    /// A window closed by its button is destroyed, its widgets freed, by the time this runs.
    func close() {
        // Ctrl+Q leaves the window alive: words still being composed go into the draft.
        if !lifetime.isOver { form.settleInputMethod() }
        finish()
        form.storeWaiting()
        library.drain()
        WindowStateFile.save(geometry, to: stateFile)
    }
}

/// What the view benchmark (caption-view-bench, a release build, where `@testable` is not
/// available) reaches: the window itself, the library list, and ways to drive it.
extension CaptionWindow {
    /// A window of no application, as the benchmarks and tests open one.
    public convenience init(libraryLocation: String?, stateFile: String? = nil) {
        self.init(application: nil, libraryLocation: libraryLocation, stateFile: stateFile)
    }
    public var libraryRowCount: Int { libraryController.view.entries.count }
    public var librarySelectedRow: Int? { libraryController.view.selectedRow }
    /// Whether every page of the list is in.
    public var libraryListComplete: Bool { !libraryController.view.hasMore }
    public var onLibraryShown: (() -> Void)? {
        get { libraryController.onShown }
        set { libraryController.onShown = newValue }
    }
    public func searchLibrary(_ text: String) {
        libraryController.view.searchEntry.text = text
    }
    public func showLibraryView() { showLibrary() }
    public func reloadLibrary() { libraryController.reload() }
    /// The Preferences window while it is open, the rows its list shows, its search.
    public var preferencesRowCount: Int { preferences?.shown.count ?? 0 }
    public func searchPreferences(_ text: String) { preferences?.searchField.text = text }
    public func closePreferences() { preferences?.close() }
    /// A photo on the form; `onPhotoChecked` runs once it is checked whole.
    public func openPhoto(_ path: String) { form.openPhoto(path) }
    public var onPhotoChecked: (() -> Void)? {
        get { form.onPhotoSettled }
        set { form.onPhotoSettled = newValue }
    }
    /// The view at 100 %: whether it shows, and a call once its full-size pixels are painted.
    public var isZoomed: Bool { form.zoom.isZoomed }
    public var onZoomSharp: (() -> Void)? {
        get { form.zoom.onSharp }
        set { form.zoom.onSharp = newValue }
    }
}
