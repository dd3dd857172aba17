"""The views of the seasons domain, one module per page."""
