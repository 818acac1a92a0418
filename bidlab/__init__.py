"""bidlab: bidding agents for trick-taking card games (bridge and Spades)."""

__version__ = "0.1.0"
