"""OpenAPI schema additions: the error answers every operation can give.

drf-spectacular documents the success answer of each operation only, but every one of
them can refuse a request: 400 (invalid input: body, query parameters, JSON too deep,
NUL characters), 401/403 (not signed in, not allowed), 404 (no such object, or hidden),
and a write 409 (changed meanwhile) or 415 (a body of another media type). Documenting them with the shared error format
(config/api.py) lets clients and the schema-driven API fuzz test tell a documented
refusal from an undocumented answer.
"""

ERROR_SCHEMA = {
    "type": "object",
    "description": "The API's error format (config/api.py).",
    "properties": {
        "detail": {"type": "string", "description": "One sentence a person understands."},
        "errors": {
            "type": "object",
            "additionalProperties": True,
            "description": "Field name -> messages, for a validation failure.",
        },
    },
    "required": ["detail"],
}

READ_ERRORS = {
    "400": "Invalid query parameters or request.",
    "401": "Not signed in.",
    "403": "Not allowed for this user.",
    "404": "No such object, or not visible to this user.",
}
WRITE_ERRORS = {
    **READ_ERRORS,
    "409": "Changed meanwhile: reload and try again.",
    "415": "The body is not JSON, a form or multipart form data.",
}
WRITE_METHODS = {"post", "put", "patch", "delete"}


def document_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("Error", ERROR_SCHEMA)
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
                        "description": description,
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    return result
