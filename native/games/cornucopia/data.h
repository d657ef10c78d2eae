// Cornucopia: the components (spec §2) and scoring tables (spec §6), as data; the same
// tables as boardgame_envs/cornucopia/data.py, in the same index conventions:
//   crop type 0 = W (wild), 1 = C, 2 = P, 3 = T, 4 = E, 5 = G;
//   baskets B0..B3 Mixed/Same, B4 the Same basket (starts with W*);
//   bid numbers 1..6, per-number arrays indexed number - 1; chips (yellow, blue, red).
#pragma once

#include <cstdint>

namespace bge::cornucopia {

// -- crop cards (§2.1) ----------------------------------------------------------------------
constexpr int kWild = 0;
constexpr int kNumTypes = 6;
constexpr int kCopiesPerType = 11;
constexpr int kNumCropCards = kNumTypes * kCopiesPerType;  // 66, W* included
constexpr int kNumCirculating = kNumCropCards - 1;         // 65
constexpr char kCropLetters[kNumTypes] = {'W', 'C', 'P', 'T', 'E', 'G'};

// -- baskets (§2.2) -------------------------------------------------------------------------
constexpr int kNumBaskets = 5;
constexpr int kSameBasket = 4;
constexpr int kBasketCapacity = 5;
constexpr int kSownSize = 2;
constexpr int kSeedingOrder[9] = {0, 1, 2, 3, 0, 1, 2, 3, 4};

// -- completion types (§2.7) and basket statuses --------------------------------------------
constexpr int kDifferent = 0;
constexpr int kSame = 1;
constexpr int kAmbiguous = 2;  // a status only, never a completion type
constexpr const char* kCompletionNames[2] = {"DIFFERENT", "SAME"};

// -- bid cards (§2.3) -----------------------------------------------------------------------
constexpr int kNumBidNumbers = 6;
constexpr int kBidCopies[kNumBidNumbers] = {4, 4, 5, 5, 6, 6};

// STAND-IN (spec §2.3), as data.py's BID_REWARDS: [number - 1][DIFFERENT or SAME] =
// (yellow, blue, red); DIFFERENT = 7 - N and SAME = 10 - N yellow.
constexpr int kBidRewards[kNumBidNumbers][2][3] = {
    {{6, 0, 0}, {9, 0, 0}}, {{5, 0, 0}, {8, 0, 0}}, {{4, 0, 0}, {7, 0, 0}},
    {{3, 0, 0}, {6, 0, 0}}, {{2, 0, 0}, {5, 0, 0}}, {{1, 0, 0}, {4, 0, 0}},
};

// -- chips (§2.6, §3, §4.6) -----------------------------------------------------------------
constexpr int kYellow = 0;
constexpr int kBlue = 1;
constexpr int kRed = 2;
constexpr int kStartChips[3] = {0, 3, 2};
constexpr int kBluePerYellow = 3;
constexpr int kSameCommitBonus = 1;
constexpr int kMaxStake = 3;  // stakes are 1, 2, 3 blue
constexpr int kMaxRedDeclared = 3;

// -- final scoring (§6.3, §6.4) -------------------------------------------------------------
constexpr int kRedSoleFirst = 6;
constexpr int kRedSoleSecond = 3;
constexpr int kRedTiedSecond = 2;
constexpr int kRedTiedFirst = 4;
// Points of one same-number combination by its size (2, 3, 4 cards), and of one run by its
// length (3, 4, 5); 0 where none.
constexpr int kSetPoints[5] = {0, 0, 3, 4, 5};
constexpr int kRunPoints[6] = {0, 0, 0, 3, 4, 5};

// -- bound on a game's length (§6.1) --------------------------------------------------------
constexpr int kDeckAfterSetup = kNumCirculating - 9;         // 56
constexpr int kMaxTurns = kDeckAfterSetup + kNumCirculating;  // 121

constexpr int kMinPlayers = 2;
constexpr int kMaxPlayers = 5;

}  // namespace bge::cornucopia
