"""Models of the wallet app."""
