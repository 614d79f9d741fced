/*
 * Help topics: the longer texts behind "help NAME".  A command's one-line
 * summary and usage live in its table entry; a topic of the same name adds
 * the detail a new user needs.  Texts only, no formatting logic.
 */
#include <stddef.h>
#include <strings.h>

#include "help.h"

/* Shared by seek, match and the topic of its own. */
#define TIME_CONTROLS \
	"Time controls (for seek, match and tourney create):\n" \
	"  5 0           FICS form: 5 minutes each, no increment\n" \
	"  2 12          2 minutes each, 12 seconds added after every move (Fischer)\n" \
	"  3+2           the same form written as one word\n" \
	"  5d3           5 minutes, Bronstein delay of 3 seconds (FIDE 6.3.2)\n" \
	"  5s3           5 minutes, simple delay of 3 seconds\n" \
	"  40/90,30+30   40 moves in 90 minutes, then 30 minutes for the rest of\n" \
	"                the game, 30 seconds added per move from move 1\n" \
	"  40/120        120 minutes added every 40 moves\n" \
	"  0.5 0         minutes may be decimals that come to whole seconds\n" \
	"  untimed       no clock (also \"0 0\")\n" \
	"A game is lightning below 3 minutes of minutes + 2/3 increment, blitz\n" \
	"below 15, standard from 15.  A delay is never an increment: the clock\n" \
	"waits the delay before it runs, and gives nothing back.\n"

/* Shared by best, hbest, rank and hrank. */
#define RATING_LISTS \
	"  best [b][s][l]     the 20 best-rated players in blitz, standard and\n" \
	"                     lightning (or only those asked for: \"best bs\")\n" \
	"  rank [NAME [bsl]]  where NAME (you) ranks, with the players around\n" \
	"  rank M-N [bsl]     the players ranked M to N (100 lines at most)\n" \
	"hbest and hrank are the same among human players: computers left out.\n" \
	"Ratings here are Glicko-2; a player is ranked once the rating is no\n" \
	"longer provisional (RD below 110; finger shows a P after a provisional\n" \
	"rating), where FICS ranked after 20 games.  Asked for by name, a player\n" \
	"not ranked is shown among the others by rating, with ---- for a place.\n" \
	"Equal ratings share a place: the second shows none.  Wild is not played\n" \
	"here; the third list is lightning.\n"

/* Shared by addlist, sublist, showlist and the topic of its own. */
#define LISTS \
	"Lists (\"showlist\" names them all; \"showlist LIST\" or \"=LIST\" shows one):\n" \
	"  +notify alice   told when alice arrives and departs (\"znotify\": who is here)\n" \
	"  +gnotify alice  told when alice starts a game\n" \
	"  +censor alice   nothing alice writes reaches you: tells, says, kibitzes,\n" \
	"                  channels, shouts, seeks, challenges\n" \
	"  +noplay alice   alice cannot challenge you or take your seeks\n" \
	"  +channel 50     join a channel\n" \
	"  -notify alice   takes a name off (also \"sublist notify alice\")\n" \
	"A list holds names of players, not names alone: a new account under a\n" \
	"deleted one's name is someone else.  Registered players keep their lists;\n" \
	"a guest's last for the session.  The public lists (admin, computer, td,\n" \
	"muzzle, cmuzzle, ban) are read by anyone and changed by admins: muzzle\n" \
	"stops shouts, cmuzzle channel tells, ban logins.\n"

/* Shared by accept, decline and withdraw. */
#define OFFER_ANSWERS \
	"  accept | decline | withdraw            the only offer there is\n" \
	"  accept 100012                          the offer numbered so (\"pending\", <pf>)\n" \
	"  decline alice                          alice's offers (alice logged in now)\n" \
	"  decline draw   (or: decline t draw)    the offers of a type: match, draw,\n" \
	"                                         abort, adjourn, takeback, pause,\n" \
	"                                         unpause, switch\n" \
	"  withdraw all   (or: withdraw t all)    every one, in your game and challenges\n" \
	"accept takes one offer: of a type or \"all\", the first there is, your game's\n" \
	"before challenges.  decline and withdraw take every offer the word names.\n" \
	"\"t TYPE\" is FICS's form of the same, the one pychess sends.\n"

static const struct help_topic topics[] = {
	{ "accept", "Answers an offer made to you, or takes back one you made:\n" OFFER_ANSWERS },
	{ "decline", "Answers an offer made to you, or takes back one you made:\n" OFFER_ANSWERS },
	{ "withdraw", "Answers an offer made to you, or takes back one you made:\n" OFFER_ANSWERS },
	{ "lists", LISTS },
	{ "addlist", LISTS },
	{ "sublist", LISTS },
	{ "showlist", LISTS },
	{ "znotify",
	  "Shows who of your notify list is logged in, and who has you on their\n"
	  "notify list (\"+notify NAME\" adds a name; see \"help lists\").\n" },
	{ "seek",
	  "Posts an advertisement that anyone who fits may take with \"play N\".\n"
	  "  seek                 your default time and inc (set time, set inc)\n"
	  "  seek 3 0 rated       3 minutes, rated (a guest's seek is unrated)\n"
	  "  seek 15 10 white     you play white\n"
	  "  seek 5 0 1400-1800   only players rated 1400 to 1800 see it\n"
	  "  seek 5 0 manual      you accept or decline each taker\n"
	  "  seek 5 0 formula     only players your formula admits see and take it\n"
	  "You are shown (the seek line, <s>, \"sought\") the seeks your own formula\n"
	  "admits; \"sought all\" lists every one.  \"unseek\" removes yours.  Taking a\n"
	  "manual seek is a match request, which your formula screens in any case\n"
	  "(see \"help formula\").\n\n"
	  TIME_CONTROLS },
	{ "match",
	  "Challenges one player; they \"accept\", \"decline\" or answer with terms of\n"
	  "their own.  \"withdraw\" takes your challenge back, \"pending\" lists them.\n"
	  "  match alice            your default time and inc\n"
	  "  match alice 5 0 rated  5 minutes, rated\n"
	  "  match alice 40/90,30+30 black\n"
	  "A game with a guest is unrated, even asked as rated.  \"match\" with your\n"
	  "own name opens a board to analyse on (\"help examine\").  \"rematch\"\n"
	  "challenges your last opponent again on the same terms.  A request the\n"
	  "other's formula does not admit is refused, and you are shown that\n"
	  "formula (\"help formula\").\n\n"
	  TIME_CONTROLS },
	{ "formula",
	  "\"set formula EXPRESSION\" screens the match requests made to you: one\n"
	  "whose value is 0 is declined for you, and the challenger is shown your\n"
	  "formula.  \"seek ... formula\" screens who sees and takes your seek the\n"
	  "same way; and you are shown only the seeks your formula admits.\n"
	  "\"set formula\" alone removes it; a bad one is refused and\n"
	  "the old one kept.  Examples:\n"
	  "  blitz & !rated        unrated blitz only\n"
	  "  inc >= 10 | standard  an increment of 10 or more, or a standard game\n"
	  "  ratingdiff > -200     opponents at most 200 below you\n"
	  "  maxtime(40) <= 10 minutes   40 moves in 10 minutes for both at most\n"
	  "Values: rating, myrating, ratingdiff (rating - myrating), time, inc,\n"
	  "maxtime(N) and mymaxtime(N) (seconds N moves can take, both / you),\n"
	  "assesswin, assessdraw, assessloss; 1 or 0: rated, lightning, blitz,\n"
	  "standard, untimed, registered, computer, timeseal, private (and wild,\n"
	  "bughouse, nonstandard, always 0 here).  \"N minutes\" is N * 60.\n"
	  "Operators, tightest first: ! and - (unary); * /; + -; < <= > >=;\n"
	  "= != (also == <>); & (&&, and); | (||, or); ( ) group, # starts a\n"
	  "comment.  Dividing by 0 divides by 0.001.  f1-f9 are not kept here.\n" },
	{ "timecontrol", TIME_CONTROLS },
	{ "observe",
	  "Watches a game: \"observe 12\" (game number) or \"observe alice\" (the game\n"
	  "alice plays).  You get its board after every move, and \"kibitz\" and\n"
	  "\"whisper\" talk to its players and watchers (guests talk only in their\n"
	  "own games).  \"unobserve\" stops;\n"
	  "\"follow alice\" watches every game alice starts; \"allobservers\" lists\n"
	  "who watches what.\n" },
	{ "examine",
	  "Opens a board with no clocks that you step through or play on for\n"
	  "either side; nothing of it is stored or rated.\n"
	  "  examine              a board in the starting position\n"
	  "  examine alice 3      game 3 of \"history alice\", from its first move\n"
	  "  examine alice bob    their adjourned game (it stays adjourned)\n"
	  "  forward [N], backward [N]   step through the moves; a move of your\n"
	  "              own after backward replaces the rest of the line\n"
	  "  revert       back to where the line left the stored game\n"
	  "  bsetup       edit the position: bsetup fen F, bsetup clear, bsetup\n"
	  "              start, P@e4 (p@e4 for Black), x@e4, bsetup tomove black,\n"
	  "              bsetup wcastle both, bsetup eppos e, then bsetup done\n"
	  "  wname, bname    name the sides; mexamine bob lets an observer move too\n"
	  "  unexamine    stop; \"observe N\" watches a board others examine.\n" },
	{ "draw",
	  "  draw        offers a draw, or accepts your opponent's offer; also\n"
	  "              claims one by threefold repetition or the 50-move rule,\n"
	  "              or because your opponent cannot checkmate you by any\n"
	  "              series of legal moves (FIDE 6.9): the clocks stop while\n"
	  "              the server decides, and then the game is drawn, or your\n"
	  "              draw is an ordinary offer\n"
	  "  draw Nf3    claims a draw by threefold repetition or the 50-move rule\n"
	  "              that the move Nf3 would bring about (FIDE 9.2, 9.3)\n"
	  "A claim the rules allow ends the game at once; one they don't is\n"
	  "refused and the move is not played.  Fivefold repetition, 75 moves,\n"
	  "stalemate and dead positions (neither side can mate, 5.2.2) end the\n"
	  "game by themselves.\n" },
	{ "flag",
	  "The server calls a flag by itself when a clock runs out; \"flag\" claims\n"
	  "your opponent's (it says so if they still have time), or, when your\n"
	  "opponent lost contact and did not come back in time, the win.  Either\n"
	  "way it is a draw if you cannot checkmate by any series of legal moves\n"
	  "(FIDE 6.9), whatever material you have, and a loss for them otherwise.\n"
	  "While the server decides, the clocks are stopped and the game takes no\n"
	  "moves.\n" },
	{ "pause",
	  "\"pause\" asks your opponent to stop the clocks; they agree with \"pause\"\n"
	  "or \"accept\", or say no with \"decline\" (\"withdraw\" takes yours back).\n"
	  "Once agreed, the time of the turn so far is given back: the clocks stand\n"
	  "as the last move left them, no flag falls and no move is taken until\n"
	  "they run again (\"help unpause\").  A paused game still ends by resign,\n"
	  "an agreed draw, abort or adjourn; it resumes from adjournment unpaused.\n"
	  "Untimed games have no clock to pause.\n" },
	{ "unpause",
	  "\"unpause\" asks your opponent to start the stopped clocks again; they\n"
	  "agree with \"unpause\" or \"accept\".  The side to move starts its turn\n"
	  "afresh.\n" },
	{ "switch",
	  "\"switch\" asks your opponent to change colours; they agree with \"switch\"\n"
	  "or \"accept\".  Only before the first move: after it you read \"You cannot\n"
	  "switch sides once a game is underway.\"  Tournament games keep the colours\n"
	  "they were paired with.\n" },
	{ "moretime",
	  "\"moretime N\" adds N seconds to your opponent's clock, for one who has lag\n"
	  "trouble, say.  N is a whole number above 0; more than the server's limit\n"
	  "(600 unless configured: moretime_max_s) adds the limit.  The time is\n"
	  "stored before you are told, and a game resumed after a crash keeps it.\n" },
	{ "time",
	  "\"time\" shows both clocks of your game as they stand now; \"time 7\" or\n"
	  "\"time alice\" those of game 7 or of alice's game.  A clock past zero is\n"
	  "shown negative.\n" },
	{ "resume",
	  "Continues an adjourned game: \"resume\" with your opponent online, or\n"
	  "\"resume alice\".  Games adjourned by a crash or a restart resume the same\n"
	  "way, with every move and both clocks as they were.\n" },
	{ "history",
	  "\"history [NAME]\" lists the last games NAME finished, numbered.  The same\n"
	  "number names the same game in \"smoves NAME N\", \"oldmoves NAME N\" and\n"
	  "\"pgn NAME N\".  \"stored\" lists adjourned games, \"journal\" saved ones.\n" },
	{ "set",
	  "\"set VARIABLE VALUE\" changes one of your settings; \"variables\" lists\n"
	  "them.  Among them: time and inc (default seek terms), rated, open (0: no\n"
	  "challenges), style (1 for people, 12 for programs), promote (q, r, b, n),\n"
	  "Lang (English or Spanish piece letters), autoflag, width, prompt,\n"
	  "formula (\"help formula\").\n"
	  "Registered players keep their settings between sessions.\n"
	  "\"set 1 TEXT\" .. \"set 10 TEXT\" are the notes \"finger\" shows under your\n"
	  "name; \"set 2\" with no text clears note 2 and moves the ones below up.\n" },
	{ "messages",
	  "Messages wait for a registered player who is offline (and arrive at once\n"
	  "for one who is online); you are told at login how many you have.\n"
	  "  message alice TEXT   leave alice a message (also \"messages alice TEXT\")\n"
	  "  messages             list yours, numbered\n"
	  "  messages 3           show message 3\n"
	  "  messages alice       what you left alice, and what alice left you\n"
	  "  clearmessages *      delete them all (or N, or alice: those from alice)\n"
	  "Guests can neither send nor receive them.\n" },
	{ "assess",
	  "\"assess alice bob /blitz\": how alice's and bob's ratings would change if\n"
	  "alice won, drew or lost a rated blitz game against bob, computed with\n"
	  "Glicko-2 as a real game would be, and both RDs after it.  \"assess bob\"\n"
	  "is you against bob; with no category all three are shown.\n" },
	{ "ping",
	  "\"ping [NAME]\" (also \"lag\") shows the round trip between the server and\n"
	  "a client: the client's own answers to the server's pings when it speaks\n"
	  "timeseal (pychess does), else the TCP round trip the server measures.\n" },
	{ "shutdown",
	  "  shutdown 10 [reason]  the server shuts down in 10 minutes (or M:SS)\n"
	  "  shutdown              in 5 minutes; shutdown now; shutdown cancel\n"
	  "Everyone is told at once and as the time crosses 60, 40, 20, 10, 5, 2 and\n"
	  "1 minutes and 10 seconds; then games are adjourned as on SIGTERM.\n"
	  "\"whenshut\" tells anyone how long is left.\n" },
	{ "asetpasswd",
	  "\"asetpasswd NAME\" asks for the new password on the next line, which is\n"
	  "not echoed, not shown back and not logged.  The player, if online, is told.\n"
	  "An admin acts only on accounts of a lower admin level (nuke, addcomment\n"
	  "and asetpasswd); every admin action is in \"adminlog\".\n" },
	{ "best", RATING_LISTS },
	{ "hbest", RATING_LISTS },
	{ "rank", RATING_LISTS },
	{ "hrank", RATING_LISTS },
	{ "handles",
	  "\"handles al\" lists the registered names that begin with \"al\" (in any\n"
	  "case), in columns as wide as your width variable; with a whole name it\n"
	  "tells whether that name has an account.  At most 1000 names are shown\n"
	  "(the server's handles_shown); past that, give a longer beginning.\n" },
	{ "next",
	  "\"next\" (also \"more\" and \"n\") shows the rest of a text too long for\n"
	  "one screen.  This server sends every text whole, so there is never more.\n" },
	{ "limits",
	  "\"limits\" shows the limits in effect on this server: channels, the\n"
	  "notify and censor lists, messages, aliases, games observed, seeks,\n"
	  "match requests, games started in a minute, line length, commands per\n"
	  "second, and what handles and rank show.  Each is a setting of the\n"
	  "server's configuration.  There are no simuls or shout quotas here, and\n"
	  "a rating is ranked by its RD rather than a number of games.\n" },
	{ "reply",
	  "\"reply TEXT\" tells TEXT to the last player who told you something\n"
	  "(with tell or xtell), as \"tell NAME TEXT\" would.  It goes to that\n"
	  "account (or that guest's session) only: if they left, you are told so,\n"
	  "even when someone else now has the name.  \"tell . TEXT\" is the\n"
	  "other way round: to the last player you told.\n" },
	{ "password",
	  "\"password OLD NEW\" changes your password from OLD to NEW (also\n"
	  "\"passwd\"); if OLD is wrong nothing changes.  Registered players only.\n"
	  "NEW is 4 to 64 printable characters; it is stored salted and hashed,\n"
	  "and it is not shown back.  Your session stays; the next login needs NEW.\n" },
	{ "banaddress",
	  "\"banaddress 192.0.2.0/24\" (or one address, or an IPv6 range) refuses\n"
	  "connections from the range and ends the sessions of players online from\n"
	  "it; \"unbanaddress RANGE\" lifts it; \"banaddress\" lists the bans, with\n"
	  "those of the configuration (ban_addresses), which only the file lifts.\n" },
};

const struct help_topic *help_find(const char *name)
{
	for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++)
		if (!strcasecmp(topics[i].name, name))
			return &topics[i];
	return NULL;
}
