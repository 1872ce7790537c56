/* core.pml: the zoneproof core rule set (core.toml) as a Promela model for SPIN.
 *
 * The same transition system as zoneproof's interpreter and encoder, restricted to the 13 actions
 * draw, discard, mill, cast, resolve, counter, destroy, exile, return_to_hand, put_into_library,
 * shuffle, gain_control, put_onto_battlefield, over 2 players x C deck cards each (no sideboard,
 * no token slots: zoneproof --sideboard 0 --tokens 0).
 *
 * Simplification made identically on both sides: every card is a creature (zoneproof leaves types
 * open; its side uses core.zp's owner-zones-creature / ordered-zones-creature, which assume every
 * card is a creature). So every card can be cast, every resolving spell enters the battlefield,
 * and 400.4a never stops a put_onto_battlefield.
 *
 * State per card (slot c = 0..N-1; c / C is its owner; A1 = slot 0 starts on top of A's library):
 *   zone, whose (the player whose library/hand/graveyard it is in; the owner elsewhere),
 *   ctrl (controller on the battlefield/stack; the owner elsewhere),
 *   pos (from the bottom of library/graveyard/stack; 0 elsewhere), gen (identity; 400.7 +1).
 * zoneproof's other fields (face_down, counters, tapped, attached, effect, revealed) never change
 * in this core and are left out.  step counts actions: runs of length <= DEPTH.
 *
 * Compile-time parameters (spin -DNAME=value -a core.pml):
 *   C      deck cards per player (default 2)      DEPTH  bound on actions (default 4)
 *   PROP   1 = owner-zones (always), 2 = ordered-zones (step)   (default 1)
 *   R400_3 0 removes 400.3 (owner redirect)       R404_1 0 removes 404.1 (graveyard top)
 *   R400_5 0 removes 400.5 and adds the reorder action (any ordered zone rearranged)
 *   R405_2 0 removes 405.2 (a cast may put the spell at any place n in the stack)
 */

#ifndef C
#define C 2
#endif
#ifndef DEPTH
#define DEPTH 4
#endif
#ifndef PROP
#define PROP 1
#endif
#ifndef R400_3
#define R400_3 1
#endif
#ifndef R404_1
#define R404_1 1
#endif
#ifndef R400_5
#define R400_5 1
#endif
#ifndef R405_2
#define R405_2 1
#endif

#define NP 2
#define N (NP * C)
#define MAXN (N + 1)          /* zoneproof: 0 <= action.n <= len(slots) + 1 */

#define LIB 0
#define HAND 1
#define GRAVE 2
#define BF 3
#define STACK 4
#define EXILE 5
#define CMD 6                 /* the command zone: no action of the core puts anything there */

/* action kinds, for the step property */
#define K_DRAW 1
#define K_DISCARD 2
#define K_MILL 3
#define K_CAST 4
#define K_RESOLVE 5
#define K_COUNTER 6
#define K_DESTROY 7
#define K_EXILE 8
#define K_RETURN 9
#define K_PUTLIB 10
#define K_SHUFFLE 11
#define K_GAIN 12
#define K_PUTBF 13
#define K_REORDER 14

#define owner(c) ((c) / C)
#define personal(z) ((z) <= GRAVE)
#define ordered(z) ((z) == LIB || (z) == GRAVE || (z) == STACK)
/* card h_i is in the pile (zone z of player w; the stack is shared) */
#define inpile(h_i, z, w) (zone[h_i] == (z) && ((z) == STACK || whose[h_i] == (w)))

byte zone[N];
byte whose[N];
byte ctrl[N];
byte pos[N];
byte gen[N];
byte step;

/* The chosen parameters of the step being taken. They live in the state vector (choices are
 * backtracked) but are reset to 0 when the step ends, so stored states never differ in them. */
byte sc, sp, sn, sz, si, sj, sk, sw;
byte at[N];                   /* a shuffle's pile, bottom first, being permuted */

/* Scratch values written and read inside one d_step only: not part of the state. */
hidden byte h_i, h_j, h_k, h_cnt, h_dw, h_np, h_ok;
hidden byte a_kind, a_card, a_player, a_n;
hidden byte oz[N], ow[N], opos[N];

/* ------------------------------------------------------------------ helpers */

inline pilesize(z, w) {       /* h_cnt = number of cards in the pile (z, w) */
  h_cnt = 0; h_i = 0;
  do
  :: h_i < N -> if :: inpile(h_i, z, w) -> h_cnt++ :: else -> skip fi; h_i++
  :: else -> break
  od
}

inline save() {               /* the state before the step, for the step property */
  h_i = 0;
  do
  :: h_i < N -> oz[h_i] = zone[h_i]; ow[h_i] = whose[h_i]; opos[h_i] = pos[h_i]; h_i++
  :: else -> break
  od
}

/* Where a newcomer to the pile (z, h_dw) goes (size h_cnt without it): sets h_np and h_ok (0: not
 * possible).  Library: n = 0 bottom, n > size bottom (401.7), else n-th from the top.
 * Graveyard: on top (404.1), or at n without 404.1.  Stack: on top (405.2), or at n without it. */
inline insertion(z, n) {
  h_ok = 1;
  if
  :: z == LIB ->
       if :: (n == 0 || n > h_cnt) -> h_np = 0 :: else -> h_np = h_cnt + 1 - n fi
  :: z == GRAVE ->
#if R404_1
       h_np = h_cnt
#else
       if :: n <= h_cnt + 1 -> if :: n == 0 -> h_np = 0 :: else -> h_np = h_cnt + 1 - n fi
          :: else -> h_ok = 0 fi
#endif
  :: z == STACK ->
#if R405_2
       h_np = h_cnt
#else
       if :: n <= h_cnt + 1 -> if :: n == 0 -> h_np = 0 :: else -> h_np = h_cnt + 1 - n fi
          :: else -> h_ok = 0 fi
#endif
  :: else -> h_np = 0
  fi
}

/* Move card c to zone z of the named player (a personal zone; 400.3 sends it to its owner's
 * instead), with controller nc on the battlefield or stack, at position n where the zone uses it
 * (see insertion).  The caller has checked the move is possible (movable). */
inline move(c, z, named, nc, n) {
  if
  :: personal(z) ->
#if R400_3
       h_dw = owner(c)
#else
       h_dw = named
#endif
  :: else -> h_dw = owner(c)
  fi;
  /* leave the old pile: the cards above close the gap */
  if
  :: ordered(zone[c]) ->
       h_i = 0;
       do
       :: h_i < N -> if :: (h_i != c && inpile(h_i, zone[c], whose[c]) && pos[h_i] > pos[c]) -> pos[h_i]-- :: else -> skip fi; h_i++
       :: else -> break
       od
  :: else -> skip
  fi;
  /* enter the new pile: the cards at or above the newcomer's place move up */
  h_np = 0;
  if
  :: ordered(z) ->
       pilesize(z, h_dw); insertion(z, n);
       h_j = 0;
       do
       :: h_j < N -> if :: (h_j != c && inpile(h_j, z, h_dw) && pos[h_j] >= h_np) -> pos[h_j]++ :: else -> skip fi; h_j++
       :: else -> break
       od
  :: else -> skip
  fi;
  zone[c] = z; whose[c] = h_dw; pos[c] = h_np;
  if :: (z == BF || z == STACK) -> ctrl[c] = nc :: else -> ctrl[c] = owner(c) fi;
  gen[c]++                    /* 400.7: a new object */
}

/* h_ok = 1 when move(c, z, named, _, n) is possible: only the graveyard without 404.1 and the
 * stack without 405.2 refuse a place (n past the bottom).  No move of the core goes to the pile a
 * card is already in. */
inline movable(c, z, named, n) {
  h_ok = 1;
  if
  :: z == GRAVE ->
#if !R404_1
#if R400_3
       h_dw = owner(c);
#else
       h_dw = named;
#endif
       pilesize(GRAVE, h_dw); insertion(GRAVE, n)
#else
       skip
#endif
  :: z == STACK ->
#if !R405_2
       pilesize(STACK, 0); insertion(STACK, n)
#else
       skip
#endif
  :: else -> skip
  fi
}

/* ------------------------------------------------------------------ properties */

inline owner_zones() {        /* always: a card in a library, hand or graveyard is in its owner's */
  h_i = 0;
  do
  :: h_i < N -> assert(!personal(zone[h_i]) || whose[h_i] == owner(h_i)); h_i++
  :: else -> break
  od
}

/* step (ordered-zones of properties/stock.zp): objects staying in a library, graveyard or the stack
 * keep their relative order unless their library is shuffled; a newcomer to a graveyard or the
 * stack is on top; put_into_library places the card where n says. */
inline ordered_zones() {
  h_i = 0;
  do
  :: h_i < N ->
     h_j = 0;
     do
     :: h_j < N ->
        /* part 1: pairs staying in one pile keep their order */
        assert(!(ordered(oz[h_i]) && oz[h_j] == oz[h_i] && (oz[h_i] == STACK || ow[h_j] == ow[h_i])
                 && zone[h_i] == oz[h_i] && whose[h_i] == ow[h_i] && zone[h_j] == oz[h_j] && whose[h_j] == ow[h_j]
                 && opos[h_i] < opos[h_j]
                 && !(oz[h_i] == LIB && a_kind == K_SHUFFLE && ow[h_i] == a_player))
               || pos[h_i] < pos[h_j]);
        /* part 2: a newcomer to a graveyard is above every other card there */
        assert(!(h_i != h_j && zone[h_i] == GRAVE && zone[h_j] == GRAVE && whose[h_j] == whose[h_i]
                 && !(oz[h_i] == GRAVE && ow[h_i] == whose[h_i]))
               || pos[h_j] < pos[h_i]);
        /* part 3: a newcomer to the stack is above every other object there */
        assert(!(h_i != h_j && zone[h_i] == STACK && oz[h_i] != STACK && zone[h_j] == STACK) || pos[h_j] < pos[h_i]);
        h_j++
     :: else -> break
     od;
     h_i++
  :: else -> break
  od;
  /* part 4: put_into_library puts the card at the bottom (n = 0), n-th from the top, or at the
   * bottom of a library with fewer than n cards */
  if
  :: a_kind == K_PUTLIB && zone[a_card] == LIB ->
       pilesize(LIB, whose[a_card]);      /* size after the step */
       assert(a_n != 0 || pos[a_card] == 0);
       assert(!(a_n >= 1 && a_n <= h_cnt) || pos[a_card] == h_cnt - a_n);
       assert(!(a_n > h_cnt) || pos[a_card] == 0)
  :: else -> skip
  fi
}

inline check() {
#if PROP == 1
  owner_zones()
#else
  ordered_zones()
#endif
}

/* Every step: record the action, apply it, check the property, count the step, and reset the
 * chosen parameters.  `g` is the step's enabling condition. */
#define BEGIN(kind, card, player, n) a_kind = kind; a_card = card; a_player = player; a_n = n; save()
#define END  check(); step++
#define RESET h_i = 0; do :: h_i < N -> at[h_i] = 0; h_i++ :: else -> break od; \
  sc = 0; sp = 0; sn = 0; sz = 0; si = 0; sj = 0; sk = 0; sw = 0

/* the top card of player p's library, in h_k (N when the library is empty) */
inline top(p) {
  h_k = N;
  pilesize(LIB, p);
  if
  :: h_cnt > 0 ->
       h_i = 0;
       do
       :: h_i < N -> if :: (zone[h_i] == LIB && whose[h_i] == p && pos[h_i] == h_cnt - 1) -> h_k = h_i :: else -> skip fi; h_i++
       :: else -> break
       od
  :: else -> skip
  fi
}

/* a shuffle or rearrangement: at[0..sk-1] is the pile (z, w) bottom first; every permutation of it
 * is chosen (Fisher-Yates, one choice per position), then written back as positions */
inline collect(z, w) {
  pilesize(z, w); sk = h_cnt;
  h_i = 0;
  do
  :: h_i < N -> if :: inpile(h_i, z, w) -> at[pos[h_i]] = h_i :: else -> skip fi; h_i++
  :: else -> break
  od
}

inline permute() {
  if :: sk > 1 -> si = sk - 1 :: else -> si = 0 fi;
  do
  :: si >= 1 -> select(sj : 0 .. si); sw = at[si]; at[si] = at[sj]; at[sj] = sw; si--
  :: else -> break
  od
}

inline writeback() {
  h_i = 0;
  do
  :: h_i < sk -> pos[at[h_i]] = h_i; h_i++
  :: else -> break
  od
}

active proctype game()
{
  d_step {
    /* the start of a game: each player's cards in their own library, A1 (slot 0) on top */
    h_i = 0;
    do
    :: h_i < N -> zone[h_i] = LIB; whose[h_i] = owner(h_i); ctrl[h_i] = owner(h_i); pos[h_i] = C - 1 - (h_i % C); gen[h_i] = 0; h_i++
    :: else -> break
    od;
    a_kind = 0;
#if PROP == 1
    owner_zones();
#endif
    skip
  };
end:
  do
  /* draw, mill: the top card of player sp's library to sp's hand / graveyard */
  :: atomic { step < DEPTH -> select(sp : 0 .. NP - 1);
       d_step {
         top(sp);
         if :: h_k < N -> BEGIN(K_DRAW, h_k, sp, 0); move(h_k, HAND, sp, 0, 0); END :: else -> skip fi;
         RESET } }
  :: atomic { step < DEPTH -> select(sp : 0 .. NP - 1);
#if !R404_1
       select(sn : 0 .. MAXN);
#endif
       d_step {
         top(sp);
         if :: h_k < N -> movable(h_k, GRAVE, sp, sn) :: else -> h_ok = 0 fi;
         if :: (h_k < N && h_ok) -> BEGIN(K_MILL, h_k, sp, sn); move(h_k, GRAVE, sp, 0, sn); END :: else -> skip fi;
         RESET } }
  /* discard: a card in a hand to that hand's player's graveyard */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1);
#if !R404_1
       select(sn : 0 .. MAXN);
#endif
       d_step {
         if :: zone[sc] == HAND -> movable(sc, GRAVE, whose[sc], sn) :: else -> h_ok = 0 fi;
         if :: h_ok -> BEGIN(K_DISCARD, sc, 0, sn); move(sc, GRAVE, whose[sc], 0, sn); END :: else -> skip fi;
         RESET } }
  /* cast: a card in player sp's hand onto the stack, under sp's control (on top, 405.2) */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1); select(sp : 0 .. NP - 1);
#if !R405_2
       select(sn : 0 .. MAXN);
#endif
       d_step {
         if :: (zone[sc] == HAND && whose[sc] == sp) -> movable(sc, STACK, sp, sn) :: else -> h_ok = 0 fi;
         if :: h_ok -> BEGIN(K_CAST, sc, sp, sn); move(sc, STACK, sp, sp, sn); END :: else -> skip fi;
         RESET } }
  /* resolve: the top of the stack (405.5) enters the battlefield under its controller */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1);
       d_step {
         pilesize(STACK, 0);
         if :: (zone[sc] == STACK && pos[sc] == h_cnt - 1) -> BEGIN(K_RESOLVE, sc, 0, 0); move(sc, BF, ctrl[sc], ctrl[sc], 0); END :: else -> skip fi;
         RESET } }
  /* counter: any spell to its controller's graveyard */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1);
#if !R404_1
       select(sn : 0 .. MAXN);
#endif
       d_step {
         if :: zone[sc] == STACK -> movable(sc, GRAVE, ctrl[sc], sn) :: else -> h_ok = 0 fi;
         if :: h_ok -> BEGIN(K_COUNTER, sc, 0, sn); move(sc, GRAVE, ctrl[sc], 0, sn); END :: else -> skip fi;
         RESET } }
  /* destroy: a permanent to its controller's graveyard */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1);
#if !R404_1
       select(sn : 0 .. MAXN);
#endif
       d_step {
         if :: zone[sc] == BF -> movable(sc, GRAVE, ctrl[sc], sn) :: else -> h_ok = 0 fi;
         if :: h_ok -> BEGIN(K_DESTROY, sc, 0, sn); move(sc, GRAVE, ctrl[sc], 0, sn); END :: else -> skip fi;
         RESET } }
  /* exile: from any zone; an object already in exile becomes a new object there (400.8) */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1);
       d_step {
         BEGIN(K_EXILE, sc, 0, 0);
         if :: zone[sc] == EXILE -> gen[sc]++ :: else -> move(sc, EXILE, owner(sc), 0, 0) fi;
         END; RESET } }
  /* return_to_hand: from the battlefield, stack, graveyard, exile or command zone to its
   * controller's hand (the controller is the owner outside the battlefield and stack) */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1);
       d_step {
         if :: (zone[sc] != LIB && zone[sc] != HAND) -> BEGIN(K_RETURN, sc, 0, 0); move(sc, HAND, ctrl[sc], 0, 0); END :: else -> skip fi;
         RESET } }
  /* put_into_library: from anywhere but a library into player sp's library, n-th from the top
   * (n = 0: the bottom) */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1); select(sp : 0 .. NP - 1); select(sn : 0 .. MAXN);
       d_step {
         if :: zone[sc] != LIB -> BEGIN(K_PUTLIB, sc, sp, sn); move(sc, LIB, sp, 0, sn); END :: else -> skip fi;
         RESET } }
  /* shuffle: player sp's library takes any order */
  :: atomic { step < DEPTH -> select(sp : 0 .. NP - 1); skip;
       d_step { collect(LIB, sp) }; skip;
       permute(); skip;
       d_step { BEGIN(K_SHUFFLE, N, sp, 0); writeback(); END; RESET } }
  /* gain_control: player sp gains control of a permanent or spell sp does not control */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1); select(sp : 0 .. NP - 1);
       d_step {
         if :: ((zone[sc] == BF || zone[sc] == STACK) && ctrl[sc] != sp) -> BEGIN(K_GAIN, sc, sp, 0); ctrl[sc] = sp; END :: else -> skip fi;
         RESET } }
  /* put_onto_battlefield: from a hand, library, graveyard, exile or the command zone onto the
   * battlefield under player sp's control */
  :: atomic { step < DEPTH -> select(sc : 0 .. N - 1); select(sp : 0 .. NP - 1);
       d_step {
         if :: (zone[sc] != BF && zone[sc] != STACK) -> BEGIN(K_PUTBF, sc, sp, 0); move(sc, BF, sp, sp, 0); END :: else -> skip fi;
         RESET } }
#if !R400_5
  /* reorder (only without 400.5): a library or graveyard of player sp, or the stack (sz = 1),
   * rearranged in any order */
  :: atomic { step < DEPTH -> select(sz : 0 .. 2); select(sp : 0 .. NP - 1);
       if :: sz == 1 -> sz = STACK :: sz == 2 -> sz = GRAVE :: else -> sz = LIB fi; skip;
       d_step { collect(sz, sp) }; skip;
       permute(); skip;
       d_step { BEGIN(K_REORDER, N, sp, 0); writeback(); END; RESET } }
#endif
  od
}
