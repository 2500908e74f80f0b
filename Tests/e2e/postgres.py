# A throwaway PostgreSQL server for a scenario: a cluster in a temporary folder, on a Unix
# socket there and no TCP port; killed and started again at will, removed at the end.

import glob
import os
import shutil
import subprocess
import tempfile

from harness import Failure, TIMEOUT, require


def _server_bin():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: [int(part) for part in path.split("/")[4].split(".") if part.isdigit()])
    if not found:
        raise Failure("no PostgreSQL server is installed (Debian's postgresql package)")
    return os.path.dirname(found[-1])


class Server:
    """start() makes the cluster and its database `desk`; `address` is what editors pass
    to --library. kill() stops it as a crash would (no shutdown checkpoint)."""

    def __init__(self):
        require("psql", "setpriv")
        self.bin = _server_bin()
        # Not inside the scenario's folder: initdb refuses root, so the cluster is nobody's,
        # and nobody cannot enter a folder only root may.
        self.folder = tempfile.mkdtemp(prefix="caption-e2e-postgres-")
        self.data = os.path.join(self.folder, "data")
        self.address = f"host={self.folder} user=caption_admin dbname=desk"
        if os.getuid() == 0:
            shutil.chown(self.folder, "nobody")
        self.log = os.path.join(self.folder, "server.log")

    def _as_owner(self, argv):
        if os.getuid() == 0:
            argv = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *argv]
        result = subprocess.run(argv, capture_output=True, timeout=60)
        if result.returncode != 0:
            raise Failure(f"{os.path.basename(argv[-1] if argv[0] != 'setpriv' else argv[4])} failed: "
                          f"{result.stderr.decode(errors='replace').strip()}")

    def make(self):
        self._as_owner([f"{self.bin}/initdb", "-D", self.data, "-U", "caption_admin", "-A", "trust", "-E", "UTF8",
                        "--locale=C.UTF-8", "--no-sync"])
        self.start()
        self.psql("CREATE DATABASE desk", database="postgres")
        return self

    def start(self):
        self._as_owner([f"{self.bin}/pg_ctl", "-D", self.data, "-l", self.log, "-w", "-s", "-o",
                        f"-c listen_addresses= -k {self.folder} -c fsync=off -c full_page_writes=off", "start"])

    def kill(self):
        self._as_owner([f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "-s", "stop"])

    def psql(self, sql, database="desk"):
        """The rows of a query, as lists of strings."""
        result = subprocess.run(
            [f"{self.bin}/psql", "-h", self.folder, "-U", "caption_admin", "-d", database, "-X", "-q", "-A", "-t",
             "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, timeout=TIMEOUT)
        if result.returncode != 0:
            raise Failure(f"psql: {result.stderr.decode(errors='replace').strip()}")
        return [line.split("\t") for line in result.stdout.decode().splitlines() if line]

    def remove(self):
        try:
            self.kill()
        except Failure:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)
