"""The card table: the seat's view of a game for the browser, and the ``RummyTable`` widget."""
