"""The API's routes, one module per concern; `api.app.create_app` includes their routers."""
