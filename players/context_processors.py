from players.roles import is_judge, is_organiser


def roles(request):
    user = getattr(request, "user", None)
    return {"is_organiser": is_organiser(user), "is_judge": is_judge(user)}
