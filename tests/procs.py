"""Child processes for the Python tests (deploy and end-to-end): a free port, and a binary
run with exactly the given environment (plus PATH and LANG), its output kept in a
temporary log that goes when the object does. Standard library only."""
import os
import signal
import socket
import subprocess
import tempfile


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proc:
    """A binary started as a child process with exactly `env` (plus PATH and LANG)."""

    def __init__(self, argv, env, name, log_prefix="tablero"):
        self.log = tempfile.NamedTemporaryFile(prefix=f"{log_prefix}-{name}-", suffix=".log", delete=False)
        full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        full.update(env)
        self.p = subprocess.Popen(argv, env=full, stdout=self.log, stderr=subprocess.STDOUT)
        self.name = name

    def stop(self):
        """SIGTERM, then SIGKILL after 15 s; the exit code."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(15)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        return self.p.returncode

    def output(self):
        with open(self.log.name, errors="replace") as f:
            return f.read()

    def __del__(self):
        try:
            os.unlink(self.log.name)
        except OSError:
            pass
