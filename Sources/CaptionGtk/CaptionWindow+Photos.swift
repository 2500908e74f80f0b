// The window's photos: the queue, the file chooser, decoding off the main thread, and the
// preview.

import CGtk
import CaptionLibrary
import Dispatch
import FocusEngine
import Localization

extension CaptionWindow {
    public func choosePhoto() {
        if let presentChooser { return presentChooser() }
        showFileChooser()
    }

    /// Opens the file chooser (several photos may be chosen), filtered to the raster formats Caption takes.
    func showFileChooser() {
        let chooser = gtk_file_chooser_native_new(tr("Choose a Photo"), caption_window(window),
                                                  GTK_FILE_CHOOSER_ACTION_OPEN, tr("_Open"), tr("_Cancel"))
        guard let chooser else { return }
        let filter = gtk_file_filter_new()
        gtk_file_filter_set_name(filter, tr("Photos"))
        for type in PhotoFormat.allCases.map(\.mimeType) { gtk_file_filter_add_mime_type(filter, type) }
        gtk_file_chooser_add_filter(caption_file_chooser(UnsafeMutableRawPointer(chooser)), filter)
        gtk_file_chooser_set_select_multiple(caption_file_chooser(UnsafeMutableRawPointer(chooser)), 1)
        onIntSignal(UnsafeMutableRawPointer(chooser), "response") { [weak self] response in
            defer { g_object_unref(UnsafeMutableRawPointer(chooser)) }
            guard let self, response == GTK_RESPONSE_ACCEPT.rawValue else { return }
            let paths = takeStrings(gtk_file_chooser_get_filenames(caption_file_chooser(UnsafeMutableRawPointer(chooser))))
            // One photo replaces the one on the form; several join the queue.
            if paths.count == 1 {
                self.openPhoto(paths[0])
            } else {
                self.enqueue(paths)
            }
        }
        gtk_native_dialog_show(caption_native_dialog(UnsafeMutableRawPointer(chooser)))
    }

    /// Adds photos to the queue: the first goes on the form if it has none, the rest wait
    /// their turn. Folders give their photos; what is left out is named (IncomingPhotos).
    public func enqueue(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        settleInputMethod()
        let incoming = sortIncoming(paths)
        defer { tell(about: incoming) }
        let paths = incoming.photos
        guard !paths.isEmpty else { return }
        RecentFiles.add(paths)
        if queue.append(paths) {
            showCurrentPhoto()
        } else {
            refreshPosition()
        }
    }

    /// Puts a photo on the form in place of the current one, keeping the words typed.
    public func openPhoto(_ path: String) {
        settleInputMethod()
        RecentFiles.add([path])
        queue.replaceCurrent(with: path)
        load(path)
        refreshPosition()
    }

    /// Skips to the next (1) or previous (-1) photo of the queue; what was typed stays with
    /// the photo it was typed for.
    public func skip(by step: Int) {
        settleInputMethod()
        queue.keep(title: text(of: titleEntry), subtitle: text(of: subtitleEntry))
        guard queue.move(by: step) else {
            gtk_widget_error_bell(window)
            return
        }
        showCurrentPhoto()
    }

    /// Shows the queue's current photo with its words, as if it had just arrived: messages
    /// of the previous photo go, and focus goes to the first thing missing.
    func showCurrentPhoto() {
        guard let photo = queue.currentPhoto else { return clearForm() }
        send(.clear)
        setText(titleEntry, photo.title)
        setText(subtitleEntry, photo.subtitle)
        load(photo.path)
        refreshPosition()
    }

    /// "2 of 5" under the window title while there is more than one photo.
    func refreshPosition() {
        let subtitle = queue.position.map {
            tr("{index} of {count}").replacing("{index}", with: String($0.index))
                .replacing("{count}", with: String($0.count))
        }
        gtk_header_bar_set_subtitle(caption_header_bar(header), subtitle)
        keepDraft()
    }

    /// Starts loading a photo: it counts at once (a fast typist goes on to Title) and is
    /// checked and decoded off the main thread at the size the preview shows.
    func load(_ path: String) {
        loadedPhoto = nil
        photoRequest += 1
        gtk_label_set_text(caption_label(photoName), Self.fileName(path))
        preview.clear()
        send(.photo(item: CaptionForm.photo, .loading))
        decode(path, request: photoRequest, area: preview.wantedArea, settles: true)
        offerWordsFromPhoto(path)
        preview.onNeedsLargerDecode = { [weak self] area in self?.scheduleLargerDecode(area) }
    }

    /// Decodes for the preview, then (for a newly chosen photo) checks the whole file, so
    /// that a damaged photo is named before the user tries to save it. Both off the main
    /// thread; the preview shows as soon as it is ready.
    func decode(_ path: String, request: Int, area: PixelSize, settles: Bool) {
        let scale = preview.scaleFactor
        DispatchQueue.global(qos: .userInitiated).async {
            let preview = PhotoDecoder.decode(path, fitting: area, scale: scale)
            MainThread.post { [weak self] in
                switch preview {
                case .success(let photo):
                    guard let self else { return cairo_surface_destroy(photo.surface.pointer) }
                    self.showPreview(photo, request: request, area: area)
                    if settles { self.checkOncePainted(path, request: request) }
                case .failure(let error):
                    if settles { self?.settle(.failure(error), request: request) }
                }
            }
        }
    }

    /// Starts the check of the whole photo once the preview is on the screen, or after a
    /// quarter of a second if it is not drawn (the library shows, the window is hidden):
    /// started with the preview, the check's threads slowed the preview's frame by up to a
    /// fifth (`make bench`, the smooth photo).
    private func checkOncePainted(_ path: String, request: Int) {
        let once = Once()
        let start: MainThread.Job = { [weak self] in
            // Once, and not for a photo another has replaced meanwhile.
            guard once.claim(), let self, request == self.photoRequest else { return }
            self.check(path, request: request)
        }
        preview.afterNextPaint(start)
        MainThread.after(milliseconds: 250, start)
    }

    /// Reads, decodes and hashes the whole photo on two threads: at a lower priority it never
    /// takes a core from the main thread or the display server, which paint what the user
    /// types.
    private func check(_ path: String, request: Int) {
        LowPriorityThread.run {
            let check: Result<LoadedPhoto, LibraryError>
            do throws(LibraryError) {
                check = .success(try PhotoInspector.load(path))
            } catch {
                check = .failure(error)
            }
            MainThread.post { [weak self] in self?.settle(check, request: request) }
        }
    }

    func showPreview(_ photo: DecodedPhoto, request: Int, area: PixelSize) {
        guard request == photoRequest else {
            // A newer photo replaced this one while it decoded.
            cairo_surface_destroy(photo.surface.pointer)
            return
        }
        preview.show(photo, area: area, name: Self.fileName(photoPath ?? ""))
    }

    /// The photo's verdict: it counts (and a waiting submit goes on), or its message shows.
    func settle(_ result: Result<LoadedPhoto, LibraryError>, request: Int) {
        guard request == photoRequest else { return }
        switch result {
        case .success(let photo):
            loadedPhoto = photo
            send(.photo(item: CaptionForm.photo, .loaded))
        case .failure(let error):
            preview.clear()
            send(.photo(item: CaptionForm.photo, .failed(message: error.message)))
        }
        onPhotoSettled?()
    }

    /// The window grew: decode again, sharper, once resizing has paused.
    func scheduleLargerDecode(_ area: PixelSize) {
        guard !largerDecodeScheduled, let path = photoPath else { return }
        largerDecodeScheduled = true
        let request = photoRequest
        MainThread.after(milliseconds: 200) { [weak self] in
            guard let self else { return }
            self.largerDecodeScheduled = false
            guard request == self.photoRequest else { return }
            self.decode(path, request: request, area: self.preview.wantedArea, settles: false)
        }
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

}

/// True the first time it is asked, on the main thread.
@MainActor
private final class Once: Sendable {
    private var done = false

    func claim() -> Bool {
        defer { done = true }
        return !done
    }
}
