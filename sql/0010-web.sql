-- A tournament's own hold on its games' moves on the web (`tourney set ID
-- delay S`), in seconds; NULL: the server's public_delay_s.
ALTER TABLE tourneys ADD COLUMN web_delay_s INTEGER;

-- The lobby's recent results: finished games by when they ended.
CREATE INDEX games_ended ON games(ended) WHERE status = 'finished';
