"""Teaching helpers for the tutorials: self-checks (``checks``) and small tables (``lessons``)."""
