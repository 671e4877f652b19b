"""The pages: the lobby and the table page. Thin: the data comes from the tables API."""

from django.shortcuts import render

from web.names import js_names, option_specs


def lobby(request):
    names = {**js_names(), "options": option_specs()}
    return render(request, "web/lobby.html", {"names": names, "option_specs": option_specs()})


def table(request, pk: int):
    names = js_names()
    return render(request, "web/table.html", {"table_id": pk, "names": names})
