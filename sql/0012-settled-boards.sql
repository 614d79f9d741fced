-- A tournament board settled while its game was adjourned (a withdrawal, an
-- absence forfeit, the director's result) now ends that game with the
-- board's result in the same change, as an adjudication that rates nobody,
-- so that nobody can resume it.  Boards settled before that kept their game
-- adjourned: here they get the same end.  A game with fewer than two moves,
-- or a board with no game result (a double forfeit), drops the game, as the
-- server drops an adjourned game that cannot be played; forfeits leave no
-- game linked to the board.  Migrations run with foreign keys off, so the
-- moves and the links of dropped games go by hand.
CREATE TEMP TABLE settled AS
	SELECT p.tourney_id, p.round, p.board, p.result, p.game_id,
	    CASE WHEN p.result IN ('1-0', '+-') THEN p.white
	        WHEN p.result IN ('0-1', '-+') THEN p.black END AS winner
	FROM tourney_pairings p JOIN games g ON g.id = p.game_id
	WHERE p.result != '*' AND p.black != 0 AND g.status = 'adjourned';

UPDATE games SET status = 'finished',
	result = (SELECT CASE s.result WHEN '+-' THEN '1-0' WHEN '-+' THEN '0-1'
	    ELSE s.result END FROM settled s WHERE s.game_id = games.id),
	reason = (SELECT CASE WHEN s.winner IS NULL THEN 'Game drawn by adjudication'
	    ELSE (SELECT tp.name FROM tourney_players tp WHERE tp.tourney_id = s.tourney_id
	        AND tp.start_no = s.winner) || ' wins by adjudication' END
	    FROM settled s WHERE s.game_id = games.id),
	termination = 'adjudication', ended = strftime('%s', 'now')
	WHERE id IN (SELECT game_id FROM settled WHERE result != '--')
	    AND (SELECT count(*) FROM moves WHERE game_id = games.id) >= 2;

UPDATE tourney_pairings SET game_id = NULL
	WHERE game_id IN (SELECT s.game_id FROM settled s JOIN games g ON g.id = s.game_id
	    WHERE s.result IN ('+-', '-+', '--') OR g.status = 'adjourned');
DELETE FROM moves WHERE game_id IN (SELECT s.game_id FROM settled s
	JOIN games g ON g.id = s.game_id WHERE g.status = 'adjourned');
DELETE FROM games WHERE status = 'adjourned' AND id IN (SELECT game_id FROM settled);
DROP TABLE settled;
