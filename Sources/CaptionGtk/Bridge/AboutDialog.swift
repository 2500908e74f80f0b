// GTK's About dialog, filled in and shown over a window.

import CGtk

@MainActor
enum AboutDialog {
    struct Facts {
        let programName: String
        let version: String
        let comments: String
        let logoIconName: String
        let website: String
        let copyright: String
        let translatorCredits: String
    }

    /// Shows the dialog over `window`, modal, licensed GPL 3.0; it goes when answered.
    static func show(_ facts: Facts, over window: Window) {
        let about = Window(unchecked: gtk_about_dialog_new())
        let dialog = caption_about_dialog(about.pointer)
        gtk_about_dialog_set_program_name(dialog, facts.programName)
        gtk_about_dialog_set_version(dialog, facts.version)
        gtk_about_dialog_set_comments(dialog, facts.comments)
        gtk_about_dialog_set_logo_icon_name(dialog, facts.logoIconName)
        gtk_about_dialog_set_website(dialog, facts.website)
        gtk_about_dialog_set_license_type(dialog, GTK_LICENSE_GPL_3_0)
        gtk_about_dialog_set_copyright(dialog, facts.copyright)
        gtk_about_dialog_set_translator_credits(dialog, facts.translatorCredits)
        window.adopt(about, modal: true)
        about.connect(.response) { _ in about.destroy() }
        about.show()
    }
}
