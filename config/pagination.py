"""Pagination of every API list: ``?limit=`` and ``?offset=`` as strict whole numbers.

DRF's default quietly ignores a limit it cannot read and passes any size on to the
database, where ``?limit=9999999999999999999999999`` overflowed the query (a 500). Here
a value that is not a whole number within bounds is a 400 that says what is accepted,
and the bounds are in the OpenAPI schema.
"""

from rest_framework.pagination import LimitOffsetPagination

from config.params import int_param

MAX_LIMIT = 1000
MAX_OFFSET = 10**9


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_limit(self, request):
        return int_param(
            request.query_params,
            self.limit_query_param,
            min_value=1,
            max_value=self.max_limit,
            default=self.default_limit,
        )

    def get_offset(self, request):
        return int_param(
            request.query_params,
            self.offset_query_param,
            min_value=0,
            max_value=MAX_OFFSET,
            default=0,
        )

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": self.max_limit},
            self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters
