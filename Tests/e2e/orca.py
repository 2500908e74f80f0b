# Orca, Debian's screen reader, on a scenario's desktop: what a blind user hears, as text.
#
# Orca speaks through speech-dispatcher; here speech-dispatcher's generic module, instead of
# a synthesizer, appends each utterance to a log (one line each), and libao's null driver
# stands in for a sound card. Orca runs with its own preferences folder and starts
# speech-dispatcher itself, with the scenario's configuration (XDG_CONFIG_HOME).

import os
import shutil
import time

from harness import TIMEOUT, Failure, expect, require, wait_until

SPEECHD_CONF = """LogLevel 3
LogDir "{log_dir}"
AudioOutputMethod "libao"
DefaultVolume 100
DefaultLanguage "en"
AddModule "caption-log" "sd_generic" "caption-log.conf"
DefaultModule caption-log
SymbolsPreproc "char"
SymbolsPreprocFile "gender-neutral.dic"
SymbolsPreprocFile "font-variants.dic"
SymbolsPreprocFile "symbols.dic"
SymbolsPreprocFile "emojis.dic"
SymbolsPreprocFile "orca.dic"
SymbolsPreprocFile "orca-chars.dic"
"""

# Each utterance, on one line, appended to the log; $DATA is the text, quoted by the module.
MODULE_CONF = """GenericExecuteSynth "printf '%s\\\\n' \\'$DATA\\' >> {log}"
GenericCmdDependency "printf"
AddVoice "en" "male1" "log"
DefaultVoice "log"
GenericLanguage "en" "en" "utf-8"
GenericStripPunctChars ""
GenericRecodeFallback "?"
"""


class Orca:
    """Orca speaking into a log. heard() is everything said so far, in order."""

    def __init__(self, desktop):
        require("orca", "speech-dispatcher")
        self.desktop = desktop
        self.log = os.path.join(desktop.root, "speech.log")
        open(self.log, "w").close()
        config = desktop.env["XDG_CONFIG_HOME"]
        speechd = os.path.join(config, "speech-dispatcher")
        os.makedirs(os.path.join(speechd, "modules"), exist_ok=True)
        log_dir = os.path.join(desktop.root, "speechd-log")
        os.makedirs(log_dir, exist_ok=True)
        with open(os.path.join(speechd, "speechd.conf"), "w") as conf:
            conf.write(SPEECHD_CONF.format(log_dir=log_dir))
        with open(os.path.join(speechd, "modules", "caption-log.conf"), "w") as conf:
            conf.write(MODULE_CONF.format(log=self.log))
        with open(os.path.join(desktop.env["HOME"], ".libao"), "w") as ao:
            ao.write("default_driver=null\n")
        prefs = os.path.join(desktop.root, "orca-prefs")
        os.makedirs(prefs, exist_ok=True)
        self.debug_log = os.path.join(desktop.root, "orca-debug.out")
        self.process = desktop.spawn("orca", ["/usr/bin/python3", self._launcher(), "-u", prefs,
                                              "--debug-file", self.debug_log],
                                     stdout=open(os.path.join(desktop.root, "orca.log"), "w"),
                                     stderr=open(os.path.join(desktop.root, "orca.err"), "w"))
        self.mark = 0
        wait_until("Orca to say it is on", lambda: self._alive() and "Screen reader on" in self.text(), timeout=TIMEOUT * 2)

    def _launcher(self):
        """A copy of /usr/bin/orca that lives beside other sessions' screen readers: Orca
        refuses to start while any process of this user is named orca (pgrep -x orca), and
        --replace would kill them. This copy takes another process name and skips the check."""
        with open(shutil.which("orca")) as original:
            source = original.read()
        for old, new in (("setProcessName('orca')", "setProcessName('orca-e2e')"),
                         ("def otherOrcas():", "def otherOrcas():\n    return []\n\ndef _unused_otherOrcas():")):
            if old not in source:
                raise Failure(f"the orca launcher changed: no {old!r} in it")
            source = source.replace(old, new)
        path = os.path.join(self.desktop.root, "orca-e2e")
        with open(path, "w") as launcher:
            launcher.write(source)
        return path

    def _alive(self):
        if self.process.poll() is not None:
            raise Failure(f"orca exited with status {self.process.returncode}: {self._tail('orca.err')}")
        return True

    def _tail(self, name):
        try:
            with open(os.path.join(self.desktop.root, name), errors="replace") as text:
                return text.read()[-2000:]
        except OSError:
            return ""

    def text(self):
        with open(self.log, errors="replace") as log:
            return log.read()

    def lines(self):
        return [line for line in self.text().split("\n") if line.strip()]

    def since_mark(self):
        return self.lines()[self.mark:]

    def start_listening(self):
        """From here on, since_mark() is what was said after this point: once Orca has
        said what the last action still had to say (it has fallen quiet)."""
        self.settle(quiet=0.3)
        self.mark = len(self.lines())

    def wait_heard(self, phrase, timeout=TIMEOUT):
        """Waits until Orca has said `phrase` (a substring of one utterance) since the mark."""
        try:
            return wait_until(f"Orca to say {phrase!r}",
                              lambda: self._alive() and any(phrase in line for line in self.since_mark()),
                              timeout=timeout)
        except Failure:
            raise Failure(f"Orca never said {phrase!r}; it said {self.since_mark()!r}") from None

    def settle(self, quiet=0.6):
        """Waits until Orca has been quiet for `quiet` seconds: nothing said, and no event
        still being worked through (its debug log stops growing). Keys pressed 40 ms apart
        in the main menu queue a hundred accessibility events (GTK's menu buttons repeat
        their checked state at each move), which Orca takes a second or two to go through
        without a word; a notification queued behind them was pruned as a flood, and never
        said. A person moving through a menu gives Orca that time between keys. Orca
        signals no end of its work: its logs standing still is the only sign of it."""
        deadline = time.monotonic() + TIMEOUT
        activity = self._activity()
        quiet_since = time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.1)
            now = self._activity()
            if now != activity:
                activity, quiet_since = now, time.monotonic()
            elif time.monotonic() - quiet_since >= quiet:
                return
        raise Failure("Orca never fell quiet")

    def _activity(self):
        """What grows while Orca works: what it said, and its debug log."""
        try:
            debug = os.path.getsize(self.debug_log)
        except OSError:
            debug = 0
        return len(self.lines()), debug

    def expect_heard_once(self, phrase):
        said = self.since_mark()
        times = sum(phrase in line for line in said)
        expect(times == 1, f"Orca said {phrase!r} {times} times: {said!r}")

    def expect_not_heard(self, phrase):
        said = self.since_mark()
        expect(not any(phrase in line for line in said), f"Orca said {phrase!r}: {said!r}")
