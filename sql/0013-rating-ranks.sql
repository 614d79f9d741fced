-- The rating lists (best, rank): the players of one category by rating,
-- best first, ties by account id, with the RD that decides who is ranked.
-- A list reads as many index entries as it shows or counts past, however
-- many accounts there are.
CREATE INDEX ratings_by_rank ON ratings (category, rating DESC, user_id, rd);
