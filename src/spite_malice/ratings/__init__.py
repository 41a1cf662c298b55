"""Ratings: Glicko-2 (:mod:`.glicko2`) and what a rating means here (:mod:`.policy`: the
pools, the provisional mark, the computer levels' fixed ratings). See ``docs/ratings.md``."""
