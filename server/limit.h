/*
 * Every limit the server enforces, in one place.  These are the defaults;
 * the configuration file may change each one (see config.c).
 */
#ifndef CHESSD_LIMIT_H
#define CHESSD_LIMIT_H

/* A client line longer than this is refused with an error and dropped. */
#define LIMIT_LINE_BYTES 1024
/* Connections in all, and from one address (a club venue may put a hundred
 * players behind one public address, so this is generous but bounded). */
#define LIMIT_CLIENTS 20000
#define LIMIT_CLIENTS_PER_ADDRESS 256
/* Time to finish the TLS handshake, and to finish logging in. */
#define LIMIT_HANDSHAKE_MS 10000
#define LIMIT_LOGIN_MS 60000
/* Silence allowed before login completes (reset by each line). */
#define LIMIT_UNAUTH_IDLE_MS 30000
/* Commands per second per client (token bucket), and the burst allowed:
 * pychess sends about 25 commands when it logs in. */
#define LIMIT_COMMANDS_PER_SEC 20
#define LIMIT_COMMAND_BURST 60
/* Pending output: above the soft limit the client's input is not read until
 * it drains; above the hard limit the client is disconnected. */
#define LIMIT_OUTPUT_SOFT_BYTES (256 * 1024)
#define LIMIT_OUTPUT_HARD_BYTES (4 * 1024 * 1024)
/* Pending output of all clients together: past it the clients with the
 * largest backlogs are disconnected first, until the total is under it. */
#define LIMIT_OUTPUT_TOTAL_BYTES (64 * 1024 * 1024)
/* Failed logins: free attempts, then a delay doubling from the base. */
#define LIMIT_LOGIN_FREE_FAILURES 3
#define LIMIT_LOGIN_DELAY_BASE_MS 1000
#define LIMIT_LOGIN_DELAY_MAX_MS 30000
/* Wrong passwords on one connection before it is closed. */
#define LIMIT_LOGIN_TRIES_PER_CONN 3
/* How long to stop accepting after running out of file descriptors. */
#define LIMIT_ACCEPT_PAUSE_MS 1000
/* Channels: numbers 0..LIMIT_CHANNEL_MAX, and how many one user may join. */
#define LIMIT_CHANNEL_MAX 255
#define LIMIT_CHANNELS_PER_USER 64
/* Challenges one user may have made and not yet seen answered, and the
 * challenges pending on the whole server. */
#define LIMIT_OFFERS_PER_USER 20
#define LIMIT_OFFERS_TOTAL 20000
/* Lines of one client handled in one pass of the loop; the rest wait for
 * the next pass, so that one busy client cannot hold up everyone else. */
#define LIMIT_LINES_PER_PASS 10
/* Games one user, and one address, may start in a minute. */
#define LIMIT_GAMES_PER_MINUTE 12
#define LIMIT_GAMES_PER_MINUTE_PER_ADDRESS 120
/* Boards being examined on the server at once (they share the game numbers). */
#define LIMIT_EXAMINED_GAMES 500
/* Plies an examined board's line may hold (a stored game longer is cut there). */
#define LIMIT_EXAMINE_PLIES 1500
/* Longest argument text of seek and match. */
#define LIMIT_SEEK_TEXT 256
/* How long a player who drops out of a game has to come back. */
#define LIMIT_RECONNECT_GRACE_MS 60000
/* Most seconds one "moretime" adds to the opponent's clock (lasker's 600). */
#define LIMIT_MORETIME_MAX_S 600
/* Positions the search may visit to decide whether a side can still mate,
 * when a flag falls or a disconnected player's forfeit is claimed (about
 * 0.1 s at the worst); past it the side counts as able to mate. */
#define LIMIT_UNWINNABLE_NODES 100000
/* Threads that run those decisions off the event loop, and decisions waiting
 * or running at most; past it a game waits for a free slot, its clocks stopped. */
#define LIMIT_VERDICT_THREADS 1
#define LIMIT_VERDICT_QUEUE 64
/* User aliases per session. */
#define LIMIT_ALIASES 64
/* Timeseal clients are pinged this often while they play, to track their lag. */
#define LIMIT_TIMESEAL_PING_MS 10000
/* How long a tournament player may be missing at the start of a round (or
 * of a game's continuation) before losing that game by forfeit. */
#define LIMIT_TOURNEY_FORFEIT_MS (5 * 60 * 1000)
/* Times one player may abort the game of one tournament board; this many
 * aborts lose it by forfeit. */
#define LIMIT_TOURNEY_ABORTS 2
/* Longest tournament name, in bytes (at most TOURNEY_NAME_MAX - 1). */
#define LIMIT_TOURNEY_NAME_CHARS 40
/* Tournaments not yet finished that one (non-admin) director may have. */
#define LIMIT_TOURNEYS_PER_DIRECTOR 2
/* Pages the database log (WAL) may hold before the syncer thread copies
 * them into the database, where the loop would otherwise stop to do it. */
#define LIMIT_WAL_CHECKPOINT_PAGES 1000
/* Accounts one connection may register, and one address (IPv4, or IPv6 /64)
 * per hour. */
#define LIMIT_REGISTRATIONS_PER_CONN 1
#define LIMIT_REGISTRATIONS_PER_ADDRESS_HOUR 5
/* Messages one account may hold (an admin's box has no cap, as on FICS). */
#define LIMIT_MESSAGES_PER_USER 40
/* Address ranges that may be banned at once (configuration and admins together). */
#define LIMIT_ADDRESS_BANS 1024
/* Password hashing threads: 0 is one per core, at most LIMIT_HASHER_THREADS_AUTO. */
#define LIMIT_HASHER_THREADS 0
#define LIMIT_HASHER_THREADS_AUTO 4
/* Password checks (logins) waiting or running at most; past it, a login is told
 * the server is busy. */
#define LIMIT_HASHER_QUEUE 64
/* Seeks one player may have posted at once. */
#define LIMIT_SEEKS_PER_USER 3
/* A formula's length (at most VAR_STRING_MAX, the longest string variable), and
 * how deep its parentheses and unary operators may nest. */
#define LIMIT_FORMULA_CHARS 64
#define LIMIT_FORMULA_DEPTH 16
/* HTTP: the request line (method, path and query) and all header lines of one
 * request, in bytes; a longer line gets 414, longer headers 431, and a head
 * past both together is cut off with 413 before it is read to the end. */
#define LIMIT_HTTP_REQUEST_LINE_BYTES 2048
#define LIMIT_HTTP_HEADER_BYTES 8192
/* Time to send one whole HTTP request; an idle kept-alive connection is closed
 * after as long (a stream, once started, is not idle). */
#define LIMIT_HTTP_REQUEST_MS 10000
/* Live web streams (SSE or ndjson) from one address, and in all. */
#define LIMIT_WEB_STREAMS_PER_ADDRESS 64
#define LIMIT_WEB_STREAMS 20000
/* A web stream with nothing to say gets a comment this often, so that
 * proxies keep it open and a reader that went away is found out. */
#define LIMIT_WEB_HEARTBEAT_MS 20000
/* Stored games one /api/games/user request reads, newest first, at most. */
#define LIMIT_WEB_GAMES_PER_REQUEST 1000
/* The longest hold `tourney set ID delay S` may put on its games' moves on the web. */
#define LIMIT_TOURNEY_DELAY_MAX_S 3600
/* Entries in each personal list (notify, gnotify, censor, noplay) of one user. */
#define LIMIT_LIST_ENTRIES 100
/* Connections the kernel may hold waiting for accept (capped by net.core.somaxconn). */
#define LIMIT_LISTEN_BACKLOG 512
/* Not a limit: descriptors the server holds beside its clients (listeners,
 * database files, its threads' pipes; about 20) with room to spare, for the
 * start-up check that the descriptor limit holds `clients`. */
#define LIMIT_SPARE_DESCRIPTORS 64

/* Fixed at build time (arrays are sized by them): */
/* Games in progress; live game numbers run 1..LIMIT_GAMES, reused, as on FICS. */
#define LIMIT_GAMES 20000
/* Observers of one game, and games one user may observe. */
#define LIMIT_GAME_OBSERVERS 100000
#define LIMIT_OBSERVE_PER_USER 30
/* How long a closing connection may take to drain its output, and how long
 * a shutdown waits for every client to take its last output. */
#define LIMIT_CLOSE_DRAIN_MS 5000
#define LIMIT_SHUTDOWN_DRAIN_MS 5000
/* Failed logins are forgotten after this long without another; names and
 * addresses tracked for them at most (the oldest dropped). */
#define LIMIT_LOGIN_FAILURE_WINDOW_MS (15 * 60 * 1000)
#define LIMIT_LOGIN_FAILURE_ENTRIES 100000
/* Names whose last good login block is remembered, at most. */
#define LIMIT_LOGIN_TRUSTED_NAMES 100000
/* Registrations waiting for the hasher at most (logins queue apart, up to
 * hasher_queue); past it, register tells the user to retry. */
#define LIMIT_HASHER_SIGNUP_QUEUE 16
/* Addresses the registration tally holds at once. */
#define LIMIT_SIGNUP_ADDRESSES 4096

/* Lines one "rank M-N" shows at most (lasker's 100), and names one "handles"
 * lists at most (lasker's 1000). */
#define LIMIT_RANK_LINES 100
#define LIMIT_HANDLES_SHOWN 1000

#endif
