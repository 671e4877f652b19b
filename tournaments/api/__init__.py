"""The tournaments REST API (Django REST framework): thin views over services and selectors."""
