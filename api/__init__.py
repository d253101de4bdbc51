"""The HTTP API: Flask app factory, one flask-smorest Blueprint per resource."""
