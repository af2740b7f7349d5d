"""Forms of the tournament pages. They only shape input: every rule is checked by
tournaments.services, whose ValidationError messages the views put back on the form."""

import json
import re

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from players.forms import DiceSetForm
from players.models import DiceSet, Player
from players.roles import JUDGE_GROUP, ORGANISER_GROUP
from tournaments.conventions import PERCENTAGE_CONVENTION_FIELDS, PRESET_LABELS, preset_settings
from tournaments.games import FORMAT_SETTINGS, FORMATS, GAMES, rules_for
from tournaments.match_rules import max_games
from tournaments.models import (
    POD_LATE_ENTRY_REFUSED,
    SETTING_BOUNDS,
    Match,
    Penalty,
    Registration,
    Tournament,
    bound_message,
)
from tournaments.phases import format_phases, parse_phases_text, phase_errors
from tournaments.services.penalties import PENALTY_RULES
from tournaments.standings import PRESETS, tiebreaker_names, tiebreaker_order_errors

STANDINGS_CONVENTION_FIELDS = PERCENTAGE_CONVENTION_FIELDS

TOURNAMENT_FIELDS = [
    "name",
    "date",
    "venue",
    "game",
    "games_to_win",
    "team_size",
    "head_judge",
    "floor_judges",
    "swiss_rounds",
    "top_cut_size",
    "match_minutes",
    "game_minutes",
    "late_entry",
    "percentage_floor",
    "bracket_losers",
    "round_one_seeding",
    "pods",
    "pod_mode",
    "pods_online",
    "tiebreakers",
    *STANDINGS_CONVENTION_FIELDS,
    "swiss_phases",
    "publish_pairings",
    "publish_standings",
    "publish_results",
]


def _staff_users():
    return (
        get_user_model()
        .objects.filter(Q(groups__name__in=[JUDGE_GROUP, ORGANISER_GROUP]) | Q(is_superuser=True))
        .distinct()
        .order_by("username")
    )


class TournamentForm(forms.ModelForm):
    tiebreakers = forms.CharField(
        required=False,
        label=_("Tiebreakers"),
        help_text=lazy(
            lambda: (
                gettext(
                    "Names in ranking order, separated by commas; empty: match_points, "
                    "opponents_match_win, game_win, opponents_game_win. Choices: %(names)s."
                )
                % {"names": ", ".join(tiebreaker_names())}
            ),
            str,
        )(),
    )

    swiss_phases = forms.CharField(
        required=False,
        label=_("Swiss phases"),
        max_length=400,
        help_text=_(
            "Every phase but the final one: its last round and the cut into the next, "
            "separated by semicolons. “9 points 18”: players with at least 18 match points "
            "after round 9 advance; “9 top 32”: the top 32 of the standings (and anyone "
            "level with the 32nd on every tiebreaker); “9 all”: nobody is cut. "
            "Empty: one phase."
        ),
    )

    class Meta:
        model = Tournament
        fields = TOURNAMENT_FIELDS
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}),
            "floor_judges": forms.CheckboxSelectMultiple,
            # Choices stated as sentences: each shown whole (a select cuts them on a phone).
            **{
                name: forms.RadioSelect
                for name in (
                    "late_entry",
                    "percentage_floor",
                    "bracket_losers",
                    "round_one_seeding",
                    "game_draw_points",
                    "bye_counting",
                )
            },
        }
        labels = {
            "late_entry": _("Late entries"),
            "percentage_floor": _("Percentage floor"),
            "bracket_losers": _("Places of bracket losers"),
            "round_one_seeding": _("Round 1 seeding"),
            "game_draw_points": _("Points for a drawn game"),
            "no_opponents_value": _("OMW% and OGW% with no opponent"),
            "no_games_game_win": _("GW% with no game played"),
            "bye_counting": _("How a bye counts"),
            "standings_decimals": _("Decimals in the standings"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["head_judge"].queryset = _staff_users()
        self.fields["floor_judges"].queryset = _staff_users()
        self.fields["floor_judges"].label = _("Floor judges")
        self.fields["head_judge"].label = _("Head judge")
        self.fields["bracket_losers"].required = False
        self.fields["round_one_seeding"].required = False
        self.fields["team_size"].required = False
        self.fields["game"].required = False
        self.fields["pod_mode"].required = False
        self.fields["late_entry"].required = False
        self.fields["game"].help_text = _(
            "Fixed once a player has registered. Format and time limits still at the "
            "previous game's defaults, or empty, take the chosen game's (%(defaults)s)."
        ) % {
            "defaults": "; ".join(
                _("%(game)s: %(format)s, %(match)s/%(per_game)s min")
                % {
                    "game": rules.label,
                    "format": _(FORMATS[rules.games_to_win]),
                    "match": rules.match_minutes,
                    "per_game": rules.game_minutes,
                }
                for rules in GAMES.values()
            )
        }
        # The page's script fills the format with the chosen game's defaults at once.
        self.fields["game"].widget.attrs["data-defaults"] = json.dumps(
            {name: rules.defaults() for name, rules in GAMES.items()}
        )
        for name in FORMAT_SETTINGS:
            self.fields[name].required = False
        if not self.instance.pk:
            self.initial.update(rules_for(self.instance.game).defaults())
        for setting in SETTING_BOUNDS:
            _bound(self.fields[setting], setting)
        stored = self.instance.tiebreakers if self.instance.pk else []
        if isinstance(stored, list) and all(isinstance(name, str) for name in stored):
            self.initial["tiebreakers"] = ", ".join(stored)
        if self.instance.pk:
            self.initial["swiss_phases"] = format_phases(self.instance.swiss_phases)

        self.fields["floor_own_game_win"] = forms.TypedChoiceField(
            # xgettext:no-python-format
            label=_("Own GW% floored in the table"),
            choices=[("True", _("Yes (MTR)")), ("False", _("No"))],
            coerce=lambda value: value == "True",
            required=False,
            empty_value=None,
        )
        for name in STANDINGS_CONVENTION_FIELDS:
            # A form posted without them (an older page) keeps the event's conventions.
            self.fields[name].required = False
        self.fields["standings_preset"] = forms.ChoiceField(
            label=_("Standings preset"),
            choices=[("", _("Keep the conventions below"))]
            + [(name, PRESET_LABELS.get(name, name)) for name in PRESETS],
            required=False,
            help_text=_("Sets the floor and every standings convention below at once."),
            widget=forms.RadioSelect,  # each preset's description shown whole
        )

    def clean_tiebreakers(self) -> list[str]:
        """Comma-separated names to the stored list; unknown or repeated names are
        refused here with the valid choices, as the service would refuse them."""
        text = self.cleaned_data.get("tiebreakers") or ""
        names = [name.strip() for name in text.split(",") if name.strip()]
        if errors := tiebreaker_order_errors(names):
            raise forms.ValidationError(errors)
        return names

    def clean_swiss_phases(self) -> list[dict]:
        """ "9 points 18; 12 top 8" to the stored list. Left out of a submitted form (an
        older page), the setting keeps its value."""
        if "swiss_phases" not in self.data:
            return self.instance.swiss_phases if self.instance.pk else []
        phases, errors = parse_phases_text(self.cleaned_data.get("swiss_phases") or "")
        if errors := errors or phase_errors(phases):
            raise forms.ValidationError(errors)
        return phases

    def clean_bracket_losers(self):
        # Left out of a submitted form, the setting keeps its value (the default on create).
        return self.cleaned_data["bracket_losers"] or self.instance.bracket_losers

    def clean_team_size(self):
        # Left out of a submitted form, the setting keeps its value (individual on create).
        return self.cleaned_data["team_size"] or self.instance.team_size

    def clean_round_one_seeding(self):
        # Left out of a submitted form, the setting keeps its value (the default on create).
        return self.cleaned_data["round_one_seeding"] or self.instance.round_one_seeding

    def clean_pod_mode(self):
        # Left out of a submitted form, the table mode keeps its value.
        return self.cleaned_data["pod_mode"] or self.instance.pod_mode

    def clean_late_entry(self):
        # Left out of a submitted form (the page hides it for pods), the rule keeps its value.
        return self.cleaned_data["late_entry"] or self.instance.late_entry

    def clean_game(self):
        # Left out of a submitted form, the game stays (the default on create).
        return self.cleaned_data["game"] or self.instance.game

    def _apply_game_defaults(self, data) -> None:
        """A format setting left empty, or still at the previous game's default while the
        game changes, takes the chosen game's default (tournaments/games.py); one the
        organiser set otherwise is kept. The page's script does the same as they choose."""
        game = data.get("game") or self.instance.game
        if game not in GAMES:
            return
        changed_game = game != self.instance.game
        previous = rules_for(self.instance.game).defaults()
        for name, default in rules_for(game).defaults().items():
            if name in self.errors:
                continue
            value = data.get(name)
            if value in (None, "") or (changed_game and value == previous[name]):
                data[name] = default

    def _no_top_cut_with_pods(self, data) -> None:
        """An event in pods has no top cut (the model's rule): choosing pods with the top
        cut left as it was means none. A top cut the organiser changed is theirs, and the
        rule refuses it in words. The page's script shows the same as they tick the box."""
        if data.get("pods") and "top_cut_size" not in self.changed_data:
            data["top_cut_size"] = 0

    def _late_entry_of_pods(self, data) -> None:
        """Pod standings count a round a late entry missed as not played, whatever the
        late-entry rule: an event in pods keeps the rule it follows. The rule as the page
        showed it (the page hides it while "Swiss pods" is ticked) becomes that; another
        rule the organiser chose is refused in words, never stored to be ignored."""
        if not data.get("pods"):
            return
        followed = Tournament.POD_LATE_ENTRY
        chosen = self.data.get(self.add_prefix("late_entry")) and "late_entry" in self.changed_data
        if chosen and data.get("late_entry") not in (None, followed):
            self.add_error("late_entry", POD_LATE_ENTRY_REFUSED)
        else:
            data["late_entry"] = followed

    def clean(self):
        data = super().clean()
        self._apply_game_defaults(data)
        self._no_top_cut_with_pods(data)
        self._late_entry_of_pods(data)
        for name in STANDINGS_CONVENTION_FIELDS:
            if name not in self.data:
                data[name] = getattr(self.instance, name)
        if preset := data.pop("standings_preset", ""):
            # A chosen preset wins over the convention fields posted with it.
            data.update(preset_settings(preset))
        return data


def _bound(field, setting: str) -> None:
    """Bounds on a number field: the browser's min/max and the message naming both."""
    low, high, _what, _unit = SETTING_BOUNDS[setting]
    message = bound_message(setting)
    field.min_value, field.max_value = low, high
    field.widget.attrs.update(min=low, max=high)
    field.validators = [
        v for v in field.validators if not isinstance(v, MinValueValidator | MaxValueValidator)
    ]
    field.validators += [MinValueValidator(low, message), MaxValueValidator(high, message)]


class DatalistInput(forms.TextInput):
    """A text field with a list of suggestions (``<datalist>``): the browser filters them
    as the user types, on a phone too; anything else may still be typed."""

    def __init__(self, attrs=None):
        super().__init__(attrs)
        self.options: list[str] = []

    def render(self, name, value, attrs=None, renderer=None):
        attrs = dict(attrs or {})
        list_id = f"{attrs.get('id') or 'id_' + name}-options"
        attrs.update(list=list_id, autocomplete="off")
        field = super().render(name, value, attrs, renderer)
        options = format_html_join("", '<option value="{}">', ((o,) for o in self.options))
        return format_html('{}<datalist id="{}">{}</datalist>', field, list_id, options)


def dice_set_label(dice_set) -> str:
    """How the organiser's registration field names a set: "<player> — <set> · #<id>"."""
    return f"{dice_set.player.display_name} — {dice_set.name} · #{dice_set.pk}"


class DiceSetSearchField(forms.ModelChoiceField):
    """A dice set typed into a searchable field: a suggestion ("Alice — Main · #12"), the
    set's id, "<player> — <set>" written out, or the player's name alone when they have
    one set to register with (any letter case)."""

    widget = DatalistInput
    default_error_messages = {
        "invalid_choice": _(
            "Choose a player and set from the suggestions (start typing the player's name)."
        ),
    }

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = " ".join(str(value).split())
        if "\x00" in text or len(text) > 200:  # never a name (and no query for it)
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        number = re.search(r"#\s*(\d+)$", text) or re.fullmatch(r"(\d+)", text)
        if number:
            return super().to_python(number.group(1))
        player, dash, name = text.partition(" — ")
        found = self.queryset.filter(player__display_name__iexact=player.strip())
        if dash:
            found = found.filter(name__iexact=name.strip())
        # Without a set name, a player's name alone names their set when they have one
        # (a browser without suggestions: the organiser types the name in full).
        found = list(found[:2])
        if len(found) == 1:
            return found[0]
        raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")


class PlayerSearchField(forms.ModelChoiceField):
    """A player typed into a searchable field: a suggestion ("Alice · #12"), the id, or
    the display name written out (any letter case) when it names one player."""

    widget = DatalistInput
    default_error_messages = {
        "invalid_choice": _("Choose a player from the suggestions (start typing the name)."),
    }

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = " ".join(str(value).split())
        if "\x00" in text or len(text) > 200:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        number = re.search(r"#\s*(\d+)$", text) or re.fullmatch(r"(\d+)", text)
        if number:
            return super().to_python(number.group(1))
        found = list(self.queryset.filter(display_name__iexact=text)[:2])
        if len(found) == 1:
            return found[0]
        raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")


class RegisterForm(forms.Form):
    """Registration with a set: a player chooses one of their own (a short list); an
    organiser searches every player's sets by typing (docs/operations.md "At the desk").
    For a game without dice sets (tournaments/games.py) the organiser names the player
    and a player registers themselves with no field at all."""

    dice_set = DiceSetSearchField(
        label=_("Player and dice set"),
        queryset=DiceSet.objects.none(),
        help_text=_("Type a few letters of the player's name and pick their set."),
    )

    def __init__(self, *args, tournament, player=None, **kwargs):
        super().__init__(*args, **kwargs)
        registered = Registration.objects.filter(tournament=tournament).values("player_id")
        if not rules_for(tournament.game).needs_dice_set:
            del self.fields["dice_set"]
            if player is None:
                self.fields["player"] = PlayerSearchField(
                    label=_("Player"),
                    queryset=Player.objects.exclude(pk__in=registered).order_by("display_name"),
                    help_text=_("Type a few letters of the player's name."),
                )
            return
        sets = DiceSet.objects.select_related("player").order_by("player__display_name", "name")
        if player is not None:
            sets = sets.filter(player=player)
        if player is not None:
            field = forms.ModelChoiceField(label=_("Dice set"), queryset=sets)
            field.label_from_instance = lambda s: s.name
            self.fields["dice_set"] = field
        else:
            field = self.fields["dice_set"]
        field.queryset = sets.exclude(player_id__in=registered)

    def suggest(self):
        """Fill the organiser's suggestions (one query); not needed to read a POST."""
        field = self.fields.get("dice_set") or self.fields.get("player")
        if isinstance(field, DiceSetSearchField):
            field.widget.options = [dice_set_label(s) for s in field.queryset]
        elif isinstance(field, PlayerSearchField):
            field.widget.options = [f"{p.display_name} · #{p.pk}" for p in field.queryset]
        return self


class WalkInForm(DiceSetForm):
    """A walk-in at the desk: the player and their set in one form. The set is the dice
    editor's 9 + 3 slots, checked by the same rules (players.services.validate_dice_set)."""

    display_name = forms.CharField(label=_("Player's name"), max_length=80)
    username = forms.CharField(
        label=_("Their login name (optional)"),
        max_length=150,
        required=False,
        help_text=_("When they have an account here: it becomes theirs to play and report."),
    )
    country = forms.CharField(label=_("Country (ISO code)"), max_length=2, required=False)
    club = forms.CharField(label=_("Club"), max_length=80, required=False)

    field_order = ["display_name", "username", "country", "club", "name"]

    def __init__(self, *args, needs_dice_set: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.needs_dice_set = needs_dice_set
        self.fields["name"].initial = _("Main")
        if not needs_dice_set:  # a game without dice sets: the player alone
            for name in [n for n in self.fields if n.startswith(("playing_", "additional_"))]:
                del self.fields[name]
            del self.fields["name"]
        self.order_fields(self.field_order)

    def clean(self):
        if not self.needs_dice_set:
            return forms.Form.clean(self)
        return super().clean()

    def player_fields(self):
        return [self[name] for name in self.field_order if name in self.fields]

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        if not username:
            return None
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise ValidationError(_("No account has this login name."))
        return user


class SwapPlayersForm(forms.Form):
    first = forms.ModelChoiceField(label=_("Player"), queryset=Registration.objects.none())
    second = forms.ModelChoiceField(label=_("swaps with"), queryset=Registration.objects.none())
    reason = forms.CharField(label=_("Reason (goes into the audit log)"), max_length=300)

    def __init__(self, *args, registrations=(), **kwargs):
        super().__init__(*args, **kwargs)
        ids = [r.pk for r in registrations]
        for name in ("first", "second"):
            self.fields[name].queryset = Registration.objects.filter(pk__in=ids).select_related(
                "player"
            )
            self.fields[name].label_from_instance = lambda r: r.player.display_name


GAME_CHOICES_BLANK = [("", "—")]


class ResultForm(forms.Form):
    """Game by game: each game won by A, by B, or drawn; or an intentional draw, or a
    concession. ``expected_version`` is the match version the form was drawn from."""

    intentional_draw = forms.BooleanField(label=_("Intentional draw"), required=False)
    conceded_by = forms.ChoiceField(label=_("Conceded by"), required=False)
    note = forms.CharField(label=_("Note"), max_length=300, required=False)
    # Drawn into the page, never typed: a value missing or not a number means the page
    # itself is broken or out of date, and the person is told so in those words.
    expected_version = forms.IntegerField(
        widget=forms.HiddenInput,
        error_messages={
            "required": _("This form is out of date: reload the page and enter the result again."),
            "invalid": _("This form is out of date: reload the page and enter the result again."),
        },
    )

    def __init__(self, *args, match: Match, **kwargs):
        kwargs.setdefault("initial", {})["expected_version"] = match.version
        super().__init__(*args, **kwargs)
        name_a = match.player_a.entry_name
        name_b = match.player_b.entry_name if match.player_b_id else "—"
        choices = [
            ("a", _("%(name)s won") % {"name": name_a}),
            ("b", _("%(name)s won") % {"name": name_b}),
            ("draw", _("Draw")),
        ]
        # As many games as the event's format allows: its games_to_win * 2 - 1 shown,
        # then the further games drawn games can add (max_games), folded away.
        games_to_win = match.round.tournament.games_to_win
        self.most_games = max_games(games_to_win)
        self.shown_games = 2 * games_to_win - 1
        self.game_fields = []
        for number in range(1, self.most_games + 1):
            name = f"game_{number}"
            self.fields[name] = forms.ChoiceField(
                label=_("Game %(n)s") % {"n": number},
                choices=GAME_CHOICES_BLANK + choices,
                required=False,
            )
            self.game_fields.append(name)
        self.fields["conceded_by"].choices = [
            ("", _("nobody")),
            ("a", name_a),
            ("b", name_b),
        ]
        self.order_fields([*self.game_fields, "intentional_draw", "conceded_by", "note"])

    def clean(self):
        data = super().clean()
        extra = [
            key
            for key, value in self.data.items()
            if key.startswith("game_")
            and key not in self.fields
            and key[len("game_") :].isdigit()
            and value
        ]
        if extra:
            # A game beyond the format is refused, never dropped without a word.
            raise forms.ValidationError(
                _("A match of this format has at most %(most)s games.") % {"most": self.most_games}
            )
        games, gap = [], False
        for name in self.game_fields:
            value = data.get(name)
            if value:
                if gap:
                    self.add_error(name, _("Fill the games in order, without a gap."))
                games.append(value)
            else:
                gap = True
        data["games"] = games
        return data

    def visible_games(self):
        return [self[name] for name in self.game_fields[: self.shown_games]]

    def extra_games(self):
        return [self[name] for name in self.game_fields[self.shown_games :]]

    def extra_games_filled(self) -> bool:
        """Whether a folded-away game has a value (the fold is then drawn open)."""
        return any(field.value() for field in self.extra_games())


class ReasonForm(forms.Form):
    """A free-text reason posted with an action (drop, reinstate, clock pause). Like every
    Django CharField it refuses the NUL character, which PostgreSQL cannot store."""

    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class ClockExtensionForm(ReasonForm):
    minutes = forms.IntegerField(label=_("Minutes"), min_value=1, max_value=60)


def form_error_text(form: forms.Form) -> str:
    """A bound, invalid form's errors as one sentence for a message."""
    return " ".join(
        f"{form.fields[field].label}: {message}" if field in form.fields else str(message)
        for field, errors in form.errors.items()
        for message in errors
    )


class RejectForm(forms.Form):
    """A dispute of a reported result or placings: it must say what is wrong (blank or
    only spaces is refused; the service refuses it too)."""

    note = forms.CharField(
        label=_("What is wrong?"),
        max_length=300,
        error_messages={"required": _("Say what is wrong with the report.")},
    )

    def __init__(self, *args, **kwargs):
        # Its own ids: the report form on the same page has a "note" field too.
        kwargs.setdefault("auto_id", "id_reject_%s")
        super().__init__(*args, **kwargs)


class SwapDiceForm(forms.Form):
    """Which dice leave the playing set and which come in from the additional set."""

    swap_out = forms.TypedMultipleChoiceField(
        label=_("Out of the playing set"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    swap_in = forms.TypedMultipleChoiceField(
        label=_("In from the additional set"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, playing=(), additional=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["swap_out"].choices = [(i, str(i + 1)) for i in range(len(playing))]
        self.fields["swap_in"].choices = [(i, str(i + 1)) for i in range(len(additional))]


class PenaltyForm(forms.Form):
    registration = forms.ModelChoiceField(label=_("Player"), queryset=Registration.objects.none())
    kind = forms.ChoiceField(label=_("Penalty"), choices=Penalty.Kind.choices)
    match = forms.ModelChoiceField(
        label=_("Match"),
        queryset=Match.objects.none(),
        required=False,
        help_text=_("Empty: the player's current match."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["registration"]
        field.queryset = Registration.objects.filter(tournament=tournament).select_related("player")
        field.label_from_instance = lambda r: r.player.display_name
        matches = self.fields["match"]
        matches.queryset = (
            Match.objects.filter(round__tournament=tournament)
            .select_related(
                "round", "player_a__player", "player_a__team", "player_b__player", "player_b__team"
            )
            .order_by("-round__number", "table")
        )
        matches.label_from_instance = _match_label
        if tournament.pods:
            # An event in pods has tables, no matches: only the penalties that need none
            # are offered (a game or match loss would be refused after the judge confirmed).
            del self.fields["match"]
            self.fields["kind"].choices = [
                (kind, label)
                for kind, label in Penalty.Kind.choices
                if not PENALTY_RULES[kind].needs_match
            ]


def _match_label(match):
    b = match.player_b.entry_name if match.player_b_id else _("bye")
    return _("Round %(r)s, table %(t)s: %(a)s v %(b)s") % {
        "r": match.round.number,
        "t": match.table or "—",
        "a": match.player_a.entry_name,
        "b": b,
    }


class TeamForm(forms.Form):
    """A team of a team event: its name and every member's dice set (a set names its
    player). The first member is the captain: a player registering their own team
    picks one of their sets there; an organiser searches every player's sets, as the
    registration form does. docs/events.md "Team events"."""

    name = forms.CharField(label=_("Team name"), max_length=80)

    def __init__(self, *args, tournament, player=None, **kwargs):
        super().__init__(*args, **kwargs)
        registered = Registration.objects.filter(tournament=tournament).values("player_id")
        sets = (
            DiceSet.objects.select_related("player")
            .exclude(player_id__in=registered)
            .order_by("player__display_name", "name")
        )
        self.member_fields = []
        for number in range(1, tournament.team_size + 1):
            key = f"set_{number}"
            if number == 1 and player is not None:
                field = forms.ModelChoiceField(
                    label=_("Your dice set (you are the captain)"),
                    queryset=sets.filter(player=player),
                )
                field.label_from_instance = lambda s: s.name
            else:
                field = DiceSetSearchField(
                    label=_("Captain and dice set")
                    if number == 1
                    else _("Member %(number)s and dice set") % {"number": number},
                    queryset=sets,
                    help_text=_("Type the player's name and pick their set (or “name — set”)."),
                )
            self.fields[key] = field
            self.member_fields.append(key)
        self.suggest_sets = player is None

    def suggest(self):
        """Fill the organiser's suggestions (one query); not needed to read a POST."""
        if self.suggest_sets:
            options = None
            for key in self.member_fields:
                field = self.fields[key]
                if options is None:
                    options = [dice_set_label(s) for s in field.queryset]
                field.widget.options = options
        return self

    def members(self) -> list:
        sets = [self.cleaned_data[key] for key in self.member_fields]
        return [(dice_set.player, dice_set) for dice_set in sets]


class PodPlacingsForm(forms.Form):
    """A pod table's placings as a player reports them: a place for every seat (1 to the
    table's size; players sharing a place give the same number and the next is skipped).
    The rules are checked by services.report_placings."""

    note = forms.CharField(label=_("Note"), max_length=300, required=False)

    def __init__(self, *args, table, **kwargs):
        kwargs.setdefault("auto_id", "id_pod_%s")
        super().__init__(*args, **kwargs)
        places = [("", "—")] + [(str(n), str(n)) for n in range(1, table.size + 1)]
        self.place_fields = []
        for seat in table.seats.all():
            name = f"place_{seat.registration_id}"
            self.fields[name] = forms.ChoiceField(
                label=_("Seat %(seat)s: %(name)s")
                % {"seat": seat.seat, "name": seat.registration.player.display_name},
                choices=places,
            )
            self.place_fields.append(name)
        self.order_fields([*self.place_fields, "note"])

    def placings(self) -> dict[str, str]:
        return {name.removeprefix("place_"): self.cleaned_data[name] for name in self.place_fields}
