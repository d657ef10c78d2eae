// The components of Wasabi! as tables (spec §2), mirroring boardgame_envs/wasabi/data.py
// line by line. Index conventions (the same as the Python engine's):
//
//   ingredient kind k = 0..16 in the order of spec §2.2 (Rice = 0 ... Lobster = 16);
//   recipe id r = 0..51 in the order of spec §2.3 (R2-01 = 0 ... R5-10 = 51);
//   recipe length L = 2..5; per-length arrays are indexed L - 2;
//   action-card type t = 0 Stack!, 1 Spicy!, 2 Switch!, 3 Chop!, 4 Wasabi!;
//   board cell r * 7 + c on the 6 x 7 grid, row 0 at the top.
//
// Much of this is STAND-IN data (spec §2.8), as in data.py: change both together.
#pragma once

#include <cstdint>

namespace bge::wasabi {

// -- board (spec §2.1) ----------------------------------------------------------------------
constexpr int ROWS = 6;
constexpr int GRID_COLUMNS = 7;
constexpr int NUM_CELLS = ROWS * GRID_COLUMNS;
// Active columns by player count (index n).
constexpr int ACTIVE_COLUMNS[5] = {0, 0, 5, 6, 7};
constexpr int DEFAULT_MAX_TURNS = 250;
constexpr int MAX_TURNS_LIMIT = 1000000;

// -- hand limits (spec §1, §4.6) --------------------------------------------------------------
constexpr int TILE_HAND_LIMIT = 3;
constexpr int MENU_SLOTS = 3;
constexpr int CARD_HAND_LIMIT = 2;
constexpr int GIFT_SIZE = 3;
constexpr int DRAFT_SIZE = 3;
constexpr int RECIPES_TO_WIN = 10;
constexpr int MIN_PLAYERS = 2;
constexpr int MAX_PLAYERS = 4;

// -- ingredient tiles (spec §2.2; STAND-IN kinds and counts) ------------------------------------
constexpr int NUM_KINDS = 17;
constexpr int MAKI = 1;
constexpr int TILE_COUNTS[NUM_KINDS] = {10, 8, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 2};
// May be chosen for the setup gift (spec §3.2): not Rice, not the Unique kinds.
constexpr bool GIFTABLE[NUM_KINDS] = {false, true, true, true, true, true, true, true, true,
                                      true,  true, true, true, true, false, false, false};
constexpr int NUM_TILES = 72;

// -- recipe strips (spec §2.3; STAND-IN contents) ----------------------------------------------
constexpr int NUM_RECIPES = 52;
constexpr int NUM_LENGTHS = 4;  // 2, 3, 4, 5
constexpr int MAX_RECIPE_LENGTH = 5;

struct Recipe {
    int length;
    int kinds[MAX_RECIPE_LENGTH];  // in the ideal (printed) order; -1 past the length
};

constexpr Recipe RECIPES[NUM_RECIPES] = {
    {2, {2, 0, -1, -1, -1}},       // R2-01 Salmon Nigiri
    {2, {3, 0, -1, -1, -1}},       // R2-02 Tuna Nigiri
    {2, {4, 0, -1, -1, -1}},       // R2-03 Snapper Nigiri
    {2, {5, 0, -1, -1, -1}},       // R2-04 Unagi Nigiri
    {2, {6, 0, -1, -1, -1}},       // R2-05 Ebi Nigiri
    {2, {7, 0, -1, -1, -1}},       // R2-06 Ika Nigiri
    {2, {0, 9, -1, -1, -1}},       // R2-07 Ikura Gunkan
    {2, {1, 11, -1, -1, -1}},      // R2-08 Kappa Maki
    {2, {1, 3, -1, -1, -1}},       // R2-09 Tekka Maki
    {2, {1, 10, -1, -1, -1}},      // R2-10 Avocado Maki
    {2, {1, 8, -1, -1, -1}},       // R2-11 Kani Maki
    {2, {1, 13, -1, -1, -1}},      // R2-12 Oshinko Maki
    {2, {1, 2, -1, -1, -1}},       // R2-13 Sake Maki
    {2, {1, 12, -1, -1, -1}},      // R2-14 Carrot Maki
    {2, {8, 11, -1, -1, -1}},      // R2-15 Crab Salad
    {2, {3, 10, -1, -1, -1}},      // R2-16 Tuna Tartare
    {3, {11, 7, 0, -1, -1}},       // R3-01 Squid Salad Sandwich
    {3, {1, 4, 12, -1, -1}},       // R3-02 Snapper Crunch
    {3, {0, 14, 13, -1, -1}},      // R3-03 Poison Pill
    {3, {1, 8, 10, -1, -1}},       // R3-04 California Roll
    {3, {1, 3, 11, -1, -1}},       // R3-05 Spicy Tuna Roll
    {3, {1, 5, 10, -1, -1}},       // R3-06 Eel Avocado Roll
    {3, {1, 6, 12, -1, -1}},       // R3-07 Shrimp Tempura Roll
    {3, {0, 9, 6, -1, -1}},        // R3-08 Ebi Ikura Boat
    {3, {15, 9, 13, -1, -1}},      // R3-09 Uni Spoon
    {3, {2, 3, 13, -1, -1}},       // R3-10 Sashimi Pair
    {3, {8, 12, 0, -1, -1}},       // R3-11 Crab Cake Bite
    {3, {0, 5, 11, -1, -1}},       // R3-12 Unadon
    {3, {1, 16, 10, -1, -1}},      // R3-13 Lobster Roll
    {3, {7, 6, 12, -1, -1}},       // R3-14 Seafood Skewer
    {4, {1, 5, 10, 11, -1}},       // R4-01 Dragon Roll
    {4, {1, 3, 2, 10, -1}},        // R4-02 Rainbow Roll
    {4, {1, 8, 11, 9, -1}},        // R4-03 Spider Roll
    {4, {1, 6, 12, 13, -1}},       // R4-04 Dynamite Roll
    {4, {0, 2, 3, 9, -1}},         // R4-05 Chirashi Bowl
    {4, {3, 2, 4, 13, -1}},        // R4-06 Sashimi Trio
    {4, {7, 6, 8, 11, -1}},        // R4-07 Seafood Salad
    {4, {14, 4, 13, 12, -1}},      // R4-08 Fugu Sashimi
    {4, {0, 15, 7, 9, -1}},        // R4-09 Uni Donburi
    {4, {16, 6, 9, 0, -1}},        // R4-10 Lobster Tempura
    {4, {1, 10, 12, 13, -1}},      // R4-11 Garden Roll
    {4, {0, 4, 5, 11, -1}},        // R4-12 Snapper Don
    {5, {0, 3, 6, 7, 5}},          // R5-01 Ocean Platter
    {5, {1, 2, 10, 7, 9}},         // R5-02 Sunset Roll
    {5, {0, 4, 5, 8, 13}},         // R5-03 Master's Plate
    {5, {14, 0, 2, 5, 9}},         // R5-04 Emperor's Fugu
    {5, {1, 15, 8, 10, 7}},        // R5-05 Uni Supreme
    {5, {16, 0, 3, 4, 13}},        // R5-06 Lobster Feast
    {5, {1, 4, 5, 12, 11}},        // R5-07 Festival Roll
    {5, {0, 6, 8, 9, 2}},          // R5-08 Seafood Boat
    {5, {2, 7, 4, 5, 12}},         // R5-09 Harbor Mix
    {5, {1, 4, 6, 7, 8}},          // R5-10 Chef's Roll
};

// The decks by length (index L - 2): recipe ids first .. first + size - 1, in table order.
constexpr int DECK_FIRST[NUM_LENGTHS] = {0, 16, 30, 42};
constexpr int DECK_SIZE[NUM_LENGTHS] = {16, 14, 12, 10};
constexpr int MAX_DECK = 16;

// -- challenge tokens (spec §2.4), by length 2..5 (index L - 2) ---------------------------------
constexpr int TOKENS_PER_PLAYER[NUM_LENGTHS] = {4, 3, 2, 1};
constexpr int TOKEN_POINTS[NUM_LENGTHS] = {2, 3, 4, 5};  // probable: points = length
constexpr int TOKEN_CUBES[NUM_LENGTHS] = {1, 2, 3, 4};   // STAND-IN: length - 1
constexpr int MAX_COMPLETED = 10;                         // the sum of TOKENS_PER_PLAYER
constexpr int MAX_STYLE_CUBES = 20;                       // every token on an ideal dish

// -- action cards (spec §2.5) ------------------------------------------------------------------
constexpr int NUM_CARD_TYPES = 5;
constexpr int STACK = 0, SPICY = 1, SWITCH = 2, CHOP = 3, WASABI = 4;
// Cards of each type in play, by player count (index n).
constexpr int CARDS_IN_PLAY[5][NUM_CARD_TYPES] = {
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}, {1, 2, 1, 1, 2}, {2, 2, 2, 2, 2}};

}  // namespace bge::wasabi
