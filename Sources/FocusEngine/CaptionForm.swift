// Caption's own form: Photo, Title, Subtitle. The window and the command line both build it here.

public enum CaptionForm {
    public static let photo = 0
    public static let title = 1
    public static let subtitle = 2
    public static let titleLimit = 120
    public static let subtitleLimit = 240

    public static func items(_ wording: Wording) -> [FormItem] {
        let t = wording.translate
        return [
            .photo(t("Photo")),
            .text(t("Title"), t("title"), limit: titleLimit),
            .text(t("Subtitle"), t("subtitle"), limit: subtitleLimit),
        ]
    }

    public static func engine(_ wording: Wording = Wording()) -> FocusEngine {
        FocusEngine(items: items(wording), wording: wording)
    }
}
