// Export (win.export): every entry into a folder the user chooses, its caption embedded, on
// a thread of its own so the window and its saves carry on meanwhile.

import CaptionLibrary
import CaptionMetadata
import CaptionQueue
import Dispatch
import Localization
import POSIXFiles

@MainActor
final class ExportController {
    private let window: Window
    private let library: LibraryAccess
    private let notification: InAppNotification
    private let messages: MessageBar
    /// Where the last export folder is remembered.
    private let stateFile: String
    private(set) var isExporting = false

    init(
        window: Window, library: LibraryAccess, notification: InAppNotification, messages: MessageBar,
        stateFile: String
    ) {
        self.window = window
        self.stateFile = stateFile
        self.library = library
        self.notification = notification
        self.messages = messages
    }

    /// A folder chooser, opened in the last folder exported into, then every entry into the
    /// folder chosen.
    func chooseFolder() {
        FolderChooser.present(
            over: window, title: tr("Export Every Entry to a Folder"), accept: tr("_Export"),
            startingIn: FolderChooser.startingFolder(last: WindowStateFile.exportFolder(stateFile))
        ) { [weak self] folder in self?.exportAll(to: folder) }
    }

    /// Writes every entry, oldest first, into `folder` with its caption embedded (see
    /// `Exporter.exportAll`), with its own connection to the library. The notification
    /// shows a progress bar ("1,234 of 100,001") and Cancel, which stops before the next
    /// photo: every photo is then in the folder whole or not at all. The outcome shows in
    /// the notification, or in the message bar when the folder cannot take the photos.
    /// `completion` is for tests.
    func exportAll(to folder: String, completion: (@MainActor (Result<Exporter.Summary, LibraryError>) -> Void)? = nil)
    {
        guard !isExporting else { return window.errorBell() }
        isExporting = true
        let progress = WorkProgress()
        let panel = ProgressPanel(progress: progress, title: tr("Exporting…"))
        notification.show(progress: panel)
        let location = library.location
        let lifetime = library.lifetime
        DispatchQueue.global(qos: .userInitiated).async {
            let result: Result<Exporter.Summary, LibraryError>
            do throws(LibraryError) {
                let library = try Library.open(location)
                result = .success(
                    try Exporter.exportAll(from: library, to: folder, into: .photo, progress: progress))
            } catch {
                result = .failure(error)
            }
            lifetime.post { [weak self] in
                guard let self else { return }
                panel.stop()
                self.isExporting = false
                self.notification.show(progress: nil)
                switch result {
                case .success(let summary):
                    WindowStateFile.saveExportFolder(folder, to: self.stateFile)
                    self.notification.show(
                        Self.message(summary, folder: folder), button: summary.exported == 0 ? nil : .openFolder,
                        seconds: 8
                    ) { [weak self] in self?.open(folder) }
                case .failure(let error):
                    self.notification.hide()
                    self.messages.show(problem: error.message)
                }
                completion?(result)
            }
        }
    }

    /// The export's progress panel while one runs, for tests.
    var progressPanel: ProgressPanel? { notification.progress }

    /// The folder in the file manager; when none starts, the bar says why.
    private func open(_ folder: String) {
        guard let uri = FileURI.uri(of: folder) else { return }
        if let reason = window.open(uri: uri) {
            messages.show(
                problem: fill(tr("The folder could not be opened: {reason}"), ["reason": reason]))
        }
    }

    static func message(_ summary: Exporter.Summary, folder: String) -> String {
        let name = PhotoQueue.name(of: folder)
        if !summary.missing.isEmpty && !summary.cancelled {
            let ids = summary.missing.prefix(5).map { String($0.id) }.joined(separator: ", ")
            let unreadable = summary.missing.allSatisfy { $0.problem.kind == .photoUnreadable }
            let oldWords = summary.missing.allSatisfy { $0.problem.kind == .oldCaptionInside }
            let text =
                unreadable
                ? tr(
                    "Exported to “{folder}”: {count} of {total} photos; {missing} could not be read from the library (entries {ids})"
                )
                : oldWords
                    ? tr(
                        "Exported to “{folder}”: {count} of {total} photos; {missing} left out, holding an old caption Caption cannot replace (entries {ids})"
                    )
                    : tr("Exported to “{folder}”: {count} of {total} photos; {missing} left out (entries {ids})")
            return
                text
                .replacing("{count}", with: String(summary.exported)).replacing("{folder}", with: name)
                .replacing("{total}", with: String(summary.total))
                .replacing("{missing}", with: String(summary.missing.count))
                .replacing("{ids}", with: ids + (summary.missing.count > 5 ? "…" : ""))
        }
        if summary.cancelled {
            return tr("Export stopped: {progress} photos exported to “{folder}”")
                .replacing("{progress}", with: WorkProgress.text(completed: summary.exported, total: summary.total))
                .replacing("{folder}", with: name)
        }
        switch summary.exported {
        case 0: return tr("Nothing to export: no entry is saved yet")
        case 1: return tr("One photo exported to “{folder}”").replacing("{folder}", with: name)
        default:
            return tr("{count} photos exported to “{folder}”").replacing("{count}", with: String(summary.exported))
                .replacing("{folder}", with: name)
        }
    }
}
