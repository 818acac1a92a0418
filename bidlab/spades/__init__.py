"""Spades (Cohensius et al. 2020): rules and scoring, the play engine, bidders, playing
modules (WRP, SRP, ISMCTS / UCT(X)) and tournaments."""

from bidlab.spades.bidders import Bidder, BidView, IOBidder, MSBidder, RBBidder
from bidlab.spades.bis import BISBidder, BISConfig
from bidlab.spades.engine import PlayView, RoundState
from bidlab.spades.errors import IllegalBidError, IllegalPlayError, RulesError, SpadesError, TournamentError
from bidlab.spades.game import GameRecord, RoundRecord, play_game, play_round
from bidlab.spades.players import Player, StrongRulePlayer, WeakRulePlayer
from bidlab.spades.registry import make_bidder, make_player, register_bidder, register_player
from bidlab.spades.rules import FirstLead, Rules, SideScore, game_winner, score_round, score_side

__all__ = [
    "BISBidder", "BISConfig", "BidView", "Bidder", "FirstLead", "GameRecord", "IOBidder", "IllegalBidError", "IllegalPlayError",
    "MSBidder", "PlayView", "Player", "RBBidder", "RoundRecord", "RoundState", "Rules", "RulesError",
    "SideScore", "SpadesError", "StrongRulePlayer", "TournamentError", "WeakRulePlayer", "game_winner",
    "make_bidder", "make_player", "play_game", "play_round", "register_bidder", "register_player",
    "score_round", "score_side",
]  # fmt: skip
