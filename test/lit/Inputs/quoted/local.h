#pragma once
// A header next to the source, included with quotes.
constexpr int kTile = 16;
