// The window's GTK objects as C pointers, for the view benchmark (a program of its own, built
// for release, where `@testable` is not available) and the tests, which drive GTK themselves.

import CGtk

extension CaptionWindow {
    public var widget: UnsafeMutablePointer<GtkWidget> { window.pointer }
    public var libraryList: UnsafeMutablePointer<GtkWidget> { libraryController.view.treeView.pointer }
    /// The Preferences window while it is open.
    public var preferencesWidget: UnsafeMutablePointer<GtkWidget>? { preferences?.window.pointer }

    /// The window's "win." actions, for tests that activate one with a parameter.
    var actionGroup: gpointer { actions.pointer }
}
