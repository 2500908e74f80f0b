// The form's queue: photos joining it (the chooser, drops, a watched folder, launch), moving
// through it, leaving it, and the header that says where the form is in it.

import CaptionLibrary
import CaptionQueue
import Localization

extension FormController {
    var photoPath: String? { editing?.path ?? queue.currentPhoto?.path }

    /// The user's file a caption from the form would go into: the photo on the form, or,
    /// for an entry being edited, the file it was saved from (nil when Caption does not
    /// know it: the photo on the form is then the library's own copy).
    var captionTarget: String? {
        guard let editing else { return queue.currentPhoto?.path }
        return editing.entry.source
    }

    func choosePhoto() {
        if let presentChooser { return presentChooser() }
        // In the folder of the photo on the form: the next photos are most often beside it.
        let folder = queue.currentPhoto.map { String($0.path[..<($0.path.lastIndex(of: "/") ?? $0.path.endIndex)]) }
        PhotoChooser.present(over: window, startingIn: folder) { [weak self] paths in
            guard let self else { return }
            // Once the window is active again: a screen reader says nothing of a window it
            // has not come back to, and the refusal below must be heard.
            self.window.whenActive(delay: 100, in: self.photos.lifetime) { [weak self] in
                guard let self else { return }
                // One photo replaces the one on the form; several join the queue. A file
                // that is not a photo is refused at once and named, as from a drop or a
                // paste: it never takes the form's place.
                if paths.count == 1, IncomingFiles.kind(paths[0]) != .notPhoto {
                    self.openPhoto(paths[0])
                } else {
                    self.enqueue(paths)
                }
            }
        }
    }

    /// Adds photos to the queue: the first goes on the form if it has none, the rest wait
    /// their turn. Folders give their photos; what is left out is named (IncomingPhotos).
    func enqueue(_ paths: [String], alreadyShown shown: String? = nil) {
        guard !paths.isEmpty else { return }
        settleInputMethod()
        var incoming = queue.sortIncoming(paths, kind: IncomingFiles.kind, identity: IncomingFiles.identity)
        // The launch's first photo, queued ahead of its folder: no news to the user.
        if let shown { incoming.alreadyQueued.removeAll { $0 == shown } }
        if let message = incoming.message {
            messages.show(problem: message)
            // Named on the command line: the window is still opening, and the alert would
            // go unsaid. It is said once the window is active and its field has been read.
            if !window.isActive {
                window.afterActivation(delay: 600, in: lifetime) { [weak self] in
                    guard self?.messages.text == message else { return }
                    self?.messages.announceAgain()
                }
            }
        }
        let paths = incoming.photos
        guard !paths.isEmpty else { return }
        if queue.append(paths) {
            binding.arrive(arrival) { showCurrentPhoto() }
        } else {
            if editing == nil { photos.decodeAhead(queue.neighbours) }
            refreshPosition()
        }
    }

    /// The photos a launch names: the first now, for the first frame; the rest once the
    /// window is drawn and its photo shown. Each path is looked at as it joins (a file's
    /// first bytes read, a folder's names put in order), and a thousand of them before the
    /// first frame would make start-up grow with the queue. A folder named first gives its
    /// first photo by name now; the folder itself joins after the first frame.
    func enqueueAtLaunch(_ paths: [String]) {
        guard let first = paths.first else { return }
        if let photo = IncomingFiles.firstPhoto(inFolder: first) {
            enqueue([photo])
            window.afterFirstDraw { [weak self] in self?.enqueue(paths, alreadyShown: photo) }
            return
        }
        guard paths.count > 1, IncomingFiles.kind(first) == .photo else { return enqueue(paths) }
        enqueue([first])
        let rest = Array(paths.dropFirst())
        window.afterFirstDraw { [weak self] in self?.enqueue(rest) }
    }

    /// Puts a photo on the form in place of the current one, keeping the words typed.
    func openPhoto(_ path: String) {
        settleInputMethod()
        queue.replaceCurrent(with: path)
        binding.arrive(arrival) {
            load(path)
            refreshPosition()
        }
    }

    /// Skips to the next (1) or previous (-1) photo of the queue; what was typed stays with
    /// the photo it was typed for.
    func skip(by step: Int) {
        settleInputMethod()
        keepWords()
        guard queue.move(by: step) else { return window.errorBell() }
        lastStep = step
        binding.arrive(arrival) { showCurrentPhoto() }
    }

    /// Shows the queue's current photo with its words, as if it had just arrived: messages
    /// of the previous photo go, and focus goes to the first thing missing. `resuming`: the
    /// words are a draft brought back, being typed when the app ended, so with nothing
    /// missing focus goes back to the last field that holds words, not to Done, where
    /// Enter would save them before they were heard again.
    func showCurrentPhoto(resuming: Bool = false) {
        keyedSinceArrival = false
        guard let photo = queue.currentPhoto else { return clearForm() }
        let words = photo.words
        // One focus move, not through Choose Photo… on the way: a screen reader would say
        // the button.
        let put = {
            self.send(.clear)
            self.binding.show(words)
            self.load(photo.path)
        }
        if resuming { withoutFocusMoves(put) } else { binding.arrive(with: words, put) }
        if resuming && engine.focus == nil {
            let filled = view.layout.fields.last { !words[$0].isEmpty } ?? .title
            focus(.text(filled))
        } else {
            focus(binding.focusedItem)
        }
        refreshPosition()
    }

    /// "2 of 5" under the window title while there is more than one photo, and how many
    /// photos from a watched folder wait ("2 of 5 · 3 new").
    func refreshPosition() {
        let parts = [positionText, headerNote?()].compactMap { $0 }
        header.subtitle = parts.isEmpty ? nil : parts.joined(separator: " · ")
        binding.refresh()
        drafts.keep()
    }

    /// The header's note changed: shown now, unless an entry being edited has the header.
    func refreshHeader() {
        if editing == nil { refreshPosition() }
    }

    /// Where the photo on the form stands, said with the field: the queue's place, or the
    /// entry being edited.
    var photoPosition: String? {
        editing.map { tr("Editing “{title}”").replacing("{title}", with: $0.entry.title) } ?? positionText
    }

    /// The queue's photos, in order (tests read it).
    var queuedPaths: [String] { queue.photos.map(\.path) }

    /// Photos from a watched folder: they join the queue like any others, but what is left
    /// out (already queued) is not worth a message, and no folder is opened.
    func enqueueArrivals(_ paths: [String]) {
        let incoming = queue.sortIncoming(paths, kind: { _ in .photo }, identity: IncomingFiles.identity)
        let photos = incoming.photos
        guard !photos.isEmpty else { return }
        if editing == nil, queue.currentPhoto == nil, !words.isEmpty || binding.isComposing,
            queue.append(photos), let path = queue.currentPhoto?.path
        {
            // Words typed (or being composed) on the empty form go with the photo that
            // arrives, as with Choose Photo…: the fields do not change, so a word being
            // composed goes on being composed.
            return binding.arrive(arrival) {
                load(path)
                refreshPosition()
            }
        }
        if queue.append(photos) {
            // Only a photo that comes onto the form changes it: one that joins the queue
            // behind the photo being captioned leaves a composition open as it is.
            settleInputMethod()
            binding.arrive(arrival) { showCurrentPhoto() }
        } else {
            if editing == nil { self.photos.decodeAhead(queue.neighbours) }
            refreshPosition()
        }
    }

    /// A queued photo deleted from the watched folder leaves the queue, said once; one with
    /// words typed for it stays (its bytes, read when it came, can still be saved to the
    /// library), and so does an entry being edited.
    func photoDeleted(_ path: String) {
        guard let queued = queue.photos.first(where: { $0.path == path }) else { return }
        let name = PhotoQueue.name(of: path)
        let message = tr("“{name}” was deleted, so it left your queue")
        guard editing == nil, queue.currentPhoto?.path == path else {
            guard queued.words.isEmpty else { return }
            queue.remove([path])
            refreshHeader()
            return tell(message, name)
        }
        keepWords()
        guard queue.currentPhoto?.words.isEmpty == true, !keyedSinceArrival else { return }
        leaveForm(path, telling: message)
    }

    /// The photo on the form leaves the queue, and the next one shows, said with why.
    func leaveForm(_ path: String, telling why: String) {
        settleInputMethod()
        queue.remove([path])
        tell(why, PhotoQueue.name(of: path))
        binding.arrive(arrival) { showCurrentPhoto() }
    }

    /// The photo now on the form, said with the field focused as it arrives.
    var arrival: String? {
        queue.currentPhoto.flatMap {
            FormSpeech.photoDescription(name: PhotoQueue.name(of: $0.path), position: positionText)
        }
    }

    private var positionText: String? {
        queue.position.map {
            tr("{index} of {count}").replacing("{index}", with: String($0.index))
                .replacing("{count}", with: String($0.count))
        }
    }

    func load(_ path: String) {
        onShowing?(path)
        // What comes next: the queue's photo once an edit is done, else its neighbours.
        let ahead = editing != nil ? [queue.currentPhoto?.path].compactMap { $0 } : queue.neighbours
        shown.load(path, target: captionTarget, ahead: ahead, recent: editing == nil)
    }

    /// Empties the form when no photo is left to caption.
    func clearForm() {
        claims.letGo()
        shown.clear()
        binding.empty()
        send(.clear)
        refreshPosition()
    }
}
