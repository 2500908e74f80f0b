// The commands that need no window: --add, --list, --remove.

import Localization

public enum Commands {
    /// Runs a windowless request; returns the exit status.
    public static func run(_ request: Request) -> Int32 {
        Console.error(tr("--add, --list and --remove are not built yet"))
        return 1
    }
}
