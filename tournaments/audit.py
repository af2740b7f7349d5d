"""The audit log: every change to an event, who made it and why."""

from __future__ import annotations

from tournaments.models import (
    AuditEntry,
)


def audit(
    tournament, actor, action: str, obj=None, *, before=None, after=None, reason: str = ""
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        object_type=type(obj).__name__ if obj is not None else "",
        object_id=getattr(obj, "pk", None),
        before=before,
        after=after,
        reason=reason[:300],
    )
