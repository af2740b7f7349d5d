"""Writes for players and dice sets. Every rule is enforced here, whatever the caller."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import in_words
from games.engines.irondie.dice import Die, additional_set_errors, playing_set_errors
from players.models import DiceSet, Player, new_player_number


def parse_dice(raw, field: str) -> list[Die]:
    """Turn submitted dice (a list of dicts) into Dice; a ValidationError names each bad die."""
    if not isinstance(raw, list):
        raise ValidationError({field: [_("Expected a list of dice.")]})
    dice, errors = [], []
    for position, item in enumerate(raw, start=1):
        try:
            dice.append(Die.from_dict(item))
        except ValueError as exc:
            errors.append(_("Die %(n)d: %(error)s") % {"n": position, "error": in_words(exc)})
    if errors:
        raise ValidationError({field: errors})
    return dice


def validate_dice_set(playing_raw, additional_raw) -> tuple[list[Die], list[Die]]:
    """Both halves of a set, parsed and checked against the rulebook; all errors at once."""
    errors: dict[str, list[str]] = {}
    playing = additional = None
    try:
        playing = parse_dice(playing_raw, "playing_dice")
    except ValidationError as exc:
        errors.update(exc.message_dict)
    try:
        additional = parse_dice(
            additional_raw if additional_raw is not None else [], "additional_dice"
        )
    except ValidationError as exc:
        errors.update(exc.message_dict)
    if playing is not None and (problems := playing_set_errors(playing)):
        errors["playing_dice"] = [in_words(problem) for problem in problems]
    if additional is not None and (problems := additional_set_errors(additional)):
        errors["additional_dice"] = [in_words(problem) for problem in problems]
    if errors:
        raise ValidationError(errors)
    return playing, additional


def _lock_dice_set(dice_set: DiceSet) -> DiceSet:
    """The set's row, locked; a set deleted meanwhile (by a concurrent request that held
    the lock first) is a 404, not an error."""
    locked = DiceSet.objects.select_for_update().filter(pk=dice_set.pk).first()
    if locked is None:
        raise Http404(_("This dice set no longer exists; it was deleted meanwhile."))
    return locked


def _name_taken(name: str) -> ValidationError:
    return ValidationError(
        {"name": [_("You already have a set called “%(name)s”.") % {"name": name}]}
    )


def _check_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": [_("Give the set a name.")]})
    return name


@transaction.atomic
def create_player(
    *,
    display_name: str,
    user=None,
    country: str = "",
    club: str = "",
    player_number: str | None = None,
    created_by=None,
) -> Player:
    display_name = (display_name or "").strip()
    if not display_name:
        raise ValidationError({"display_name": [_("A display name is required.")]})
    if user is not None and Player.objects.filter(user=user).exists():
        raise ValidationError({"user": [_("This account already has a player profile.")]})
    if player_number and Player.objects.filter(player_number=player_number).exists():
        raise ValidationError({"player_number": [_("This player id is already taken.")]})
    number = player_number or new_player_number()
    while not player_number and Player.objects.filter(player_number=number).exists():
        number = new_player_number()
    try:
        with transaction.atomic():
            return Player.objects.create(
                display_name=display_name,
                user=user,
                country=(country or "").upper(),
                club=club or "",
                player_number=number,
                created_by=created_by,
            )
    except IntegrityError:
        # A concurrent request created this account's profile (or took the id) between
        # the checks above and the insert: the same answer the checks would have given.
        if user is not None and Player.objects.filter(user=user).exists():
            raise ValidationError(
                {"user": [_("This account already has a player profile.")]}
            ) from None
        raise ValidationError({"player_number": [_("This player id is already taken.")]}) from None


@transaction.atomic
def delete_player(*, player: Player) -> None:
    """Delete a player who never registered for a tournament. A registered player's
    matches and results are part of that tournament's record, so they stay."""
    locked = Player.objects.select_for_update().filter(pk=player.pk).first()
    if locked is None:
        raise Http404(_("This player no longer exists; they were deleted meanwhile."))
    try:
        with transaction.atomic():
            locked.delete()
    except ProtectedError:
        raise ValidationError(
            _(
                "%(name)s is registered in a tournament, whose pairings and results keep "
                "them: a registered player cannot be deleted. Edit the profile instead."
            )
            % {"name": locked.display_name}
        ) from None


@transaction.atomic
def create_dice_set(*, player: Player, name: str, playing_dice, additional_dice=None) -> DiceSet:
    name = _check_name(name)
    playing, additional = validate_dice_set(playing_dice, additional_dice)
    if DiceSet.objects.filter(player=player, name=name).exists():
        raise _name_taken(name)
    try:
        with transaction.atomic():
            return DiceSet.objects.create(
                player=player,
                name=name,
                playing_dice=[d.to_dict() for d in playing],
                additional_dice=[d.to_dict() for d in additional],
            )
    except IntegrityError:  # a concurrent request took the name between check and insert
        raise _name_taken(name) from None


@transaction.atomic
def update_dice_set(
    *, dice_set: DiceSet, name=None, playing_dice=None, additional_dice=None
) -> DiceSet:
    locked = _lock_dice_set(dice_set)
    if locked.is_frozen:
        raise ValidationError(
            _("This set was used in a tournament and is frozen; copy it to make changes.")
        )
    playing, additional = validate_dice_set(
        locked.playing_dice if playing_dice is None else playing_dice,
        locked.additional_dice if additional_dice is None else additional_dice,
    )
    if name is not None:
        name = _check_name(name)
        if (
            DiceSet.objects.filter(player=locked.player_id, name=name)
            .exclude(pk=locked.pk)
            .exists()
        ):
            raise _name_taken(name)
        locked.name = name
    locked.playing_dice = [d.to_dict() for d in playing]
    locked.additional_dice = [d.to_dict() for d in additional]
    try:
        with transaction.atomic():
            locked.save()
    except IntegrityError:  # a concurrent rename took the name between check and save
        raise _name_taken(locked.name) from None
    return locked


@transaction.atomic
def delete_dice_set(*, dice_set: DiceSet) -> None:
    locked = _lock_dice_set(dice_set)
    if locked.is_frozen:
        raise ValidationError(
            _("This set was used in a tournament and is frozen; it cannot be deleted.")
        )
    locked.delete()


@transaction.atomic
def freeze_dice_set(*, dice_set: DiceSet) -> dict:
    """Freeze a set for tournament use and return its snapshot (validated again)."""
    locked = _lock_dice_set(dice_set)
    playing, additional = validate_dice_set(locked.playing_dice, locked.additional_dice)
    if locked.frozen_at is None:
        locked.frozen_at = timezone.now()
        locked.save(update_fields=["frozen_at"])
    return {
        "dice_set_id": locked.pk,
        "name": locked.name,
        "playing": [d.to_dict() for d in playing],
        "additional": [d.to_dict() for d in additional],
    }


@transaction.atomic
def copy_dice_set(*, dice_set: DiceSet, name: str) -> DiceSet:
    return create_dice_set(
        player=dice_set.player,
        name=name,
        playing_dice=dice_set.playing_dice,
        additional_dice=dice_set.additional_dice,
    )
