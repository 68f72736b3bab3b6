// Includes scaling.h from an -isystem directory (see ../user-headers.test).
#include <amp.h>
#include <scaling.h>
int main() { return line_here() == 9 ? 0 : 1; }
