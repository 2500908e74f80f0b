// Photos from elsewhere: the clipboard and drops join the queue.

extension FormController {
    /// Ctrl+V: files copied in a file manager, or an image copied from another app, become
    /// photos. Returns false when the clipboard holds neither, so a text field pastes text.
    @discardableResult
    func pastePhoto() -> Bool { take(PhotoIntake.clipboard()) }

    /// What a drop brought: files join the queue; image data with no file becomes one.
    func receive(_ drop: PhotoIntake.Received) { take(drop) }

    @discardableResult
    func take(_ received: PhotoIntake.Received) -> Bool {
        PhotoIntake.deliver(
            received, in: photos.lifetime, to: { [weak self] paths in self?.enqueue(paths) },
            failure: { [weak self] problem in self?.messages.show(problem: problem) })
    }
}
