"""REST API for players and dice sets. Views are thin: the services decide."""

from django.utils.translation import gettext as _
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from config.params import int_param
from games.engines.irondie.dice import Colour, DieType
from players import services
from players.models import DiceSet, Player
from players.people import PrivateUsernameField
from players.roles import is_judge, is_organiser


class DieSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=[t.value for t in DieType])
    colour = serializers.ChoiceField(choices=[c.value for c in Colour])
    rare = serializers.BooleanField(default=False)


class PlayerSerializer(serializers.ModelSerializer):
    # The login name is private: its owner and staff only (players/people.py).
    user = PrivateUsernameField(allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "display_name", "player_number", "country", "club", "user", "created_at"]
        read_only_fields = ["id", "user", "created_at"]
        extra_kwargs = {"player_number": {"required": False, "validators": []}}


class DiceSetSerializer(serializers.ModelSerializer):
    playing_dice = DieSerializer(many=True)
    additional_dice = DieSerializer(many=True, required=False)
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    frozen = serializers.BooleanField(source="is_frozen", read_only=True)

    class Meta:
        model = DiceSet
        fields = [
            "id",
            "player",
            "name",
            "playing_dice",
            "additional_dice",
            "frozen",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "frozen", "created_at", "updated_at"]
        validators = []  # name uniqueness is checked by the service with a clearer message


class IsOwnerOrOrganiser(permissions.BasePermission):
    message = "You may only change your own player profile and dice sets."

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        if is_organiser(request.user):
            return True
        player = obj if isinstance(obj, Player) else obj.player
        return player.user_id is not None and player.user_id == request.user.id


class PlayerViewSet(viewsets.ModelViewSet):
    """Players are public (names and ids appear on pairings). Organisers create and edit
    any player; a signed-in user may create their own profile and edit it."""

    serializer_class = PlayerSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrOrganiser]
    queryset = Player.objects.select_related("user").order_by("display_name", "id")
    search_fields = ["display_name", "player_number"]

    def get_queryset(self):
        queryset = super().get_queryset()
        if query := self.request.query_params.get("search"):
            queryset = queryset.filter(display_name__icontains=query) | queryset.filter(
                player_number=query
            )
        return queryset

    def perform_create(self, serializer):
        user = self.request.user
        data = serializer.validated_data
        link_to = None if is_organiser(user) else user
        serializer.instance = services.create_player(
            display_name=data["display_name"],
            user=link_to,
            country=data.get("country", ""),
            club=data.get("club", ""),
            player_number=data.get("player_number") if is_organiser(user) else None,
            created_by=user,
        )

    def perform_update(self, serializer):
        data = serializer.validated_data
        if "player_number" in data and not is_organiser(self.request.user):
            raise PermissionDenied(_("Only organisers may change a player id."))
        if (number := data.get("player_number")) and Player.objects.filter(
            player_number=number
        ).exclude(pk=serializer.instance.pk).exists():
            raise serializers.ValidationError(
                {"player_number": [_("This player id is already taken.")]}
            )
        serializer.save()

    def destroy(self, request, *args, **kwargs):
        if not is_organiser(request.user):
            raise PermissionDenied(_("Only organisers may delete players."))
        services.delete_player(player=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


class DiceSetViewSet(viewsets.ModelViewSet):
    """Dice sets are private to their player until registered in a tournament (the set
    reveal happens there); organisers and judges see all of them."""

    serializer_class = DiceSetSerializer
    permission_classes = [permissions.IsAuthenticated, IsOwnerOrOrganiser]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no user
            return DiceSet.objects.none()
        user = self.request.user
        queryset = DiceSet.objects.select_related("player").order_by("player_id", "name")
        if is_judge(user):
            player = int_param(self.request.query_params, "player", min_value=1)
            return queryset if player is None else queryset.filter(player_id=player)
        return queryset.filter(player__user=user)

    def _target_player(self, serializer) -> Player:
        user = self.request.user
        requested = serializer.validated_data.get("player")
        if is_organiser(user):
            if requested is None:
                raise serializers.ValidationError(
                    {"player": [_("Say which player this set belongs to.")]}
                )
            return requested
        own = Player.objects.filter(user=user).first()
        if own is None:
            raise PermissionDenied(_("Create your player profile before adding dice sets."))
        if requested is not None and requested.pk != own.pk:
            raise PermissionDenied(_("You may only add dice sets to your own profile."))
        return own

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        dice_set = services.create_dice_set(
            player=self._target_player(serializer),
            name=data["name"],
            playing_dice=data["playing_dice"],
            additional_dice=data.get("additional_dice", []),
        )
        return Response(self.get_serializer(dice_set).data, status=status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        instance = self.get_object()
        serializer = self.get_serializer(
            instance, data=request.data, partial=kwargs.get("partial", False)
        )
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "player" in data and data["player"].pk != instance.player_id:
            raise serializers.ValidationError(
                {"player": [_("A set cannot move to another player.")]}
            )
        dice_set = services.update_dice_set(
            dice_set=instance,
            name=data.get("name"),
            playing_dice=data.get("playing_dice"),
            additional_dice=data.get("additional_dice"),
        )
        return Response(self.get_serializer(dice_set).data)

    def perform_destroy(self, instance):
        services.delete_dice_set(dice_set=instance)
