"""The dashboard pages: each module has `layout(**path_and_query)` and, when it has callbacks,
`register_callbacks(app, data)`."""
