// `caption --help`: the usage, one translatable message per paragraph or option.

import Localization

extension Arguments {
    /// One message per paragraph or option, each a single-line literal: xgettext reads
    /// Swift with its C parser, which does not understand multi-line literals. A translator
    /// keeps an option's own spelling and re-aligns its description.
    public static var helpText: String {
        [
            tr("Usage:"),
            "  caption " + tr("[--library DIR] [--watch DIR [--subfolders]] [PHOTO...]"),
            "  caption " + tr("[--library DIR] --add PHOTO --title TITLE --subtitle SUBTITLE [--in-place | --sidecar]"),
            "  caption " + tr("[--library DIR] --import SHEET.csv [--in-place | --sidecar] [--send NAME]"),
            "  caption " + tr("[--library DIR] --list [--json | --csv]"),
            "  caption " + tr("[--library DIR] --remove ID"),
            "  caption " + tr("[--library DIR] --export DIR [--id ID]... [--sidecar]"),
            "  caption " + tr("[--library DIR] --write-back [--sidecar] [--id ID]..."),
            "  caption " + tr("[--library DIR] --check [--pad NAME] [PHOTO...]"),
            "  caption " + tr("--set-credits [--creator NAME] [--credit-line TEXT] [--copyright TEXT] ..."),
            "  caption " + tr("--credits [--pad NAME]"),
            "  caption " + tr("--pads | --use-pad NAME | --no-pad | --add-pad FILE.xmp [--pad NAME]"),
            "  caption " + tr("--add-destination NAME ADDRESS [--fingerprint KEY]"),
            "  caption " + tr("--destinations | --remove-destination NAME"),
            "  caption " + tr("[--library DIR] --send NAME --id ID..."),
            "  caption --help | --version",
            "",
            tr("Give photos a title and a subtitle from the keyboard."),
            "",
            tr(
                "With none of --add, --import, --list, --remove, --export, --write-back, --check\nor the credits' and pads' commands, opens the window with the photos given, one\nafter another."
            ),
            "",
            tr("Options:"),
            tr(
                "  --library DIR     the library to use (default: $XDG_DATA_HOME/caption,\n                    that is ~/.local/share/caption), or a photo desk's library\n                    on a PostgreSQL server: postgresql://HOST/DATABASE or\n                    service=NAME (passwords from ~/.pgpass, never here)"
            ),
            tr(
                "  --add PHOTO       save PHOTO with --title and --subtitle, without a window;\n                    either left out is taken from its sidecar or its metadata"
            ),
            tr(
                "  --in-place        with --add or --import: also write the caption into the\n                    photo itself (a format that cannot hold it gets\n                    PHOTO.EXT.xmp beside it)"
            ),
            tr(
                "  --import SHEET    save the photos a caption sheet names, as --add does, in one\n                    go: a CSV with exiftool's -csv columns (SourceFile, Title or\n                    ObjectName, Description or Caption-Abstract, Headline,\n                    Keywords and the other fields, and the credits);\n                    an empty cell is taken from the photo; with --in-place or\n                    --sidecar, written as --add writes; a row that cannot be\n                    saved is said with its line, and the others go on"
            ),
            tr(
                "  --watch DIR       with the window: photos that appear in DIR join the queue,\n                    each once, when complete; remembered until stopped from the\n                    main menu"
            ),
            tr("  --subfolders      with --watch: also photos that appear in DIR's subfolders"),
            tr("  --title TITLE     the title, at most 120 characters"),
            tr("  --subtitle TEXT   the subtitle, at most 240 characters"),
            tr(
                "  --headline TEXT   with --add, the fields agencies read, each optional: also\n                    --keywords \"A, B\", --alt-text, --extended-description, --event,\n                    --special-instructions, --job-id, --sublocation and --state;\n                    one not given leaves what the photo says there"
            ),
            tr("  --list            print the saved entries, newest first"),
            tr("  --json            with --list: print them as JSON"),
            tr(
                "  --csv             with --list: print them as a caption sheet, the columns\n                    --import and exiftool -csv= read"
            ),
            tr("  --remove ID       remove the entry numbered ID"),
            tr(
                "  --export DIR      write each entry's photo into DIR (created if needed), its\n                    caption embedded as XMP (and, in JPEG, Exif), named after\n                    its title; nothing in DIR is replaced"
            ),
            tr(
                "  --write-back      write saved captions into the photo files they came from;\n                    a photo gone or changed since is skipped, one line each"
            ),
            tr(
                "  --id ID           with --export or --write-back: only the entry numbered ID;\n                    repeat for more"
            ),
            tr(
                "  --sidecar         with --export: the photos untouched, each caption in\n                    NAME.jpg.xmp beside NAME.jpg; with --add or --write-back: the\n                    caption into PHOTO.EXT.xmp beside the photo, which stays as it is"
            ),
            tr(
                "  --set-credits     set the standing credits written with every caption from now\n                    on, with --creator, --credit-line, --copyright, --source,\n                    --city, --country and --country-code (an empty one clears it;\n                    variables such as {year} work); credits not given stay"
            ),
            tr(
                "  --replace-own     with --set-credits: the credits replace those a photo\n                    already carries; --keep-own (the default) keeps the photo's"
            ),
            tr(
                "  --no-iim          with --set-credits: IPTC-IIM only where a photo has it;\n                    --iim (the default) adds it to JPEG and TIFF photos without it,\n                    for systems that read nothing else"
            ),
            tr("  --credits         print the standing credits"),
            tr(
                "  --pad NAME        with --add or --import: the stationery pad NAME's credits\n                    rather than the standing ones; with --set-credits or\n                    --credits: set or print that pad's (a new name makes a pad)"
            ),
            tr("  --pads            list the stationery pads, the one in use marked"),
            tr(
                "  --use-pad NAME    write the stationery pad NAME's credits with every caption\n                    from now on, in the window too; --no-pad: the standing ones"
            ),
            tr(
                "  --add-pad FILE    make an XMP file (a Photo Mechanic metadata template) a\n                    stationery pad, named after the file or --pad"
            ),
            tr(
                "  --check [PHOTO...] check the captions of the library, the photos' own, or a\n                    caption sheet's rows (SHEET.csv), for\n                    placeholders, codes and variables left in, words typed twice,\n                    brackets not closed and names spelt otherwise than the code\n                    replacements spell them: one line each, exit status 1 if any;\n                    with --pad NAME, that stationery pad's own checks apply"
            ),
            tr(
                "  --add-destination NAME ADDRESS\n                    add a place to send photos to: ftp://USER@HOST/FOLDER/,\n                    ftps://… (FTP with TLS), sftp://… or a folder; the password is\n                    asked for, checked by logging in, and kept in the keyring"
            ),
            tr(
                "  --fingerprint KEY with --add-destination: the server's key (SFTP) or\n                    certificate's key (FTPS) as the agency gave it; without it, the\n                    one the server shows is asked about on a terminal"
            ),
            tr("  --destinations    list the destinations; --remove-destination NAME removes one"),
            tr(
                "  --send NAME       send the entries --id names to the destination NAME, each\n                    photo with its caption inside, named as --export names it; with\n                    --import, the entries the sheet saved"
            ),
            tr("  -h, --help        show this help"),
            tr("  --version         show the version"),
            "",
            tr(
                "Exit status: 0 on success, 1 when a photo, a caption or the library is at\nfault, 2 when the command line is wrong."
            ),
            tr("An export stopped by Ctrl+C exits with 130; the photos it reported are whole."),
        ].joined(separator: "\n")
    }
}
