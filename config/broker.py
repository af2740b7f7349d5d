"""The embedded broker: kombu's filesystem transport made safe for concurrent use.

kombu's own filesystem transport creates the message file and then writes it, so a
worker polling the folder can open a file that is still empty or half written and die
on a ``JSONDecodeError``; it also keeps delivered-but-unacknowledged messages only in
the worker's memory, so a worker killed with eta tasks in hand loses them. This
transport (docs/operations.md "The embedded broker", measured by bench/broker.py):

- writes every message to ``staging/`` and renames it into the queue folder: a reader
  sees the whole message or nothing (rename is atomic within one filesystem);
- claims a message by renaming it into the consumer's own ``claimed/`` folder (exactly
  one consumer wins), and deletes it only when the message is acknowledged;
- holds an exclusive ``flock`` on a lock file per consumer for as long as the consumer
  lives: a consumer that finds another's lock free knows that process is gone and moves
  its claimed messages back into the queue (acks-late tasks are redelivered at once,
  not lost);
- sets aside an unreadable message file in ``failed/`` with an error in the log instead
  of raising into the worker.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
import uuid
import weakref

from kombu.transport import filesystem
from kombu.utils.json import dumps, loads
from kombu.utils.objects import cached_property

log = logging.getLogger(__name__)

RECOVER_EVERY_SECONDS = 2.0
_claim_locks: weakref.WeakSet = weakref.WeakSet()


def _close_inherited_claim_locks() -> None:
    # A forked child (a prefork pool process) must not keep its parent's claim lock
    # alive after the parent dies: close (never unlock) the inherited descriptors.
    for lock_file in list(_claim_locks):
        with contextlib.suppress(OSError):
            lock_file.close()


os.register_at_fork(after_in_child=_close_inherited_claim_locks)


def _write_atomically(path: str, staging_folder: str, data: bytes) -> None:
    tmp = os.path.join(staging_folder, f"{uuid.uuid4().hex}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
    os.rename(tmp, path)


class QoS(filesystem.virtual.QoS):
    def ack(self, delivery_tag):
        self.channel._release_claim(delivery_tag)
        super().ack(delivery_tag)

    def reject(self, delivery_tag, requeue=False):
        super().reject(delivery_tag, requeue=requeue)  # requeue: published again first
        self.channel._release_claim(delivery_tag)


class Channel(filesystem.Channel):
    QoS = QoS

    def __init__(self, connection, **kwargs):
        self._claims: dict[str, str] = {}  # delivery tag -> claimed file
        self._no_ack_queues: set[str] = set()
        self._claim_lock_file = None
        self._next_recovery = 0.0
        super().__init__(connection, **kwargs)

    # --- folders -----------------------------------------------------------------------

    def _subfolder(self, option: str, name: str) -> str:
        folder = self.transport_options.get(option) or os.path.join(
            os.path.dirname(os.path.abspath(self.data_folder_out)), name
        )
        os.makedirs(folder, exist_ok=True)
        return folder

    @cached_property
    def staging_folder(self) -> str:
        return self._subfolder("staging_folder", "staging")

    @cached_property
    def claims_folder(self) -> str:
        return self._subfolder("claims_folder", "claimed")

    @cached_property
    def failed_folder(self) -> str:
        return self._subfolder("failed_folder", "failed")

    @cached_property
    def own_claims(self) -> str:
        """This consumer's folder of claimed messages, with its lock held while it lives."""
        name = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        folder = os.path.join(self.claims_folder, name)
        os.makedirs(folder)
        self._claim_lock_file = open(folder + ".lock", "wb")  # noqa: SIM115 (held for life)
        fcntl.flock(self._claim_lock_file.fileno(), fcntl.LOCK_EX)
        _claim_locks.add(self._claim_lock_file)
        return folder

    # --- publishing --------------------------------------------------------------------

    def _put(self, queue, payload, **kwargs):
        # time.time_ns() zero-padded: file names sort in publishing order across processes
        name = f"{time.time_ns():020d}_{uuid.uuid4().hex}.{queue}.msg"
        try:
            _write_atomically(
                os.path.join(self.data_folder_out, name),
                self.staging_folder,
                dumps(payload).encode(),
            )
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add message {name!r}: {exc}") from exc

    # --- consuming ---------------------------------------------------------------------

    def basic_consume(self, queue, no_ack, callback, consumer_tag, **kwargs):
        if no_ack:
            self._no_ack_queues.add(queue)
        return super().basic_consume(queue, no_ack, callback, consumer_tag, **kwargs)

    def _get(self, queue):
        now = time.monotonic()
        if now >= self._next_recovery:
            self._next_recovery = now + RECOVER_EVERY_SECONDS
            self.recover_orphaned_claims()
        suffix = f".{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in)):
            if not name.endswith(suffix) or name.partition(".")[2] != suffix[1:]:
                continue
            claimed = os.path.join(self.own_claims, name)
            try:
                os.rename(os.path.join(self.data_folder_in, name), claimed)
            except FileNotFoundError:
                continue  # another consumer claimed it first
            try:
                with open(claimed, "rb") as f:
                    payload = loads(f.read())
                tag = payload["properties"]["delivery_tag"]
            except (ValueError, KeyError, TypeError) as exc:
                os.rename(claimed, os.path.join(self.failed_folder, name))
                log.error(
                    "broker: unreadable message set aside",
                    extra={"file": name, "error": f"{exc.__class__.__name__}: {exc}"},
                )
                continue
            if queue in self._no_ack_queues:
                os.remove(claimed)  # nobody will acknowledge it
            else:
                self._claims[tag] = claimed
            return payload
        raise filesystem.Empty()

    def _release_claim(self, delivery_tag) -> None:
        path = self._claims.pop(delivery_tag, None)
        if path is not None:
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)

    def _restore(self, message):
        # Publish the copy first, then drop the claim: a crash in between duplicates the
        # message (handlers are idempotent) rather than losing it.
        tag = message.delivery_tag
        super()._restore(message)
        self._release_claim(tag)

    def recover_orphaned_claims(self) -> int:
        """Move the claimed messages of consumers that no longer run back into the queue."""
        restored = 0
        try:
            names = os.listdir(self.claims_folder)
        except FileNotFoundError:
            return 0
        own = os.path.basename(self.__dict__.get("own_claims", ""))
        for name in names:
            if not name.endswith(".lock") or name[: -len(".lock")] == own:
                continue
            lock_path = os.path.join(self.claims_folder, name)
            try:
                lock_file = open(lock_path, "rb")  # noqa: SIM115
            except FileNotFoundError:
                continue
            with lock_file:
                try:
                    fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # its consumer is alive
                folder = lock_path[: -len(".lock")]
                try:
                    orphans = os.listdir(folder)
                except FileNotFoundError:
                    orphans = []  # recovered by someone else a moment ago
                for orphan in orphans:
                    try:
                        os.rename(
                            os.path.join(folder, orphan),
                            os.path.join(self.data_folder_in, orphan),
                        )
                        restored += 1
                    except FileNotFoundError:
                        pass
                for path, remove in ((folder, os.rmdir), (lock_path, os.remove)):
                    with contextlib.suppress(FileNotFoundError, OSError):
                        remove(path)
        if restored:
            log.warning(
                "broker: restored messages of a consumer that stopped without acknowledging",
                extra={"messages": restored},
            )
        return restored

    # --- exchange tables (fanout bindings) ---------------------------------------------

    def get_table(self, exchange):
        # Tables are replaced by rename (below), so a plain read is always whole.
        try:
            with open(self._exchange_file(exchange), "rb") as f:
                return [filesystem.exchange_queue_t(*q) for q in loads(f.read())]
        except FileNotFoundError:
            return []

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with open(str(file) + ".lock", "wb") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            queues = self.get_table(exchange)
            if entry not in queues:
                queues.insert(0, entry)
                _write_atomically(str(file), self.staging_folder, dumps(queues).encode())

    def _delete(self, queue, exchange, routing_key, pattern, *args, **kwargs):
        filesystem.virtual.Channel._delete(self, queue, exchange, routing_key, pattern)
        file = self._exchange_file(exchange)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with open(str(file) + ".lock", "wb") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            queues = self.get_table(exchange)
            if entry in queues:
                queues.remove(entry)
                _write_atomically(str(file), self.staging_folder, dumps(queues).encode())

    def close(self):
        super().close()  # restores unacknowledged messages (warm shutdown)
        if self._claim_lock_file is not None:
            folder = self.__dict__.get("own_claims")
            try:
                if folder and not os.listdir(folder):
                    os.rmdir(folder)
                    os.remove(folder + ".lock")
            except OSError:
                pass
            self._claim_lock_file.close()
            self._claim_lock_file = None


class Transport(filesystem.Transport):
    Channel = Channel
