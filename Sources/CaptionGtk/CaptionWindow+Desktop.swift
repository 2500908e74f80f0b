// What a GNOME user expects around the form: the primary menu, the shortcuts window, About,
// photos dropped on the window or pasted, and the remembered window size.

import CGtk
import CaptionLibrary
import Dispatch
import Localization

extension CaptionWindow {
    // MARK: Primary menu, shortcuts window, About

    /// The primary menu (F10) at the end of the header bar.
    func installPrimaryMenu() {
        let menu = g_menu_new()
        g_menu_append(menu, tr("_Export All to a Folder…"), "win.export")
        g_menu_append(menu, tr("_Keyboard Shortcuts"), "win.show-shortcuts")
        g_menu_append(menu, tr("_About Caption"), "win.about")
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_menu_model(caption_menu_button(button), UnsafeMutablePointer(menu))
        gtk_button_set_image(caption_button(button),
                             gtk_image_new_from_icon_name("open-menu-symbolic", GTK_ICON_SIZE_BUTTON))
        atk_object_set_name(gtk_widget_get_accessible(button), tr("Main Menu"))
        gtk_widget_set_tooltip_text(button, tr("Main Menu"))
        gtk_header_bar_pack_end(caption_header_bar(header), button)
        g_object_unref(UnsafeMutableRawPointer(menu))
        menuButton = button
    }

    func toggleMenu() {
        guard let menuButton else { return }
        let toggle = caption_toggle_button(menuButton)
        gtk_toggle_button_set_active(toggle, gtk_toggle_button_get_active(toggle) == 0 ? 1 : 0)
    }

    /// Every shortcut, grouped as a user looks for them.
    func showShortcuts() {
        let groups: [(String, [(String, String)])] = [
            (tr("Captioning"), [
                ("Return", tr("Next field, or save when everything is filled")),
                ("<Shift>Return", tr("Previous field")),
                ("<Primary>s <Primary>Return", tr("Save")),
                ("<Primary>z", tr("Undo the last save")),
                ("Escape", tr("Hide the message")),
            ]),
            (tr("Photos"), [
                ("<Primary>o", tr("Choose photos")),
                ("<Primary>v", tr("Paste a photo")),
                ("<Primary>e", tr("Export every entry to a folder")),
                ("<Primary>Page_Down", tr("Next photo in the queue")),
                ("<Primary>Page_Up", tr("Previous photo in the queue")),
            ]),
            (tr("General"), [
                ("F10", tr("Main menu")),
                ("<Primary>question", tr("Keyboard shortcuts")),
                ("F1", tr("About Caption")),
                ("<Primary>q", tr("Quit")),
            ]),
        ]
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\"><property name=\"modal\">1</property>"
        xml += "<child><object class=\"GtkShortcutsSection\"><property name=\"visible\">1</property>"
        xml += "<property name=\"section-name\">shortcuts</property>"
        for (title, shortcuts) in groups {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"visible\">1</property>"
            xml += "<property name=\"title\">\(escape(title))</property>"
            for (accelerator, label) in shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\"><property name=\"visible\">1</property>"
                xml += "<property name=\"accelerator\">\(escape(accelerator))</property>"
                xml += "<property name=\"title\">\(escape(label))</property></object></child>"
            }
            xml += "</object></child>"
        }
        xml += "</object></child></object></interface>"
        let builder = gtk_builder_new_from_string(xml, -1)
        guard let shortcuts = gtk_builder_get_object(builder, "shortcuts") else { return }
        let shortcutsWindow = UnsafeMutableRawPointer(shortcuts)
        gtk_window_set_transient_for(caption_window(shortcutsWindow), caption_window(window))
        gtk_window_set_destroy_with_parent(caption_window(shortcutsWindow), 1)
        gtk_widget_show_all(caption_widget(shortcutsWindow))
        g_object_unref(UnsafeMutableRawPointer(builder))
    }

    private func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    func showAbout() {
        let about = gtk_about_dialog_new()!
        let dialog = caption_about_dialog(about)
        gtk_about_dialog_set_program_name(dialog, "Caption")
        gtk_about_dialog_set_version(dialog, CaptionApplication.version)
        gtk_about_dialog_set_comments(dialog, tr("Give photos a title and a subtitle without touching the mouse"))
        gtk_about_dialog_set_logo_icon_name(dialog, CaptionApplication.id)
        gtk_about_dialog_set_website(dialog, "https://github.com/caption-app/caption")
        gtk_about_dialog_set_license_type(dialog, GTK_LICENSE_GPL_3_0)
        gtk_about_dialog_set_copyright(dialog, "© 2026 Caption developers")
        gtk_about_dialog_set_translator_credits(dialog, tr("translator-credits"))
        gtk_window_set_transient_for(caption_window(about), caption_window(window))
        gtk_window_set_modal(caption_window(about), 1)
        gtk_window_set_destroy_with_parent(caption_window(about), 1)
        onIntSignal(about, "response") { _ in gtk_widget_destroy(about) }
        gtk_widget_show(about)
    }

    // MARK: Drag and drop, paste

    /// Files and image data dropped anywhere on the window join the queue.
    func acceptDrops() {
        gtk_drag_dest_set(window, GTK_DEST_DEFAULT_ALL, nil, 0, GDK_ACTION_COPY)
        gtk_drag_dest_add_uri_targets(window)
        gtk_drag_dest_add_image_targets(window)
        onDragDataReceived(window) { [weak self] selection in
            self?.receiveDrop(uris: gtk_selection_data_get_uris(selection), image: gtk_selection_data_get_pixbuf(selection))
        }
    }

    /// What a drop brought: files join the queue; image data with no file becomes one.
    /// Takes ownership of both (GTK hands them over as new copies).
    func receiveDrop(uris: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, image: OpaquePointer?) {
        let paths = Self.paths(fromURIs: uris)
        if !paths.isEmpty {
            if let image { g_object_unref(UnsafeMutableRawPointer(image)) }
            enqueue(paths)
        } else if let image {
            takeImageData(image)
        }
    }

    /// Ctrl+V: files copied in a file manager, or an image copied from another app, become
    /// photos. Returns false when the clipboard holds neither, so a text field pastes text.
    @discardableResult
    public func pastePhoto() -> Bool {
        guard let clipboard = gtk_clipboard_get(caption_clipboard_atom()) else { return false }
        if gtk_clipboard_wait_is_uris_available(clipboard) != 0 {
            let paths = Self.paths(fromURIs: gtk_clipboard_wait_for_uris(clipboard))
            guard !paths.isEmpty else { return false }
            enqueue(paths)
            return true
        }
        if gtk_clipboard_wait_is_image_available(clipboard) != 0, let pixbuf = gtk_clipboard_wait_for_image(clipboard) {
            takeImageData(pixbuf)
            return true
        }
        return false
    }

    /// Local paths of file URIs, freeing the strv; other schemes are passed over.
    static func paths(fromURIs uris: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        guard let uris else { return [] }
        defer { g_strfreev(uris) }
        var paths: [String] = []
        var index = 0
        while let uri = uris[index] {
            if let path = g_filename_from_uri(uri, nil, nil) {
                paths.append(String(cString: path))
                g_free(path)
            }
            index += 1
        }
        return paths
    }

    /// Image data with no file behind it is written as a PNG in the cache folder (off the
    /// main thread: a large screenshot takes a while to encode), then treated as a photo.
    func takeImageData(_ pixbuf: OpaquePointer) {
        let shared = SharedObject(pointer: pixbuf)  // a reference we own: it is released below
        let folder = String(cString: g_get_user_cache_dir()) + "/caption/pasted"
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let path = folder + "/pasted-\(now.tv_sec)-\(now.tv_nsec / 1_000_000).png"
        DispatchQueue.global(qos: .userInitiated).async {
            g_mkdir_with_parents(folder, 0o700)
            var error: UnsafeMutablePointer<GError>?
            let saved = gdk_pixbuf_savev(shared.pointer, path, "png", nil, nil, &error) != 0
            let message = error.map { String(cString: $0.pointee.message) } ?? ""
            g_clear_error(&error)
            g_object_unref(UnsafeMutableRawPointer(shared.pointer))
            MainThread.post { [weak self] in
                guard let self else { return }
                if saved {
                    self.enqueue([path])
                } else {
                    self.saveError = tr("The pasted image could not be kept: {reason}").replacing("{reason}", with: message)
                    self.refresh()
                }
            }
        }
    }

    // MARK: Window size

    /// Restores the remembered size, and keeps track of it from then on.
    func rememberGeometry() {
        let geometry = WindowStateFile.load(stateFile) ?? .standard
        self.geometry = geometry
        gtk_window_set_default_size(caption_window(window), Int32(geometry.width), Int32(geometry.height))
        if geometry.maximized { gtk_window_maximize(caption_window(window)) }
        onPointerSignal(window, "size-allocate", after: true) { [weak self] _ in
            guard let self else { return }
            let maximized = gtk_window_is_maximized(caption_window(self.window)) != 0
            self.geometry.maximized = maximized
            guard !maximized else { return }  // keep the size to come back to
            var width: Int32 = 0, height: Int32 = 0
            gtk_window_get_size(caption_window(self.window), &width, &height)
            self.geometry.width = Int(width)
            self.geometry.height = Int(height)
        }
    }

    public func saveGeometry() {
        WindowStateFile.save(geometry, to: stateFile)
    }
}
