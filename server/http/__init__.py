"""HTTP: the API's edges (bodies, errors, OpenAPI and AsyncAPI), the middleware every request
passes (gate, identity, CORS, limits, metrics), and the routes."""
