// A user header with dialect code: dependency files name it, never its
// lowered copy.
#pragma once
#include <amp.h>
inline int scaled(int x) restrict(amp, cpu) { return 3 * x + USER_OFFSET; }
