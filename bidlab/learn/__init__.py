"""Learning: networks, supervised learning from expert auctions, self-play (later stages)."""
