"""The composition root: the command line and the WSGI entry, wiring api, workers and store."""
