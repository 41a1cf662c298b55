#!/usr/bin/env python3
"""A Spite & Malice bot speaking the spite-malice text protocol (docs/bot-protocol.md).

It plays the reference first-fit policy, using nothing but the standard library, to show
the protocol; write yours in any language the same way. Try it:

    spite-malice arena ./examples/first_fit_bot.py reference

Policy: build the pay-off top on the lowest center stack that takes it; else the first legal
build from side stack tops 1-4, then from the hand by ascending rank (Kings last); else
discard the highest non-King hand card onto the first empty side stack (else side stack 1).
"""

import json
import sys

RANKS = "A23456789TJQK"


def choose(position, moves):
    """The move to make: `position` is the observation (a dict), `moves` the legal moves."""
    builds = [move for move in moves if "-C" in move]
    for source in ["P", "S1", "S2", "S3", "S4"] + ["H" + rank for rank in RANKS]:
        for move in builds:
            if move.startswith(source + "-"):
                return move  # moves come in a fixed order: lower center stacks first
    ranks = sorted({card[0] for card in position["hand"]}, key=RANKS.index)
    plain = [rank for rank in ranks if rank != "K"]
    rank = plain[-1] if plain else "K"
    me = position["players"][position["seat"]]
    empty = [number for number, pile in enumerate(me["side"], 1) if not pile]
    return f"H{rank}-S{empty[0] if empty else 1}"


def main():
    position, moves = {}, []
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "spite-malice-protocol":  # the greeting: answer with our version and name
            print("ready 1 First Fit (example)", flush=True)
        elif word == "position":
            position = json.loads(rest)
        elif word == "moves":
            moves = rest.split()
        elif word == "go":
            print("move " + choose(position, moves), flush=True)
        elif word == "quit":
            break
        # "newgame SEAT SEED" and anything unknown need no answer


if __name__ == "__main__":
    main()
