"""The dashboard pages: each module has `layout(**path_and_query)` and, if it has any, `register_callbacks(app, data)`."""
