# A throwaway PostgreSQL server for a scenario: a cluster in a temporary folder, on a Unix
# socket there and no TCP port; killed and started again at will, removed at the end. And a
# slow link to it, for a server far away.

import glob
import os
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
import time

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


class SlowLink:
    """A server far away: a Unix socket in a folder of its own that passes every byte to
    the server and back, each piece held `delay` seconds on the way, in order (as a long
    line does). `address` is what an editor passes to --library to go through it."""

    def __init__(self, server, delay=0.05):
        self.target = os.path.join(server.folder, ".s.PGSQL.5432")
        self.delay = delay
        self.folder = tempfile.mkdtemp(prefix="caption-e2e-link-")
        self.address = server.address.replace(f"host={server.folder}", f"host={self.folder}")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(os.path.join(self.folder, ".s.PGSQL.5432"))
        os.chmod(self.folder, 0o755)
        self.listener.listen(16)
        self.open = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while self.open:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                server.connect(self.target)
            except OSError:
                client.close()
                continue
            for source, sink in ((client, server), (server, client)):
                pieces = queue.Queue()
                threading.Thread(target=self._read, args=(source, pieces), daemon=True).start()
                threading.Thread(target=self._write, args=(pieces, sink), daemon=True).start()

    def _read(self, source, pieces):
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            pieces.put((time.monotonic() + self.delay, data))
            if not data:
                return

    def _write(self, pieces, sink):
        while True:
            due, data = pieces.get()
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)  # the simulated line's delay, not a wait for the app
            try:
                if not data:
                    sink.shutdown(socket.SHUT_WR)
                    return
                sink.sendall(data)
            except OSError:
                return

    def close(self):
        self.open = False
        self.listener.close()
        shutil.rmtree(self.folder, ignore_errors=True)
