"""One flask-smorest Blueprint per resource."""
