"""Drawing runs as boards: the view model (`board.py`), what `zoneproof show` and `diff --html` draw
(`sources.py`), the HTML page (`page.py`, with the templates) and the terminal board (`terminal.py`)."""
