"""OpenAPI schema additions: the error answers every operation can give, and answers
described exactly.

Answers: every object an answer is built from is closed (``additionalProperties:
false``) and lists every property as required, except those its serializer names in
``OPTIONAL_OUTPUT`` (present for some viewers or states only). Request bodies have their
own components (``COMPONENT_SPLIT_REQUEST``) and stay open, as the API ignores unknown
fields; an optional text field has no ``minLength`` there, because a form (or multipart)
body that sends it empty leaves it out (DRF), which is valid. So a key a producer adds without declaring it, or a declared one it stops
sending, makes tests/test_api_schema.py fail.

Errors:
drf-spectacular documents the success answer of each operation only, but every one of
them can refuse a request: 400 (invalid input: body, query parameters, JSON too deep,
NUL characters), 401/403 (not signed in, not allowed), 404 (no such object, or hidden),
and a write 409 (changed meanwhile) or 415 (a body of another media type). Documenting them with the shared error format
(config/api.py) lets clients and the schema-driven API fuzz test tell a documented
refusal from an undocumented answer.
"""

from django.utils.translation import gettext, gettext_noop

ERROR_SCHEMA = {
    "type": "object",
    "description": gettext_noop("The API's error format (config/api.py)."),
    "properties": {
        "detail": {
            "type": "string",
            "description": gettext_noop("One sentence a person understands."),
        },
        "errors": {
            "type": "object",
            "additionalProperties": True,
            "description": gettext_noop("Field name -> messages, for a validation failure."),
        },
    },
    "required": ["detail"],
}

READ_ERRORS = {
    "400": gettext_noop("Invalid query parameters or request."),
    "401": gettext_noop("Not signed in."),
    "403": gettext_noop("Not allowed for this user."),
    "404": gettext_noop("No such object, or not visible to this user."),
}
WRITE_ERRORS = {
    **READ_ERRORS,
    "409": gettext_noop("Changed meanwhile: reload and try again."),
    "415": gettext_noop("The body is not JSON, a form or multipart form data."),
}
WRITE_METHODS = {"post", "put", "patch", "delete"}


def _translated(schema):
    """A copy of ``schema`` with its descriptions in the reader's language."""
    if isinstance(schema, dict):
        return {
            key: gettext(value)
            if key == "description" and isinstance(value, str)
            else _translated(value)
            for key, value in schema.items()
        }
    return schema


def document_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("Error", _translated(ERROR_SCHEMA))
    reference = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            errors = WRITE_ERRORS if method in WRITE_METHODS else READ_ERRORS
            for code, description in errors.items():
                operation["responses"].setdefault(
                    code,
                    {
                        "description": gettext(description),
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    return result


def _component_serializers(generator) -> dict:
    """Component name -> the serializer drf-spectacular built it from."""
    registry = getattr(generator, "registry", None)
    components = getattr(registry, "_components", {}) if registry is not None else {}
    return {
        component.name: component.object
        for component in components.values()
        if component.type == "schemas"
    }


def close_answer_objects(result, generator, request, public):
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS): answer objects are
    closed and complete; optional request text may be empty (see the module)."""
    serializers = _component_serializers(generator)
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if "properties" not in schema or name == "Error":
            continue
        if name.endswith("Request"):
            required = set(schema.get("required", ()))
            for field, described in schema["properties"].items():
                if field not in required and described.get("minLength") == 1:
                    del described["minLength"]
            continue
        optional = set(getattr(serializers.get(name), "OPTIONAL_OUTPUT", ()))
        schema.setdefault("additionalProperties", False)
        required = [field for field in schema["properties"] if field not in optional]
        # OpenAPI wants a non-empty list or none at all.
        if required:
            schema["required"] = required
        else:
            schema.pop("required", None)
    return result
