// Words a photo already carries in its XMP, offered on the form when it opens, and the
// Export action (win.export) that writes every entry into a folder with its caption.

import CGtk
import CaptionLibrary
import CaptionMetadata
import Dispatch
import FocusEngine
import Localization

extension CaptionWindow {
    // MARK: Words from the photo

    /// Reads the photo's title and description off the main thread. When they arrive and
    /// the photo is still the one on the form, every field that is empty, or still shows
    /// the words of the photo it replaced, takes the photo's words, marked as coming from
    /// the photo; words the user typed are never replaced.
    func offerWordsFromPhoto(_ path: String) {
        let request = photoRequest
        DispatchQueue.global(qos: .userInitiated).async {
            let caption = PhotoMetadata.read(path)
            MainThread.post { [weak self] in
                guard let self, request == self.photoRequest else { return }
                self.takeWords(caption)
            }
        }
    }

    func takeWords(_ caption: PhotoCaption) {
        for (entry, words) in [(titleEntry, caption.title), (subtitleEntry, caption.description)] {
            // As the form would store them: a description's line breaks become spaces.
            let offered = words.map(TextNormalization.normalize) ?? ""
            let current = text(of: entry)
            let showsPhotoWords = PhotoWordsMark.words(on: entry) == current
            if current.isEmpty || showsPhotoWords {
                if offered.isEmpty {
                    if showsPhotoWords && !current.isEmpty { setText(entry, "") }  // the old photo's words go with it
                    PhotoWordsMark.clear(entry)
                } else {
                    setText(entry, offered)
                    PhotoWordsMark.set(entry, offered)
                }
            } else if current == offered {
                PhotoWordsMark.set(entry, offered)
            }
        }
    }

    /// Whether the field shows words that came from the photo, untouched.
    func showsWordsFromPhoto(_ entry: UnsafeMutablePointer<GtkWidget>) -> Bool {
        PhotoWordsMark.words(on: entry) != nil
    }

    // MARK: Export

    /// win.export: a folder chooser, then every entry into the folder chosen.
    func chooseExportFolder() {
        let chooser = gtk_file_chooser_native_new(tr("Export Every Entry to a Folder"), caption_window(window),
                                                  GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, tr("_Export"), tr("_Cancel"))
        guard let chooser else { return }
        let fileChooser = caption_file_chooser(UnsafeMutableRawPointer(chooser))
        gtk_file_chooser_set_create_folders(fileChooser, 1)
        onIntSignal(UnsafeMutableRawPointer(chooser), "response") { [weak self] response in
            defer { g_object_unref(UnsafeMutableRawPointer(chooser)) }
            guard let self, response == GTK_RESPONSE_ACCEPT.rawValue,
                  let folder = takeStrings(gtk_file_chooser_get_filenames(fileChooser)).first else { return }
            self.exportAll(to: folder)
        }
        gtk_native_dialog_show(caption_native_dialog(UnsafeMutableRawPointer(chooser)))
    }

    /// Writes every entry, oldest first, into `folder` with its caption embedded (see
    /// `Exporter.exportAll`), on a thread of its own with its own connection to the library,
    /// so the window and its saves carry on meanwhile. The notification shows a progress
    /// bar ("1,234 of 100,001") and Cancel, which stops before the next photo: every photo
    /// is then in the folder whole or not at all. The outcome shows in the notification, or
    /// in the message bar when the folder cannot take the photos. `completion` is for tests.
    public func exportAll(to folder: String,
                          completion: (@MainActor (Result<Exporter.Summary, LibraryError>) -> Void)? = nil) {
        let notice = ExportNotice.of(self)
        guard !notice.isExporting else { return gtk_widget_error_bell(window) }
        notice.isExporting = true
        let progress = WorkProgress()
        let panel = ProgressPanel(progress: progress, title: tr("Exporting…"))
        notice.show(progress: panel)
        let directory = library.directory
        DispatchQueue.global(qos: .userInitiated).async {
            let result: Result<Exporter.Summary, LibraryError>
            do throws(LibraryError) {
                let library = try Library(directory: directory)
                result = .success(try Exporter.exportAll(from: library, to: folder, sidecars: false, progress: progress))
            } catch {
                result = .failure(error)
            }
            MainThread.post { [weak self] in
                guard let self else { return }
                panel.stop()
                notice.isExporting = false
                notice.show(progress: nil)
                switch result {
                case .success(let summary) where summary.cancelled:
                    notice.show(tr("Export stopped: {progress} photos exported to “{folder}”")
                        .replacing("{progress}", with: WorkProgress.text(completed: summary.exported, total: summary.total))
                        .replacing("{folder}", with: Self.fileName(folder)), folder: summary.exported == 0 ? nil : folder)
                case .success(let summary):
                    notice.show(Self.exportedMessage(summary.exported, folder: folder), folder: summary.exported == 0 ? nil : folder)
                case .failure(let error):
                    notice.hide()
                    self.saveError = error.message
                    self.refresh()
                }
                completion?(result)
            }
        }
    }

    /// The export's progress panel while one runs, for tests.
    var exportProgress: ProgressPanel? { ExportNotice.existing(self)?.progress }

    static func exportedMessage(_ count: Int, folder: String) -> String {
        let name = fileName(folder)
        switch count {
        case 0: return tr("Nothing to export: no entry is saved yet")
        case 1: return tr("One photo exported to “{folder}”").replacing("{folder}", with: name)
        default:
            return tr("{count} photos exported to “{folder}”").replacing("{count}", with: String(count))
                .replacing("{folder}", with: name)
        }
    }

    /// The export notification's text, for tests.
    public var exportNoticeText: String? { ExportNotice.existing(self)?.text }
}

/// The words put into a field from the photo, kept on the entry widget itself (GObject
/// data), with the entry's secondary icon and its tooltip saying where they came from.
/// The mark goes as soon as the field holds anything else.
@MainActor
enum PhotoWordsMark {
    private static let key = "caption-photo-words"
    private static let watchKey = "caption-photo-words-watched"

    static func words(on entry: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard let data = g_object_get_data(caption_object(entry), key) else { return nil }
        return String(cString: data.assumingMemoryBound(to: CChar.self))
    }

    static func set(_ entry: UnsafeMutablePointer<GtkWidget>, _ words: String) {
        g_object_set_data_full(caption_object(entry), key, g_strdup(words), g_free)
        let field = caption_entry(entry)
        gtk_entry_set_icon_from_icon_name(field, GTK_ENTRY_ICON_SECONDARY, "image-x-generic-symbolic")
        gtk_entry_set_icon_activatable(field, GTK_ENTRY_ICON_SECONDARY, 0)
        // GTK gives the icon's accessible object this tooltip as its name, so a screen
        // reader says it too.
        gtk_entry_set_icon_tooltip_text(field, GTK_ENTRY_ICON_SECONDARY, tr("From the photo's metadata"))
        watch(entry)
    }

    static func clear(_ entry: UnsafeMutablePointer<GtkWidget>) {
        guard words(on: entry) != nil else { return }
        g_object_set_data(caption_object(entry), key, nil)
        gtk_entry_set_icon_from_icon_name(caption_entry(entry), GTK_ENTRY_ICON_SECONDARY, nil)
        gtk_entry_set_icon_tooltip_text(caption_entry(entry), GTK_ENTRY_ICON_SECONDARY, nil)
    }

    /// Once per entry: any change that makes the text differ from the photo's words takes
    /// the mark away (typing, the queue moving on, a save emptying the form).
    private static func watch(_ entry: UnsafeMutablePointer<GtkWidget>) {
        guard g_object_get_data(caption_object(entry), watchKey) == nil else { return }
        // Any non-NULL pointer marks the entry as watched; nothing is stored behind it.
        g_object_set_data(caption_object(entry), watchKey, UnsafeMutableRawPointer(entry))
        onSignal(entry, "changed") {
            guard let words = words(on: entry) else { return }
            if String(cString: gtk_entry_get_text(caption_entry(entry))) != words { clear(entry) }
        }
    }
}

/// A notification for exports, like the one a save shows but with "Open Folder" as its
/// action, in the same overlay. One per window, kept on the window widget.
@MainActor
final class ExportNotice {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let openButton: UnsafeMutablePointer<GtkWidget>
    private weak var owner: CaptionWindow?
    private var folder: String?
    private var timeout: UInt32 = 0
    var isExporting = false
    /// Holds the progress panel while an export runs, in place of the label.
    private let progressSlot: UnsafeMutablePointer<GtkWidget>
    private(set) var progress: ProgressPanel?
    private static let key = "caption-export-notice"

    /// The window's notice, made (and put in the overlay) the first time.
    static func of(_ window: CaptionWindow) -> ExportNotice {
        if let existing = existing(window) { return existing }
        let notice = ExportNotice(window)
        let retained = Unmanaged.passRetained(notice).toOpaque()
        let release: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<ExportNotice>.fromOpaque(data).release()
        }
        g_object_set_data_full(caption_object(window.window), key, retained, release)
        return notice
    }

    static func existing(_ window: CaptionWindow) -> ExportNotice? {
        guard let data = g_object_get_data(caption_object(window.window), key) else { return nil }
        return Unmanaged<ExportNotice>.fromOpaque(data).takeUnretainedValue()
    }

    private init(_ window: CaptionWindow) {
        owner = window
        // GTK constructors abort rather than return NULL.
        widget = gtk_revealer_new()!
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        let frame = gtk_frame_new(nil)!
        gtk_style_context_add_class(gtk_widget_get_style_context(frame), "app-notification")
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        label = gtk_label_new("")!
        gtk_label_set_ellipsize(caption_label(label), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(caption_label(label), 48)
        openButton = gtk_button_new_with_mnemonic(tr("_Open Folder"))!
        let close = gtk_button_new_from_icon_name("window-close-symbolic", GTK_ICON_SIZE_BUTTON)!
        gtk_button_set_relief(caption_button(close), GTK_RELIEF_NONE)
        atk_object_set_name(gtk_widget_get_accessible(close), tr("Close"))
        progressSlot = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_pack_start(caption_box(row), label, 1, 1, 0)
        gtk_box_pack_start(caption_box(row), progressSlot, 1, 1, 0)
        gtk_box_pack_start(caption_box(row), openButton, 0, 0, 0)
        gtk_box_pack_start(caption_box(row), close, 0, 0, 0)
        gtk_container_add(caption_container(frame), row)
        gtk_container_add(caption_container(widget), frame)
        atk_object_set_role(gtk_widget_get_accessible(frame), ATK_ROLE_NOTIFICATION)
        // The save notification's overlay; the window's own layout stays as it is.
        if let overlay = gtk_widget_get_parent(window.notification.widget) {
            gtk_overlay_add_overlay(caption_overlay(overlay), widget)
        }
        gtk_widget_show_all(widget)
        onSignal(openButton, "clicked") { [weak self] in self?.openFolder() }
        onSignal(close, "clicked") { [weak self] in self?.hide() }
    }

    /// Shows `panel` (the label hidden), or with nil takes the panel away.
    func show(progress panel: ProgressPanel?) {
        if let old = progress { gtk_container_remove(caption_container(progressSlot), old.widget) }
        progress = panel
        gtk_widget_set_visible(label, panel == nil ? 1 : 0)
        guard let panel else { return }
        owner?.notification.hide()
        gtk_box_pack_start(caption_box(progressSlot), panel.widget, 1, 1, 0)
        gtk_widget_show_all(panel.widget)
        gtk_widget_set_visible(openButton, 0)
        if timeout != 0 { g_source_remove(timeout) }
        timeout = 0
        gtk_revealer_set_reveal_child(caption_revealer(widget), 1)
    }

    var text: String? {
        gtk_revealer_get_reveal_child(caption_revealer(widget)) == 0 ? nil
            : String(cString: gtk_label_get_text(caption_label(label)))
    }

    /// Shows `text`, with Open Folder when there is a folder to open; it stays while an
    /// export runs and goes by itself some seconds after.
    func show(_ text: String, folder: String?) {
        owner?.notification.hide()
        gtk_label_set_text(caption_label(label), text)
        self.folder = folder
        gtk_widget_set_visible(openButton, folder == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(caption_revealer(widget), 1)
        if timeout != 0 { g_source_remove(timeout) }
        timeout = 0
        guard !isExporting else { return }
        timeout = MainThread.after(milliseconds: 8000) { [weak self] in
            self?.timeout = 0
            self?.hide()
        }
    }

    func hide() {
        if timeout != 0 { g_source_remove(timeout) }
        timeout = 0
        gtk_revealer_set_reveal_child(caption_revealer(widget), 0)
    }

    private func openFolder() {
        guard let folder, let owner, let uri = g_filename_to_uri(folder, nil, nil) else { return }
        defer { g_free(uri) }
        gtk_show_uri_on_window(caption_window(owner.window), uri, UInt32(GDK_CURRENT_TIME), nil)
        hide()
    }
}
