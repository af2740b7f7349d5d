from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.confirm import ask, is_confirmed
from games.engines.irondie.dice import Colour, DieType
from players import services
from players.dice_svg import die_svg
from players.forms import DiceSetForm, OrganiserPlayerForm, ProfileForm, SignUpForm
from players.models import DiceSet, Player
from players.roles import is_organiser


def signup(request):
    if request.user.is_authenticated:
        return redirect("players:profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            services.create_player(
                display_name=form.cleaned_data["display_name"],
                user=user,
                country=form.cleaned_data["country"],
                club=form.cleaned_data["club"],
                created_by=user,
            )
        # Several backends (login throttling first): name the one that checks passwords.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Now register your first dice set."))
        return redirect("players:dice_sets")
    return render(request, "players/signup.html", {"form": form})


def _own_player(request) -> Player | None:
    """The signed-in user's player profile, if they have made one. Reading never creates
    it: a GET writes nothing, and a profile is made by saving the profile form."""
    return Player.objects.filter(user=request.user).first()


def _profile_first(request):
    messages.info(
        request, _("Create your player profile first: your display name is what others see.")
    )
    return redirect("players:profile")


@login_required
def profile(request):
    player = _own_player(request)
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        if player is None:
            services.create_player(
                display_name=form.cleaned_data["display_name"],
                user=request.user,
                country=form.cleaned_data["country"],
                club=form.cleaned_data["club"],
                created_by=request.user,
            )
        else:
            form.save()
        messages.success(request, _("Profile saved."))
        return redirect("players:profile")
    return render(request, "players/profile.html", {"form": form, "player": player})


@login_required
def dice_sets(request):
    player = _own_player(request)
    sets = DiceSet.objects.filter(player=player).order_by("name") if player else []
    return render(request, "players/dice_sets.html", {"player": player, "dice_sets": sets})


def _editable_set(request, pk) -> DiceSet:
    dice_set = get_object_or_404(DiceSet.objects.select_related("player"), pk=pk)
    if dice_set.player.user_id != request.user.id and not is_organiser(request.user):
        raise PermissionDenied
    return dice_set


@login_required
def dice_set_edit(request, pk=None):
    dice_set = _editable_set(request, pk) if pk else None
    player = dice_set.player if dice_set else _own_player(request)
    if player is None:
        return _profile_first(request)
    form = DiceSetForm(request.POST or None, dice_set=dice_set)
    if dice_set and dice_set.is_frozen and request.method == "POST":
        form.add_error(
            None, _("This set was used in a tournament and is frozen; copy it to make changes.")
        )
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if dice_set:
                services.update_dice_set(
                    dice_set=dice_set,
                    name=data["name"],
                    playing_dice=data["playing_dice"],
                    additional_dice=data["additional_dice"],
                )
            else:
                services.create_dice_set(
                    player=player,
                    name=data["name"],
                    playing_dice=data["playing_dice"],
                    additional_dice=data["additional_dice"],
                )
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error("name" if field == "name" else None, error)
        else:
            messages.success(request, _("Dice set saved."))
            return redirect("players:dice_sets")
    return render(
        request,
        "players/dice_set_edit.html",
        {
            "form": form,
            "dice_set": dice_set,
            "player": player,
            "types": list(DieType),
            "colours": list(Colour),
        },
    )


@login_required
@require_POST
def dice_set_delete(request, pk):
    dice_set = _editable_set(request, pk)
    if not is_confirmed(request):
        return ask(
            request,
            title=_("Delete the dice set “%(name)s”?") % {"name": dice_set.name},
            consequences=[
                _("Delete “%(name)s”: its playing set and its additional set.")
                % {"name": dice_set.name},
                _("A deleted set cannot be brought back."),
            ],
            button=_("Delete the set"),
            cancel_url=reverse("players:dice_sets"),
        )
    try:
        services.delete_dice_set(dice_set=dice_set)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Dice set deleted."))
    return redirect("players:dice_sets")


@login_required
@require_POST
def dice_set_copy(request, pk):
    dice_set = _editable_set(request, pk)
    name = _("%(name)s (copy)") % {"name": dice_set.name}
    try:
        copy = services.copy_dice_set(dice_set=dice_set, name=name)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("players:dice_sets")
    return redirect("players:dice_set_edit", pk=copy.pk)


def die_preview(request):
    """The editor's live preview: one die as SVG from its type, colour and rarity."""
    try:
        svg = die_svg(
            request.GET.get("type", ""),
            request.GET.get("colour", ""),
            request.GET.get("rare") in {"1", "true", "on"},
        )
    except ValueError:
        return HttpResponse(_("Unknown die type or colour."), status=400, content_type="text/plain")
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@login_required
def player_list(request):
    """Organisers' list of players, with a form to add one (e.g. at the venue)."""
    if not is_organiser(request.user):
        raise PermissionDenied
    form = OrganiserPlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.create_player(created_by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            messages.success(request, _("Player %(name)s added.") % {"name": player})
            return redirect("players:player_list")
    query = request.GET.get("q", "").strip()
    players = Player.objects.select_related("user").order_by("display_name", "id")
    if query:
        players = players.filter(display_name__icontains=query) | players.filter(
            player_number=query
        )
    return render(
        request,
        "players/player_list.html",
        {"form": form, "players": players[:500], "query": query},
    )
